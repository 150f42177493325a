/**
 * The scan stage: a root folder → the source files to parse.
 *
 * @example
 * import { scanFiles } from "./scan/index.js";
 * const { files, diagnostics } = await scanFiles("/repo", { exclude: ["**\/*.test.ts"] });
 */
export { DEFAULT_MAX_FILE_BYTES, rescanFiles, resolveScanRoot, scanFiles, type ScanHints } from "./scan-files.js";
export {
  EXCLUDED_DIR_NAMES,
  EXCLUDED_FILE_PATTERNS,
  GENERATED_MARKERS,
  isExcludedDirName,
  isExcludedFileName,
  looksLikeBuildOutput,
  OUTPUT_DIR_NAMES,
} from "./default-excludes.js";
export { formatBytes } from "./skip-diagnostics.js";
export type { Diagnostic, ScannedFile, ScanOptions, ScanResult } from "../types.js";
