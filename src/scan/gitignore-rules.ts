/**
 * .gitignore rules the way git applies them: each file speaks for its own
 * folder and everything under it, paths are matched relative to that folder,
 * and a deeper file overrides a shallower one (so a nested `!keep.ts` can
 * re-include what the root's `*.ts` left out). Matching is case-sensitive,
 * as git's is by default on Linux.
 *
 * @example
 * const levels = [createIgnoreLevel("", "*.log\n"), createIgnoreLevel("pkg", "!keep.log\n")];
 * isIgnored(levels, "pkg/a.log")     // true
 * isIgnored(levels, "pkg/keep.log")  // false
 * isIgnored(levels, "pkg/out", true) // false
 */
import ignore, { type Ignore } from "ignore";

/** The rules of one .gitignore file. */
export interface IgnoreLevel {
  /** Root-relative POSIX path of the folder holding the file ("" for the root). */
  base: string;
  rules: Ignore;
}

/**
 * Compile the text of the .gitignore file found in folder `base`.
 *
 * @example
 * createIgnoreLevel("src", "generated/\n!generated/keep.ts\n")
 */
export function createIgnoreLevel(base: string, text: string): IgnoreLevel {
  return { base, rules: ignore({ ignorecase: false }).add(text) };
}

/**
 * True when the rules of `levels` (root first, deepest last) leave `path` out.
 * `path` is root-relative POSIX; pass `isDir` for a folder, so that patterns
 * ending in "/" apply. The last level with an opinion decides.
 *
 * @example
 * isIgnored([createIgnoreLevel("", "build/\n")], "app/build", true) // true
 */
export function isIgnored(levels: readonly IgnoreLevel[], path: string, isDir = false): boolean {
  let ignored = false;
  for (const level of levels) {
    const local = relativeTo(level.base, path);
    if (local === undefined) continue;
    const result = level.rules.test(isDir ? `${local}/` : local);
    if (result.ignored) ignored = true;
    else if (result.unignored) ignored = false;
  }
  return ignored;
}

/** `path` relative to folder `base`, or undefined when it is not under it. */
function relativeTo(base: string, path: string): string | undefined {
  if (base === "") return path;
  return path.startsWith(`${base}/`) ? path.slice(base.length + 1) : undefined;
}
