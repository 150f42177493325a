/**
 * One resident index for a process that runs for hours (the daemon, the MCP
 * server): the index kept in memory, the jobs (commands, calls) run one at a
 * time, a watch of the indexed folders whose word on what changed refreshes
 * the index between jobs, and the index written after a job's answer.
 *
 * Where the watch is trusted (see watchIsReliable), a job's build looks at
 * the files the watch named since the last build and at no other; the
 * events of an edit made before the request are already queued when it
 * comes, and the build lets them arrive first. Elsewhere a job still checks
 * every file (a stat each) as any run does, and a refresh the watch starts
 * takes its paths and looks at those files alone.
 *
 * @example
 * const resident = createResidentIndex({ root, cacheDir, scan: {}, label: "graph-retrieve daemon", log: console.error });
 * const answer = await resident.run(() => createRetriever({ root, cacheDir, memory: resident.memory }));
 * await resident.close();
 */
import { lstatSync } from "node:fs";
import { join, sep } from "node:path";
import { buildGraph } from "../graph/build-graph.js";
import { createIndexMemory, flushIndexMemory, prepareIndexMemory, type IndexMemory, type WatchWord } from "../graph/index-memory.js";
import { watchFolders, watchIsReliable, type FolderWatch } from "../scan/watch-folders.js";
import type { ScanOptions, ScanResult } from "../types.js";
import { folderOf, foldersOf } from "../util/folders.js";

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
  /** Why the folders of the scan are not all watched (undefined when they are). */
  readonly watchNote: string | undefined;
  /** The watch's word is trusted: a build looks at the files it named, not at every file. */
  readonly trusted: boolean;
  /**
   * Run `job` once the jobs and refreshes queued before it are done (a failed
   * one never stops the next). The index is written after it, before the next
   * job starts; the promise settles with the job, or with `afterWrite` once
   * that write is done too.
   */
  run<T>(job: () => Promise<T>, options?: { afterWrite?: boolean }): Promise<T>;
  /** Settles once the jobs and refreshes queued so far are done (with them the look at every file a new watch asks for). */
  settled(): Promise<void>;
  /** Stop watching and taking changes; wait for the queue; write. */
  close(): Promise<void>;
}

/** Paths the watch's log for the builds holds at most (see changesSince); past it, the next build walks the root. */
const MAX_LOGGED_PATHS = 100_000;

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
  // the folders the latest scan walked (a scan the watch spared keeps the walk's), followed again when the
  // walk is another or a folder could not be watched
  let followed: object | undefined;
  // a file of the latest walk reached through a symlink whose target is in no folder watched: its edits raise
  // no event of ours (one in a watched folder names the target, no file of the scan, and the build walks)
  let unwatchedLink = false;
  const followIndexed = () => {
    const scan = memory.latest?.scan;
    const walked = scan?.configNames ?? memory.latest?.store.files;
    if (!watch || (walked === followed && watch.complete)) return;
    followed = walked;
    const folders = scan?.configNames ? [...scan.configNames.keys()] : foldersOf(Object.keys(memory.latest?.store.files ?? {}));
    unwatchedLink = linksOutside(scan?.result, new Set(folders));
    // the repository's own ignore rules are read from .git/info (the scan reads nothing else of .git)
    if (isFolder(join(root, ".git", "info"))) folders.push(".git/info");
    const { added } = watch.followFolders(folders);
    // what changed in a folder before its watch began was not seen: a refresh looks at every file now, so
    // that the next request finds the walk done
    if (added > 0) changed(undefined);
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
      // a trusted watch's word comes through the memory (and moves its mark); else the refresh's paths
      const word = paths && !trusted() ? { changedPaths: [...paths].sort() } : {};
      const built = await buildGraph(root, { ...options.scan, ...(cacheDir !== undefined ? { cacheDir, memory } : {}), ...word });
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
  // the watch's log for the builds: each path with the mark of its latest change, and the mark from which on
  // anything may have changed (see WatchWord)
  let mark = 0;
  let lostAt = 0;
  const changedAt = new Map<string, number>();
  // the watch's word: files at these root-relative paths changed (undefined: anything may have); one refresh
  // is queued for any number of changes until it starts
  const changed = (paths: ReadonlySet<string> | undefined) => {
    mark++;
    if (!paths) lostAt = mark;
    else if (reliable) for (const path of paths) changedAt.set(path, mark);
    // a log no build has asked of for long (the watch untrusted meanwhile): anything may have changed instead
    if (changedAt.size > MAX_LOGGED_PATHS) {
      changedAt.clear();
      lostAt = mark;
    }
    if (!paths) changedPaths = undefined;
    else for (const path of paths) changedPaths?.add(path);
    if (refreshQueued || closing) return;
    refreshQueued = true;
    void enqueue(refresh);
  };
  const watch: FolderWatch | undefined = options.watch === false ? undefined : watchFolders(root, changed, (line) => log(`${label}: ${line}`));
  const reliable = watch !== undefined && watchIsReliable(root);
  const trusted = () => reliable && watch !== undefined && watch.complete && !unwatchedLink;
  const word: WatchWord = {
    async changesSince(since) {
      // an edit made before the request: its event is queued, and arrives in this turn of the event loop
      await new Promise((done) => setImmediate(done));
      watch?.flush();
      const now = ++mark;
      if (since === undefined || !trusted() || lostAt > since) return { paths: undefined, mark: now };
      const paths: string[] = [];
      for (const [path, at] of changedAt) {
        if (at > since) paths.push(path);
        else changedAt.delete(path); // no build will ask from before `since` again: builds go one at a time
      }
      return { paths: paths.sort(), mark: now };
    },
  };
  if (reliable) memory.watch = word;

  return {
    memory,
    get refreshes() {
      return refreshes;
    },
    get watching() {
      return watch?.size ?? 0;
    },
    get watchNote() {
      return options.watch === false ? "--no-watch" : watch?.note;
    },
    get trusted() {
      return trusted();
    },
    run<T>(job: () => Promise<T>, { afterWrite = false }: { afterWrite?: boolean } = {}): Promise<T> {
      const answer = enqueue(job);
      const written = enqueue(afterJob);
      return afterWrite ? written.then(() => answer) : answer;
    },
    async settled() {
      await enqueue(() => undefined);
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

function isFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Whether a file of the scan is reached through a symlink to a file in none of the `watched` folders. */
function linksOutside(scan: ScanResult | undefined, watched: ReadonlySet<string>): boolean {
  if (!scan) return false;
  const prefix = scan.root.endsWith(sep) ? scan.root : `${scan.root}${sep}`;
  for (const file of scan.files) {
    if (file.absPath === prefix + file.path.split("/").join(sep)) continue;
    // the scan follows no link out of the root
    const target = file.absPath.startsWith(prefix) ? file.absPath.slice(prefix.length).split(sep).join("/") : undefined;
    if (target === undefined || !watched.has(folderOf(target))) return true;
  }
  return false;
}
