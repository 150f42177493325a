/**
 * The stats a warm walk asks, taken ahead by a worker thread while this
 * thread does what comes before the walk (reading the index, the history,
 * the config).
 *
 * A warm query on a large root spends much of its time asking the file
 * system whether anything changed: rollup (12,724 files, 4,584 folders)
 * lstat'ed every known file and stat'ed every folder on this thread, ~90 ms
 * of a ~0.5 s query, one synchronous call after another. The paths to ask
 * are the ones the last build's walk saw, which the store lists in a file of
 * its own (see store/stat-list.ts). A worker stats them in chunks, in list
 * order, into shared memory; the walk takes a folder's times or a known
 * file's size and mtime from there instead of asking again. A chunk the
 * worker has not reached when the walk first asks it is stat'ed by this
 * thread then, so the walk never waits for a worker still starting.
 *
 * What a walk takes from here is what the file system said a little before
 * the walk started: the same as a walk started a few milliseconds earlier.
 * Anything the numbers do not vouch for (a path not listed, not a plain
 * folder or file when stat'ed, one reached through a link) is asked as
 * before. The snapshot the walk writes says it started before the first of
 * these stats was taken, so the next walk never takes a change made
 * meanwhile for an unchanged folder.
 */
import { lstatSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { workerThreads } from "../util/builtins.js";

/**
 * Below this many listed paths, a worker is not worth its start: a thread's
 * boot costs ~25 ms (on the other core) and ~2 ms of this one, and a stat
 * here ~5 µs (rollup's 17,308 paths: 66 ms of lstat and 25 ms of stat in a
 * warm query's profile, session 26). effect's 548 files are under it.
 */
export const STAT_AHEAD_MIN_PATHS = 2000;

/** How long this thread waits for a chunk the worker has in hand (~1 ms of stats) before it asks that chunk's paths itself. */
const WAIT_LIMIT_MS = 1000;

/**
 * How the shared numbers are laid out, handed to both threads (the
 * functions the worker runs see nothing but their arguments).
 */
const LAYOUT = {
  /** Paths a thread takes at a time (~1 ms of stats). */
  chunk: 256,
  /** Numbers per listed path: kind, size, mtimeMs, ctimeMs. */
  stride: 4,
  /** A chunk's state: no thread has it, one is stat'ing it, its numbers are written. */
  free: 0,
  taken: 1,
  done: 2,
  /** Kinds (0: missing or not asked). */
  file: 1,
  folder: 2,
  other: 3,
} as const;
type Layout = typeof LAYOUT;

/** A plain folder's times or a regular file's size and mtime, as taken ahead. */
export interface StatsAhead {
  /** When the stats began (ms since the epoch): no stat was taken before. */
  readonly takenAt: number;
  /** A folder's [mtimeMs, ctimeMs], when the path was a folder (not a link) then. */
  folder(path: string): readonly [number, number] | undefined;
  /** A file's size and mtime, when the path was a regular file (not a link) then. */
  file(path: string): { size: number; mtimeMs: number } | undefined;
  /**
   * The list's lines ("." the root): a caller that asks in the list's order
   * asks by line (folderAt, fileAt), without a lookup by path (the 54,782-file
   * tree: a map of 88k paths and a lookup each, ~0.35 s of a warm query).
   */
  readonly lines: readonly string[];
  /** {@link folder} of the path on a line of the list. */
  folderAt(line: number): readonly [number, number] | undefined;
  /** {@link file} of the path on a line of the list. */
  fileAt(line: number): { size: number; mtimeMs: number } | undefined;
  /** The same stats, whose lookups by path see none of the lines `skip` names (a caller that asked those by line: the map of paths is made of the others). */
  except(skip: (line: number) => boolean): StatsAhead;
}

/** Stats being taken. */
export interface StatsAheadRun {
  /** The listed paths (the list's lines). */
  readonly paths: number;
  /** How many paths the worker stat'ed, once it has ended (undefined: it could not start or failed). */
  readonly worker: Promise<number | undefined>;
  /**
   * The numbers, searchable by path: a path's chunk not stat'ed yet is
   * taken here when it is first asked (or, when the worker has it in hand,
   * waited for), so the walk never waits for a worker still starting.
   */
  finish(): StatsAhead;
}

/** The shared memory of one run. */
interface Shared {
  root: string;
  lines: readonly string[];
  numbers: Float64Array;
  states: Int32Array;
}

/**
 * What one thread stats with: the shared memory, and which folders it
 * knows to be plain (reached from the root through folders that are no
 * links). `seen` reads a folder's verdict from the other thread's numbers.
 */
interface Stater {
  shared: Shared;
  lstat: typeof lstatSync;
  layout: Layout;
  plain: Map<string, boolean>;
  seen?: (path: string) => boolean | undefined;
}

/**
 * True when the root-relative folder is reached through plain folders only:
 * a path under a folder since replaced by a link is never stat'ed (the
 * link may lead out of the root, and the walk takes nothing of it anyway).
 */
function isPlainFolder(t: Stater, path: string): boolean {
  if (path === "" || path === ".") return true;
  let verdict = t.plain.get(path) ?? t.seen?.(path);
  if (verdict === undefined) {
    verdict = false;
    if (isUnderPlainFolders(t, path)) {
      try {
        verdict = t.lstat(`${t.shared.root}/${path}`, { throwIfNoEntry: false })?.isDirectory() === true;
      } catch {
        verdict = false;
      }
    }
  }
  t.plain.set(path, verdict);
  return verdict;
}

/** True when the folder holding a root-relative path is a plain one (see isPlainFolder). */
function isUnderPlainFolders(t: Stater, path: string): boolean {
  const slash = path.lastIndexOf("/");
  return isPlainFolder(t, slash < 0 ? "" : path.slice(0, slash));
}

/** One listed path's numbers (a root-relative path under plain folders; never one that would leave the root). */
function statInto(t: Stater, line: number): void {
  const path = t.shared.lines[line]!;
  if (path === "" || path.startsWith("/") || path.split("/").includes("..")) return;
  if (path !== "." && !isUnderPlainFolders(t, path)) return;
  let stats;
  try {
    stats = t.lstat(path === "." ? t.shared.root : `${t.shared.root}/${path}`, { throwIfNoEntry: false });
  } catch {
    return;
  }
  if (!stats) return;
  const { layout } = t;
  const at = line * layout.stride;
  const numbers = t.shared.numbers;
  numbers[at] = stats.isFile() ? layout.file : stats.isDirectory() ? layout.folder : layout.other;
  numbers[at + 1] = stats.size;
  numbers[at + 2] = stats.mtimeMs;
  numbers[at + 3] = stats.ctimeMs;
  if (path !== ".") t.plain.set(path, stats.isDirectory());
}

/** Stat one chunk this thread has taken, then mark it done; how many paths it held. */
function statChunk(t: Stater, chunk: number): number {
  const start = chunk * t.layout.chunk;
  const end = Math.min(t.shared.lines.length, start + t.layout.chunk);
  for (let line = start; line < end; line++) statInto(t, line);
  Atomics.store(t.shared.states, chunk, t.layout.done);
  Atomics.notify(t.shared.states, chunk);
  return end - start;
}

/** The worker's loop: every chunk no thread has taken yet, in list order; how many paths it stat'ed. */
function takeFree(t: Stater): number {
  let taken = 0;
  for (let chunk = 0; chunk < t.shared.states.length; chunk++) {
    if (Atomics.compareExchange(t.shared.states, chunk, t.layout.free, t.layout.taken) === t.layout.free) taken += statChunk(t, chunk);
  }
  return taken;
}

/** The worker: the same functions (written once, sent as source), on the list's lines. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { lstatSync } = require("node:fs");
${isPlainFolder.toString()}
${isUnderPlainFolders.toString()}
${statInto.toString()}
${statChunk.toString()}
${takeFree.toString()}
const { root, text, numbers, states, layout } = workerData;
const shared = { root, lines: text.split("\\n"), numbers: new Float64Array(numbers), states: new Int32Array(states) };
parentPort.postMessage(takeFree({ shared, lstat: lstatSync, layout, plain: new Map() }));
`;

/** The file the store lists the paths in, in its index folder (see store/stat-list.ts). */
export const STAT_LIST_FILE = "stat-list.txt";

/** A run started before a build asked for it (see {@link startStatsAheadEarly}): the root and list it stats. */
let early: { realRoot: string; listFile: string; run: StatsAheadRun | undefined } | undefined;

/**
 * Start the stats of the index folder `cacheDir` now, for the build this
 * process is about to make of `realRoot`: the command line starts them
 * before it loads the library (~100 ms of a warm query on babel, whose walk
 * waited that long for the worker's last stats). The build takes them with
 * {@link statsAheadFor}; a build of another root or folder starts its own.
 */
export function startStatsAheadEarly(realRoot: string, cacheDir: string): StatsAheadRun | undefined {
  const listFile = resolve(cacheDir, STAT_LIST_FILE);
  early = { realRoot, listFile, run: statAhead(realRoot, listFile) };
  return early.run;
}

/** The stats of `listFile` under `realRoot`: the ones started early for them, once, else a run started now. */
export function statsAheadFor(realRoot: string, listFile: string): StatsAheadRun | undefined {
  const started = early;
  early = undefined;
  if (started && started.realRoot === realRoot && started.listFile === resolve(listFile)) return started.run;
  return statAhead(realRoot, listFile);
}

/**
 * Start stat'ing the paths listed in `listFile` under `realRoot` (the
 * root's real, absolute path) in a worker thread; undefined when there is
 * no list (or it is too short to pay for a worker).
 *
 * @example
 * const run = statAhead("/repo", "/cache/stat-list.txt");
 * // … read the index meanwhile …
 * const stats = run?.finish(); // stats?.file("src/a.ts") → { size, mtimeMs }
 */
export function statAhead(realRoot: string, listFile: string): StatsAheadRun | undefined {
  if (process.platform === "win32") return undefined;
  let text: string;
  try {
    text = readFileSync(listFile, "utf8");
  } catch {
    return undefined;
  }
  const lines = text.split("\n");
  if (lines.length < STAT_AHEAD_MIN_PATHS) return undefined;
  const shared: Shared = {
    root: realRoot,
    lines,
    numbers: new Float64Array(new SharedArrayBuffer(lines.length * LAYOUT.stride * Float64Array.BYTES_PER_ELEMENT)),
    states: new Int32Array(new SharedArrayBuffer(Math.ceil(lines.length / LAYOUT.chunk) * Int32Array.BYTES_PER_ELEMENT)),
  };
  const takenAt = Date.now();
  const worker = new Promise<number | undefined>((resolve) => {
    try {
      const workerData = { root: realRoot, text, numbers: shared.numbers.buffer, states: shared.states.buffer, layout: LAYOUT };
      const thread = new (workerThreads().Worker)(WORKER_SOURCE, { eval: true, workerData });
      // it never holds the process: what it has not stat'ed, this thread asks itself
      thread.unref();
      thread.once("message", (taken: number) => resolve(taken));
      thread.once("error", () => resolve(undefined));
      thread.once("exit", () => resolve(undefined));
    } catch {
      // no worker: every chunk is taken here when first asked
      resolve(undefined);
    }
  });
  return { paths: lines.length, worker, finish: () => searchable(shared, takenAt) };
}

/** The numbers by path, each chunk made ready when first asked; lookups by path see no line `skip` names. */
function searchable(shared: Shared, takenAt: number, skip?: (line: number) => boolean): StatsAhead {
  const { lines, numbers, states } = shared;
  // the lines by path, made when a path is first asked (a caller asking by line never does)
  let lineOf: Map<string, number> | undefined;
  const at = (path: string): number | undefined => {
    if (!lineOf) {
      lineOf = new Map<string, number>();
      for (let i = 0; i < lines.length; i++) if (!skip?.(i)) lineOf.set(lines[i]!, i);
    }
    return lineOf.get(path);
  };
  // a folder the worker has stat'ed: plain when it found a folder there (it stats none under a link). Asked only once
  // the map of paths is made: a caller asking by line never makes it, and the folders of a chunk this thread stats are
  // mostly on its own earlier lines (the rest stat'ed here once: the 54,782-file tree's map is ~80 ms)
  const seen = (path: string): boolean | undefined => {
    const line = lineOf?.get(path);
    if (line === undefined || Atomics.load(states, Math.floor(line / LAYOUT.chunk)) !== LAYOUT.done) return undefined;
    return numbers[line * LAYOUT.stride] === LAYOUT.folder;
  };
  const stater: Stater = { shared, lstat: lstatSync, layout: LAYOUT, plain: new Map(), seen };
  // chunks the worker held past the wait: asked no more (the walk stats their paths itself)
  const abandoned = new Set<number>();
  const ready = (chunk: number): boolean => {
    for (;;) {
      const state = Atomics.load(states, chunk);
      if (state === LAYOUT.done) return true;
      if (abandoned.has(chunk)) return false;
      if (state === LAYOUT.free && Atomics.compareExchange(states, chunk, LAYOUT.free, LAYOUT.taken) === LAYOUT.free) {
        statChunk(stater, chunk);
        return true;
      }
      if (Atomics.wait(states, chunk, LAYOUT.taken, WAIT_LIMIT_MS) === "timed-out") abandoned.add(chunk);
    }
  };
  const onLine = (line: number | undefined, kind: number): number | undefined => {
    if (line === undefined || !(line >= 0 && line < lines.length) || !ready(Math.floor(line / LAYOUT.chunk))) return undefined;
    const i = line * LAYOUT.stride;
    return numbers[i] === kind ? i : undefined;
  };
  const folderOn = (i: number | undefined): readonly [number, number] | undefined => (i === undefined ? undefined : [numbers[i + 2]!, numbers[i + 3]!]);
  const fileOn = (i: number | undefined) => (i === undefined ? undefined : { size: numbers[i + 1]!, mtimeMs: numbers[i + 2]! });
  return {
    takenAt,
    lines,
    folder: (path) => folderOn(onLine(at(path === "" ? "." : path), LAYOUT.folder)),
    file: (path) => fileOn(onLine(at(path), LAYOUT.file)),
    folderAt: (line) => folderOn(onLine(line, LAYOUT.folder)),
    fileAt: (line) => fileOn(onLine(line, LAYOUT.file)),
    except: (other) => searchable(shared, takenAt, other),
  };
}
