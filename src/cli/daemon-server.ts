/**
 * The daemon: one process per root that keeps the index in memory and runs
 * the CLI's commands for its clients (see daemon-client.ts), one at a time.
 * It watches the folders the scan walked (watchFolders): a change there
 * refreshes the index in memory at once (the edited files parsed, the graph
 * updated in place), so the next command usually finds it done. Before each
 * command it looks at what changed since: where the watch is trusted (see
 * resident-index.ts), the files it named; elsewhere every file, a stat each,
 * as every run does. The index folder is written after the client has its
 * answer. It stops on a `stop` request, on SIGINT/SIGTERM, or after
 * `idleMinutes` without one.
 */
import { chmodSync, lstatSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { createServer, type Socket } from "node:net";
import { createRetriever, GraphRetrieveError, type IndexMemory, type LanguageId } from "../index.js";
import { claimStoreFolder, createResidentIndex, ForeignFolderError, preloadParser } from "../faces.js";
import {
  askDaemon,
  createLineReader,
  decodeMessage,
  encodeMessage,
  MAX_SOCKET_PATH,
  SOCKET_FILE,
  socketPath,
  type DaemonReply,
  type DaemonStatus,
} from "./daemon-protocol.js";
import { VERSION } from "./help.js";
import type { CliIo, RunCli } from "./cli-io.js";

export interface DaemonOptions {
  /** The root's real path. */
  root: string;
  /** Its index folder: the socket and the index live there. */
  cacheDir: string;
  idleMinutes: number;
  /** What the first index covers (the commands bring their own). */
  scan: { include?: string[]; exclude?: string[]; alsoInclude?: string[]; maxFileBytes?: number };
  /** One line at a time (its start, warnings, its stop). */
  log: (line: string) => void;
  /** Runs a command (the CLI's runCli, handed over by the command that starts the daemon). */
  run: RunCli;
  /** Watch the root's folders and refresh on a change (default true). */
  watch?: boolean;
}

export interface Daemon {
  /** Resolves once the daemon has stopped (its socket removed). */
  stopped: Promise<void>;
  /** Stop now: no new request is taken, the one running finishes. */
  stop: () => Promise<void>;
}

/**
 * Make the index folder the daemon's to write in (created and tagged; see
 * claimStoreFolder): refused with one line when a file it would write there
 * is someone else's.
 */
export async function claimDaemonFolder(cacheDir: string, names: readonly string[]): Promise<void> {
  try {
    await claimStoreFolder(cacheDir, ["index.json", "graph.json", "facts.bin", ...names]);
  } catch (error) {
    if (error instanceof ForeignFolderError) throw new GraphRetrieveError("io", `graph-retrieve daemon: ${error.message}`);
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    throw new GraphRetrieveError("io", `graph-retrieve daemon: cannot use the index folder ${cacheDir} (${code}; pass another --cache-dir)`);
  }
}

/** Remove the socket a killed daemon left (only a socket: anything else there is refused). */
function removeStaleSocket(path: string): void {
  let isSocket: boolean;
  try {
    isSocket = lstatSync(path).isSocket();
  } catch {
    return; // none
  }
  if (!isSocket) throw new GraphRetrieveError("io", `graph-retrieve daemon: ${path} exists and is not a socket (not removed; remove it yourself, or pass another --cache-dir)`);
  rmSync(path, { force: true });
}

/**
 * Files whose parse warms the parser up (see preloadParser): the largest,
 * since a large file's first parse is the slow one (effect, Array.ts edited
 * in a fresh daemon, parsed in ~55 ms after 10 files of ≤ 128 kB, ~45 ms
 * after its 10 largest others). At most this many, of this many bytes in all.
 */
const WARM_UP_FILES = 10;
const WARM_UP_BYTES = 4 * 1024 * 1024;

async function parserSamples(root: string, memory: IndexMemory): Promise<Array<{ path: string; text: string; language: LanguageId }>> {
  const largest = Object.entries(memory.latest?.store.files ?? {}).sort(([a, x], [b, y]) => y.size - x.size || (a < b ? -1 : 1));
  const files: typeof largest = [];
  let bytes = 0;
  for (const file of largest) {
    if (files.length === WARM_UP_FILES) break;
    if (bytes + file[1].size > WARM_UP_BYTES) continue;
    bytes += file[1].size;
    files.push(file);
  }
  const samples: Array<{ path: string; text: string; language: LanguageId }> = [];
  for (const [path, entry] of files) {
    try {
      samples.push({ path, text: await readFile(join(root, path), "utf8"), language: entry.parsed.language });
    } catch {
      // gone since: one sample fewer
    }
  }
  return samples;
}

/** Runs of {@link warmUpCommands}. */
const INDEX_WARM_UPS = 3;

/**
 * Run the `index` command a few times, then a few retrievals, with their
 * output dropped (nothing has changed: each finds the index up to date), so
 * that the commands a client sends (an `index` after an edit, a query) run
 * compiled code. Effect, `Array.ts` edited then
 * indexed through a fresh daemon: wall median 119 → 110 ms (18 daemons
 * each, interleaved). A rehearsal of the edit's update itself made it
 * slower (see docs/benchmarks.md).
 */
async function warmUpCommands(runCli: RunCli, root: string, cacheDir: string, scan: DaemonOptions["scan"], memory: IndexMemory): Promise<void> {
  // the root and scan options every warm-up command gives
  const common = [
    "--root",
    root,
    ...(scan.include ?? []).flatMap((glob) => ["--include", glob]),
    ...(scan.exclude ?? []).flatMap((glob) => ["--exclude", glob]),
    ...(scan.alsoInclude ?? []).flatMap((glob) => ["--also-include", glob]),
    ...(scan.maxFileBytes !== undefined ? ["--max-file-bytes", String(scan.maxFileBytes)] : []),
    "--cache-dir",
    cacheDir,
  ];
  const dropped: CliIo = { stdout: () => undefined, stderr: () => undefined, cwd: root, env: {}, isStderrTty: false, memory };
  for (let run = 0; run < INDEX_WARM_UPS; run++) await runCli(["index", ...common, "--quiet"], dropped);
  // and the retrieval command: rollup's first 15 queries in a fresh daemon, in-process p50 95 / 125 / 112 ms
  // without, 80 / 99 / 69 ms with two (3 daemons each, interleaved), for 0.5-1.3 s more to start (five: 78 / 78 /
  // 84 ms, for ~2.9 s)
  for (const task of WARM_UP_TASKS) await runCli([task, ...common, "--format", "json", "--quiet"], dropped);
}

/** Tasks any codebase can be asked, retrieved at start with the answer dropped: the first clients' retrievals run compiled code. */
const WARM_UP_TASKS = ["fix the error message when the config file is missing", "add an option to skip the cache"];

/**
 * Index the root, then listen on its socket. Resolves once it listens
 * (the first index built, its memory warm).
 *
 * @example
 * const daemon = await startDaemon({ root, cacheDir, idleMinutes: 30, scan: {}, log: console.error, run: runCli });
 * await daemon.stopped;
 */
export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const { root, cacheDir, log } = options;
  const path = socketPath(cacheDir);
  if (path.length > MAX_SOCKET_PATH) {
    throw new GraphRetrieveError("usage", `graph-retrieve daemon: the index folder's path is too long for a socket (${path.length} characters, at most ${MAX_SOCKET_PATH}); pass a shorter --cache-dir`);
  }
  await claimDaemonFolder(cacheDir, [SOCKET_FILE]);
  if ((await askDaemon(cacheDir, { type: "status" })) !== undefined) {
    throw new GraphRetrieveError("io", `graph-retrieve daemon: one already serves ${root} (graph-retrieve daemon status; stop it with graph-retrieve daemon stop)`);
  }
  removeStaleSocket(path);

  // the index in memory, the queue of commands and the watch's refreshes (see resident-index.ts)
  const resident = createResidentIndex({ root, cacheDir, scan: options.scan, label: "graph-retrieve daemon", log, ...(options.watch === false ? { watch: false } : {}) });
  const { memory } = resident;
  const started = Date.now();
  // the first index, one retrieval and the parser loaded before listening: the first client finds the graph
  // built and the code warm
  await resident.run(
    async () => {
      const retriever = await createRetriever({ ...options.scan, root, cacheDir, memory });
      await retriever.retrieve("warm up the retrieval");
      // the samples' trees are kept: an edit of one of the largest files (the slowest to parse) re-parses incrementally
      await preloadParser(await parserSamples(root, memory), memory.trees);
      await warmUpCommands(options.run, root, cacheDir, options.scan, memory);
    },
    { afterWrite: true },
  );
  // the watch began after that index's walk: the refresh that looks at every file once more is done before
  // the first client comes (else that client's edit would wait for it: rollup ~0.3 s)
  await resident.settled();

  let requests = 0;
  let idleTimer: NodeJS.Timeout | undefined;
  let stopping: Promise<void> | undefined;
  let markStopped: () => void = () => undefined;
  const stopped = new Promise<void>((done) => (markStopped = done));
  const status = (): DaemonStatus => ({
    type: "status",
    pid: process.pid,
    version: VERSION,
    root,
    cacheDir,
    startedAt: new Date(started).toISOString(),
    requests,
    idleMinutes: options.idleMinutes,
    watching: resident.watching,
    ...(resident.watchNote !== undefined ? { watchNote: resident.watchNote } : {}),
    trusted: resident.trusted,
    refreshes: resident.refreshes,
  });

  const server = createServer((socket) => serveConnection(socket));
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      clearTimeout(idleTimer);
      server.close();
      await resident.close();
      rmSync(path, { force: true });
      log(`graph-retrieve daemon: stopped after ${requests} request${requests === 1 ? "" : "s"}`);
      markStopped();
    })();
    return stopping;
  };
  const armIdleTimer = () => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      log(`graph-retrieve daemon: no request for ${options.idleMinutes} minutes`);
      void stop();
    }, options.idleMinutes * 60_000);
    idleTimer.unref?.();
  };

  function serveConnection(socket: Socket): void {
    socket.setEncoding("utf8");
    socket.on("error", () => undefined); // a client that went away: its answer is dropped
    const lines = createLineReader();
    let taken = false;
    socket.on("data", (chunk: string) => {
      const line = lines.push(chunk)[0];
      if (line === undefined || taken) return;
      taken = true;
      const request = decodeMessage(line);
      const send = (reply: DaemonReply) => {
        if (!socket.destroyed) socket.write(encodeMessage(reply));
      };
      if (request?.type === "status") {
        socket.end(encodeMessage(status()));
      } else if (request?.type === "stop") {
        socket.end(encodeMessage({ type: "stopped", pid: process.pid }));
        void stop();
      } else if (request?.type === "run" && !stopping) {
        // one at a time, and a failed one never stops the next; the index is written after the answer
        void resident
          .run(() => runRequest(request, send, memory), { afterWrite: true })
          .catch(() => undefined)
          .finally(() => {
            requests++;
            socket.end();
            armIdleTimer();
          });
      } else {
        socket.end(encodeMessage({ type: "decline", reason: "" }));
      }
    });
  }

  async function runRequest(request: Record<string, unknown>, send: (reply: DaemonReply) => void, memory: IndexMemory): Promise<void> {
    if (request.version !== VERSION) {
      send({
        type: "decline",
        reason: `graph-retrieve: the daemon for this root runs version ${VERSION}, not ${String(request.version)}; ran without it (restart it: graph-retrieve daemon stop, then start)`,
      });
      return;
    }
    const argv = request.argv;
    const cwd = request.cwd;
    // another root (an index folder shared through --cache-dir): the client runs it itself
    if (request.root !== root || !Array.isArray(argv) || !argv.every((a) => typeof a === "string") || typeof cwd !== "string") {
      send({ type: "decline", reason: "" });
      return;
    }
    const env = typeof request.env === "object" && request.env !== null ? (request.env as Record<string, string | undefined>) : {};
    const io: CliIo = {
      stdout: (text) => send({ type: "out", text }),
      stderr: (text) => send({ type: "err", text }),
      cwd,
      env,
      isStderrTty: false,
      memory,
    };
    const code = await options.run(argv as string[], io);
    send({ type: "exit", code });
  }

  await new Promise<void>((listening, failed) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      failed(new GraphRetrieveError("io", `graph-retrieve daemon: cannot listen on ${path} (${error.code ?? error.message}; check the index folder is yours and writable)`));
    });
    server.listen(path, () => {
      server.removeAllListeners("error");
      listening();
    });
  });
  chmodSync(path, 0o600);
  armIdleTimer();
  log(`graph-retrieve daemon: pid ${process.pid} serves ${root} (index ${cacheDir}; ${Date.now() - started} ms to start; stops after ${options.idleMinutes} idle minutes)`);
  return { stopped, stop };
}
