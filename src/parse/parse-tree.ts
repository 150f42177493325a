/**
 * Text → tree-sitter tree, for any size of text, and the choice between two
 * grammars for plain JavaScript that may hold JSX.
 */
import type Parser from "tree-sitter";
import type { LanguageId } from "../types.js";
import { GRAMMARS } from "./languages.js";
import { type LoadedLanguage, loadLanguage } from "./load-language.js";
import { type RepairedText, repairGrammarGaps } from "./repair-grammar-gaps.js";

/**
 * Texts this long or longer get an explicit buffer size: node-tree-sitter
 * 0.21 throws "Invalid argument" on long strings with its default buffer.
 */
export const LARGE_TEXT_CHARS = 16 * 1024;

/** Parse a text of any length. */
export function parseText(parser: Parser, text: string): Parser.Tree {
  return text.length >= LARGE_TEXT_CHARS ? parser.parse(text, undefined, { bufferSize: text.length + 1 }) : parser.parse(text);
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
 * The tree of a text with its grammar gaps repaired when that has no errors;
 * else undefined (no gap found, or errors of another kind).
 */
function parseRepaired(loaded: LoadedLanguage, text: string): ChosenTree | undefined {
  if (!GRAMMARS[loaded.language].repairsGrammarGaps) return undefined;
  const repaired = repairGrammarGaps(text);
  if (!repaired) return undefined;
  const again = parseText(loaded.parser, repaired.text);
  if (!again.rootNode.hasError) return { loaded, tree: again, errors: 0, repaired: { repairs: repaired.repairs, typeOnlyExportStarts: repaired.typeOnlyExportStarts } };
  releaseTree(again);
  return undefined;
}

/**
 * Parse with the language's grammar; when that finds errors, parse the text
 * again with the valid TypeScript the grammar does not know repaired, and
 * keep that tree when it is clean. Else, when a fallback grammar is given and
 * the text looks like JSX, parse again with the fallback and keep the tree
 * with fewer errors.
 */
export function parseWithFallback(language: LanguageId, text: string, jsxFallback?: LanguageId): ChosenTree {
  const loaded = loadLanguage(language);
  const tree = parseText(loaded.parser, text);
  if (!tree.rootNode.hasError) return { loaded, tree, errors: 0 };
  const repaired = parseRepaired(loaded, text);
  if (repaired) {
    releaseTree(tree);
    return repaired;
  }
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
