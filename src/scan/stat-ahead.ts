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
 * its own (see store/stat-list.ts). A worker takes them in chunks from the
 * front of the list; when this thread reaches the walk, it takes the chunks
 * left itself (so it never waits for a worker still starting), and the walk
 * then takes a folder's times or a known file's size and mtime from the
 * numbers instead of asking again.
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
import { workerThreads } from "../util/builtins.js";

/**
 * Below this many listed paths, a worker is not worth its start: a thread's
 * boot costs ~25 ms (on the other core) and ~2 ms of this one, and a stat
 * here ~5 µs (rollup's 17,308 paths: 66 ms of lstat and 25 ms of stat in a
 * warm query's profile, session 26). effect's 548 files are under it.
 */
export const STAT_AHEAD_MIN_PATHS = 2000;

/** How long this thread waits for the chunks the worker has in hand before it gives the numbers up. */
const WAIT_LIMIT_MS = 1000;

/**
 * How the shared numbers are laid out, handed to both threads (the
 * functions the worker runs see nothing but their arguments).
 */
const LAYOUT = {
  /** Paths taken at a time, by the worker or this thread (~1 ms of stats). */
  chunk: 256,
  /** Numbers per listed path: kind, size, mtimeMs, ctimeMs. */
  stride: 4,
  /** Slots of the shared counters: the next path not taken, and how many paths are done. */
  next: 0,
  done: 1,
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
}

/** Stats being taken: {@link finish} takes what is left in this thread and gives the numbers. */
export interface StatsAheadRun {
  /** The listed paths (the list's lines). */
  readonly paths: number;
  /** How many paths the worker stat'ed, once it has ended (undefined: it could not start or failed). */
  readonly worker: Promise<number | undefined>;
  /** Every listed path stat'ed (by the worker or here), made searchable; undefined when the numbers cannot be trusted. */
  finish(): StatsAhead | undefined;
}

/** One path's numbers into `numbers` (a root-relative path; never one that would leave the root). */
function statInto(root: string, path: string, numbers: Float64Array, at: number, lstat: typeof lstatSync, layout: Layout): void {
  if (path === "" || path.startsWith("/") || path.split("/").includes("..")) return;
  let stats;
  try {
    stats = lstat(path === "." ? root : `${root}/${path}`, { throwIfNoEntry: false });
  } catch {
    return;
  }
  if (!stats) return;
  numbers[at] = stats.isFile() ? layout.file : stats.isDirectory() ? layout.folder : layout.other;
  numbers[at + 1] = stats.size;
  numbers[at + 2] = stats.mtimeMs;
  numbers[at + 3] = stats.ctimeMs;
}

/** Take chunks of paths until none is left, the counters shared with the other thread. */
/** Take chunks of paths until none is left, the counters shared with the other thread; how many paths this thread took. */
function takeChunks(root: string, lines: readonly string[], numbers: Float64Array, counters: Int32Array, lstat: typeof lstatSync, layout: Layout, stat: typeof statInto): number {
  let taken = 0;
  for (;;) {
    const start = Atomics.add(counters, layout.next, layout.chunk);
    if (start >= lines.length) return taken;
    const end = Math.min(lines.length, start + layout.chunk);
    for (let i = start; i < end; i++) stat(root, lines[i]!, numbers, i * layout.stride, lstat, layout);
    taken += end - start;
    Atomics.add(counters, layout.done, end - start);
    Atomics.notify(counters, layout.done);
  }
}

/** The worker: the same two functions (written once, sent as source), on the list's lines. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { lstatSync } = require("node:fs");
const statInto = ${statInto.toString()};
const takeChunks = ${takeChunks.toString()};
const { root, text, numbers, counters, layout } = workerData;
parentPort.postMessage(takeChunks(root, text.split("\\n"), new Float64Array(numbers), new Int32Array(counters), lstatSync, layout, statInto));
`;

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
  const numbers = new Float64Array(new SharedArrayBuffer(lines.length * LAYOUT.stride * Float64Array.BYTES_PER_ELEMENT));
  const counters = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
  const takenAt = Date.now();
  const worker = new Promise<number | undefined>((resolve) => {
    try {
      const thread = new (workerThreads().Worker)(WORKER_SOURCE, { eval: true, workerData: { root: realRoot, text, numbers: numbers.buffer, counters: counters.buffer, layout: LAYOUT } });
      // it never holds the process: finish() takes what it has not
      thread.unref();
      thread.once("message", (taken: number) => resolve(taken));
      thread.once("error", () => resolve(undefined));
      thread.once("exit", () => resolve(undefined));
    } catch {
      // no worker: finish() stats every path here, as the walk would have
      resolve(undefined);
    }
  });
  return {
    paths: lines.length,
    worker,
    finish() {
      takeChunks(realRoot, lines, numbers, counters, lstatSync, LAYOUT, statInto);
      // the chunks the worker has in hand: ~1 ms each
      const deadline = Date.now() + WAIT_LIMIT_MS;
      for (let done = Atomics.load(counters, LAYOUT.done); done < lines.length; done = Atomics.load(counters, LAYOUT.done)) {
        if (Date.now() > deadline) return undefined;
        Atomics.wait(counters, LAYOUT.done, done, 10);
      }
      return searchable(lines, numbers, takenAt);
    },
  };
}

/** The numbers by path. */
function searchable(lines: readonly string[], numbers: Float64Array, takenAt: number): StatsAhead {
  const at = new Map<string, number>();
  for (let i = 0; i < lines.length; i++) if (numbers[i * LAYOUT.stride] !== 0) at.set(lines[i]!, i * LAYOUT.stride);
  const of = (path: string, kind: number): number | undefined => {
    const i = at.get(path === "" ? "." : path);
    return i !== undefined && numbers[i] === kind ? i : undefined;
  };
  return {
    takenAt,
    folder(path) {
      const i = of(path, LAYOUT.folder);
      return i === undefined ? undefined : [numbers[i + 2]!, numbers[i + 3]!];
    },
    file(path) {
      const i = of(path, LAYOUT.file);
      return i === undefined ? undefined : { size: numbers[i + 1]!, mtimeMs: numbers[i + 2]! };
    },
  };
}
