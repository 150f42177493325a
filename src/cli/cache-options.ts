import { realpathSync } from "node:fs";
import { resolve } from "node:path";
// not through src/index.ts: the daemon client finds the daemon's socket with it before any library code loads
import { defaultCacheDir } from "../store/cache-dir.js";
import { os } from "../util/builtins.js";
import type { CliValues } from "./options.js";
import type { CliIo } from "./cli-io.js";

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
