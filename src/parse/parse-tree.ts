/**
 * Text → tree-sitter tree, for any size of text, and the choice between two
 * grammars for plain JavaScript that may hold JSX.
 */
import type Parser from "tree-sitter";
import type { LanguageId } from "../types.js";
import { type LoadedLanguage, loadLanguage } from "./load-language.js";

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
}

const JSX_HINT = /<[A-Z]|<\/|\/>/;

/**
 * Parse with the language's grammar; when that finds errors, a fallback
 * grammar is given and the text looks like JSX, parse again with the
 * fallback and keep the tree with fewer errors.
 */
export function parseWithFallback(language: LanguageId, text: string, jsxFallback?: LanguageId): ChosenTree {
  const loaded = loadLanguage(language);
  const tree = parseText(loaded.parser, text);
  if (!tree.rootNode.hasError) return { loaded, tree, errors: 0 };
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
