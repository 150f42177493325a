/**
 * The scan stage: a root folder → the source files to parse.
 *
 * @example
 * import { scanFiles } from "./scan/index.js";
 * const { files, diagnostics } = await scanFiles("/repo", { exclude: ["**\/*.test.ts"] });
 */
export { rescanFiles, resolveScanRoot, scanFiles, type ScanHints } from "./scan-files.js";
export { RACY_MS, type FolderSnapshot } from "./folder-snapshot.js";
export { statAhead, statsAheadFor, STAT_AHEAD_MIN_PATHS, type StatsAheadRun } from "./stat-ahead.js";
