/**
 * The script of the graph stages: index session → scan → reuse → parse →
 * resolve → assemble or update → commit. Each stage is a module of its own:
 *
 * - index-session.ts: what the last build left (in a resident process's
 *   memory or on disk in `cacheDir`), what of it can be reused, and the
 *   commit of the new state; without `cacheDir`, nothing is read or written;
 * - reuse-facts.ts: a file whose size and mtime match its entry keeps its
 *   facts unread; one whose stat changed is re-parsed only when its content
 *   hash changed; a renamed file keeps its facts;
 * - parse-changed.ts: the rest parsed, on workers when there are many;
 * - resolve-imports.ts: a file keeps its import targets while the file set,
 *   the config files and its own specifiers are unchanged;
 * - assemble-or-update.ts: the stored graph when nothing it was built from
 *   changed, an update in place for the same file set, else assembled.
 *
 * The parser and the resolver (tree-sitter, TypeScript) are loaded only when
 * something must be parsed or resolved, so a warm run never pays for them.
 */
import { prestartParseWorkers, releasePrestartedWorkers } from "../parse/parse-files.js";
import type { Diagnostic, ParsedFile, ScanOptions } from "../types.js";
import { byCodeUnit } from "../util/sort.js";
import { assembleGraphWithReads } from "./assemble-graph.js";
import { assembleOrUpdate, keyOfGraph, type GraphStage } from "./assemble-or-update.js";
import type { CacheStats, CodeGraph, CompactGraph, EdgeKind, Graph, GraphStats } from "./code-graph.js";
import { rememberedPostings, type IndexMemory, type RememberedBuild } from "./index-memory.js";
import { openIndexSession } from "./index-session.js";
import { chooseParseWorkers, parseChanged, PARALLEL_MIN_FILES } from "./parse-changed.js";
import { resolveImports } from "./resolve-imports.js";
import { reuseFacts } from "./reuse-facts.js";
import { buildFileRelations, decodeFileRelations, encodeFileRelations, type FileRelations } from "./file-links.js";
import type { LazyGraph } from "./serialize-graph.js";
import { buildTermPostings, encodeTermPostings, updateTermPostings, type TermPostings } from "./term-postings.js";

export interface BuildGraphOptions extends ScanOptions {
  /** Called as files are parsed (or taken from the index): files done, files in all. */
  onProgress?: (done: number, total: number) => void;
  /**
   * Folder of the persistent index for this root (created when missing;
   * nothing is written outside it). Default: none, so the build reads
   * everything and writes nothing. The CLI passes the user cache folder
   * (see `defaultCacheDir`).
   */
  cacheDir?: string;
  /**
   * The index kept in memory by a long-running process (see
   * index-memory.ts): the build starts from it instead of reading the index
   * back, and leaves the index write in it for `flushIndexMemory`. Only
   * with `cacheDir`. When nothing changed, the graph returned is the
   * previous build's object: treat it as read-only.
   */
  memory?: IndexMemory;
  /**
   * With `memory`: only the files at these root-relative paths can have
   * changed since the remembered build (a watch's word). Those are looked
   * at again and the rest of that build's scan is reused, without reading
   * a folder; when one of them is not a file of it (a new file, a folder, a
   * config file) the root is scanned as usual. A resident process's
   * refresh on a watch event; a command checks every file, unless the
   * memory's own watch is trusted to name each change (see
   * IndexMemory.watch, which this option goes before).
   */
  changedPaths?: readonly string[];
  /**
   * Worker threads for parsing. Default: when more than 200 files or 4 MB
   * are to be parsed, min(2, cores) parsing threads — this thread and
   * one worker on 2 cores — else 0 (this thread alone).
   */
  workers?: number;
}

/**
 * Build the import and symbol graph of a codebase.
 *
 * @example
 * import { buildGraph } from "graph-retrieve";
 * const { graph, stats, diagnostics } = await buildGraph("./my-project");
 * console.log(stats.files, graph.outNeighbors("src/index.ts"));
 * // with the persistent index: the second build re-parses only changed files
 * const again = await buildGraph("./my-project", { cacheDir: "/tmp/gr-index" });
 * again.cache; // { reused: 250, parsed: 2, … }
 */
export async function buildGraph(root: string, options: BuildGraphOptions = {}): Promise<CodeGraph> {
  try {
    return await buildGraphNow(root, options);
  } finally {
    releasePrestartedWorkers();
  }
}

async function buildGraphNow(root: string, options: BuildGraphOptions): Promise<CodeGraph> {
  const started = performance.now();
  // ---- the index: what the last build left, in memory or on disk (none without cacheDir)
  const session = await openIndexSession(root, options.cacheDir, options.memory);

  // ---- scan: the scan takes a file the index holds, with the same size and mtime, from a stat alone. With no
  // index every file is parsed: once the walk has found enough files for a worker, it starts and boots while the
  // scan goes on (date-fns cold, 2,558 files: -40 ms); unused, it is ended after
  const scanStarted = performance.now();
  const scanWallClock = Date.now();
  const parsesAll = options.workers === undefined && !session.found;
  const prestart = (count: number) => {
    if (count > PARALLEL_MIN_FILES) prestartParseWorkers(chooseParseWorkers(count, 0) - 1);
  };
  const scan = await session.scan(root, options, parsesAll ? { onCandidates: prestart } : {});
  const scanned = performance.now();
  // a resident process's watch says nothing changed since its last build: that build's result holds as it was
  // (rollup, 12,724 files: ~55 ms of a daemon's query, the reuse, resolution and graph key, spared)
  const remembered = scan.unchanged ? session.rememberedBuild() : undefined;
  if (remembered) return codeGraphOf(unchangedBuild(remembered, Math.round(scanned - scanStarted), Math.round(performance.now() - started)));
  const files = scan.result.files;
  let done = 0;
  const tick = () => options.onProgress?.(++done, files.length);

  // ---- reuse, then parse what the index could not give
  const reused = await reuseFacts(files, session.previous, scanWallClock, tick);
  const parsed = await parseChanged(scan.result, reused, {
    previous: session.previous,
    scanWallClock,
    done: tick,
    ...(options.workers !== undefined ? { workers: options.workers } : {}),
    ...(options.memory ? { memory: options.memory } : {}),
  });
  const { parsedFiles } = parsed;
  const { entries } = reused;
  const parsedAt = performance.now();

  // ---- resolve
  const stored = session.resolution(scan, parsedFiles.map((f) => f.path));
  const resolved = await resolveImports(scan.result.root, parsedFiles, entries, session.previous, stored, parsed.early);
  const resolvedAt = performance.now();

  // ---- assemble, or update the previous graph
  // every file taken from the index as it was, targets and all: the key is the one the index was written with
  // (rollup, 12,724 files: ~15 ms of each warm query spent joining and hashing 1.8 MB of keys)
  const previousCount = Object.keys(session.previous).length;
  const asStored = session.graphKey !== undefined && reused.jobs.length === 0 && resolved.resolvedAgain === 0 && previousCount === entries.size;
  const graphKey = !session.keeps ? undefined : asStored ? session.graphKey : keyOfGraph(parsedFiles, entries);
  // the graph the index names, unchanged: read from graph.json only when something reads it (a retrieval reads its
  // relations, stored with the facts; effect@4.1.0: 4.4 MB of JSON a warm query no longer parses)
  const storedRelations = graphKey !== undefined && graphKey === session.graphKey && session.graphCounts ? session.sections?.relations : undefined;
  const onDemand = storedRelations ? session.storedGraphOnDemand(() => assembleGraphWithReads(parsedFiles, resolved.targets).lazy.compact) : undefined;
  const previousGraph = !onDemand && graphKey !== undefined ? await session.previousGraph() : undefined;
  const built: GraphStage = onDemand
    ? { graph: onDemand }
    : assembleOrUpdate(parsedFiles, resolved.targets, entries, session.previous, previousGraph, { graphKey, previousKey: session.graphKey });
  const counts = onDemand && session.graphCounts ? session.graphCounts : countCompact(built.graph.compact);
  const finished = performance.now();

  // ---- commit: written when anything in the index changed (with memory: remembered now, written when flushed)
  const changed =
    !session.found ||
    reused.jobs.length > 0 ||
    reused.rehashed > reused.rehashedAsBefore ||
    resolved.resolvedAgain > 0 ||
    built.assembled !== undefined ||
    previousCount !== entries.size;
  // the term postings, on first use: the last build's when the facts are its facts; else the last build's updated
  // with the facts of the files whose content changed or that are new (rollup, one file edited: ~0.6 s of every
  // file's vocabulary not read); else built from every file's facts
  // (one memo, which the index memory keeps too: once made, the build it was made from is let go)
  const postingsMemo = rememberedPostings((): TermPostings => {
    const last = session.previousPostings();
    if (last && !changed && last.paths.length === parsedFiles.length) return last;
    const isFresh = (path: string) => !Object.hasOwn(session.previous, path) || session.previous[path]?.hash !== entries.get(path)?.hash;
    return (last && updateTermPostings(last, parsedFiles, isFresh)) ?? buildTermPostings(parsedFiles);
  });
  const postingsOf = () => postingsMemo.get();
  const commit = await session.commit({
    changed,
    graphCounts: counts,
    entries,
    resolution: { ...(stored.fingerprint !== undefined ? { fingerprint: stored.fingerprint } : {}), diagnostics: resolved.resolverDiagnostics },
    ...(graphKey !== undefined ? { graphKey } : {}),
    graph: built.graph,
    ...(built.assembled ? { assembled: built.assembled } : {}),
    ...(previousGraph ? { previousGraph } : {}),
    postings: postingsMemo,
    sections: () => ({ postings: encodeTermPostings(postingsOf()), relations: storedRelations ?? encodeFileRelations(built.graph.compact) }),
  });

  const diagnostics: Diagnostic[] = [
    ...scan.result.diagnostics,
    ...(session.warning ? [session.warning] : []),
    ...parsed.diagnostics,
    ...resolved.diagnostics,
    ...(commit.warning ? [commit.warning] : []),
  ];
  diagnostics.sort((a, b) => byCodeUnit(a.path ?? "", b.path ?? "") || byCodeUnit(a.message, b.message));
  const { edges, symbols, packages } = counts;
  const stats: GraphStats = {
    files: parsedFiles.length,
    symbols,
    packages,
    edges,
    specifiers: resolved.specifiers,
    resolvedSpecifiers: resolved.specifiers - resolved.unresolved - resolved.external,
    unresolvedSpecifiers: resolved.unresolved,
    externalSpecifiers: resolved.external,
    parseErrors: parsedFiles.filter((f) => f.hasSyntaxErrors).length,
    skippedFiles: scan.result.diagnostics.filter((d) => d.kind === "skipped").length,
    millis: {
      scan: Math.round(scanned - scanStarted),
      parse: Math.round(parsedAt - scanned),
      resolve: Math.round(resolvedAt - parsedAt),
      graph: Math.round(finished - resolvedAt),
      total: Math.round(performance.now() - started),
    },
  };
  const cache: CacheStats = {
    dir: options.cacheDir,
    found: session.found,
    reused: parsedFiles.length - parsed.parsed,
    rehashed: reused.rehashed,
    parsed: reused.jobs.length,
    resolved: resolved.resolvedAgain,
    graphReused: built.assembled === undefined,
    ...(built.updated !== undefined ? { graphUpdated: built.updated } : {}),
    saved: commit.saved,
    ...(commit.warning ? { writeError: commit.warning.message } : {}),
    workers: parsed.workers,
  };
  const made: RememberedBuild = { root: scan.result.root, graph: built.graph, storedRelations, postings: postingsMemo, files: parsedFiles, diagnostics, stats, cache };
  // kept for the next build a trusted watch says nothing changed for (the memory's latest is this build's own)
  if (options.memory?.latest && options.memory.latest.graph?.graph === built.graph && session.keeps) options.memory.latest.built = made;
  return codeGraphOf(made);
}

/** The remembered build, as a build that found nothing changed would say it: every file reused, nothing parsed, resolved or written. */
function unchangedBuild(made: RememberedBuild, scanMillis: number, totalMillis: number): RememberedBuild {
  const { graphUpdated: _updated, writeError: _error, ...cache } = made.cache;
  return {
    ...made,
    stats: { ...made.stats, millis: { scan: scanMillis, parse: 0, resolve: 0, graph: 0, total: totalMillis } },
    cache: { ...cache, found: true, reused: made.files.length, rehashed: 0, parsed: 0, resolved: 0, graphReused: true, saved: false, workers: 0 },
  };
}

/**
 * The build's result, made apart from the build: its getters close over
 * what they read and nothing else of the build (a closure in the build's
 * scope would keep the whole scope, and with it the index session and the
 * graph before this one).
 */
function codeGraphOf(made: RememberedBuild): CodeGraph {
  const { graph, storedRelations, postings } = made;
  const relationsOf = (): FileRelations => {
    let relations = relationsByGraph.get(graph);
    if (!relations) {
      relations = (storedRelations ? decodeFileRelations(storedRelations) : undefined) ?? buildFileRelations(graph.compact);
      relationsByGraph.set(graph, relations);
    }
    return relations;
  };
  return {
    root: made.root,
    get compact(): CompactGraph {
      return graph.compact;
    },
    get relations(): FileRelations {
      return relationsOf();
    },
    get graph(): Graph {
      return graph.graph();
    },
    files: fileMapOf(made.files),
    get postings(): TermPostings {
      return postings.get();
    },
    diagnostics: made.diagnostics,
    stats: made.stats,
    cache: made.cache,
  };
}

/** Each build's files by path: an unchanged build hands back the same files, and with them the same map (treat it as read-only). */
const fileMaps = new WeakMap<readonly ParsedFile[], Map<string, ParsedFile>>();

function fileMapOf(files: readonly ParsedFile[]): Map<string, ParsedFile> {
  let map = fileMaps.get(files);
  if (!map) fileMaps.set(files, (map = new Map(files.map((f) => [f.path, f]))));
  return map;
}

/**
 * The relations of graphs still in use: a resident process's build that
 * finds nothing changed hands back the same graph, and its retrievals then
 * find the relations (and what they keep by them) made already.
 */
const relationsByGraph = new WeakMap<LazyGraph, FileRelations>();

/** Edges by kind, symbol and package nodes of the graph a compact form restores to (one `defines` edge per symbol node). */
function countCompact(compact: CompactGraph): { edges: Record<EdgeKind, number>; symbols: number; packages: number } {
  const edges: Record<EdgeKind, number> = { import: 0, reexport: 0, defines: 0, references: 0 };
  for (const edge of compact.edges) edges[edge[2].kind]++;
  let symbols = 0;
  let packages = 0;
  for (const attributes of compact.attributes) {
    if (attributes.kind === "symbol") symbols++;
    else if (attributes.kind === "package") packages++;
  }
  edges.defines += symbols;
  return { edges, symbols, packages };
}

