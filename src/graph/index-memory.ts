/**
 * The persistent index kept in memory by a long-running process (the
 * daemon, the MCP server) between builds of the same root. With it,
 * buildGraph neither reads the index back from disk nor restores the graph
 * from its stored form: it starts from the previous build's entries and
 * graph (restored once, when first read). The index is still written to
 * disk, but later: the build leaves the write in the memory and the process calls
 * `flushIndexMemory` once it has answered.
 *
 * What a build keeps here is never changed afterwards: the next build makes
 * new entries and a new graph, and compares them with these.
 *
 * @example
 * const memory = createIndexMemory();
 * const first = await buildGraph(root, { cacheDir, memory }); // reads the disk index once
 * await flushIndexMemory(memory);
 * const next = await buildGraph(root, { cacheDir, memory }); // from memory: a stat of every file, no read
 */
import { ForeignFolderError, type IndexStore, type StoreHeader } from "../store/index.js";
import { createTreeKeeper, DEFAULT_KEPT_TREES, type TreeKeeper, type TreeKeeperOptions } from "../parse/kept-trees.js";
import type { Diagnostic, ParsedFile, ScanResult } from "../types.js";
import type { CacheStats, GraphStats } from "./code-graph.js";
import { prepareGraphUpdate } from "./assemble-graph.js";
import type { LazyGraph } from "./serialize-graph.js";
import type { TermPostings } from "./term-postings.js";

/** The graph of the latest build with what an update in place needs. */
export interface RememberedGraph {
  /** The key it was assembled for (see keyOfGraph in build-graph.ts). */
  key: string;
  /** The graph in its compact form, restored once when read (the same restored graph for every build that reuses it). */
  graph: LazyGraph;
  /** See StoredGraph.reads. */
  reads?: number[][];
  cyclesCut?: number;
  /** See StoredGraph.cycleFiles. */
  cycleFiles?: number[] | undefined;
}

/** What an update in place needs of a graph besides its compact form (see RememberedGraph). */
export type GraphReads = Pick<RememberedGraph, "reads" | "cyclesCut" | "cycleFiles">;

/** The reads of graphs read from graph.json on demand, noted once read (by the lazy graph they came with). */
const readsOnDemand = new WeakMap<LazyGraph, GraphReads>();

/** Note what came with a graph read from disk on demand (see readsOf). */
export function noteGraphReads(graph: LazyGraph, reads: GraphReads): void {
  readsOnDemand.set(graph, reads);
}

/**
 * A remembered graph's reads: its own, else those noted when it was read
 * from disk on demand (a build that reused the stored graph unread keeps
 * none of its own).
 */
export function readsOf(remembered: RememberedGraph): GraphReads {
  if (remembered.reads !== undefined) return { reads: remembered.reads, cyclesCut: remembered.cyclesCut, cycleFiles: remembered.cycleFiles };
  return readsOnDemand.get(remembered.graph) ?? { cyclesCut: remembered.cyclesCut, cycleFiles: remembered.cycleFiles };
}

/** The scan of the latest build, for a refresh that a watch tells which files changed (see BuildGraphOptions.changedPaths). */
export interface RememberedScan {
  /** The scan options it was made with (see keyOfScanOptions in build-graph.ts). */
  key: string;
  result: ScanResult;
  /** The config file names of each folder the walk read (for the resolution fingerprint). */
  configNames?: ReadonlyMap<string, string[]>;
}

/** The latest build of one store folder. */
export interface RememberedIndex {
  cacheDir: string;
  header: StoreHeader;
  store: IndexStore;
  graph?: RememberedGraph;
  scan?: RememberedScan;
  /** The term postings of its facts, made when first asked. */
  postings?: RememberedPostings;
  /** The memory's watch mark taken before its scan (see WatchWord): the changes since are the ones it has not seen. */
  watchMark?: number;
  /** What the build's result was made of: handed back when a trusted watch says nothing changed since. */
  built?: RememberedBuild;
}

/** A build's result as buildGraph made it (see codeGraphOf in build-graph.ts). */
export interface RememberedBuild {
  root: string;
  graph: LazyGraph;
  storedRelations: Uint8Array | undefined;
  postings: RememberedPostings;
  files: readonly ParsedFile[];
  diagnostics: Diagnostic[];
  stats: GraphStats;
  cache: CacheStats;
}

/** A watch's word on what changed between builds (see retrieve/resident-index.ts). */
export interface WatchWord {
  /**
   * The root-relative paths changed since `mark` (a mark this gave before),
   * or undefined when the watch cannot say (it is not trusted, an event
   * named nothing, a folder is watched only since, or there is no mark);
   * and the mark of now. It first lets the events already queued arrive.
   */
  changesSince(mark: number | undefined): Promise<{ paths: readonly string[] | undefined; mark: number }>;
}

/** Postings made when first asked, after which the function that made them (and the build it holds) is let go. */
export interface RememberedPostings {
  get(): TermPostings;
}

/**
 * @example
 * const remembered = rememberedPostings(() => buildTermPostings(files));
 * remembered.get() === remembered.get(); // made once
 */
export function rememberedPostings(make: () => TermPostings): RememberedPostings {
  let pending: (() => TermPostings) | undefined = make;
  let value: TermPostings | undefined;
  return {
    get() {
      if (pending) {
        value = pending();
        pending = undefined;
      }
      return value as TermPostings;
    },
  };
}

export interface IndexMemory {
  /** The latest build; undefined before the first. */
  latest?: RememberedIndex;
  /** The index write the latest build left to do, if any. */
  pendingWrite?: () => Promise<void>;
  /** The trees of the files parsed last (see kept-trees.ts): their next parse is incremental. */
  trees: TreeKeeper;
  /** A watch of the root whose word spares a build's walk and stats (a resident process's; see BuildGraphOptions.changedPaths). */
  watch?: WatchWord;
}

/**
 * An empty memory: the first build with it reads the index from disk.
 * `trees` sets the budget of kept trees (see DEFAULT_KEPT_TREES).
 */
export function createIndexMemory(trees: TreeKeeperOptions = DEFAULT_KEPT_TREES): IndexMemory {
  return { trees: createTreeKeeper(trees) };
}

/** The remembered build of `cacheDir` when it was made by this code for the same root, else undefined. */
export function recallIndex(memory: IndexMemory, cacheDir: string, header: StoreHeader): RememberedIndex | undefined {
  const latest = memory.latest;
  if (!latest || latest.cacheDir !== cacheDir) return undefined;
  return JSON.stringify(latest.header) === JSON.stringify(header) ? latest : undefined;
}

/**
 * Write the index the latest build left in memory (atomically, as a build
 * without memory does). Resolves to a warning when the folder could not be
 * written; the memory keeps the index, so the next build is still warm.
 *
 * @example
 * const warning = await flushIndexMemory(memory);
 * if (warning) log(warning.message);
 */
export async function flushIndexMemory(memory: IndexMemory): Promise<Diagnostic | undefined> {
  const write = memory.pendingWrite;
  if (!write) return undefined;
  memory.pendingWrite = undefined;
  try {
    await write();
    return undefined;
  } catch (error) {
    return indexWriteWarning(memory.latest?.cacheDir ?? "the index folder", error);
  }
}

/**
 * Make now, while idle, what the next build's update in place of the
 * remembered graph will read (see prepareGraphUpdate); nothing when there is
 * no graph in memory.
 *
 * @example
 * await flushIndexMemory(memory);
 * prepareIndexMemory(memory); // the next edit's update starts sooner
 */
export function prepareIndexMemory(memory: IndexMemory): void {
  const graph = memory.latest?.graph?.graph;
  if (graph) prepareGraphUpdate(graph.compact);
}

/** The warning for an index that could not be written to `cacheDir`. */
export function indexWriteWarning(cacheDir: string, error: unknown): Diagnostic {
  if (error instanceof ForeignFolderError) return { kind: "warning", message: `store: not writing the index to ${cacheDir}: ${error.message}` };
  const code = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : "error");
  return { kind: "warning", message: `store: could not write the index to ${cacheDir} (${code}; check the folder is writable, or pass --no-cache)` };
}
