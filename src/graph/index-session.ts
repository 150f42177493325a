/**
 * The persistent index seen from one build: what the last build left (in
 * a resident process's memory, or on disk in `cacheDir`), which of it can
 * be reused, and the commit of the new state. The build's stages ask it and
 * never look at memory or disk themselves; without `cacheDir` it is empty
 * and commits nothing.
 */
import { join } from "node:path";
import { rescanFiles, resolveScanRoot, scanFiles, statsAheadFor, type FolderSnapshot, type ScanHints, type StatsAheadRun } from "../scan/index.js";
import {
  addMissingStatList,
  configFileNames,
  createStoreHeader,
  loadIndexStore,
  loadStoredGraph,
  loadStoredGraphSync,
  resolutionFingerprint,
  saveIndexStore,
  STAT_LIST_FILE,
  type IndexStore,
  type LoadedStore,
  type StoreHeader,
  type StoredFile,
  type StoredFolders,
  type StoredGraph,
  type StoredGraphCounts,
  type StoredSections,
  type ConfigHash,
  type KnownConfigs,
} from "../store/index.js";
import type { Diagnostic, ScanOptions, ScanResult } from "../types.js";
import { holdsPathIn } from "../util/folders.js";
import { isSortedByCodeUnit } from "../util/sort.js";
import type { AssembledGraph } from "./assemble-graph.js";
import { indexWriteWarning, noteGraphReads, readsOf, recallIndex, type IndexMemory, type RememberedBuild, type RememberedGraph, type RememberedIndex, type RememberedPostings } from "./index-memory.js";
import type { CompactGraph } from "./code-graph.js";
import { holdsTogether, isCompactGraph, lazyGraph, type LazyGraph } from "./serialize-graph.js";
import { decodeTermPostings, type TermPostings } from "./term-postings.js";

/** The graph of the previous build, as the update in place reads it. */
export interface PreviousGraph {
  /** The graph, compact and restored when read. */
  lazy: LazyGraph;
  reads?: number[][];
  cyclesCut?: number;
  /** See AssembledGraph.cycleFiles (absent from an older store: no update in place when cycles were cut). */
  cycleFiles?: number[];
}

/** A scan, and the config file names of each folder its walk went through, every folder of its files (the resolution fingerprint's input). */
export interface SessionScan {
  result: ScanResult;
  configNames?: ReadonlyMap<string, string[]>;
  /** The remembered scan, which a trusted watch says nothing changed since: the remembered build holds as it is. */
  unchanged?: boolean;
  /** The remembered scan with some files looked at again: the same files, and no config file changed (one named walks the root). */
  sameFiles?: boolean;
}

/** The stored import resolution, and whether it still holds for this file set and these configs. */
export interface StoredResolution {
  fingerprint?: string;
  /** The fingerprint is the stored one: a file whose specifiers are unchanged keeps its targets. */
  holds: boolean;
  /** The resolver's diagnostics as stored (kept when nothing is resolved again). */
  diagnostics: Diagnostic[];
}

/** The new state a build commits. */
export interface NewIndexState {
  /** Anything in the index changed (else the loaded store is kept as it is). */
  changed: boolean;
  entries: ReadonlyMap<string, StoredFile>;
  resolution: { fingerprint?: string; diagnostics: Diagnostic[] };
  graphKey?: string;
  /** The graph's counts (stored with the index: a warm build reports them without reading the graph). */
  graphCounts?: StoredGraphCounts;
  graph: LazyGraph;
  /** The graph assembled or updated by this build (undefined: the previous one reused). */
  assembled?: AssembledGraph;
  previousGraph?: PreviousGraph;
  /** The term postings of the new facts, made when first asked (the next build in memory updates them). */
  postings?: RememberedPostings;
  /** The sections to store beside the facts, made when the index is written (not before: a resident process writes later, or never). */
  sections?: () => StoredSections;
}

export interface IndexSession {
  /** An index to keep: the graph key is worth computing and the state worth committing. */
  readonly keeps: boolean;
  /** The last build's entries by path (none without an index). */
  readonly previous: IndexStore["files"];
  /** An index was there to start from (without one, every file is parsed). */
  readonly found: boolean;
  /** The key of the graph the index names (see keyOfGraph), if any. */
  readonly graphKey?: string;
  /** What reading the index had to say (a damaged or foreign store, read afresh). */
  readonly warning?: Diagnostic;
  /** The sections stored with the facts the index holds (valid while those facts are unchanged). */
  readonly sections?: StoredSections;
  /** The counts of the graph the index names. */
  readonly graphCounts?: StoredGraphCounts;
  /**
   * After a scan found nothing changed (SessionScan.unchanged): what the
   * remembered build was made of, now the latest again with this build's
   * watch mark; undefined when the memory holds none.
   */
  rememberedBuild(): RememberedBuild | undefined;
  /** The term postings of the facts the index holds (stored with them, or remembered), made on the first call; undefined when there are none. */
  previousPostings(): TermPostings | undefined;
  /** The files: the remembered scan with the watch's changed paths looked at again, or a walk of the root. */
  scan(root: string, options: ScanOptions & { changedPaths?: readonly string[] }, hooks?: Pick<ScanHints, "onCandidates">): Promise<SessionScan>;
  /** The stored resolution, against this build's files and configs. */
  resolution(scan: SessionScan, paths: readonly string[]): StoredResolution;
  /** The graph the index names, when it can be read (from memory, or graph.json). */
  previousGraph(): Promise<PreviousGraph | undefined>;
  /**
   * The graph the index names on disk, read on the first read of its
   * compact form; `otherwise` makes it when graph.json cannot give it then
   * (gone or damaged since). Undefined when the index is in memory.
   */
  storedGraphOnDemand(otherwise: () => CompactGraph): LazyGraph | undefined;
  /**
   * Keep the new state: with memory, remembered now and written when
   * flushed; else written now when it changed. Returns whether it was
   * written, and the warning when it could not be.
   */
  commit(state: NewIndexState): Promise<{ saved: boolean; warning?: Diagnostic }>;
}

/** The scan options a remembered scan was made with, as one key (another include or exclude is another scan). */
function keyOfScanOptions(options: ScanOptions): string {
  return JSON.stringify([options.include ?? null, options.exclude ?? null, options.maxFileBytes ?? null, options.alsoInclude ?? null]);
}

/** A table's entries in a Map, without the pair per entry Object.entries makes (babel's 17,601 files: ~30 -> ~10 ms). */
function tableOf<T>(table: Record<string, T>): Map<string, T> {
  const map = new Map<string, T>();
  for (const key of Object.keys(table)) map.set(key, table[key]!);
  return map;
}

/** Whether a folder holds one of `paths` (root-relative), at any depth; the root is no folder here. */
function folderTest(paths: readonly string[]): { has(path: string): boolean } {
  // the index lists its files in path order: the folders are found in the list, not all made (rollup, 12,724 files
  // and ~20 folders read each warm run: ~8 ms)
  if (isSortedByCodeUnit(paths)) return { has: (folder) => folder !== "" && holdsPathIn(paths, folder) };
  return foldersHolding(paths);
}

/** Every folder that holds one of `paths`, at any depth, but the root. */
function foldersHolding(paths: readonly string[]): Set<string> {
  const folders = new Set<string>();
  for (const path of paths) {
    for (let slash = path.lastIndexOf("/"); slash > 0; slash = path.lastIndexOf("/", slash - 1)) {
      const folder = path.slice(0, slash);
      if (folders.has(folder)) break;
      folders.add(folder);
    }
  }
  return folders;
}

/** The config hashes a stored resolution keeps, when they are in the form the fingerprint wrote (a damaged store's are not used). */
function knownConfigsOf(stored: IndexStore["resolution"]): { known?: KnownConfigs } {
  const hashes = stored?.configs;
  const takenAt = stored?.configsTakenAt;
  if (!Array.isArray(hashes) || typeof takenAt !== "number" || !hashes.every(isConfigHash)) return {};
  return { known: { hashes, takenAt } };
}

function isConfigHash(value: unknown): value is ConfigHash {
  return Array.isArray(value) && value.length === 4 && typeof value[0] === "string" && typeof value[1] === "number" && typeof value[2] === "number" && typeof value[3] === "string";
}

/** The previous graph held in memory, when it is the one the remembered index names. */
function fromMemory(remembered: RememberedGraph | undefined, key: string): PreviousGraph | undefined {
  if (!remembered || remembered.key !== key) return undefined;
  const { reads, cyclesCut, cycleFiles } = readsOf(remembered);
  return { lazy: remembered.graph, reads, cyclesCut, ...(cycleFiles ? { cycleFiles } : {}) };
}

/**
 * The previous graph as read back from graph.json, when it is in the
 * compact form and restores (every edge end in range, no key twice).
 */
function fromDisk(stored: StoredGraph | undefined): PreviousGraph | undefined {
  if (!stored || !isCompactGraph(stored.graph) || !holdsTogether(stored.graph)) return undefined;
  const cycleFiles = Array.isArray(stored.cycleFiles) && stored.cycleFiles.every((i) => Number.isInteger(i)) ? { cycleFiles: stored.cycleFiles } : {};
  return { lazy: lazyGraph(stored.graph), reads: stored.reads, cyclesCut: stored.cyclesCut, ...cycleFiles };
}

/** A build without an index: everything is read and parsed, nothing is written. */
const NO_INDEX: IndexSession = {
  keeps: false,
  previous: {},
  found: false,
  async scan(root, options, hooks) {
    return { result: await scanFiles(root, options, { ...(hooks?.onCandidates ? { onCandidates: hooks.onCandidates } : {}) }) };
  },
  resolution: () => ({ holds: false, diagnostics: [] }),
  rememberedBuild: () => undefined,
  previousGraph: async () => undefined,
  previousPostings: () => undefined,
  storedGraphOnDemand: () => undefined,
  commit: async () => ({ saved: false }),
};

/**
 * The index for `root` in `cacheDir`: the one `memory` remembers, else the
 * one on disk (the scan then takes a file it holds, with the same size and
 * mtime, from a stat alone).
 *
 * @example
 * const session = await openIndexSession("./my-project", "/tmp/gr-index");
 * session.found; // true when an earlier build left an index there
 */
export async function openIndexSession(root: string, cacheDir: string | undefined, memory?: IndexMemory): Promise<IndexSession> {
  if (cacheDir === undefined) return NO_INDEX;
  const realRoot = await resolveScanRoot(root);
  const header = createStoreHeader(realRoot);
  const recalled = memory ? recallIndex(memory, cacheDir, header) : undefined;
  // the walk's stats asked in a worker while this thread reads the index (a resident process has its watch instead)
  const ahead = memory ? undefined : statsAheadFor(realRoot, join(cacheDir, STAT_LIST_FILE));
  const loaded: LoadedStore = recalled ? { store: recalled.store, found: true } : await loadIndexStore(cacheDir, header);
  return diskSession(cacheDir, header, loaded, recalled, memory, ahead);
}

function diskSession(
  cacheDir: string,
  header: StoreHeader,
  loaded: LoadedStore,
  recalled: RememberedIndex | undefined,
  memory: IndexMemory | undefined,
  ahead?: StatsAheadRun,
): IndexSession {
  const previous = loaded.store.files;
  let scanKey = "";
  let scanned: SessionScan | undefined;
  // the memory's watch mark taken before this build's scan: what changed after it, the next build looks at
  let watchMark: number | undefined;
  // the key of the ignore rules this build's scan read (a scan the watch spared reads none: the last one's holds)
  let ignoreKey = loaded.store.ignoreKey;
  // what this build's walk read of each folder, and whether it differs from the stored (a walk the watch spared
  // makes none: the stored one holds, its folders' times say when not)
  let foldersMade: { snapshot: FolderSnapshot; changed: boolean } | undefined;
  // the postings of the facts the index holds: read once; the remembered ones asked once (their memo lets go of the
  // build that made them then, so a resident process's builds do not hold each other in a chain)
  let previousPostings: { value: TermPostings | undefined } | undefined;
  // the config files' hashes this build's fingerprint took, for the next one (see resolution())
  let configsFound: { hashes: ConfigHash[]; takenAt: number } | undefined;
  return {
    keeps: true,
    previous,
    found: loaded.found,
    ...(loaded.store.graphKey !== undefined ? { graphKey: loaded.store.graphKey } : {}),
    ...(loaded.warning ? { warning: loaded.warning } : {}),
    ...(loaded.sections ? { sections: loaded.sections } : {}),
    ...(loaded.store.graphCounts ? { graphCounts: loaded.store.graphCounts } : {}),
    async scan(root, options, hooks) {
      scanKey = keyOfScanOptions(options);
      // without the caller's word, the memory's watch's: the files changed since the remembered build's scan
      // (rollup, 12,724 files: the walk and a stat of each, ~150 ms of a daemon's query, spared)
      let changedPaths = options.changedPaths;
      if (changedPaths === undefined && memory?.watch) {
        const word = await memory.watch.changesSince(recalled?.watchMark);
        watchMark = word.mark;
        changedPaths = word.paths;
      }
      // a watch's word on what changed: the remembered scan with those files looked at again (effect: the
      // scan of 363 files, 5-9 ms of a daemon's refresh, skipped)
      const lastScan = changedPaths && recalled?.scan?.key === scanKey ? recalled.scan : undefined;
      if (lastScan && changedPaths?.length === 0) {
        scanned = { result: lastScan.result, ...(lastScan.configNames ? { configNames: lastScan.configNames } : {}), unchanged: true };
        return scanned;
      }
      const rescanned = lastScan && changedPaths ? rescanFiles(lastScan.result, changedPaths, options) : undefined;
      if (rescanned) {
        scanned = { result: rescanned, ...(lastScan?.configNames ? { configNames: lastScan.configNames } : {}), sameFiles: true };
        return scanned;
      }
      // the config files of each folder the walk reads: the resolution fingerprint needs them, and reading
      // the folders again cost date-fns (200 folders) ~12 ms of each warm run
      const configNames = new Map<string, string[]>();
      // the known files by path: a Map hashes a path read from a folder once, where the index's table (an object of
      // 12,724 keys on rollup) first looked each one up among the engine's interned strings (~20 ms a warm run)
      let knownFiles: Map<string, StoredFile> | undefined;
      let knownFolders: { has(path: string): boolean } | undefined;
      // the last walk's folders, when made under these options: one unchanged since is taken from it unread
      const lastFolders = loaded.store.folders?.scanKey === scanKey ? loaded.store.folders : undefined;
      const lastConfigs = lastFolders?.configNames;
      const statsAhead = ahead?.finish();
      const result = await scanFiles(root, options, {
        ...(statsAhead ? { ahead: statsAhead } : {}),
        onFolder: (path, entries) =>
          void configNames.set(path, entries ? configFileNames(entries) : lastConfigs && Object.hasOwn(lastConfigs, path) && Array.isArray(lastConfigs[path]) ? lastConfigs[path] : []),
        folders: { ...(lastFolders ? { last: lastFolders.snapshot } : {}), found: (made) => void (foldersMade = made) },
        known: (path) => (knownFiles ??= tableOf(previous)).get(path),
        ignoreKey: {
          // the folders holding a known file, made when a folder the walk reads first asks (one taken from the last
          // walk's snapshot asks nothing: rollup, ~10 ms of every warm run)
          ...(loaded.store.ignoreKey !== undefined ? { known: loaded.store.ignoreKey, knownFolders: { has: (path: string) => (knownFolders ??= folderTest(Object.keys(previous))).has(path) } } : {}),
          found: (key) => void (ignoreKey = key),
        },
        ...(hooks?.onCandidates ? { onCandidates: hooks.onCandidates } : {}),
      });
      scanned = { result, configNames };
      return scanned;
    },
    rememberedBuild() {
      if (!memory || !recalled?.built || memory.latest !== recalled) return undefined;
      memory.latest = { ...recalled, ...(watchMark !== undefined ? { watchMark } : {}) };
      return recalled.built;
    },
    resolution(scan, paths) {
      // the same files and configs: the stored fingerprint holds without reading every folder's configs again
      // (rollup: ~25 ms of a one-file edit)
      const stored = loaded.store.resolution;
      if (scan.sameFiles && stored?.fingerprint !== undefined) return { fingerprint: stored.fingerprint, holds: true, diagnostics: stored.diagnostics };
      // a config file unchanged since the stored fingerprint hashed it is not read again (see configsIn)
      const takenAt = Date.now();
      const found: ConfigHash[] = [];
      const fingerprint = resolutionFingerprint(scan.result.root, paths, scan.configNames, scan.configNames !== undefined, { ...knownConfigsOf(stored), found });
      configsFound = { hashes: found, takenAt };
      return { fingerprint, holds: stored?.fingerprint === fingerprint, diagnostics: stored?.diagnostics ?? [] };
    },
    previousPostings() {
      previousPostings ??= {
        value: recalled ? recalled.postings?.get() : loaded.sections?.postings ? decodeTermPostings(loaded.sections.postings) : undefined,
      };
      return previousPostings.value;
    },
    async previousGraph() {
      const key = loaded.store.graphKey;
      if (key === undefined) return undefined;
      return recalled ? fromMemory(recalled.graph, key) : fromDisk(await loadStoredGraph(cacheDir, header, key));
    },
    storedGraphOnDemand(otherwise) {
      const key = loaded.store.graphKey;
      if (recalled || key === undefined) return undefined;
      // lazyGraph keeps what this gives: read once; what an update in place needs besides is noted for the memory's
      // graph (a resident process reads it while idle, so that its first edit updates the graph instead of
      // assembling all of it: rollup ~380 -> ~100 ms)
      const onDemand: LazyGraph = lazyGraph(() => {
        const stored = fromDisk(loadStoredGraphSync(cacheDir, header, key));
        if (!stored) return otherwise();
        noteGraphReads(onDemand, { reads: stored.reads, cyclesCut: stored.cyclesCut, cycleFiles: stored.cycleFiles });
        return stored.lazy.compact;
      });
      return onDemand;
    },
    async commit(state) {
      // new ignore rules are kept even when no file changed: else each later walk would find them new and ask them
      // and a walk's new folder snapshot, so that the next walk takes the folders unchanged since from it
      const changed = state.changed || ignoreKey !== loaded.store.ignoreKey || foldersMade?.changed === true;
      // (made only for a store that is written: every folder's config names looked at)
      const storedFoldersOf = (made: { snapshot: FolderSnapshot }): StoredFolders => ({
        scanKey,
        snapshot: made.snapshot,
        configNames: Object.fromEntries([...(scanned?.configNames ?? [])].filter(([, names]) => names.length > 0)),
      });
      const folders = changed ? (foldersMade ? storedFoldersOf(foldersMade) : loaded.store.folders) : undefined;
      const store: IndexStore = changed
        ? {
            header,
            files: Object.fromEntries(state.entries),
            resolution:
              state.resolution.fingerprint === undefined ? undefined
              : configsFound ? { fingerprint: state.resolution.fingerprint, diagnostics: state.resolution.diagnostics, configs: configsFound.hashes, configsTakenAt: configsFound.takenAt }
              : { ...loaded.store.resolution, fingerprint: state.resolution.fingerprint, diagnostics: state.resolution.diagnostics },
            graphKey: state.graphKey,
            ...(state.graphCounts ? { graphCounts: state.graphCounts } : {}),
            ...(ignoreKey !== undefined ? { ignoreKey } : {}),
            ...(folders ? { folders } : {}),
          }
        : loaded.store;
      const made = state.assembled;
      const write = async () => {
        const storedGraph =
          made && state.graphKey !== undefined ? { header, key: state.graphKey, graph: made.lazy.compact, reads: made.reads, cyclesCut: made.cyclesCut, cycleFiles: made.cycleFiles } : undefined;
        await saveIndexStore(cacheDir, store, storedGraph, state.sections?.() ?? {});
      };
      if (memory) {
        const remembered: RememberedGraph | undefined =
          state.graphKey === undefined ? undefined
          : made ? { key: state.graphKey, graph: state.graph, reads: made.reads, cyclesCut: made.cyclesCut, cycleFiles: made.cycleFiles }
          : { key: state.graphKey, graph: state.graph, reads: state.previousGraph?.reads, cyclesCut: state.previousGraph?.cyclesCut, cycleFiles: state.previousGraph?.cycleFiles };
        memory.latest = {
          cacheDir,
          header,
          store,
          graph: remembered,
          scan: { key: scanKey, result: scanned!.result, configNames: scanned?.configNames },
          // the same facts keep the same postings: the remembered ones go on (a new memo would hold this build, and
          // through it the last, in a chain as long as the process's unchanged builds)
          ...(!changed && recalled?.postings ? { postings: recalled.postings } : state.postings ? { postings: state.postings } : {}),
          ...(watchMark !== undefined ? { watchMark } : {}),
        };
        // a write left over from a build nobody flushed is superseded: this one holds every change since
        if (changed) memory.pendingWrite = write;
        return { saved: false };
      }
      if (!changed) {
        // an index written before lists were gets its list now, or no walk would have one until something changed
        // (a run whose worker read the list has one)
        if (loaded.found && !ahead) await addMissingStatList(cacheDir, loaded.store).catch(() => undefined);
        return { saved: false };
      }
      try {
        await write();
        return { saved: true };
      } catch (error) {
        return { saved: false, warning: indexWriteWarning(cacheDir, error) };
      }
    },
  };
}
