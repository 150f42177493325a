import { mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { ImportKind } from "../../src/types.js";
import { languageForPath } from "../../src/parse/languages.js";

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "fixtures");

/** One row of a fixture's EDGES.md. */
export interface Edge {
  from: string;
  line: number;
  specifier: string;
  kind: ImportKind;
  typeOnly: boolean;
  /** undefined for "—" (unresolved). */
  to: string | undefined;
}

/** The real path of a fixture folder. */
export function fixtureRoot(name: string): string {
  return realpathSync(join(FIXTURES, name));
}

/** Source files under `root`, root-relative POSIX, sorted; node_modules left out (a stand-in for the scan stage). */
export function listSourceFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (languageForPath(entry.name) !== undefined) out.push(relative(root, path).split(sep).join("/"));
    }
  };
  walk(root);
  return out.sort();
}

/** The edge table of a fixture's EDGES.md. */
export function readEdges(name: string): Edge[] {
  const text = readFileSync(join(FIXTURES, name, "EDGES.md"), "utf8");
  return text
    .split("\n")
    .filter((line) => /^\| [^-\s]/.test(line) && !line.startsWith("| from "))
    .map((line) => {
      const [from, lineNo, specifier, kind, type, to] = line.split("|").slice(1, -1).map((cell) => cell.trim());
      return {
        from: from!,
        line: Number(lineNo),
        specifier: specifier!,
        kind: kind as ImportKind,
        typeOnly: type === "yes",
        to: to === "—" ? undefined : to,
      };
    });
}

/** Writes `files` (path → text) under `dir`, creating folders. */
export function writeTree(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    const abs = join(dir, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, text);
  }
}
