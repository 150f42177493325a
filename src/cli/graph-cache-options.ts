/**
 * The graph options the commands that build share. Apart from
 * cache-options.ts, which the daemon client loads before any library code:
 * this asks the store whether an index is there.
 */
import { holdsIndex } from "../faces.js";
import type { BuildGraphOptions } from "../index.js";
import { cacheDirOption } from "./cache-options.js";
import type { CliIo } from "./cli-io.js";
import type { CliValues } from "./options.js";
import { createProgressBar } from "./progress-bar.js";

/** True when a build in `cacheDir` starts from nothing: no index written there yet, or none kept (--no-cache). */
function startsCold(cacheDir: string | undefined): boolean {
  return cacheDir === undefined || !holdsIndex(cacheDir);
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
  if (!io.memory && io.beforeColdBuild && startsCold(cacheDir)) io.beforeColdBuild();
  return { options: { cacheDir, onProgress: bar.update, ...(memory ? { memory } : {}) }, finish: bar.finish };
}
