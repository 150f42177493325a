/**
 * Read, hash and parse many files: in this thread, or spread over a pool of
 * worker threads when the work is large enough to pay for them. The facts
 * are the same either way (each worker runs the same `parseSource`).
 *
 * Streaming: workers get file paths, one or two at a time, read and parse
 * them themselves and post back only the facts, so no more than a few
 * texts and trees are alive at once whatever the number of files.
 */
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Worker } from "node:worker_threads";
import type { LanguageId, ParsedFile } from "../types.js";
import { workerThreads } from "../util/builtins.js";
import { hashContent } from "../util/content-hash.js";
import type { TreeKeeper } from "./kept-trees.js";

/** One file to parse. */
export interface ParseJob {
  path: string;
  absPath: string;
  language: LanguageId;
  isDeclaration: boolean;
  /** Bytes, when known: workers take the largest files first. */
  size?: number;
}

/** A parsed file with the hash and size of the bytes parsed, or why it could not be read. */
export type ParseOutcome =
  | { path: string; hash: string; size: number; parsed: ParsedFile; errorCode?: undefined }
  | { path: string; errorCode: string };

export interface ParseFilesOptions {
  /** Worker threads to use; 0 parses in this thread. */
  workers: number;
  /** Called after each file. */
  onParsed?: (outcome: ParseOutcome) => void;
  /** With workers: this thread parses too, taking the smallest files left while the workers take the largest. */
  helpInThread?: boolean;
  /** Trees a resident process keeps (see kept-trees.ts): used and refilled by a parse in this thread without workers. */
  trees?: TreeKeeper;
}

/** Jobs each worker holds at once: one parsing, one waiting, so it never idles on a round trip. */
const JOBS_IN_FLIGHT = 2;

/** Messages between the pool and a worker. */
export interface WorkerRequest {
  id: number;
  job: ParseJob;
}
/** A job's outcome, or word that the job is this thread's to parse (its facts need TypeScript, see parse-worker.ts). */
export type WorkerReply = { id: number; outcome: ParseOutcome; inThread?: undefined } | { id: number; inThread: true };

type ParseSource = typeof import("./index.js").parseSource;
let parseSourceLoaded: ParseSource | undefined;

/** parse/index.js loads the grammars and TypeScript: only when a file must be parsed. */
async function loadParseSource(): Promise<ParseSource> {
  parseSourceLoaded ??= (await import("./index.js")).parseSource;
  return parseSourceLoaded;
}

/**
 * Load the parser now: tree-sitter, both grammars and their queries. A
 * resident process (the daemon) calls it at start, so its first edit pays
 * for the parse alone; with `samples` (texts of the codebase, their facts
 * dropped) it also runs the fact extraction over real code until the JIT
 * has compiled it: effect's first edit of `Array.ts` in a fresh process
 * parsed in 65 ms, 46 ms after 10 of its larger files (~0.23 s at start).
 * With `trees`, the samples' trees are kept there: the next parse of one
 * of those files is incremental.
 *
 * @example
 * await preloadParser([{ path: "src/big.ts", text, language: "typescript" }]);
 */
export async function preloadParser(samples: ReadonlyArray<{ path: string; text: string; language: LanguageId }> = [], trees?: TreeKeeper): Promise<void> {
  const parseSource = await loadParseSource();
  parseSource("preload.ts", "import { b } from './b';\nexport const a = b;\n", "typescript");
  parseSource("preload.tsx", "export const A = () => <a />;\n", "tsx");
  for (const sample of samples) {
    try {
      parseSource(sample.path, sample.text, sample.language, false, trees);
    } catch {
      // a warm-up only: the file's own parse reports what is wrong with it
    }
  }
}

/**
 * Read, hash and parse one file (what each worker does for each job).
 *
 * @example
 * const outcome = parseJob({ path: "src/a.ts", absPath: "/repo/src/a.ts", language: "typescript", isDeclaration: false }, bytes, parseSource);
 */
export function parseBytes(job: ParseJob, bytes: Buffer, parseSource: ParseSource, trees?: TreeKeeper): ParseOutcome {
  const parsed = parseSource(job.path, bytes.toString("utf8"), job.language, job.isDeclaration, trees);
  return { path: job.path, hash: hashContent(bytes), size: bytes.length, parsed };
}

/** Read and parse one job in this thread; an unreadable file becomes an outcome with its error code. */
export async function parseJobInThread(job: ParseJob, trees?: TreeKeeper): Promise<ParseOutcome> {
  const parseSource = await loadParseSource();
  let bytes: Buffer;
  try {
    // a synchronous read: the promise version costs an event-loop round trip per step (open, stat, read,
    // close) on the thread pool, ~0.3 ms a file of idle time on this thread (monaco-editor: ~0.45 s)
    bytes = readFileSync(job.absPath);
  } catch (error) {
    return { path: job.path, errorCode: (error as NodeJS.ErrnoException).code ?? "error" };
  }
  return parseBytes(job, bytes, parseSource, trees);
}

/**
 * The compiled worker script: the sibling parse-worker.js, or, when this
 * module runs from the TypeScript sources (tests), its twin in dist/.
 * Undefined when neither exists (then parsing stays in this thread).
 */
export function parseWorkerUrl(): URL | undefined {
  const candidates = [new URL("./parse-worker.js", import.meta.url), new URL("../../dist/parse/parse-worker.js", import.meta.url)];
  return candidates.find((url) => existsSync(fileURLToPath(url)));
}

/**
 * Parse every job; outcomes come back in job order.
 *
 * @example
 * const outcomes = await parseFiles(jobs, { workers: 2, onParsed: () => bar.tick() });
 */
export async function parseFiles(jobs: readonly ParseJob[], options: ParseFilesOptions): Promise<ParseOutcome[]> {
  const url = options.workers > 0 && jobs.length > 1 ? parseWorkerUrl() : undefined;
  if (!url) return parseInThread(jobs, options);
  return parseWithWorkers(jobs, options, url);
}

/** Workers started before their jobs were known ({@link prestartParseWorkers}), taken by the next pool. */
const prestarted: Worker[] = [];

/**
 * Start up to `count` parse workers now, before the jobs are known, so that
 * their start-up (Node's bootstrap of a thread, our modules, tree-sitter:
 * ~0.1 s of CPU each) runs beside the caller's scan instead of after it.
 * The next {@link parseFiles} with workers takes them;
 * {@link releasePrestartedWorkers} ends those left unused. A worker that
 * fails before it is taken is dropped (the pool then starts its own or
 * parses in this thread).
 *
 * @example
 * prestartParseWorkers(1);
 * const scan = await scanFiles(root);
 * try { await parseFiles(jobs, { workers: 1 }); } finally { await releasePrestartedWorkers(); }
 */
export function prestartParseWorkers(count: number): void {
  const url = count > prestarted.length ? parseWorkerUrl() : undefined;
  if (!url) return;
  while (prestarted.length < count) {
    const worker = new (workerThreads().Worker)(url);
    const drop = () => {
      const index = prestarted.indexOf(worker);
      if (index >= 0) prestarted.splice(index, 1);
    };
    // an error with no listener would be thrown; a taken worker has the pool's listeners as well
    worker.on("error", drop);
    worker.once("exit", drop);
    // waiting, it keeps no process alive (a pool that takes it refs it again)
    worker.unref();
    prestarted.push(worker);
  }
}

/**
 * End the workers {@link prestartParseWorkers} started that no pool took;
 * returns how many. Not waited for: a worker still booting ends on its
 * own thread while this one goes on (waiting cost a small first build ~15 ms).
 */
export function releasePrestartedWorkers(): number {
  const unused = prestarted.splice(0);
  for (const worker of unused) void worker.terminate();
  return unused.length;
}

/** Let timers (--timeout), the workers' replies and other work run between two files parsed in this thread. */
const betweenFiles = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function parseInThread(jobs: readonly ParseJob[], options: ParseFilesOptions): Promise<ParseOutcome[]> {
  const outcomes: ParseOutcome[] = [];
  for (const job of jobs) {
    const outcome = await parseJobInThread(job, options.trees);
    outcomes.push(outcome);
    options.onParsed?.(outcome);
    await betweenFiles();
  }
  return outcomes;
}

/** The pools now parsing, each with its stop: see {@link stopParseWorkers}. */
const runningPools = new Set<() => Promise<void>>();

/**
 * Stop every parse worker of this process between two files, for a caller
 * that must end early (the CLI's --timeout): no job is handed out any more,
 * a job a worker holds is finished and its reply dropped, then the idle
 * worker is terminated, and the pools' parseFiles calls reject. A worker
 * must never be terminated inside tree-sitter's native parser: the parser
 * reads the text through a JavaScript callback, which fails in a
 * terminating thread and aborts the whole process. Resolves when every
 * worker has exited, or after `graceMs` when one is still busy (a
 * pathological file can hold a parse for minutes).
 *
 * @example
 * await stopParseWorkers(); // then exiting the process is safe
 */
export async function stopParseWorkers(graceMs = 10_000): Promise<void> {
  releasePrestartedWorkers();
  const stops = [...runningPools].map((stop) => stop());
  if (stops.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, graceMs);
    timer.unref();
  });
  await Promise.race([Promise.all(stops), grace]);
  clearTimeout(timer);
}

/** The error a stopped pool's parseFiles rejects with. */
export class ParseStoppedError extends Error {
  constructor() {
    super("parsing was stopped (stopParseWorkers) before every file was parsed");
    this.name = "ParseStoppedError";
  }
}

/**
 * A pool of `options.workers` threads pulling jobs from one queue. A worker
 * that fails (cannot start, crashes) hands its jobs back to the queue; when
 * no worker is left the rest is parsed in this thread.
 */
function parseWithWorkers(jobs: readonly ParseJob[], options: ParseFilesOptions, url: URL): Promise<ParseOutcome[]> {
  const outcomes: Array<ParseOutcome | undefined> = new Array(jobs.length);
  // largest first: a big file taken last would leave one worker parsing it alone (effect's Effect.ts is
  // 0.9 MB, in the middle of the path order); outcomes still come back in job order
  const queue: number[] = jobs.map((_, index) => index).sort((a, b) => (jobs[b]?.size ?? 0) - (jobs[a]?.size ?? 0) || a - b);
  let remaining = jobs.length;
  const count = Math.min(options.workers, Math.ceil(jobs.length / JOBS_IN_FLIGHT));

  return new Promise<ParseOutcome[]>((resolvePool, rejectPool) => {
    const workers = new Map<Worker, Set<number>>();
    const exited = new Map<Worker, Promise<void>>();
    let settled = false;
    let stopping = false;
    const finish = (error?: unknown) => {
      if (settled) return;
      settled = true;
      runningPools.delete(stop);
      for (const worker of workers.keys()) void worker.terminate();
      workers.clear();
      if (error) rejectPool(error);
      else resolvePool(outcomes as ParseOutcome[]);
    };
    // between files only: a worker holding a job is terminated when its reply comes back
    const windDown = async (error: unknown) => {
      if (settled) return;
      stopping = true;
      queue.length = 0;
      const waits = [...exited.values()];
      for (const [worker, inFlight] of workers) if (inFlight.size === 0) void worker.terminate();
      await Promise.all(waits);
      finish(error);
    };
    const stop = () => windDown(new ParseStoppedError());
    runningPools.add(stop);
    const record = (index: number, outcome: ParseOutcome) => {
      if (outcomes[index] !== undefined || stopping) return;
      outcomes[index] = outcome;
      options.onParsed?.(outcome);
      remaining--;
      if (remaining === 0) finish();
    };
    // the jobs a worker handed back (their facts need TypeScript), parsed here one after another
    let handedBack: Promise<void> = Promise.resolve();
    const parseHandedBack = (index: number) => {
      handedBack = handedBack.then(async () => {
        if (settled || stopping) return;
        try {
          record(index, await parseJobInThread(jobs[index] as ParseJob));
        } catch (error) {
          void windDown(error);
        }
      });
    };
    const drainInThread = async () => {
      try {
        while (queue.length > 0) {
          const index = queue.shift() as number;
          record(index, await parseJobInThread(jobs[index] as ParseJob));
        }
      } catch (error) {
        void windDown(error);
      }
    };

    if (options.helpInThread) {
      void (async () => {
        try {
          // one file at a time, from the small end, yielding between files so the workers' replies are handled
          while (queue.length > 0 && !settled) {
            const index = queue.pop() as number;
            record(index, await parseJobInThread(jobs[index] as ParseJob));
            await betweenFiles();
          }
        } catch (error) {
          void windDown(error);
        }
      })();
    }
    for (let n = 0; n < count; n++) {
      const taken = prestarted.shift();
      taken?.ref();
      const worker = taken ?? new (workerThreads().Worker)(url);
      const inFlight = new Set<number>();
      workers.set(worker, inFlight);
      exited.set(worker, new Promise<void>((resolveExit) => worker.once("exit", () => resolveExit())));
      const feed = () => {
        while (inFlight.size < JOBS_IN_FLIGHT && queue.length > 0) {
          const index = queue.shift() as number;
          inFlight.add(index);
          worker.postMessage({ id: index, job: jobs[index] as ParseJob } satisfies WorkerRequest);
        }
      };
      worker.on("message", (reply: WorkerReply) => {
        inFlight.delete(reply.id);
        if (stopping) {
          if (inFlight.size === 0) void worker.terminate();
          return;
        }
        if (reply.inThread) parseHandedBack(reply.id);
        else record(reply.id, reply.outcome);
        feed();
      });
      worker.on("error", () => {
        // give its jobs back; the last worker gone leaves the rest to this thread
        if (!stopping) queue.unshift(...inFlight);
        inFlight.clear();
        workers.delete(worker);
        void worker.terminate();
        if (workers.size === 0 && !settled && !stopping) void drainInThread();
      });
      feed();
    }
  });
}
