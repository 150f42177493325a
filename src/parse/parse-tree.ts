/**
 * Text → tree-sitter tree, for any size of text, and the choice between two
 * grammars for plain JavaScript that may hold JSX.
 */
import type Parser from "tree-sitter";
import type { LanguageId } from "../types.js";
import { GRAMMARS } from "./languages.js";
import { type LoadedLanguage, loadLanguage } from "./load-language.js";
import { ALWAYS_TRIPS, mayHaveTrippingGap, type RepairedText, repairGrammarGaps, type TextRepair } from "./repair-grammar-gaps.js";

/**
 * Texts this long or longer get an explicit buffer size: node-tree-sitter
 * 0.21 throws "Invalid argument" on long strings with its default buffer.
 */
export const LARGE_TEXT_CHARS = 16 * 1024;

/** Parse a text of any length; with `oldTree` (edited to match the text), incrementally. */
export function parseText(parser: Parser, text: string, oldTree?: Parser.Tree): Parser.Tree {
  const tree = text.length >= LARGE_TEXT_CHARS ? parser.parse(text, oldTree, { bufferSize: text.length + 1 }) : parser.parse(text, oldTree);
  return withoutNodeCache(tree);
}

/** The tree's own no-op in place of the binding's node cache (see {@link withoutNodeCache}). */
const skipCache = (): void => undefined;

/**
 * Stop a tree from caching the node objects read from it. node-tree-sitter
 * 0.21 registers every node it hands to JavaScript (each query capture,
 * each child or field read) in a per-tree cache, with a weak reference and a
 * finalizer, so that the same node comes back as the same object. Nothing
 * in parse/ compares nodes by identity (facts are keyed by offsets), and the
 * registrations cost more than making the objects: without them, parseSource
 * over effect's 363 files takes ~7 % less CPU, the facts of all 4674 files
 * of the four bench packages identical. Set on our trees only, as own
 * properties: another user of tree-sitter in the same process keeps the cache.
 */
function withoutNodeCache(tree: Parser.Tree): Parser.Tree {
  const cached = tree as unknown as { _cacheNode?: unknown; _cacheNodes?: unknown };
  cached._cacheNode = skipCache;
  cached._cacheNodes = skipCache;
  return tree;
}

/** Number of ERROR nodes, plus one when only MISSING nodes mark the tree as broken. */
export function countErrors(tree: Parser.Tree): number {
  if (!tree.rootNode.hasError) return 0;
  return Math.max(1, tree.rootNode.descendantsOfType("ERROR").length);
}

/** Release a tree's native memory when the binding allows it. */
export function releaseTree(tree: Parser.Tree): void {
  (tree as { delete?: () => void }).delete?.();
}

/** A parsed tree with the grammar that made it. */
export interface ChosenTree {
  loaded: LoadedLanguage;
  tree: Parser.Tree;
  /** 0 for a clean tree; else the ERROR nodes when two trees were compared, else at least 1. */
  errors: number;
  /**
   * Set when the tree is of the text with its grammar gaps repaired (same
   * offsets and lines): the repairs, and the starts of the `export type * …`
   * statements, whose `type` the tree no longer holds.
   */
  repaired?: Pick<RepairedText, "repairs" | "typeOnlyExportStarts">;
}

const JSX_HINT = /<[A-Z]|<\/|\/>/;

/**
 * Tell a tree about same-length rewrites (sorted, none spanning a line
 * break), so that a parse of the rewritten text can reuse what they left
 * untouched. Positions count UTF-16 code units, as the tree's indexes do.
 */
function editTree(tree: Parser.Tree, text: string, repairs: readonly TextRepair[]): void {
  let row = 0;
  let lineStart = 0;
  for (const repair of repairs) {
    for (let i = text.indexOf("\n", lineStart); i !== -1 && i < repair.start; i = text.indexOf("\n", i + 1)) {
      row++;
      lineStart = i + 1;
    }
    const startPosition = { row, column: repair.start - lineStart };
    const endPosition = { row, column: repair.end - lineStart };
    tree.edit({
      startIndex: repair.start,
      oldEndIndex: repair.end,
      newEndIndex: repair.end,
      startPosition,
      oldEndPosition: endPosition,
      newEndPosition: endPosition,
    });
  }
}

/**
 * Parse with the language's grammar; when that finds errors, parse the text
 * again with the valid TypeScript the grammar does not know repaired, and
 * keep that tree when it is clean (a text with a gap the grammar always
 * trips on, see `ALWAYS_TRIPS`, is parsed repaired first: the same tree
 * without the failed parse). Else, when a fallback grammar is given and
 * the text looks like JSX, parse again with the fallback and keep the tree
 * with fewer errors.
 */
export function parseWithFallback(language: LanguageId, text: string, jsxFallback?: LanguageId): ChosenTree {
  const loaded = loadLanguage(language);
  const repairs = GRAMMARS[loaded.language].repairsGrammarGaps;
  // a gap tree-sitter always trips on: the first parse could only find errors (and its error recovery costs
  // more than a clean parse), so the repaired text is parsed straight away. effect: 152 files, ~0.3 s of CPU
  const looked = repairs && mayHaveTrippingGap(text);
  const early = looked ? repairGrammarGaps(text) : undefined;
  if (early?.repairs.some((repair) => ALWAYS_TRIPS.has(repair.rule))) {
    const tree = parseText(loaded.parser, early.text);
    if (!tree.rootNode.hasError) return { loaded, tree, errors: 0, repaired: { repairs: early.repairs, typeOnlyExportStarts: early.typeOnlyExportStarts } };
    releaseTree(tree);
    return chooseBrokenTree(loaded, text, parseText(loaded.parser, text), jsxFallback);
  }
  let tree = parseText(loaded.parser, text);
  if (!tree.rootNode.hasError) return { loaded, tree, errors: 0 };
  const repaired = looked ? early : repairs ? repairGrammarGaps(text) : undefined;
  if (repaired) {
    // parsed incrementally from the first tree: a quarter of a full parse on effect's 193 such files, the same trees
    editTree(tree, text, repaired.repairs);
    const again = parseText(loaded.parser, repaired.text, tree);
    releaseTree(tree);
    if (!again.rootNode.hasError) {
      return { loaded, tree: again, errors: 0, repaired: { repairs: repaired.repairs, typeOnlyExportStarts: repaired.typeOnlyExportStarts } };
    }
    releaseTree(again);
    // errors of another kind: the edited first tree no longer stands for the text, parse it again
    tree = parseText(loaded.parser, text);
  }
  return chooseBrokenTree(loaded, text, tree, jsxFallback);
}

/**
 * A tree with errors of `text`, or, when a fallback grammar is given and the
 * text looks like JSX, the tree of the two grammars with fewer errors.
 */
function chooseBrokenTree(loaded: LoadedLanguage, text: string, tree: Parser.Tree, jsxFallback?: LanguageId): ChosenTree {
  const language = loaded.language;
  // the count matters only to choose between two trees; walking for ERROR nodes costs ~2 % of a parse
  if (!jsxFallback || jsxFallback === language || !JSX_HINT.test(text)) return { loaded, tree, errors: 1 };
  const errors = countErrors(tree);
  const other = loadLanguage(jsxFallback);
  const otherTree = parseText(other.parser, text);
  const otherErrors = countErrors(otherTree);
  if (otherErrors < errors) {
    releaseTree(tree);
    return { loaded: other, tree: otherTree, errors: otherErrors };
  }
  releaseTree(otherTree);
  return { loaded, tree, errors };
}
