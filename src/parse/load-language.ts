/**
 * Lazy singletons: one tree-sitter parser and one compiled query per
 * language, made on first use and reused for every file. The query is the
 * concatenation of the language's .scm files (see `GRAMMARS`), so a tree is
 * walked once.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import Parser from "tree-sitter";
import type { LanguageId } from "../types.js";
import { GRAMMARS } from "./languages.js";
import { checkNodeLayout } from "./node-span.js";

/** A ready parser and its compiled query. Never leaves src/parse/. */
export interface LoadedLanguage {
  language: LanguageId;
  parser: Parser;
  query: Parser.Query;
  /** Words never counted as identifiers. */
  keywords: ReadonlySet<string>;
}

const require = createRequire(import.meta.url);
const loaded = new Map<LanguageId, LoadedLanguage>();

/**
 * Absolute path of the package's grammars/ folder. This file sits two levels
 * below the package root both as src/parse/*.ts and as dist/parse/*.js.
 *
 * @example
 * readFileSync(join(grammarsDir(), "typescript/tags.scm"), "utf8")
 */
export function grammarsDir(): string {
  return fileURLToPath(new URL("../../grammars/", import.meta.url));
}

/**
 * The tree-sitter grammar object of a language (from its npm package).
 *
 * @example
 * new Parser.Query(loadGrammar("tsx"), "(jsx_element) @jsx")
 */
export function loadGrammar(language: LanguageId): unknown {
  const row = GRAMMARS[language];
  const exported = require(row.grammarPackage) as Record<string, unknown>;
  const grammar = row.grammarExport === undefined ? exported : exported[row.grammarExport];
  if (!grammar) {
    throw new Error(
      `parse/load-language: ${row.grammarPackage} has no export "${row.grammarExport}" (check GRAMMARS in src/parse/languages.ts)`,
    );
  }
  return grammar;
}

/**
 * The query source of a language: its .scm files, in table order, joined.
 *
 * @example
 * readQuerySource("tsx").includes("@reference.jsx") // true
 */
export function readQuerySource(language: LanguageId): string {
  const dir = grammarsDir();
  return GRAMMARS[language].queryFiles
    .map((file) => `; ---- ${file}\n${readFileSync(dir + file, "utf8")}`)
    .join("\n");
}

/**
 * The keyword list of a language: one word a line, `#` starts a comment.
 *
 * @example
 * readKeywords("typescript").has("const") // true
 */
export function readKeywords(language: LanguageId): Set<string> {
  const source = readFileSync(grammarsDir() + GRAMMARS[language].keywordsFile, "utf8");
  const words = new Set<string>();
  for (const line of source.split("\n")) {
    const word = line.replace(/#.*/, "").trim();
    if (word) words.add(word);
  }
  return words;
}

/**
 * The parser and compiled query of a language, created once.
 *
 * @example
 * const { parser, query } = loadLanguage("typescript");
 */
export function loadLanguage(language: LanguageId): LoadedLanguage {
  let entry = loaded.get(language);
  if (!entry) {
    const grammar = loadGrammar(language);
    const parser = new Parser();
    parser.setLanguage(grammar);
    // a start past a non-BMP character, on line 2: a string, then an assignment, valid in every grammar we load
    const sample = parser.parse('"\u{1F600}"\na = 1\n');
    checkNodeLayout(sample.rootNode);
    (sample as { delete?: () => void }).delete?.();
    const query = new Parser.Query(grammar, readQuerySource(language));
    entry = { language, parser, query, keywords: readKeywords(language) };
    loaded.set(language, entry);
  }
  return entry;
}
