/**
 * The scan's diagnostics: one `skipped` line per file or folder left out for
 * a reason the user may want to know (size, binary content, a symlink out of
 * the root, permissions). Messages read `skipped: <what> (<how to fix>)` and
 * never name a path outside the root.
 *
 * @example
 * skippedTooLarge("src/big.ts", 3 * 1048576, 1048576).message
 * // "skipped: 3.0 MiB over the 1 MiB limit (raise --max-file-bytes to include it)"
 */
import type { Diagnostic } from "../types.js";

const KIB = 1024;
const MIB = 1024 * 1024;

/**
 * A byte count for people: "512 bytes", "12.5 KiB", "3.0 MiB". With `isLimit`,
 * a whole number drops its ".0" ("1 MiB").
 *
 * @example
 * formatBytes(3 * 1048576)      // "3.0 MiB"
 * formatBytes(1048576, true)    // "1 MiB"
 */
export function formatBytes(bytes: number, isLimit = false): string {
  const [value, unit] = bytes >= MIB ? [bytes / MIB, "MiB"] : bytes >= KIB ? [bytes / KIB, "KiB"] : [bytes, "bytes"];
  if (unit === "bytes") return `${bytes} bytes`;
  const text = isLimit && Number.isInteger(value) ? String(value) : value.toFixed(1);
  return `${text} ${unit}`;
}

/** @example skippedTooLarge("a.ts", 2048, 1024).message // "skipped: 2.0 KiB over the 1 KiB limit (raise --max-file-bytes to include it)" */
export function skippedTooLarge(path: string, size: number, maxFileBytes: number): Diagnostic {
  return skipped(path, `${formatBytes(size)} over the ${formatBytes(maxFileBytes, true)} limit (raise --max-file-bytes to include it)`);
}

/** @example skippedBinary("a.ts").message // "skipped: binary file (a NUL byte in its first 8 KiB; only text source is read)" */
export function skippedBinary(path: string): Diagnostic {
  return skipped(path, "binary file (a NUL byte in its first 8 KiB; only text source is read)");
}

/** @example skippedGenerated("a.ts", "@generated").message // 'skipped: generated file (its header says "@generated"; generated code is left out)' */
export function skippedGenerated(path: string, marker: string): Diagnostic {
  return skipped(path, `generated file (its header says "${marker}"; generated code is left out)`);
}

/** @example skippedSymlinkOutside("vendor").message // "skipped: symlink points outside the root (only files under the root are read)" */
export function skippedSymlinkOutside(path: string): Diagnostic {
  return skipped(path, "symlink points outside the root (only files under the root are read)");
}

/** @example skippedBrokenSymlink("a.ts", "ENOENT").message // "skipped: broken symlink (ENOENT: its target does not exist)" */
export function skippedBrokenSymlink(path: string, code: string | undefined): Diagnostic {
  const why = code === "ELOOP" ? "ELOOP: it points back to itself" : code === "ENOENT" || code === undefined ? "ENOENT: its target does not exist" : `${code}: its target cannot be resolved`;
  return skipped(path, `broken symlink (${why})`);
}

/** @example skippedUnreadable("a.ts", "file", "EACCES").message // "skipped: file cannot be read (EACCES; check its permissions)" */
export function skippedUnreadable(path: string, what: "file" | "folder", code: string | undefined): Diagnostic {
  return skipped(path, `${what} cannot be read (${code ?? "unknown error"}; ${howToFixRead(code)})`);
}

/**
 * Not a skipped source file: the walk goes on without that file's rules
 * (a .gitignore, or the repository's .git/info/exclude).
 *
 * @example unreadableGitignore("pkg/.gitignore", "EACCES").message
 * // "ignore rules not applied: .gitignore cannot be read (EACCES; check its permissions)"
 */
export function unreadableGitignore(path: string, code: string | undefined): Diagnostic {
  return {
    kind: "warning",
    path,
    message: `ignore rules not applied: ${path.endsWith(".gitignore") ? ".gitignore" : path} cannot be read (${code ?? "unknown error"}; ${howToFixRead(code)})`,
  };
}

function howToFixRead(code: string | undefined): string {
  return code === "EACCES" || code === "EPERM" ? "check its permissions" : "it may have changed during the scan";
}

function skipped(path: string, what: string): Diagnostic {
  return { kind: "skipped", path, message: `skipped: ${what}` };
}

/** The `code` of a Node.js fs error (EACCES, ENOENT…), if any. */
export function errorCodeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}
