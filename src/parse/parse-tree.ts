/**
 * Text → tree-sitter tree, for any size of text, and the choice between two
 * grammars for plain JavaScript that may hold JSX.
 */
import type Parser from "tree-sitter";
import type { LanguageId } from "../types.js";
import { GRAMMARS } from "./languages.js";
import { type KeptTree, releaseKeptTree } from "./kept-trees.js";
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
  /** The text the tree is of: the file's, or its repaired text (see `repaired`). */
  text: string;
  /** Set when the tree was parsed incrementally from a kept one. */
  incremental?: true;
  /** With `keepBroken`, when the tree is of the repaired text: the text as it is and its tree with errors. */
  broken?: TextTree;
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

/** Row and column (UTF-16 code units, as the tree's indexes) of `index` in `text`. */
function pointAt(text: string, index: number): Parser.Point {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: index - lineStart };
}

/** Characters compared at once by describeEdit before it goes one by one. */
const EDIT_BLOCK = 256;

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * The change from `before` to `after` as one tree-sitter edit: the span
 * between their common start and common end (never splitting a surrogate
 * pair). Undefined when the texts are the same.
 *
 * @example
 * describeEdit("a;\n", "a;\nb;\n"); // { startIndex: 3, oldEndIndex: 3, newEndIndex: 6, … }
 */
export function describeEdit(before: string, after: string): Parser.Edit | undefined {
  if (before === after) return undefined;
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  // a block at a time first (one comparison of two slices), then a character at a time: ~10× faster on 195 kB
  while (start + EDIT_BLOCK <= shorter && before.slice(start, start + EDIT_BLOCK) === after.slice(start, start + EDIT_BLOCK)) start += EDIT_BLOCK;
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  if (start > 0 && isHighSurrogate(before.charCodeAt(start - 1))) start--;
  let tail = 0;
  while (
    tail + EDIT_BLOCK <= shorter - start &&
    before.slice(before.length - tail - EDIT_BLOCK, before.length - tail) === after.slice(after.length - tail - EDIT_BLOCK, after.length - tail)
  ) {
    tail += EDIT_BLOCK;
  }
  while (tail < shorter - start && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)) tail++;
  if (tail > 0 && isLowSurrogate(before.charCodeAt(before.length - tail))) tail--;
  const oldEndIndex = before.length - tail;
  const newEndIndex = after.length - tail;
  return {
    startIndex: start,
    oldEndIndex,
    newEndIndex,
    startPosition: pointAt(before, start),
    oldEndPosition: pointAt(before, oldEndIndex),
    newEndPosition: pointAt(after, newEndIndex),
  };
}

/** A text and its tree. */
export interface TextTree {
  text: string;
  tree: Parser.Tree;
}

/** Parse `text` incrementally from `previous` (a tree of another text, of the same grammar), which is edited to match and consumed. */
function parseFrom(loaded: LoadedLanguage, text: string, previous: TextTree): Parser.Tree {
  const edit = describeEdit(previous.text, text);
  if (edit) previous.tree.edit(edit);
  const tree = parseText(loaded.parser, text, previous.tree);
  releaseTree(previous.tree);
  return tree;
}

/**
 * {@link parseFrom} when it comes out clean; else undefined, the tree
 * dropped (the caller parses in full: error recovery may differ from a full
 * parse's, a clean tree does not).
 */
function parseCleanFrom(loaded: LoadedLanguage, text: string, previous: TextTree): Parser.Tree | undefined {
  const tree = parseFrom(loaded, text, previous);
  if (!tree.rootNode.hasError) return tree;
  releaseTree(tree);
  return undefined;
}

/** What a parse may start from, and keep. */
export interface ParseOptions {
  /** The trees kept from the file's last parse (see kept-trees.ts): consumed. */
  previous?: KeptTree;
  /**
   * The tree is to be kept: a text parsed clean only once repaired keeps its
   * broken tree too (`ChosenTree.broken`), so that the next parse can tell
   * incrementally that the text as it is still needs the repairs.
   */
  keepBroken?: boolean;
}

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
 *
 * With `options.previous` (the trees kept from the file's last parse) each
 * parse above starts from the matching kept tree: the text as it is from
 * the tree of the text as it was (its broken tree when it was repaired),
 * the repaired text from the clean one. A clean tree so made is the tree a
 * full parse makes; a repaired parse from a kept tree that is not clean is
 * done again in full.
 */
export function parseWithFallback(language: LanguageId, text: string, jsxFallback?: LanguageId, options: ParseOptions = {}): ChosenTree {
  const loaded = loadLanguage(language);
  const repairs = GRAMMARS[loaded.language].repairsGrammarGaps;
  // the trees kept from this file's last parse (see kept-trees.ts), when of this grammar: each is used once
  let kept = options.previous?.language === loaded.language ? options.previous : undefined;
  if (options.previous && !kept) releaseKeptTree(options.previous);
  const take = (): KeptTree | undefined => {
    const tree = kept;
    kept = undefined;
    return tree;
  };
  // a gap tree-sitter always trips on: the first parse could only find errors (and its error recovery costs
  // more than a clean parse), so the repaired text is parsed straight away. effect: 152 files, ~0.3 s of CPU
  const looked = repairs && mayHaveTrippingGap(text);
  const early = looked ? repairGrammarGaps(text) : undefined;
  if (early?.repairs.some((repair) => ALWAYS_TRIPS.has(repair.rule))) {
    const repaired = { repairs: early.repairs, typeOnlyExportStarts: early.typeOnlyExportStarts };
    const previous = take();
    if (previous?.broken) releaseTree(previous.broken.tree);
    const again = previous ? parseCleanFrom(loaded, early.text, previous) : undefined;
    if (again) return { loaded, tree: again, text: early.text, errors: 0, repaired, incremental: true };
    const tree = parseText(loaded.parser, early.text);
    if (!tree.rootNode.hasError) return { loaded, tree, text: early.text, errors: 0, repaired };
    releaseTree(tree);
    return chooseBrokenTree(loaded, text, parseText(loaded.parser, text), jsxFallback);
  }
  // the text as it is: from the kept tree of the text as it was (the broken one when the last parse was repaired)
  const previous = take();
  const base = previous?.broken ?? previous;
  let tree = base ? parseFrom(loaded, text, base) : parseText(loaded.parser, text);
  if (previous?.broken && !tree.rootNode.hasError) releaseTree(previous.tree);
  if (!tree.rootNode.hasError) return { loaded, tree, text, errors: 0, ...(previous ? { incremental: true as const } : {}) };
  const repaired = looked ? early : repairs ? repairGrammarGaps(text) : undefined;
  if (repaired) {
    const repairedFacts = { repairs: repaired.repairs, typeOnlyExportStarts: repaired.typeOnlyExportStarts };
    // the clean tree of the last parse's repaired text, when there is one; the broken tree is kept with it
    const cleanBefore = previous?.broken ? previous : undefined;
    const fromKept = cleanBefore ? parseCleanFrom(loaded, repaired.text, cleanBefore) : undefined;
    if (fromKept) return { loaded, tree: fromKept, text: repaired.text, errors: 0, repaired: repairedFacts, broken: { text, tree }, incremental: true };
    let again: Parser.Tree;
    if (options.keepBroken) {
      // the broken tree is to be kept for the next parse: the repaired text is parsed apart from it
      again = parseText(loaded.parser, repaired.text);
    } else {
      // parsed incrementally from the first tree: a quarter of a full parse on effect's 193 such files, the same trees
      editTree(tree, text, repaired.repairs);
      again = parseText(loaded.parser, repaired.text, tree);
    }
    if (!again.rootNode.hasError) {
      if (options.keepBroken) return { loaded, tree: again, text: repaired.text, errors: 0, repaired: repairedFacts, broken: { text, tree } };
      releaseTree(tree);
      return { loaded, tree: again, text: repaired.text, errors: 0, repaired: repairedFacts };
    }
    releaseTree(again);
    releaseTree(tree);
    // errors of another kind: the edited first tree no longer stands for the text, parse it again
    tree = parseText(loaded.parser, text);
  } else if (base) {
    // no repair to try: the tree with errors of a full parse, as a parse without a kept tree would give
    if (previous?.broken) releaseTree(previous.tree);
    releaseTree(tree);
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
  if (!jsxFallback || jsxFallback === language || !JSX_HINT.test(text)) return { loaded, tree, text, errors: 1 };
  const errors = countErrors(tree);
  const other = loadLanguage(jsxFallback);
  const otherTree = parseText(other.parser, text);
  const otherErrors = countErrors(otherTree);
  if (otherErrors < errors) {
    releaseTree(tree);
    return { loaded: other, tree: otherTree, text, errors: otherErrors };
  }
  releaseTree(otherTree);
  return { loaded, tree, text, errors };
}
