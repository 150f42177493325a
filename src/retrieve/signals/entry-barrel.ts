/**
 * Entry barrel: a task about what the package imports or exports ("Export
 * the parser's option types", "Keep Node-only modules out of the imports")
 * is a change to the package's boundary, which its entry barrel
 * holds (`src/index.ts` re-exporting every module). The lexical match gives
 * such a barrel little: it holds names, not the words of the task. The
 * entry barrels are the barrels at the shallowest depth of the codebase (a
 * monorepo has one per package at the same depth), and among them the ones
 * named index or mod when there are such (a top-level `FastCheck.ts` that
 * re-exports a dependency is a barrel too, but no entry).
 */

/** Words for a module's boundary: import, export, expose and their forms; 导入 and 导出 (import, export). */
const BOUNDARY_WORD = /\b(?:re-?)?(?:imports?|imported|importing|exports?|exported|exporting|expos(?:e|es|ed|ing))\b|导入|导出/i;

/**
 * @example
 * speaksOfModuleBoundary("Keep Node-only modules out of the imports"); // true
 * speaksOfModuleBoundary("Fix the important flag");               // false
 */
export function speaksOfModuleBoundary(task: string): boolean {
  return BOUNDARY_WORD.test(task);
}

/** A module's conventional entry name: index.ts, mod.ts (any script extension). */
const ENTRY_NAME = /(^|\/)(index|mod)\.[cm]?[jt]sx?$/;

/**
 * The barrels at the shallowest folder depth among `barrels` (paths); only
 * those named index or mod when some are.
 *
 * @example
 * entryBarrels(["src/index.ts", "src/format/index.ts"]); // ["src/index.ts"]
 * entryBarrels(["src/index.ts", "src/FastCheck.ts"]);    // ["src/index.ts"]
 */
export function entryBarrels(barrels: readonly string[]): string[] {
  const depth = (path: string) => path.split("/").length;
  const shallowest = Math.min(...barrels.map(depth));
  const top = barrels.filter((path) => depth(path) === shallowest);
  const named = top.filter((path) => ENTRY_NAME.test(path));
  return named.length > 0 ? named : top;
}
