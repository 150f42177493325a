/** The repo's fixture codebases and their hand-written edge tables, for every test folder. */
import { readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ImportKind } from "../../src/types.js";

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const FIXTURES = join(REPO_ROOT, "fixtures");

/** The real path of a fixture folder. */
export function fixtureRoot(name: string): string {
  return realpathSync(join(FIXTURES, name));
}

/** One row of a fixture's EDGES.md: one import fact and where it must lead. */
export interface EdgeRow {
  from: string;
  line: number;
  specifier: string;
  kind: ImportKind;
  typeOnly: boolean;
  /** A root-relative file or `pkg:<name>`; undefined for `—` (must be an `unresolved` diagnostic) and `·`. */
  to: string | undefined;
  /** `·`: leads nowhere with nothing wrong, so no diagnostic (Python's `from m import n` whose n is a name, a namespace package). */
  quiet: boolean;
}

/** Parse the markdown table of `fixtures/<name>/EDGES.md` (the table is the source of truth). */
export function readEdgeTable(name: string): EdgeRow[] {
  const lines = readFileSync(join(FIXTURES, name, "EDGES.md"), "utf8").split("\n");
  const header = lines.findIndex((line) => /^\|\s*from\s*\|/.test(line));
  if (header < 0) throw new Error(`fixtures/${name}/EDGES.md: no "| from |" table header`);
  const columns = cellsOf(lines[header]!);
  const rows: EdgeRow[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith("|")) break;
    const cell = Object.fromEntries(columns.map((column, i) => [column, cellsOf(line)[i] ?? ""]));
    rows.push({
      from: cell.from!,
      line: Number(cell.line),
      specifier: cell.specifier!,
      kind: cell.kind as ImportKind,
      typeOnly: cell.type === "yes",
      to: cell.to === "—" || cell.to === "·" ? undefined : cell.to,
      quiet: cell.to === "·",
    });
  }
  return rows;
}

function cellsOf(line: string): string[] {
  return line.split("|").slice(1, -1).map((cell) => cell.trim());
}
