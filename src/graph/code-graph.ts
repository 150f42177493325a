/**
 * The code graph: one graphology multi-graph holding files, symbols and
 * external packages, with the parsed facts kept beside it for the retriever
 * (built in the compact form of serialize-graph.ts, restored when read).
 *
 * Node ids: a file is its root-relative path (`src/a.ts`), a symbol is
 * `<file>#<name>` (`src/a.ts#Foo`, methods `src/a.ts#Foo.bar`), an external
 * package is `pkg:<name>` (`pkg:react`, `pkg:node:fs`).
 * Edge keys: `<kind>:<source>-><target>`, so every edge is named the same in
 * every run.
 */
import { createRequire } from "node:module";
import type { MultiDirectedGraph } from "graphology";
import type { DefinitionKind, Diagnostic, ImportKind, LanguageId, ParsedFile } from "../types.js";
import type { TermPostings } from "./term-postings.js";


export type NodeKind = "file" | "symbol" | "package";
export type EdgeKind = "import" | "reexport" | "defines" | "references";

export interface FileNodeAttributes {
  kind: "file";
  language: LanguageId;
  isDeclaration: boolean;
  tokens: number;
  lines: number;
  hasSyntaxErrors: boolean;
}

export interface SymbolNodeAttributes {
  kind: "symbol";
  name: string;
  file: string;
  symbolKind: DefinitionKind;
  exported: boolean;
  startLine: number;
  endLine: number;
}

export interface PackageNodeAttributes {
  kind: "package";
  name: string;
}

export type NodeAttributes = FileNodeAttributes | SymbolNodeAttributes | PackageNodeAttributes;

export interface EdgeAttributes {
  kind: EdgeKind;
  /** import / reexport: the names brought in (exported names in the target; `*` for namespace or star). */
  names?: string[];
  /** import / reexport: every name type-only. */
  typeOnly?: boolean;
  /** import: the strongest way it was imported (static > reexport > require > dynamic > reference). */
  importKind?: ImportKind;
  /** import: set when this edge was derived through a barrel: the barrel file(s) passed through. */
  via?: string[];
  /** references: how many uses. */
  count?: number;
}

export type Graph = MultiDirectedGraph<NodeAttributes, EdgeAttributes>;

/** Marks the compact form (a graph.json written before it holds graphology's export, and is assembled again). */
export const COMPACT_GRAPH_FORMAT = "compact-1";

/**
 * The graph as the index stores it and the retriever walks it: node ids and
 * attributes in arrays, edges as index triples (serialize-graph.ts turns it
 * into graphology's graph and back).
 */
export interface CompactGraph {
  format: typeof COMPACT_GRAPH_FORMAT;
  /** Node ids, in insertion order. */
  nodes: string[];
  /** Their attributes, same order. */
  attributes: NodeAttributes[];
  /** Every edge but `defines`, in insertion order: [source index, target index, attributes]. */
  edges: Array<[number, number, EdgeAttributes]>;
}

/** A file's linked files by weight, by file. */
export interface LinksByFile {
  get(path: string): ReadonlyMap<string, number> | undefined;
}

export interface FileLinks {
  /** file → files it depends on → weight */
  out: LinksByFile;
  /** file → files that depend on it → weight */
  in: LinksByFile;
}

/** A symbol of another file that a file uses, and how many times (a `references` edge). */
export interface SymbolUse {
  name: string;
  file: string;
  count: number;
}

/** Each file's uses of symbols (its `references` edges, in edge order), by file. */
export interface UsesByFile {
  get(path: string): readonly SymbolUse[] | undefined;
}

/** What a retrieval reads of the graph (graph/file-links.ts makes it). */
export interface FileRelations {
  links: FileLinks;
  uses: UsesByFile;
}

export interface GraphStats {
  files: number;
  symbols: number;
  packages: number;
  edges: Record<EdgeKind, number>;
  specifiers: number;
  resolvedSpecifiers: number;
  unresolvedSpecifiers: number;
  externalSpecifiers: number;
  parseErrors: number;
  skippedFiles: number;
  millis: { scan: number; parse: number; resolve: number; graph: number; total: number };
}

/** What {@link buildGraph} returns: the graph, the facts it came from, and what went wrong on the way. */
export interface CodeGraph {
  /** Absolute real path of the root. */
  root: string;
  /**
   * The graph, held in its compact form: what the index stores. Its edges
   * are all but `defines` (a symbol node's file is in its attributes). A
   * graph the index holds is read from it on the first read of this
   * property.
   */
  readonly compact: CompactGraph;
  /**
   * The same graph as a graphology graph (what the renderers read), made
   * from `compact` on the first read of this property, once: a caller that
   * never reads it never pays for it.
   */
  graph: Graph;
  /** Parsed facts by root-relative path. */
  files: Map<string, ParsedFile>;
  /**
   * Which files hold each term, and each file's field lengths (what the
   * lexical index needs of every file): read from the index when the facts
   * are the stored ones, else built from `files` on the first read.
   */
  readonly postings: TermPostings;
  /**
   * The file links and symbol uses (what a retrieval reads of the graph):
   * read from the index when the graph is the stored one, else made from
   * `compact` on the first read. A warm query reads no more of the graph.
   */
  readonly relations: FileRelations;
  diagnostics: Diagnostic[];
  stats: GraphStats;
  /** What the persistent index did (set by {@link buildGraph}; changes from run to run, so kept out of `stats`). */
  cache?: CacheStats;
}

/** How a build used the persistent index (see src/store/). */
export interface CacheStats {
  /** The store folder, undefined when the build ran without one. */
  dir?: string;
  /** True when a usable index was found there. */
  found: boolean;
  /** Files whose facts came from the index without parsing. */
  reused: number;
  /** Of those, files re-read and re-hashed because their size or mtime changed (same content). */
  rehashed: number;
  /** Files parsed in this build. */
  parsed: number;
  /** Files whose import specifiers were resolved in this build (the others kept their stored targets). */
  resolved: number;
  /** True when the graph was loaded from the index instead of being assembled. */
  graphReused: boolean;
  /**
   * Set when the stored graph was updated in place instead of assembled:
   * the files whose edges were computed again (the changed ones and those
   * whose edges read them); every other file kept its stored edges.
   */
  graphUpdated?: number;
  /** True when the index was written. */
  saved: boolean;
  /** Set when the index had changes to write and could not write them: why (the warning's message). */
  writeError?: string;
  /** Worker threads used for parsing (0: this thread). */
  workers: number;
}

/**
 * graphology, loaded on the first graph made: a warm query reads the graph's
 * relations from the index and never makes one (loading graphology took
 * 30-70 ms of such a process).
 */
const require = createRequire(import.meta.url);
let graphClass: typeof MultiDirectedGraph | undefined;

export function createEmptyGraph(): Graph {
  graphClass ??= (require("graphology") as { MultiDirectedGraph: typeof MultiDirectedGraph }).MultiDirectedGraph;
  return new graphClass<NodeAttributes, EdgeAttributes>({ allowSelfLoops: true });
}

export function symbolId(file: string, name: string): string {
  return `${file}#${name}`;
}

export function edgeKey(kind: EdgeKind, source: string, target: string): string {
  return `${kind}:${source}->${target}`;
}
