import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import type { BuildGraphOptions } from "../index.js";
// not through src/index.ts: the daemon client finds the daemon's socket with it before any library code loads
import { defaultCacheDir } from "../store/cache-dir.js";
import { os } from "../util/builtins.js";
import type { CliValues } from "./options.js";
import type { CliIo } from "./cli-io.js";
import { createProgressBar } from "./progress-bar.js";

/**
 * The index folder for a root: --cache-dir, else the user cache folder
 * (`$XDG_CACHE_HOME` or ~/.cache, ~/Library/Caches, %LOCALAPPDATA%) +
 * graph-retrieve/<root hash>; undefined with --no-cache.
 */
export function cacheDirOption(values: CliValues, io: Pick<CliIo, "cwd" | "env">, rootArg: string): string | undefined {
  if (values["no-cache"]) return undefined;
  if (values["cache-dir"] !== undefined) return resolve(io.cwd, values["cache-dir"]);
  let realRoot: string;
  try {
    realRoot = realpathSync(resolve(io.cwd, rootArg));
  } catch {
    return undefined; // the scan reports the missing root
  }
  return defaultCacheDir(realRoot, { platform: process.platform, env: io.env ?? process.env, homedir: os().homedir() });
}

/** The graph options every command shares: the index folder (and its memory, in the daemon) and a progress bar on a terminal (none with --quiet). */
export function graphCacheOptions(
  values: CliValues,
  io: CliIo,
  rootArg: string,
): { options: Pick<BuildGraphOptions, "cacheDir" | "onProgress" | "memory">; finish: () => void } {
  const bar = createProgressBar(values.quiet ? { ...io, progress: undefined } : io);
  const cacheDir = cacheDirOption(values, io, rootArg);
  // in the daemon: the index in memory, for its own folder (with --no-cache there is none)
  const memory = cacheDir !== undefined ? io.memory : undefined;
  return { options: { cacheDir, onProgress: bar.update, ...(memory ? { memory } : {}) }, finish: bar.finish };
}
