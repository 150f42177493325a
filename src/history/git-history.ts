/**
 * The repository's first-parent history, read with the git CLI: each
 * commit's hash, time, message and the files it changed (renames as
 * old → new). Read only when the root is a git work tree whose `.git` is a
 * folder inside the root: a `.git` file (a worktree or a submodule) points
 * elsewhere, and nothing outside the root is read for it. Bounded by a
 * number of commits and a time limit, whichever comes first; what arrived
 * by then is kept. No git, or a git that fails, means no history, never an
 * error.
 *
 * The git CLI was measured against isomorphic-git on a repository of
 * 10,000+ commits (docs/benchmarks.md): it reads the log with its changed
 * files an order of magnitude faster, and it is on every machine that has a
 * git work tree.
 */
import type { Worker } from "node:worker_threads";
import { lstat, readFile } from "node:fs/promises";
import { join } from "node:path";
import { childProcess, workerThreads } from "../util/builtins.js";

/** One commit as git gives it: changed paths as they were in that commit. */
export interface GitCommit {
  hash: string;
  /** Commit time, seconds since the epoch. */
  time: number;
  message: string;
  /** Paths added, modified or deleted, and for a rename or copy its new path. */
  paths: string[];
  /** Renames in this commit: [old path, new path]. */
  renames: Array<[string, string]>;
}

export interface GitLog {
  commits: GitCommit[];
  /** True when the time limit cut the read short. */
  truncated: boolean;
  /** True when renames are exact ones only (asked, or a blob git could not read made it fall back: see readGitLog). */
  exactRenames: boolean;
}

const SHA = /^[0-9a-f]{40}$/;

/** The root's `.git` folder when it is one (a plain folder inside the root, not a link or a file). */
export async function gitFolderOf(root: string): Promise<string | undefined> {
  const dir = join(root, ".git");
  try {
    const info = await lstat(dir);
    return info.isDirectory() ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** HEAD's commit, read from the `.git` folder's files without starting git (a warm run pays no process). */
export async function readHead(gitDir: string): Promise<string | undefined> {
  try {
    const head = (await readFile(join(gitDir, "HEAD"), "utf8")).trim();
    if (SHA.test(head)) return head;
    const ref = /^ref: (refs\/[^\s]+)$/.exec(head)?.[1];
    if (!ref || ref.includes("..")) return undefined;
    try {
      const loose = (await readFile(join(gitDir, ref), "utf8")).trim();
      if (SHA.test(loose)) return loose;
    } catch {
      // not loose: packed
    }
    const packed = await readFile(join(gitDir, "packed-refs"), "utf8");
    for (const line of packed.split("\n")) {
      const [sha, name] = line.split(" ");
      if (name === ref && sha && SHA.test(sha)) return sha;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** A shallow clone has `.git/shallow`: its history ends early, and says so. */
export async function isShallow(gitDir: string): Promise<boolean> {
  try {
    return (await lstat(join(gitDir, "shallow"))).isFile();
  } catch {
    return false;
  }
}

const GIT_ENV_DROPPED = ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CEILING_DIRECTORIES", "GIT_NAMESPACE"];

function gitEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: "0", LC_ALL: "C", GIT_OPTIONAL_LOCKS: "0" };
  for (const key of GIT_ENV_DROPPED) delete env[key];
  return env;
}

/**
 * A read's time limit. Its clock starts at once, or when `start` settles: a
 * read started beside the graph's build is limited in the wait it adds after
 * the build, not in the time it shared with it. A start that settles false
 * abandons the read (the build failed: nothing will use it).
 */
interface TimeLimit {
  /** Resolves true when the clock starts, false when the read is abandoned. */
  readonly started: Promise<boolean>;
  /** Milliseconds left (the whole limit until the clock starts). */
  left(): number;
}

/**
 * @example
 * const limit = createTimeLimit(3000, graphBuilt); // counts from the graph's build on
 */
function createTimeLimit(timeoutMs: number, start?: Promise<boolean>): TimeLimit {
  let startedAt = start ? undefined : performance.now();
  const started = start ? start.then((go) => ((startedAt = performance.now()), go), () => false) : Promise.resolve(true);
  return { started, left: () => (startedAt === undefined ? timeoutMs : timeoutMs - (performance.now() - startedAt)) };
}

/** git's output, whole, once it exited (undefined: it could not start). */
type GitOutput = { stdout: Buffer; stderr: string; code: number | null } | undefined;

/** A git process started: its output when it is done, and a way to stop it. */
interface GitProcess {
  done: Promise<GitOutput>;
  kill(): void;
}

// nothing the repository's config could run: no fsmonitor, no pager, no external diff
const GIT_FLAGS = ["-c", "core.quotepath=off", "-c", "core.fsmonitor=false", "--no-pager"];

/** git started from this thread: its output is read by this thread's event loop. */
function startGit(root: string, args: string[]): GitProcess {
  let child;
  try {
    child = childProcess().spawn("git", [...GIT_FLAGS, ...args], { cwd: root, env: gitEnv(), stdio: ["ignore", "pipe", "pipe"] });
  } catch {
    return { done: Promise.resolve(undefined), kill: () => undefined };
  }
  const started = child;
  const done = new Promise<GitOutput>((resolve) => {
    const chunks: Buffer[] = [];
    let stderr = "";
    started.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    started.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString("utf8");
    });
    started.on("error", () => resolve(undefined));
    started.on("close", (code) => resolve({ stdout: Buffer.concat(chunks), stderr, code }));
  });
  return { done, kill: () => started.kill("SIGKILL") };
}

/**
 * The worker of {@link startGitOffThread}: it starts git, reads its pipes
 * and hands the output back whole (its bytes moved, not copied). A message
 * stops git.
 */
const DRAIN_WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const { spawn } = require("node:child_process");
const reply = (message, transfer) => { parentPort.postMessage(message, transfer); parentPort.close(); };
let child;
try {
  child = spawn("git", workerData.argv, { cwd: workerData.cwd, env: workerData.env, stdio: ["ignore", "pipe", "pipe"] });
} catch {
  reply(null);
}
if (child) {
  const chunks = [];
  let stderr = "";
  parentPort.on("message", () => child.kill("SIGKILL"));
  child.stdout.on("data", (chunk) => chunks.push(chunk));
  child.stderr.on("data", (chunk) => { if (stderr.length < 2000) stderr += chunk.toString("utf8"); });
  child.on("error", () => reply(null));
  child.on("close", (code) => {
    const bytes = new Uint8Array(chunks.reduce((n, chunk) => n + chunk.length, 0));
    let at = 0;
    for (const chunk of chunks) { bytes.set(chunk, at); at += chunk.length; }
    reply({ stdout: bytes, stderr, code }, [bytes.buffer]);
  });
}
`;

/**
 * git started from a worker thread that reads its output. Beside a graph's
 * build this thread can be busy for seconds at a time (resolving, writing
 * the index), and git blocks once the pipe it writes to is full (64 KiB):
 * read from here, a log that takes git 1.7 s alone took 6 s with this
 * thread busy for 4 of them. The worker keeps the pipe drained, so git runs
 * on the other core whatever this thread does.
 */
function startGitOffThread(root: string, args: string[]): GitProcess {
  let worker: Worker;
  try {
    worker = new (workerThreads().Worker)(DRAIN_WORKER, { eval: true, workerData: { argv: [...GIT_FLAGS, ...args], cwd: root, env: gitEnv() }, stdout: false, stderr: false });
  } catch {
    return startGit(root, args);
  }
  const done = new Promise<GitOutput>((resolve) => {
    worker.once("message", (message: { stdout: Uint8Array; stderr: string; code: number | null } | null) => {
      resolve(message ? { stdout: Buffer.from(message.stdout.buffer, message.stdout.byteOffset, message.stdout.byteLength), stderr: message.stderr, code: message.code } : undefined);
    });
    worker.once("error", () => resolve(undefined));
    worker.once("exit", () => resolve(undefined));
  });
  return { done, kill: () => worker.postMessage("stop") };
}

/**
 * Run git in `root` and collect its stdout, up to the time limit (then the
 * process is stopped and what arrived is returned, `timedOut` set). A git
 * that cannot start or fails, or a read abandoned, gives undefined.
 * `offThread`: a worker thread reads git's output (see {@link startGitOffThread}).
 */
async function runGit(root: string, args: string[], limit: TimeLimit, offThread = false): Promise<{ stdout: Buffer; stderr: string; timedOut: boolean; code: number | null } | undefined> {
  const git = offThread ? startGitOffThread(root, args) : startGit(root, args);
  let timedOut = false;
  let abandoned = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  void limit.started.then((go) => {
    if (closed) return;
    if (!go) {
      abandoned = true;
      git.kill();
      return;
    }
    timer = setTimeout(() => {
      timedOut = true;
      git.kill();
    }, Math.max(1, limit.left()));
  });
  const output = await git.done;
  closed = true;
  clearTimeout(timer);
  return output && !abandoned ? { ...output, timedOut } : undefined;
}

const COMMIT = "\u0001";
const FIELD = "\u0002";
const END = "\u0003";
const NUL = "\0";
const NEWLINE = 10;

/**
 * Parse `git log -z --name-status --format=%x01%H%x02%ct%x02%B%x03`; a
 * commit cut short at the end is dropped. One pass over the text with
 * indexOf: no list of records or of tokens is made, only the strings kept
 * (slices of the text). Splitting the log (~5 MB for webpack's 7,536
 * commits) into records and tokens was most of the parse's time and
 * garbage. Decoding each kept string from git's bytes alone was measured
 * too: the parse was as fast, but the message terms that follow were slower
 * by as much.
 */
export function parseGitLog(text: string, complete: boolean): GitCommit[] {
  const commits: GitCommit[] = [];
  let start = text.indexOf(COMMIT);
  while (start >= 0) {
    const next = text.indexOf(COMMIT, start + 1);
    // the last record may be cut mid-list when the read was stopped
    if (next < 0 && !complete) break;
    const commit = parseRecord(text, start + 1, next < 0 ? text.length : next);
    if (commit) commits.push(commit);
    start = next;
  }
  return commits;
}

/** One record, text[from, to): hash FIELD time FIELD message END, then the NUL-separated status and path tokens. */
function parseRecord(text: string, from: number, to: number): GitCommit | undefined {
  const end = text.indexOf(END, from);
  if (end < 0 || end >= to) return undefined;
  const hashEnd = text.indexOf(FIELD, from);
  const hasTime = hashEnd >= 0 && hashEnd < end;
  const hash = text.slice(from, hasTime ? hashEnd : end);
  if (!SHA.test(hash)) return undefined;
  const timeEnd = hasTime ? text.indexOf(FIELD, hashEnd + 1) : -1;
  const hasMessage = timeEnd >= 0 && timeEnd < end;
  const time = hasTime ? text.slice(hashEnd + 1, hasMessage ? timeEnd : end) : "";
  const message = hasMessage ? text.slice(timeEnd + 1, end).trim() : "";
  // the tokens after END, each without the one newline git puts before a record's first
  let at = end + 1;
  const token = (): string | undefined => {
    if (at > to) return undefined;
    let stop = text.indexOf(NUL, at);
    if (stop < 0 || stop > to) stop = to;
    const begin = at < stop && text.charCodeAt(at) === NEWLINE ? at + 1 : at;
    at = stop + 1;
    return text.slice(begin, stop);
  };
  const paths: string[] = [];
  const renames: Array<[string, string]> = [];
  for (let status = token(); status !== undefined; status = token()) {
    if (!status) continue;
    const kind = status[0];
    if (kind === "R" || kind === "C") {
      const source = token();
      const target = token();
      if (!source || !target) continue;
      paths.push(target);
      if (kind === "R") renames.push([source, target]);
    } else if (kind === "A" || kind === "M" || kind === "D" || kind === "T") {
      const path = token();
      if (path) paths.push(path);
    }
  }
  return { hash, time: Number(time) || 0, message, paths, renames };
}

export interface ReadLogOptions {
  /** At most this many commits. */
  maxCommits: number;
  /** Stop reading after this long (what arrived is kept). */
  timeoutMs: number;
  /** The time limit's clock starts when this settles (true), or the read is abandoned (false): see {@link createTimeLimit}. */
  startClock?: Promise<boolean>;
  /** Read only the commits after this one (an ancestor of HEAD on its first-parent line). */
  after?: string;
  /** Renames that are exact copies only (-M100%), as a history read before had to (see GitLog.exactRenames). */
  exactRenames?: boolean;
}

/**
 * The first-parent log from HEAD, newest first.
 *
 * @example
 * const log = await readGitLog("/repo", { maxCommits: 5000, timeoutMs: 3000 });
 * log?.commits[0]; // { hash, time, message, paths, renames }
 */
export async function readGitLog(root: string, options: ReadLogOptions): Promise<GitLog | undefined> {
  const range = options.after ? [`${options.after}..HEAD`] : ["HEAD"];
  const limit = createTimeLimit(options.timeoutMs, options.startClock);
  const read = async (renames: string) => {
    const args = ["log", "--first-parent", "--diff-merges=first-parent", "-z", "--name-status", renames, "--no-color", `--max-count=${options.maxCommits}`, "--format=%x01%H%x02%ct%x02%B%x03", ...range, "--"];
    return runGit(root, args, limit, true);
  };
  let exactRenames = options.exactRenames === true;
  let run = await read(exactRenames ? "-M100%" : "-M");
  // a clone without some blobs (a partial or size-filtered one) cannot compare contents: exact renames only
  if (!exactRenames && run && !run.timedOut && run.code !== 0 && /unable to read|missing blob|could not read/i.test(run.stderr)) {
    exactRenames = true;
    run = await read("-M100%");
  }
  if (!run || (!run.timedOut && run.code !== 0)) return undefined;
  return { commits: parseGitLog(run.stdout.toString("utf8"), !run.timedOut), truncated: run.timedOut, exactRenames };
}

/** True when `ancestor` is on HEAD's history (git merge-base --is-ancestor). */
export async function isAncestorOfHead(root: string, ancestor: string, timeoutMs: number, startClock?: Promise<boolean>): Promise<boolean> {
  if (!SHA.test(ancestor)) return false;
  const run = await runGit(root, ["merge-base", "--is-ancestor", ancestor, "HEAD"], createTimeLimit(timeoutMs, startClock));
  return run !== undefined && !run.timedOut && run.code === 0;
}
