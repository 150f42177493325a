/**
 * Which grammar and which query files serve which file: a table, not logic.
 * Adding a language is a folder under grammars/, rows here, and a fixture.
 */
import type { LanguageId } from "../types.js";

export interface LanguageRow {
  /** File name endings, longest first wins (".d.ts" before ".ts"). */
  extensions: string[];
  language: LanguageId;
  /** Folder under grammars/ holding this language's .scm query files. */
  grammarDir: string;
  /**
   * A second grammar to try when this one finds syntax errors and the text
   * looks like JSX (`<Capital`, `</`): plain .js files may hold JSX.
   */
  jsxFallback?: LanguageId;
  /**
   * File names whose `from … import` names are re-exported, as
   * `export { … } from` would: a Python package's `__init__.py` is its barrel.
   */
  barrelNames?: readonly string[];
  /**
   * A generated-code marker counts only in the comment lines that open the
   * file, not in a comment-looking line further on: a Python `#` line inside
   * a string (a template, a test's data) reads as a comment line by line.
   */
  markerInOpeningComments?: boolean;
  /** The name (without its ending) of the file that stands for its folder: `index` of `auth/index.ts`, `__init__` of a Python package. */
  packageIndexName: string;
}

/**
 * JavaScript and JSX go through the TypeScript grammars: TypeScript is a
 * superset, and the tsx grammar is the one that reads JSX. A `.pyi` stub is
 * Python's `.d.ts` (see {@link DECLARATION_SUFFIXES}).
 */
export const LANGUAGES: readonly LanguageRow[] = [
  { extensions: [".ts", ".mts", ".cts"], language: "typescript", grammarDir: "typescript", packageIndexName: "index" },
  { extensions: [".js", ".mjs", ".cjs"], language: "typescript", grammarDir: "typescript", jsxFallback: "tsx", packageIndexName: "index" },
  { extensions: [".tsx", ".jsx"], language: "tsx", grammarDir: "tsx", packageIndexName: "index" },
  { extensions: [".py", ".pyi"], language: "python", grammarDir: "python", barrelNames: ["__init__.py", "__init__.pyi"], markerInOpeningComments: true, packageIndexName: "__init__" },
];

/** Which tree-sitter grammar parses a language, and which query files (under grammars/) it runs. */
export interface GrammarRow {
  /** Folder under grammars/ holding the queries written for this grammar. */
  grammarDir: string;
  /** npm package exporting the grammar. */
  grammarPackage: string;
  /** Property of that package's export holding the grammar (`typescript`, `tsx`); absent when the export is the grammar. */
  grammarExport?: string;
  /**
   * Query files, relative to grammars/, concatenated into one query so the
   * tree is walked once. tsx reuses the typescript queries and adds JSX.
   */
  queryFiles: readonly string[];
  /** Word list (relative to grammars/, one a line, `#` comments) never counted as identifiers. */
  keywordsFile: string;
  /**
   * True when a text this grammar finds errors in is tried again with the
   * valid TypeScript it does not know repaired (see parse/repair-grammar-gaps.ts)
   * before the TypeScript parser is asked. Off for JSX: its text is not
   * tokenized like code.
   */
  repairsGrammarGaps: boolean;
  /**
   * True when a file this grammar finds syntax errors in is read again by
   * TypeScript's parser, whose facts complete tree-sitter's (TypeScript and
   * JavaScript only).
   */
  typescriptFallback: boolean;
  /**
   * True when every module-level name can be imported by another file
   * (Python), not only the names an `export` marks.
   */
  exportsEveryModuleName: boolean;
  /**
   * True when a name imported from a module may be a module of its own:
   * Python's `from p import m` imports the submodule p.m when there is one.
   * Each such name is then also an import of `<module>:<name>`, which the
   * resolver leads to that submodule or, when there is none, quietly nowhere.
   */
  importedNamesMayBeModules: boolean;
}

/** Grammar and query files of each language. */
export const GRAMMARS: Readonly<Record<LanguageId, GrammarRow>> = {
  typescript: {
    grammarDir: "typescript",
    grammarPackage: "tree-sitter-typescript",
    grammarExport: "typescript",
    queryFiles: ["typescript/tags.scm", "typescript/imports.scm"],
    keywordsFile: "typescript/keywords.txt",
    repairsGrammarGaps: true,
    typescriptFallback: true,
    exportsEveryModuleName: false,
    importedNamesMayBeModules: false,
  },
  tsx: {
    grammarDir: "tsx",
    grammarPackage: "tree-sitter-typescript",
    grammarExport: "tsx",
    queryFiles: ["typescript/tags.scm", "typescript/imports.scm", "tsx/jsx.scm"],
    keywordsFile: "typescript/keywords.txt",
    repairsGrammarGaps: false,
    typescriptFallback: true,
    exportsEveryModuleName: false,
    importedNamesMayBeModules: false,
  },
  python: {
    grammarDir: "python",
    grammarPackage: "tree-sitter-python",
    queryFiles: ["python/tags.scm", "python/imports.scm"],
    keywordsFile: "python/keywords.txt",
    repairsGrammarGaps: false,
    typescriptFallback: false,
    exportsEveryModuleName: true,
    importedNamesMayBeModules: true,
  },
};

/**
 * Each extension's row, the first row naming it. Every extension of the
 * table is one dot and a name, so a path ends with one exactly when its
 * last dot starts it: one lookup by that ending instead of a test of each
 * extension (called for every file of a warm scan: over babel's 30,568
 * listed paths 2.0 ms a pass against 5.3, session 38; a whole warm query's
 * p50 moved within its noise, 0.806 → 0.801 s).
 */
const ROW_BY_EXTENSION = new Map<string, LanguageRow>();
for (const row of LANGUAGES) {
  for (const ext of row.extensions) {
    if (!/^\.[a-z0-9]+$/.test(ext)) throw new Error(`languages table: the extension "${ext}" of ${row.language} must be a dot and lower-case letters or digits (languageRowForPath looks a path up by its last dot)`);
    if (!ROW_BY_EXTENSION.has(ext)) ROW_BY_EXTENSION.set(ext, row);
  }
}

/** The table row of a path by its extension, or undefined when it is not a source file we read. */
export function languageRowForPath(path: string): LanguageRow | undefined {
  const dot = path.lastIndexOf(".");
  return dot < 0 ? undefined : ROW_BY_EXTENSION.get(path.slice(dot).toLowerCase());
}

/** Declaration-file endings: parsed as type sources only (a Python stub, `.pyi`, is one). */
export const DECLARATION_SUFFIXES: readonly string[] = [".d.ts", ".d.mts", ".d.cts", ".pyi"];

/** Every source ending the table knows, declaration endings too, longest first (".d.mts" before ".mts" before ".ts"). */
const SOURCE_ENDINGS: readonly string[] = [...new Set([...DECLARATION_SUFFIXES, ...LANGUAGES.flatMap((row) => row.extensions)])].sort((a, b) => b.length - a.length);

/**
 * A file name (or path) without its source ending, or undefined when the
 * table reads no file so named.
 *
 * @example
 * withoutSourceEnding("session_manager.py"); // "session_manager"
 * withoutSourceEnding("src/types.d.ts");      // "src/types"
 * withoutSourceEnding("README.md");           // undefined
 */
export function withoutSourceEnding(name: string): string | undefined {
  const lower = name.toLowerCase();
  const ending = SOURCE_ENDINGS.find((e) => lower.endsWith(e));
  return ending === undefined ? undefined : name.slice(0, name.length - ending.length);
}

/**
 * True when a path's file stands for its folder: `index.ts`, a Python
 * package's `__init__.py`.
 *
 * @example
 * isPackageIndexPath("src/auth/__init__.py"); // true
 * isPackageIndexPath("src/auth/index.tsx");   // true
 * isPackageIndexPath("src/auth/login.py");    // false
 * isPackageIndexPath("src/index.d.ts");       // false
 */
export function isPackageIndexPath(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  // the row's own endings only: `index.d.ts` declares types, it is no folder's entry
  return withoutLanguageEnding(name) === languageRowForPath(name)?.packageIndexName;
}

/**
 * A path without its language's ending, the longest its row lists (a
 * declaration keeps its `.d`); the path itself when no row reads it: how a
 * task may name a file.
 *
 * @example
 * withoutLanguageEnding("src/auth/tokens.mts"); // "src/auth/tokens"
 * withoutLanguageEnding("src/types.d.ts");      // "src/types.d"
 * withoutLanguageEnding("README.md");           // "README.md"
 */
export function withoutLanguageEnding(path: string): string {
  const row = languageRowForPath(path);
  if (row === undefined) return path;
  const lower = path.toLowerCase();
  let ending = "";
  for (const e of row.extensions) if (e.length > ending.length && lower.endsWith(e)) ending = e;
  return path.slice(0, path.length - ending.length);
}

/** The language of a path by its extension, or undefined when it is not a source file we read. */
export function languageForPath(path: string): LanguageId | undefined {
  const lower = path.toLowerCase();
  for (const row of LANGUAGES) {
    if (row.extensions.some((ext) => lower.endsWith(ext))) return row.language;
  }
  return undefined;
}

/** True for .d.ts / .d.mts / .d.cts / .pyi. */
export function isDeclarationPath(path: string): boolean {
  const lower = path.toLowerCase();
  return DECLARATION_SUFFIXES.some((suffix) => lower.endsWith(suffix));
}
