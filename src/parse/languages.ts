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
}

/**
 * JavaScript and JSX go through the TypeScript grammars: TypeScript is a
 * superset, and the tsx grammar is the one that reads JSX.
 */
export const LANGUAGES: readonly LanguageRow[] = [
  { extensions: [".ts", ".mts", ".cts"], language: "typescript", grammarDir: "typescript" },
  { extensions: [".js", ".mjs", ".cjs"], language: "typescript", grammarDir: "typescript" },
  { extensions: [".tsx", ".jsx"], language: "tsx", grammarDir: "tsx" },
];

/** Declaration-file endings: parsed as type sources only. */
export const DECLARATION_SUFFIXES: readonly string[] = [".d.ts", ".d.mts", ".d.cts"];

/** The language of a path by its extension, or undefined when it is not a source file we read. */
export function languageForPath(path: string): LanguageId | undefined {
  const lower = path.toLowerCase();
  for (const row of LANGUAGES) {
    if (row.extensions.some((ext) => lower.endsWith(ext))) return row.language;
  }
  return undefined;
}

/** True for .d.ts / .d.mts / .d.cts. */
export function isDeclarationPath(path: string): boolean {
  const lower = path.toLowerCase();
  return DECLARATION_SUFFIXES.some((suffix) => lower.endsWith(suffix));
}
