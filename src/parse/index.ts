/**
 * The parse stage: one file's text → a ParsedFile (definitions, imports,
 * exports, references, vocabulary). tree-sitter does the work; on a
 * TypeScript or JavaScript file where it finds syntax errors the TypeScript
 * parser completes the imports, exports and module-level definitions. Never
 * throws on bad source.
 *
 * @example
 * import { parseSource } from "./parse/index.js";
 * const parsed = parseSource("src/auth/token.ts", 'import { sign } from "./jwt";\nexport function issue() { return sign(); }\n', "typescript");
 * parsed.imports[0]?.specifier // "./jwt"
 * parsed.definitions[0]?.name  // "issue"
 */
import type { ImportFact, LanguageId, ParsedFile } from "../types.js";
import { literalShingles } from "../util/literal-shingles.js";
import { buildVocabulary } from "./build-vocabulary.js";
import { extractTreeFacts, type FactRules } from "./extract-tree-facts.js";
import { GRAMMARS, languageRowForPath } from "./languages.js";
import { dedupeExports, markLocalExports, mergeDefinitions, sortDefinitions } from "./merge-facts.js";
import type { TreeKeeper } from "./kept-trees.js";
import { parseWithFallback, releaseTree } from "./parse-tree.js";
import type { TextRepair } from "./repair-grammar-gaps.js";
import { readTypescriptFacts } from "./typescript-facts.js";

export { GRAMMARS, LANGUAGES, isDeclarationPath, languageForPath, languageRowForPath } from "./languages.js";
export type { GrammarRow, LanguageRow } from "./languages.js";
import type { GrammarRow, LanguageRow } from "./languages.js";
export { grammarsDir, loadGrammar, loadLanguage, readKeywords, readQuerySource } from "./load-language.js";

import { estimateTokens } from "../util/tokens.js";

export { estimateTokens };

/** Line count of a text (a final newline does not start a line; an empty text has 0 lines). */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let lines = 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
  return text.endsWith("\n") ? lines - 1 : lines;
}

/**
 * Nesting deeper than this is not handed to TypeScript's recursive-descent
 * parser. Measured in a cold process, it overflows the stack from about 700
 * nested brackets or 1,100 chained arrows; how deep it gets before that
 * depends on how far V8 has compiled it, so a limit on the text, not the
 * stack, keeps the facts the same from run to run. Real code stays far below.
 */
export const MAX_FALLBACK_NESTING = 256;

/**
 * How deeply a text nests, as TypeScript's parser would recurse: open
 * brackets not yet closed, plus arrows (`=>`) chained on one line since the
 * last `;` at each level. A cheap upper bound in one pass; strings and
 * comments count too, which only errs on the safe side.
 *
 * @example
 * nestingDepthOf("f([{ a: () => () => 1 }])"); // 5
 */
export function nestingDepthOf(text: string): number {
  let depth = 0;
  let arrows = 0; // at the current level
  let arrowsBelow = 0; // at the open levels around it
  let deepest = 0;
  const saved: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 40 || c === 91 || c === 123) {
      // ( [ {
      saved.push(arrows);
      arrowsBelow += arrows;
      arrows = 0;
      depth++;
    } else if (c === 41 || c === 93 || c === 125) {
      // ) ] }
      if (depth === 0) continue;
      depth--;
      arrows = saved.pop() ?? 0;
      arrowsBelow -= arrows;
    } else if (c === 59 || c === 10) {
      arrows = 0; // ; or a new line
    } else if (c === 61 && text.charCodeAt(i + 1) === 62) {
      arrows++; // =>
      i++;
    } else {
      continue;
    }
    deepest = Math.max(deepest, depth + arrowsBelow + arrows);
  }
  return deepest;
}

/** Thrown by parseSource without TypeScript for a file whose facts need it. */
export class TypescriptWanted extends Error {
  constructor(path: string) {
    super(`${path}: its facts need TypeScript's parser`);
    this.name = "TypescriptWanted";
  }
}

/**
 * TypeScript's facts, or undefined when the text nests too deeply for its
 * recursive-descent parser (thousands of unclosed brackets): tree-sitter,
 * which does not recurse, has already read the file.
 */
function readTypescriptFactsWithinStack(path: string, text: string): ReturnType<typeof readTypescriptFacts> | undefined {
  if (nestingDepthOf(text) > MAX_FALLBACK_NESTING) return undefined;
  try {
    return readTypescriptFacts(path, text);
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
}

/**
 * The imports of a repaired tree with the import types the repair blanked
 * (`import("./x").T<A>`) put back, as tree-sitter reads an import type
 * without type arguments: a dynamic import of x; in line order.
 */
function withImportTypes(imports: readonly ImportFact[], blanked: readonly TextRepair[], text: string): ImportFact[] {
  let line = 1;
  let from = 0;
  const added: ImportFact[] = blanked.map(({ specifier, start }) => {
    for (let i = text.indexOf("\n", from); i !== -1 && i < start; i = text.indexOf("\n", i + 1)) line++;
    from = start;
    return { specifier: specifier ?? "", kind: "dynamic", names: [], typeOnly: false, line };
  });
  // stable: the tree's own order stays within a line
  return [...imports, ...added].sort((a, b) => a.line - b.line);
}

/** What the language's rows say about reading a file's facts (`path` decides whether it is a barrel, as a package's `__init__.py`). */
function factRulesOf(grammar: GrammarRow, row: LanguageRow | undefined, path: string): FactRules {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return {
    exportsEveryModuleName: grammar.exportsEveryModuleName,
    namesMayBeModules: grammar.importedNamesMayBeModules,
    reexportsImports: row?.barrelNames?.includes(name) ?? false,
  };
}

/**
 * Parse one file. Pure and synchronous; the parser and query of each
 * language are created on first use and reused.
 *
 * @param path root-relative POSIX path (its extension picks the JSX fallback and the TypeScript script kind)
 * @param text the file's content
 * @param language grammar to parse with (see `languageForPath`)
 * @param isDeclaration true for .d.ts / .d.mts / .d.cts files
 * @param trees where a resident process keeps trees: the file's kept tree, if any, makes the parse
 *   incremental, and its clean tree is kept (see kept-trees.ts); the facts are the same either way
 * @param withTypescript false: a file whose facts need TypeScript's parser throws {@link TypescriptWanted}
 *   instead of loading it (a parse worker hands such a file to the thread that has TypeScript)
 *
 * @example
 * const parsed = parseSource("src/app.tsx", "export const App = () => <Header/>;", "tsx");
 * parsed.references // [{ name: "Header", kind: "jsx", count: 1 }]
 */
export function parseSource(path: string, text: string, language: LanguageId, isDeclaration = false, trees?: TreeKeeper, withTypescript = true): ParsedFile {
  const previous = trees?.take(path);
  const row = languageRowForPath(path);
  const chosen = parseWithFallback(language, text, row?.jsxFallback, { ...(previous ? { previous } : {}), keepBroken: trees !== undefined });
  if (trees && chosen.incremental) trees.reused++;
  const grammar = GRAMMARS[chosen.loaded.language];
  const readsWithTypescript = grammar.typescriptFallback && chosen.errors > 0;
  if (!withTypescript && readsWithTypescript && nestingDepthOf(text) <= MAX_FALLBACK_NESTING) {
    releaseTree(chosen.tree);
    if (chosen.broken) releaseTree(chosen.broken.tree);
    throw new TypescriptWanted(path);
  }
  // import types the repair blanked: never read for identifiers, and put back as imports
  const blankedImports = chosen.repaired?.repairs.filter((r) => r.rule === "import-type-generic") ?? [];
  const facts = extractTreeFacts(chosen.tree, chosen.loaded.query, text, chosen.loaded.keywords, chosen.repaired?.typeOnlyExportStarts, blankedImports, factRulesOf(grammar, row, path));
  // a clean tree is kept for the file's next parse (see kept-trees.ts); any other is freed now
  if (trees && chosen.errors === 0) {
    trees.keep(path, { language: chosen.loaded.language, text: chosen.text, tree: chosen.tree, ...(chosen.broken ? { broken: chosen.broken } : {}) });
  } else {
    releaseTree(chosen.tree);
    if (chosen.broken) releaseTree(chosen.broken.tree);
  }
  let hasSyntaxErrors = false;

  let { definitions, imports, exports } = facts;
  if (blankedImports.length > 0) imports = withImportTypes(imports, blankedImports, text);
  if (readsWithTypescript) {
    // The TypeScript parser recovers better: its imports and exports are the
    // truth, and its definitions complete tree-sitter's. The file has syntax
    // errors only when TypeScript agrees: tree-sitter-typescript 0.23 also
    // trips on valid code the repairs of parse/repair-grammar-gaps.ts miss.
    const fromTypescript = readTypescriptFactsWithinStack(path, text);
    if (fromTypescript) {
      imports = fromTypescript.imports;
      exports = fromTypescript.exports;
      definitions = mergeDefinitions(fromTypescript.definitions, definitions);
      hasSyntaxErrors = fromTypescript.syntaxErrors > 0;
    } else {
      // too deep for TypeScript's recursive parser: tree-sitter's facts stand alone, and the errors it found count
      hasSyntaxErrors = true;
    }
  } else {
    // a grammar without a fallback: the errors tree-sitter found stand
    hasSyntaxErrors = chosen.errors > 0;
    sortDefinitions(definitions);
  }
  // broken code can leave a declaration whose name is missing (`const = …` in a class after a bad edit): no symbol to define
  definitions = definitions.filter((d) => d.name !== "");
  exports = dedupeExports(exports);
  markLocalExports(definitions, exports);

  const definitionNames: string[] = definitions.map((d) => d.name);
  const defined = new Set(definitionNames);
  // names exported from here count as its definitions; names re-exported from another module do not:
  // a barrel does not define what it passes on (the defining file does)
  for (const fact of exports) {
    if (fact.kind !== "star" && fact.name !== "default" && fact.from === undefined && !defined.has(fact.name)) definitionNames.push(fact.name);
  }

  return {
    path,
    language: chosen.loaded.language,
    isDeclaration,
    tokens: estimateTokens(text),
    lines: countLines(text),
    definitions,
    imports,
    exports,
    references: facts.references,
    vocabulary: buildVocabulary({ definitionNames, identifierCounts: facts.identifierCounts, prose: facts.prose }),
    literals: literalShingles(facts.literals),
    hasSyntaxErrors,
  };
}
