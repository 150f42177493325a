/**
 * Trees a resident process (the daemon, the MCP server) keeps after a
 * parse, so that the next parse of the same file is incremental: the kept
 * tree is told where the text changed (see describeEdit) and tree-sitter
 * re-parses only that part. Effect's 195 kB `Array.ts` with a function
 * appended: 0.7 ms against 11 ms for its full parse.
 *
 * A tree costs native memory (~27 bytes a character of text on effect's
 * largest files), so the keeper holds at most a budget of files and
 * characters and drops the least recently used. Only clean trees are kept
 * (see parseSource), and a parse that starts from one must come out clean
 * too, else the file is parsed again in full: the facts of an incremental
 * parse are those of a full one.
 */
import type Parser from "tree-sitter";
import type { LanguageId } from "../types.js";

/** As parse-tree.ts's releaseTree; not imported from there, which loads tree-sitter (the keeper is made before any parse). */
const releaseTree = (tree: Parser.Tree): void => (tree as { delete?: () => void }).delete?.();

/**
 * A clean tree with the text it is of (the repaired text when the parse was
 * repaired) and the grammar that made it; when the file's text as it is
 * parsed with errors and only its repaired text clean, that broken tree too.
 */
export interface KeptTree {
  language: LanguageId;
  text: string;
  tree: Parser.Tree;
  broken?: { text: string; tree: Parser.Tree };
}

/** Free a kept tree's native memory, and its broken tree's, when the binding allows it. */
export function releaseKeptTree(kept: KeptTree): void {
  releaseTree(kept.tree);
  if (kept.broken) releaseTree(kept.broken.tree);
}

export interface TreeKeeperOptions {
  /** Trees at most. */
  files: number;
  /** Characters of text at most, over all kept trees. */
  chars: number;
}

/** What a resident process keeps by default: effect's 10 largest files (2.5 MB) fit, ~70 MB of trees. */
export const DEFAULT_KEPT_TREES: TreeKeeperOptions = { files: 32, chars: 4_000_000 };

export interface TreeKeeper {
  /** The tree kept for `path`, taken out (an incremental parse edits it); undefined when none. */
  take(path: string): KeptTree | undefined;
  /** Keep a tree for `path` (the most recently used), dropping the oldest over the budget. */
  keep(path: string, kept: KeptTree): void;
  /** Trees kept now, and the characters of their texts. */
  readonly size: number;
  readonly chars: number;
  /** Parses that started from a kept tree (see parseSource), for the stats and tests. */
  reused: number;
}

/**
 * @example
 * const trees = createTreeKeeper();
 * parseSource("src/a.ts", text, "typescript", false, trees); // keeps the tree
 * parseSource("src/a.ts", edited, "typescript", false, trees); // incremental
 */
export function createTreeKeeper(options: TreeKeeperOptions = DEFAULT_KEPT_TREES): TreeKeeper {
  // insertion order is use order: a key is deleted and set again when used
  const kept = new Map<string, KeptTree>();
  let chars = 0;
  const charsOf = (tree: KeptTree) => tree.text.length + (tree.broken?.text.length ?? 0);
  const drop = (path: string) => {
    const tree = kept.get(path);
    if (!tree) return;
    kept.delete(path);
    chars -= charsOf(tree);
    releaseKeptTree(tree);
  };
  return {
    take(path) {
      const tree = kept.get(path);
      if (!tree) return undefined;
      kept.delete(path);
      chars -= charsOf(tree);
      return tree;
    },
    keep(path, tree) {
      drop(path);
      if (charsOf(tree) > options.chars || options.files < 1) {
        releaseKeptTree(tree);
        return;
      }
      kept.set(path, tree);
      chars += charsOf(tree);
      for (const oldest of kept.keys()) {
        if (kept.size <= options.files && chars <= options.chars) break;
        drop(oldest);
      }
    },
    get size() {
      return kept.size;
    },
    get chars() {
      return chars;
    },
    reused: 0,
  };
}
