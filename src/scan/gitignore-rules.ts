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
import { createRequire } from "node:module";
import type { Ignore } from "ignore";

/**
 * ignore, loaded by require on the first .gitignore read: a root without
 * one never loads it, and an ES import of a CommonJS package pays the
 * scan of its source for export names (~4 ms of a warm query with
 * picomatch, see path-filter.ts).
 */
const require = createRequire(import.meta.url);
let ignoreFactory: typeof import("ignore") | undefined;

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
  const key = `${base}\u0000${text}`;
  let level = compiled.get(key);
  if (!level) {
    if (compiled.size >= MAX_COMPILED_LEVELS) compiled.clear();
    level = { base, rules: (ignoreFactory ??= require("ignore") as typeof import("ignore"))({ ignorecase: false }).add(text) };
    compiled.set(key, level);
  }
  return level;
}

/**
 * The levels compiled so far, by folder and text: a process that scans the
 * same root again (the daemon, the MCP server) gets the same rules back, and
 * with them the answers the `ignore` package keeps per path (rollup, 12,722
 * files: ~90 ms of each scan spent matching paths against .gitignore rules).
 */
const compiled = new Map<string, IgnoreLevel>();

/** More .gitignore files than this in one process (several roots, or a monorepo's many): start again. */
const MAX_COMPILED_LEVELS = 4096;

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
