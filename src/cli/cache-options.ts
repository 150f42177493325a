import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { defaultCacheDir, type BuildGraphOptions } from "../index.js";
import type { CliIo, CliValues } from "./run-cli.js";
import { createProgressBar } from "./progress-bar.js";

/**
 * The index folder for a root: --cache-dir, else the user cache folder
 * (`$XDG_CACHE_HOME` or ~/.cache, ~/Library/Caches, %LOCALAPPDATA%) +
 * graph-retrieve/<root hash>; undefined with --no-cache.
 */
export function cacheDirOption(values: CliValues, io: CliIo, rootArg: string): string | undefined {
  if (values["no-cache"]) return undefined;
  if (values["cache-dir"] !== undefined) return resolve(io.cwd, values["cache-dir"]);
  let realRoot: string;
  try {
    realRoot = realpathSync(resolve(io.cwd, rootArg));
  } catch {
    return undefined; // the scan reports the missing root
  }
  return defaultCacheDir(realRoot, { platform: process.platform, env: io.env ?? process.env, homedir: homedir() });
}

/** The graph options every command shares: the index folder and a progress bar on a terminal. */
export function graphCacheOptions(values: CliValues, io: CliIo, rootArg: string): { options: Pick<BuildGraphOptions, "cacheDir" | "onProgress">; finish: () => void } {
  const bar = createProgressBar(io);
  return { options: { cacheDir: cacheDirOption(values, io, rootArg), onProgress: bar.update }, finish: bar.finish };
}
