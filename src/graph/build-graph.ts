/**
 * The script of the graph stages: scan → (index) → parse → resolve →
 * assemble (→ index).
 *
 * Without `cacheDir` every file is read and parsed and nothing is written.
 * With it, the persistent index in that folder (src/store/) is used and
 * refreshed: a file whose size and mtime match its entry keeps its facts
 * unread; one whose stat changed is re-read and re-parsed only when its
 * content hash changed; a file keeps its import targets while the file set,
 * the config files and its own specifiers are unchanged; the graph itself is
 * loaded when nothing it was built from changed.
 *
 * The parser and the resolver (tree-sitter, TypeScript) are loaded only when
 * something must be parsed or resolved, so a warm run never pays for them.
 */
import { availableParallelism } from "node:os";
import { readFile } from "node:fs/promises";
import { parseFiles, prestartParseWorkers, releasePrestartedWorkers, type ParseJob, type ParseOutcome } from "../parse/parse-files.js";
import type { Resolver } from "../resolve/index.js";
import { rescanFiles, resolveScanRoot, scanFiles } from "../scan/index.js";
import {
  configFileNames,
  createStoreHeader,
  loadIndexStore,
  loadStoredGraph,
  resolutionFingerprint,
  saveIndexStore,
  type IndexStore,
  type StoredFile,
  type StoredGraph,
} from "../store/index.js";
import type { Diagnostic, ImportFact, ParsedFile, ScanOptions, ScannedFile } from "../types.js";
import { hashContent } from "../util/content-hash.js";
import { byCodeUnit } from "../util/sort.js";
import { assembleGraphWithReads, asksAnyOf, changedExportNames, type AssembledGraph } from "./assemble-graph.js";
import type { CacheStats, CodeGraph, EdgeKind, Graph, GraphStats } from "./code-graph.js";
import { indexWriteWarning, recallIndex, type IndexMemory, type RememberedGraph } from "./index-memory.js";
import { holdsTogether, isCompactGraph, lazyGraph, rememberCompactGraph, type CompactGraph, type LazyGraph } from "./serialize-graph.js";

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
   * refresh on a watch event; a command checks every file.
   */
  changedPaths?: readonly string[];
  /**
   * Worker threads for parsing. Default: when more than 200 files or 4 MB
   * are to be parsed, min(2, cores) parsing threads — this thread and
   * one worker on 2 cores — else 0 (this thread alone).
   */
  workers?: number;
}

/** Above this many files to parse, or this many bytes, workers pay for their start-up. */
export const PARALLEL_MIN_FILES = 200;
export const PARALLEL_MIN_BYTES = 4 * 1024 * 1024;
/** Worker threads at most (the parse is CPU-bound; more than the cores only adds memory). */
export const MAX_PARSE_WORKERS = 2;
/**
 * A file modified this close to the scan may change again within the same
 * mtime tick after it is read: its entry gets no mtime, so the next run
 * re-hashes it instead of trusting the stat (git's "racily clean" files).
 */
const RACY_MTIME_MS = 2_000;

/** Workers to use for `bytes` in `files` files to parse. */
export function chooseParseWorkers(files: number, bytes: number, requested?: number): number {
  if (requested !== undefined) return Math.max(0, Math.floor(requested));
  if (files <= PARALLEL_MIN_FILES && bytes <= PARALLEL_MIN_BYTES) return 0;
  return Math.min(MAX_PARSE_WORKERS, availableParallelism());
}

/** The specifiers of a file as one string: same key → the same resolution (given the same fingerprint). */
function importsKey(imports: readonly ImportFact[]): string {
  return imports.map((fact) => `${fact.kind} ${fact.specifier}`).join("\n");
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
  // the index first: the scan takes a file it holds, with the same size and mtime, from a stat alone
  const cacheDir = options.cacheDir;
  const header = cacheDir !== undefined ? createStoreHeader(await resolveScanRoot(root)) : undefined;
  const recalled = options.memory && cacheDir !== undefined && header ? recallIndex(options.memory, cacheDir, header) : undefined;
  const loaded = recalled ? { store: recalled.store, found: true } : cacheDir !== undefined && header ? await loadIndexStore(cacheDir, header) : undefined;
  const previous: IndexStore["files"] = loaded?.store.files ?? {};
  const scanStarted = performance.now();
  const scanWallClock = Date.now();
  // with no index to start from, every file is parsed: once the walk has found enough files for a worker, it
  // starts and boots while the scan goes on (date-fns cold, 2,558 files: -40 ms); unused, it is ended after
  const parsesAll = options.workers === undefined && !loaded?.found;
  // a watch's word on what changed: the remembered scan with those files looked at again (effect: the scan
  // of 363 files, 5-9 ms of a daemon's refresh, skipped)
  const scanKey = keyOfScanOptions(options);
  const lastScan = options.changedPaths && recalled?.scan?.key === scanKey ? recalled.scan : undefined;
  const rescanned = lastScan && options.changedPaths ? rescanFiles(lastScan.result, options.changedPaths, options) : undefined;
  // the config files of each folder the walk reads: the resolution fingerprint below needs them, and reading
  // the folders again cost date-fns (200 folders) ~12 ms of each warm run
  const walkedConfigNames = !rescanned && cacheDir !== undefined ? new Map<string, string[]>() : undefined;
  const configNames: ReadonlyMap<string, string[]> | undefined = rescanned ? lastScan?.configNames : walkedConfigNames;
  const scan = rescanned ?? await scanFiles(root, options, {
    onFolder: walkedConfigNames && ((path, entries) => void walkedConfigNames.set(path, configFileNames(entries))),
    known: (path) => (Object.hasOwn(previous, path) ? previous[path] : undefined),
    onCandidates: parsesAll
      ? (count) => {
          if (count > PARALLEL_MIN_FILES) prestartParseWorkers(chooseParseWorkers(count, 0) - 1);
        }
      : undefined,
  });
  const scanned = performance.now();
  const diagnostics: Diagnostic[] = [...scan.diagnostics];
  if (loaded && "warning" in loaded && loaded.warning) diagnostics.push(loaded.warning);

  // ---- facts: from the index when the file is unchanged, else parsed
  const entries = new Map<string, StoredFile>();
  const total = scan.files.length;
  let done = 0;
  let rehashed = 0;
  let rehashedAsBefore = 0;
  const jobs: ParseJob[] = [];
  let jobBytes = 0;
  const gone = goneEntriesByHash(previous, scan.files);
  for (const file of scan.files) {
    const entry = previous[file.path];
    if (entry && entry.mtimeMs === file.mtimeMs && entry.size === file.size && entry.parsed.isDeclaration === file.isDeclaration) {
      entries.set(file.path, entry);
      options.onProgress?.(++done, total);
      continue;
    }
    if (entry && entry.parsed.isDeclaration === file.isDeclaration) {
      const hash = await hashFile(file);
      if (hash === entry.hash) {
        const mtimeMs = stableMtime(file, scanWallClock);
        // the same bytes with an mtime still too recent to store (a file edited in the last seconds, checked
        // again): the entry as it was, nothing to write
        if (mtimeMs === entry.mtimeMs && file.size === entry.size) {
          entries.set(file.path, entry);
          rehashedAsBefore++;
        } else {
          entries.set(file.path, { ...entry, size: file.size, mtimeMs });
        }
        rehashed++;
        options.onProgress?.(++done, total);
        continue;
      }
    }
    if (!entry && gone.size > 0) {
      // a renamed or copied file: the facts of a vanished file with the same bytes and extension
      const hash = await hashFile(file);
      const twin = hash !== undefined ? gone.get(`${extensionOf(file.path)}\u0000${hash}`) : undefined;
      if (twin && twin.parsed.isDeclaration === file.isDeclaration) {
        entries.set(file.path, { ...twin, size: file.size, mtimeMs: stableMtime(file, scanWallClock), parsed: { ...twin.parsed, path: file.path }, targets: undefined, unresolved: undefined });
        rehashed++;
        options.onProgress?.(++done, total);
        continue;
      }
    }
    jobs.push({ path: file.path, absPath: file.absPath, language: file.language, isDeclaration: file.isDeclaration, size: file.size });
    jobBytes += file.size;
  }
  const threads = jobs.length > 0 ? chooseParseWorkers(jobs.length, jobBytes, options.workers) : 0;
  // by default this thread parses too, with one worker fewer: each worker isolate costs CPU of its own
  // (modules, compiled queries, JIT warm-up, its own GC). Effect cold on 2 cores: 1 worker + this thread
  // 3.8 s wall / 6.6 s CPU, against 2 workers 4.3 s / 7.5 s
  const help = options.workers === undefined && threads > 1;
  const workers = help ? threads - 1 : threads;
  // a parse big enough for workers: each new file's imports are resolved as soon as its facts come back,
  // between two files this thread parses, instead of all after the parse (and TypeScript, when a specifier
  // needs it, is loaded then too). Against the scanned files: kept when every file could be read
  const early = workers > 0 ? startEarlyResolution(scan.root, scan.files.map((f) => f.path)) : undefined;
  const onParsed = (outcome: ParseOutcome) => {
    if (early && outcome.errorCode === undefined && previous[outcome.path] === undefined) early.add(outcome.parsed);
    options.onProgress?.(++done, total);
  };
  const outcomes = await parseFiles(jobs, { workers, helpInThread: help, onParsed, ...(options.memory ? { trees: options.memory.trees } : {}) });
  const earlyResolved = outcomes.every((o) => o.errorCode === undefined) ? await early?.finish() : undefined;
  const scannedByPath = new Map(scan.files.map((f) => [f.path, f]));
  for (const outcome of outcomes) {
    if (outcome.errorCode !== undefined) {
      diagnostics.push({ kind: "skipped", path: outcome.path, message: `skipped: cannot read the file (${outcome.errorCode})` });
      continue;
    }
    const file = scannedByPath.get(outcome.path) as ScannedFile;
    entries.set(outcome.path, { size: file.size, mtimeMs: stableMtime(file, scanWallClock), hash: outcome.hash, parsed: outcome.parsed });
  }
  const parsedFiles: ParsedFile[] = [];
  for (const file of scan.files) {
    const entry = entries.get(file.path);
    if (!entry) continue;
    parsedFiles.push(entry.parsed);
    if (entry.parsed.hasSyntaxErrors) {
      diagnostics.push({
        kind: "parse-error",
        path: file.path,
        message: "parse-error: syntax errors; facts completed with the TypeScript parser (check the file compiles)",
      });
    }
  }
  const parsedAt = performance.now();

  // ---- resolve: stored targets while the file set, the configs and the file's specifiers are unchanged
  const paths = parsedFiles.map((f) => f.path);
  const fingerprint = cacheDir !== undefined ? resolutionFingerprint(scan.root, paths, configNames) : undefined;
  const sameFingerprint = fingerprint !== undefined && loaded?.store.resolution?.fingerprint === fingerprint;
  const toResolve: ParsedFile[] = [];
  for (const parsed of parsedFiles) {
    const entry = entries.get(parsed.path) as StoredFile;
    const before = previous[parsed.path];
    // an entry taken from the index as it was holds the very facts: nothing to compare (date-fns: ~5 ms a run)
    const keep =
      sameFingerprint &&
      before?.targets !== undefined &&
      before.targets.length === parsed.imports.length &&
      (before.parsed === parsed || importsKey(before.parsed.imports) === importsKey(parsed.imports));
    if (keep) {
      entry.targets = before.targets;
      entry.unresolved = before.unresolved;
    } else toResolve.push(parsed);
  }
  let resolverDiagnostics: Diagnostic[] = loaded?.store.resolution?.diagnostics ?? [];
  if (toResolve.length > 0) {
    const resolver = earlyResolved?.resolver ?? (await import("../resolve/index.js")).createResolver(scan.root, paths);
    for (const parsed of toResolve) {
      const entry = entries.get(parsed.path) as StoredFile;
      const { targets, unresolved } = earlyResolved?.byPath.get(parsed.path) ?? resolveFileImports(resolver, parsed);
      // a new entry, never the stored one changed in place: the update below compares the two
      entries.set(parsed.path, { ...entry, targets, unresolved });
    }
    const fresh = [...resolver.diagnostics];
    resolverDiagnostics = toResolve.length === parsedFiles.length ? fresh : mergeDiagnostics(resolverDiagnostics, fresh);
  }
  const resolved = new Map<string, Array<string | undefined>>();
  let specifiers = 0;
  let unresolved = 0;
  let external = 0;
  for (const parsed of parsedFiles) {
    const entry = entries.get(parsed.path) as StoredFile;
    const targets = (entry.targets ?? []).map((t) => t ?? undefined);
    resolved.set(parsed.path, targets);
    const notes = new Map(entry.unresolved ?? []);
    for (const [index, fact] of parsed.imports.entries()) {
      specifiers++;
      const target = targets[index];
      if (target?.startsWith("pkg:")) external++;
      else if (target === undefined) {
        unresolved++;
        // the line it is on now: an edit above it moves it without changing the resolution
        const diagnostic = notes.get(index);
        if (diagnostic) diagnostics.push({ ...diagnostic, message: `${diagnostic.message} on line ${fact.line}` });
      }
    }
  }
  diagnostics.push(...resolverDiagnostics);
  const resolvedAt = performance.now();

  // ---- graph: loaded when its facts and targets are the stored ones; else, for the same file set,
  // the stored graph with the edges of the changed files and of the files that read them recomputed;
  // else assembled
  const graphKey = cacheDir !== undefined ? keyOfGraph(parsedFiles, entries) : undefined;
  // the graph in its compact form: what the index stores and the retriever reads; graphology's graph is
  // restored from it only when something reads CodeGraph.graph
  let lazy: LazyGraph | undefined;
  let assembled: AssembledGraph | undefined;
  let graphUpdated: number | undefined;
  const previousKey = loaded?.store.graphKey;
  let previousGraph: PreviousGraph | undefined;
  if (cacheDir !== undefined && header && graphKey !== undefined && previousKey !== undefined) {
    previousGraph = recalled ? fromMemory(recalled.graph, previousKey) : fromDisk(await loadStoredGraph(cacheDir, header, previousKey));
    if (previousGraph && previousKey === graphKey) {
      lazy = previousGraph.lazy;
    } else if (previousGraph?.reads && previousGraph.cyclesCut === 0 && hasSameFiles(previous, parsedFiles)) {
      const reads = previousGraph.reads;
      const { affected, changed } = affectedFiles(parsedFiles, entries, previous, reads);
      const update = assembleGraphWithReads(parsedFiles, resolved, { graph: previousGraph.lazy.compact, reads, affected, changed });
      // a re-export cycle among the recomputed files: the memo order matters, assemble in full
      if (update && update.cyclesCut === 0) {
        assembled = update;
        graphUpdated = affected.size;
      }
    }
  }
  const graphReused = lazy !== undefined;
  if (!lazy) {
    assembled ??= assembleGraphWithReads(parsedFiles, resolved);
    lazy = assembled.lazy;
  }
  const graph = lazy;
  const finished = performance.now();

  // ---- index: written when anything in it changed (with memory: remembered now, written when flushed)
  let saved = false;
  let writeError: string | undefined;
  if (cacheDir !== undefined && header && loaded) {
    const changed =
      !loaded.found ||
      jobs.length > 0 ||
      rehashed > rehashedAsBefore ||
      toResolve.length > 0 ||
      !graphReused ||
      Object.keys(previous).length !== entries.size;
    const store: IndexStore = changed
      ? { header, files: Object.fromEntries(entries), resolution: fingerprint !== undefined ? { fingerprint, diagnostics: resolverDiagnostics } : undefined, graphKey }
      : loaded.store;
    const made = assembled;
    const write = async () => {
      const storedGraph =
        made && graphKey !== undefined ? { header, key: graphKey, graph: made.lazy.compact, reads: made.reads, cyclesCut: made.cyclesCut } : undefined;
      await saveIndexStore(cacheDir, store, storedGraph);
    };
    if (options.memory) {
      const remembered: RememberedGraph | undefined =
        graphKey === undefined ? undefined
        : assembled ? { key: graphKey, graph, reads: assembled.reads, cyclesCut: assembled.cyclesCut }
        : { key: graphKey, graph, reads: previousGraph?.reads, cyclesCut: previousGraph?.cyclesCut };
      options.memory.latest = { cacheDir, header, store, graph: remembered, scan: { key: scanKey, result: scan, configNames } };
      // a write left over from a build nobody flushed is superseded: this one holds every change since
      if (changed) options.memory.pendingWrite = write;
    } else if (changed) {
      try {
        await write();
        saved = true;
      } catch (error) {
        const warning = indexWriteWarning(cacheDir, error);
        writeError = warning.message;
        diagnostics.push(warning);
      }
    }
  }

  const { edges, symbols, packages } = countCompact(graph.compact);
  const stats: GraphStats = {
    files: parsedFiles.length,
    symbols,
    packages,
    edges,
    specifiers,
    resolvedSpecifiers: specifiers - unresolved - external,
    unresolvedSpecifiers: unresolved,
    externalSpecifiers: external,
    parseErrors: parsedFiles.filter((f) => f.hasSyntaxErrors).length,
    skippedFiles: scan.diagnostics.filter((d) => d.kind === "skipped").length,
    millis: {
      scan: Math.round(scanned - scanStarted),
      parse: Math.round(parsedAt - scanned),
      resolve: Math.round(resolvedAt - parsedAt),
      graph: Math.round(finished - resolvedAt),
      total: Math.round(performance.now() - started),
    },
  };
  const cache: CacheStats = {
    dir: cacheDir,
    found: loaded?.found ?? false,
    reused: parsedFiles.length - outcomes.filter((o) => o.errorCode === undefined).length,
    rehashed,
    parsed: jobs.length,
    resolved: toResolve.length,
    graphReused,
    ...(graphUpdated !== undefined ? { graphUpdated } : {}),
    saved,
    ...(writeError !== undefined ? { writeError } : {}),
    workers,
  };
  diagnostics.sort((a, b) => byCodeUnit(a.path ?? "", b.path ?? "") || byCodeUnit(a.message, b.message));
  const result: CodeGraph = {
    root: scan.root,
    get graph(): Graph {
      return graph.graph();
    },
    files: new Map(parsedFiles.map((f) => [f.path, f])),
    diagnostics,
    stats,
    cache,
  };
  rememberCompactGraph(result, graph.compact);
  return result;
}

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

/** The graph of the previous build, as the update in place reads it. */
interface PreviousGraph {
  /** The graph, compact and restored when read. */
  lazy: LazyGraph;
  reads?: number[][];
  cyclesCut?: number;
}

/** The previous graph held in memory, when it is the one the remembered index names. */
function fromMemory(remembered: RememberedGraph | undefined, key: string): PreviousGraph | undefined {
  if (!remembered || remembered.key !== key) return undefined;
  return { lazy: remembered.graph, reads: remembered.reads, cyclesCut: remembered.cyclesCut };
}

/**
 * The previous graph as read back from graph.json, when it is in the
 * compact form and restores (every edge end in range, no key twice).
 */
function fromDisk(stored: StoredGraph | undefined): PreviousGraph | undefined {
  if (!stored || !isCompactGraph(stored.graph) || !holdsTogether(stored.graph)) return undefined;
  return { lazy: lazyGraph(stored.graph), reads: stored.reads, cyclesCut: stored.cyclesCut };
}

/** Where each import of a file leads (null: nowhere), and the diagnostic of each import that leads nowhere, by index. */
interface FileTargets {
  targets: Array<string | null>;
  unresolved?: Array<[number, Diagnostic]>;
}

/** Resolve every import of one file. */
function resolveFileImports(resolver: Resolver, parsed: ParsedFile): FileTargets {
  const targets: Array<string | null> = [];
  const unresolved: Array<[number, Diagnostic]> = [];
  for (const [index, fact] of parsed.imports.entries()) {
    const resolution = resolver.resolve(parsed.path, fact.specifier, fact.kind);
    targets.push(resolution.target ?? null);
    if (!resolution.external && !resolution.target) {
      const diagnostic = resolver.diagnose(resolution);
      if (diagnostic) unresolved.push([index, diagnostic]);
    }
  }
  return { targets, ...(unresolved.length > 0 ? { unresolved } : {}) };
}

/** Files resolved while the parse runs: {@link startEarlyResolution}. */
interface EarlyResolution {
  /** Resolve this file's imports now, or as soon as the resolver is loaded. */
  add(parsed: ParsedFile): void;
  /** The resolver and every added file's targets, once all are resolved. */
  finish(): Promise<{ resolver: Resolver; byPath: Map<string, FileTargets> }>;
}

/**
 * A resolver over `paths` that resolves files as they are added, from the
 * moment its module is loaded (files added before wait for it). Resolution
 * does not depend on the order files are resolved in: the same targets and
 * diagnostics as resolving them all afterwards.
 */
function startEarlyResolution(root: string, paths: readonly string[]): EarlyResolution {
  const byPath = new Map<string, FileTargets>();
  const waiting: ParsedFile[] = [];
  let resolver: Resolver | undefined;
  const ready = import("../resolve/index.js").then(({ createResolver }) => {
    resolver = createResolver(root, paths);
    for (const parsed of waiting.splice(0)) byPath.set(parsed.path, resolveFileImports(resolver, parsed));
    return resolver;
  });
  ready.catch(() => undefined); // awaited in finish
  return {
    add(parsed) {
      if (resolver) byPath.set(parsed.path, resolveFileImports(resolver, parsed));
      else waiting.push(parsed);
    },
    async finish() {
      return { resolver: await ready, byPath };
    },
  };
}

/** sha1 of a file's bytes, or undefined when it cannot be read (it is then parsed, and the read failure reported there). */
async function hashFile(file: ScannedFile): Promise<string | undefined> {
  try {
    return hashContent(await readFile(file.absPath));
  } catch {
    return undefined;
  }
}

/** The mtime to store: none (-1) for a file modified right before the scan, so the next run re-hashes it. */
function stableMtime(file: ScannedFile, scanWallClock: number): number {
  return scanWallClock - file.mtimeMs < RACY_MTIME_MS ? -1 : file.mtimeMs;
}

/** Entries of files no longer scanned, by extension and content hash (to recognise a rename). */
function goneEntriesByHash(previous: IndexStore["files"], files: readonly ScannedFile[]): Map<string, StoredFile> {
  const scanned = new Set(files.map((f) => f.path));
  const gone = new Map<string, StoredFile>();
  for (const [path, entry] of Object.entries(previous)) {
    if (!scanned.has(path)) gone.set(`${extensionOf(path)}\u0000${entry.hash}`, entry);
  }
  return gone;
}

/** The lower-case name ending that picks the grammar and script kind (".ts", ".d.ts", ".tsx"…). */
function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  const dot = name.indexOf(".");
  return dot < 0 ? "" : name.slice(dot);
}

/** Diagnostics of `a` and `b`, without repeats. */
function mergeDiagnostics(a: readonly Diagnostic[], b: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const d of [...a, ...b]) {
    const key = `${d.kind}\u0000${d.path ?? ""}\u0000${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out;
}

/** True when the stored entries are exactly the parsed files' paths (an update in place needs the same file set). */
function hasSameFiles(previous: IndexStore["files"], parsedFiles: readonly ParsedFile[]): boolean {
  if (Object.keys(previous).length !== parsedFiles.length) return false;
  return parsedFiles.every((f) => previous[f.path] !== undefined);
}

/**
 * The files whose edges must be computed again: those whose content or
 * import targets changed, and every file whose edges read one of them and
 * can ask it a name whose answer changed (see changedExportNames: an export
 * added that no reader names leaves the readers as they were).
 */
function affectedFiles(
  parsedFiles: readonly ParsedFile[],
  entries: ReadonlyMap<string, StoredFile>,
  previous: IndexStore["files"],
  reads: ReadonlyArray<readonly number[]>,
): { affected: Set<string>; changed: Set<string> } {
  const sorted = parsedFiles.map((f) => f.path).sort(byCodeUnit);
  const changed = new Set<number>();
  for (const [index, path] of sorted.entries()) {
    const now = entries.get(path) as StoredFile;
    const before = previous[path] as StoredFile;
    if (now.hash !== before.hash || (now.targets ?? []).join("\u0001") !== (before.targets ?? []).join("\u0001")) changed.add(index);
  }
  const affected = new Set<string>();
  /** per changed file, the names whose lookups can answer differently (undefined: any) */
  const changedNames = new Map<number, Set<string> | undefined>();
  for (const index of changed) {
    const path = sorted[index] as string;
    affected.add(path);
    const now = entries.get(path) as StoredFile;
    const before = previous[path] as StoredFile;
    changedNames.set(index, changedExportNames(before.parsed, now.parsed, before.targets ?? [], now.targets ?? []));
  }
  const parsedAt = (index: number) => (entries.get(sorted[index] as string) as StoredFile).parsed;
  /** per set of names (as one key), whether each file asks one of them: most readers read the same barrels */
  const asked = new Map<string, Map<number, boolean>>();
  for (const [index, list] of reads.entries()) {
    if (affected.has(sorted[index] as string)) continue;
    const names = new Set<string>();
    let any = false;
    for (const read of list) {
      if (!changed.has(read)) continue;
      const these = changedNames.get(read);
      if (these === undefined) any = true;
      else for (const name of these) names.add(name);
    }
    if (any) {
      affected.add(sorted[index] as string);
      continue;
    }
    if (names.size === 0) continue;
    // the names the file or a file it read (a barrel on the way) can ask
    const key = [...names].sort(byCodeUnit).join("\u0000");
    let memo = asked.get(key);
    if (!memo) asked.set(key, (memo = new Map()));
    const asksOf = (i: number) => {
      let answer = memo.get(i);
      if (answer === undefined) memo.set(i, (answer = asksAnyOf(parsedAt(i), names)));
      return answer;
    };
    if (asksOf(index) || list.some(asksOf)) affected.add(sorted[index] as string);
  }
  return { affected, changed: new Set([...changed].map((index) => sorted[index] as string)) };
}

/** The scan options a remembered scan was made with, as one key (another include or exclude is another scan). */
function keyOfScanOptions(options: ScanOptions): string {
  return JSON.stringify([options.include ?? null, options.exclude ?? null, options.maxFileBytes ?? null, options.alsoInclude ?? null]);
}

/** What the assembled graph is a function of: each file's content hash and import targets, in path order. */
function keyOfGraph(parsedFiles: readonly ParsedFile[], entries: ReadonlyMap<string, StoredFile>): string {
  const parts: string[] = [];
  for (const parsed of parsedFiles) {
    const entry = entries.get(parsed.path) as StoredFile;
    parts.push(`${parsed.path}\u0000${entry.hash}\u0000${(entry.targets ?? []).join("\u0001")}`);
  }
  return hashContent(parts.join("\n"));
}
