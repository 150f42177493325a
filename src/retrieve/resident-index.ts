/**
 * One resident index for a process that runs for hours (the daemon, the MCP
 * server): the index kept in memory, the jobs (commands, calls) run one at a
 * time, a watch of the indexed folders whose word on what changed refreshes
 * the index between jobs, and the index written after a job's answer.
 *
 * The watch only saves time: a job still checks every file (a stat each) as
 * any run does, since an event can come after the request that follows the
 * edit. A refresh the watch starts takes its paths and looks at those files
 * alone.
 *
 * @example
 * const resident = createResidentIndex({ root, cacheDir, scan: {}, label: "graph-retrieve daemon", log: console.error });
 * const answer = await resident.run(() => createRetriever({ root, cacheDir, memory: resident.memory }));
 * await resident.close();
 */
import { buildGraph } from "../graph/build-graph.js";
import { createIndexMemory, flushIndexMemory, prepareIndexMemory, type IndexMemory } from "../graph/index-memory.js";
import { watchFolders, type FolderWatch } from "../scan/watch-folders.js";
import type { ScanOptions } from "../types.js";

export interface ResidentIndexOptions {
  /** The root's real path. */
  root: string;
  /** The index folder: written after each job and refresh (without one, nothing is kept between builds). */
  cacheDir?: string;
  /** What a refresh scans (a job brings its own options). */
  scan: Pick<ScanOptions, "include" | "exclude" | "alsoInclude" | "maxFileBytes">;
  /** The process's name at the head of its log lines ("graph-retrieve daemon"). */
  label: string;
  /** One line at a time, for stderr. */
  log: (line: string) => void;
  /** Watch the indexed folders and refresh on a change (default true). */
  watch?: boolean;
}

export interface ResidentIndex {
  /** The index in memory: pass it to the builds a job runs (buildGraph's and createRetriever's `memory`). */
  readonly memory: IndexMemory;
  /** Refreshes the watch started, so far. */
  readonly refreshes: number;
  /** Folders watched. */
  readonly watching: number;
  /**
   * Run `job` once the jobs and refreshes queued before it are done (a failed
   * one never stops the next). The index is written after it, before the next
   * job starts; the promise settles with the job, or with `afterWrite` once
   * that write is done too.
   */
  run<T>(job: () => Promise<T>, options?: { afterWrite?: boolean }): Promise<T>;
  /** Stop watching and taking changes; wait for the queue; write. */
  close(): Promise<void>;
}

/** After a refresh, the next update's indexes are made this much later (see prepareIndexMemory), after a job waiting for the refresh. */
const PREPARE_DELAY_MS = 100;

/** A refresh's index write waits this long for a job (which writes it after its answer) before it is done alone. */
const REFRESH_WRITE_DELAY_MS = 2000;

export function createResidentIndex(options: ResidentIndexOptions): ResidentIndex {
  const { root, cacheDir, label, log } = options;
  const memory = createIndexMemory();
  let queue: Promise<unknown> = Promise.resolve();
  let closing = false;
  let refreshes = 0;
  let writeTimer: NodeJS.Timeout | undefined;
  let prepareTimer: NodeJS.Timeout | undefined;
  const enqueue = <T>(job: () => Promise<T> | T): Promise<T> => {
    const next = queue.then(job, job);
    queue = next.catch(() => undefined);
    return next;
  };

  const write = async () => {
    clearTimeout(writeTimer);
    const warning = await flushIndexMemory(memory);
    if (warning) log(`${label}: ${warning.message}`);
  };
  // the folders of the indexed files, followed again only when the file table is another (an unchanged build keeps it)
  let followed: object | undefined;
  const followIndexed = () => {
    const files = memory.latest?.store.files;
    if (!watch || files === followed) return;
    followed = files;
    watch.follow(Object.keys(files ?? {}));
  };
  const afterJob = async () => {
    await write();
    followIndexed();
    prepareIndexMemory(memory);
  };

  // the files the watch named since the last refresh took them (undefined: anything may have changed)
  let changedPaths: Set<string> | undefined = new Set();
  let refreshQueued = false;
  const refresh = async () => {
    refreshQueued = false; // a change from now on needs another
    const paths = changedPaths;
    changedPaths = new Set();
    if (closing) return;
    try {
      const started = performance.now();
      const built = await buildGraph(root, { ...options.scan, ...(cacheDir !== undefined ? { cacheDir, memory } : {}), ...(paths ? { changedPaths: [...paths].sort() } : {}) });
      refreshes++;
      const { parsed = 0, reused = 0 } = built.cache ?? {};
      if (parsed > 0 || built.stats.files !== reused) {
        const { scan, parse, resolve, graph } = built.stats.millis;
        const files = `${parsed} file${parsed === 1 ? "" : "s"} parsed, ${built.stats.files} indexed`;
        log(`${label}: re-indexed (files changed) on a watch event: ${files}, in ${Math.round(performance.now() - started)} ms (scan ${scan}, parse ${parse}, resolve ${resolve}, graph ${graph})`);
      }
    } catch (error) {
      log(`${label}: refresh failed (${error instanceof Error ? error.message : String(error)}); the next request tries again`);
    }
    followIndexed();
    // made while idle, once a job that came meanwhile (it was waiting for this refresh) has its answer
    clearTimeout(prepareTimer);
    prepareTimer = setTimeout(() => void enqueue(() => prepareIndexMemory(memory)), PREPARE_DELAY_MS);
    clearTimeout(writeTimer);
    writeTimer = setTimeout(() => void enqueue(write), REFRESH_WRITE_DELAY_MS);
  };
  // the watch's word: files at these root-relative paths changed (undefined: anything may have); one refresh
  // is queued for any number of changes until it starts
  const changed = (paths: ReadonlySet<string> | undefined) => {
    if (!paths) changedPaths = undefined;
    else for (const path of paths) changedPaths?.add(path);
    if (refreshQueued || closing) return;
    refreshQueued = true;
    void enqueue(refresh);
  };
  const watch: FolderWatch | undefined = options.watch === false ? undefined : watchFolders(root, changed, (line) => log(`${label}: ${line}`));

  return {
    memory,
    get refreshes() {
      return refreshes;
    },
    get watching() {
      return watch?.size ?? 0;
    },
    run<T>(job: () => Promise<T>, { afterWrite = false }: { afterWrite?: boolean } = {}): Promise<T> {
      const answer = enqueue(job);
      const written = enqueue(afterJob);
      return afterWrite ? written.then(() => answer) : answer;
    },
    async close() {
      closing = true;
      clearTimeout(writeTimer);
      clearTimeout(prepareTimer);
      watch?.close();
      await enqueue(write); // a refresh's write not done yet
    },
  };
}
