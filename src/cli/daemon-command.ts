/**
 * `graph-retrieve daemon start|stop|status|run`: a process per root that
 * keeps the index in memory, so the commands run from another shell answer
 * without loading the library or reading the index (see daemon-server.ts
 * and daemon-client.ts). `start` runs `daemon run` in the background and
 * returns once it serves; `run` serves in the foreground (for a supervisor,
 * or to watch its log).
 */
import { spawn } from "node:child_process";
import { closeSync, openSync, realpathSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { RootError, UsageError } from "../index.js";
import { cacheDirOption } from "./cache-options.js";
import { withConfig } from "./config-options.js";
import { askDaemon, LOG_FILE, SOCKET_FILE } from "./daemon-protocol.js";
import { claimDaemonFolder, startDaemon } from "./daemon-server.js";
import { EXIT_FAILURE, EXIT_OK, integerOption, type CliIo, type RunCli } from "./cli-io.js";
import type { CliValues } from "./options.js";

const ACTIONS = ["start", "stop", "status", "run"] as const;
type Action = (typeof ACTIONS)[number];
/** Minutes without a request before the daemon stops (--idle-minutes). */
export const DEFAULT_IDLE_MINUTES = 30;
/** Options that have nothing to do with the daemon: given to it, they are a mistake. */
const NOT_FOR_DAEMON = ["max-cycles", "budget", "keywords", "strategy", "model", "no-history", "history-commits", "dot", "svg", "force", "explain", "timeout", "no-cache"] as const;

interface Target {
  root: string;
  cacheDir: string;
}

export async function runDaemonCommand(values: CliValues, rest: string[], io: CliIo, run: RunCli): Promise<number> {
  const [action, extra] = rest;
  if (!ACTIONS.includes(action as Action)) {
    throw new UsageError(`graph-retrieve daemon: say what to do: ${ACTIONS.join(", ")} (e.g. graph-retrieve daemon start --root DIR)`);
  }
  if (extra !== undefined) throw new UsageError(`graph-retrieve daemon: unexpected argument "${extra}" (see graph-retrieve --help)`);
  if (process.platform === "win32") throw new UsageError("graph-retrieve daemon: not available on Windows yet (the commands run without it)");
  const misplaced = NOT_FOR_DAEMON.find((name) => values[name] !== undefined);
  if (misplaced) throw new UsageError(`graph-retrieve daemon: --${misplaced} does not apply to the daemon (drop it; give it to the commands it serves)`);
  const format = values.format ?? "text";
  if (format !== "text" && format !== "json") throw new UsageError(`graph-retrieve daemon: --format must be text or json, got "${format}"`);
  for (const name of ["idle-minutes", "no-watch"] as const) {
    if (values[name] !== undefined && action !== "start" && action !== "run") {
      throw new UsageError(`graph-retrieve daemon ${action}: --${name} applies to start and run only (drop it)`);
    }
  }
  const target = targetOf(values, io);
  if (action === "status") return await showStatus(target, format, io);
  if (action === "stop") return await stopDaemon(target, io);
  // checked here for start too: a bad flag fails now, not in the background
  const idleMinutes = integerOption(values, "idle-minutes", DEFAULT_IDLE_MINUTES) as number;
  const maxFileBytes = integerOption(values, "max-file-bytes");
  if (action === "run") {
    // the files the commands will ask about: the root's config, the flags on top (as every command reads them)
    const { include, exclude, alsoInclude } = await withConfig(target.root, { include: values.include, exclude: values.exclude, alsoInclude: values["also-include"] });
    return await runInForeground(target, { idleMinutes, watch: values["no-watch"] !== true }, { include, exclude, alsoInclude, maxFileBytes }, io, run);
  }
  return await startInBackground(target, values, io);
}

/** The root's real path and its index folder; a missing root is an error. */
function targetOf(values: CliValues, io: CliIo): Target {
  const rootArg = values.root ?? ".";
  let root: string;
  try {
    root = realpathSync(resolve(io.cwd, rootArg));
  } catch {
    throw new RootError(`graph-retrieve daemon: no folder at ${rootArg} (pass --root DIR)`);
  }
  if (!statSync(root).isDirectory()) throw new RootError(`graph-retrieve daemon: ${rootArg} is not a folder (pass --root DIR)`);
  return { root, cacheDir: cacheDirOption(values, io, rootArg) as string };
}

async function showStatus(target: Target, format: string, io: CliIo): Promise<number> {
  const status = await askDaemon(target.cacheDir, { type: "status" });
  if (status?.type !== "status") {
    io.stdout(format === "json" ? `${JSON.stringify({ running: false, root: target.root, cacheDir: target.cacheDir })}\n` : `graph-retrieve daemon: none serves ${target.root}\n`);
    return EXIT_FAILURE;
  }
  const { type: _type, ...fields } = status;
  io.stdout(
    format === "json"
      ? `${JSON.stringify({ running: true, ...fields })}\n`
      : `graph-retrieve daemon: pid ${String(status.pid)} serves ${String(status.root)} since ${String(status.startedAt)}; ${counted(Number(status.requests), "request", "requests")}; ${status.watching ? `watches ${counted(Number(status.watching), "folder", "folders")} (${counted(Number(status.refreshes), "refresh", "refreshes")} on a change; ${status.trusted ? "commands look at the files it names" : "commands check every file"})` : "not watching"}${status.watchNote ? ` (${status.watching ? "not all: " : ""}${String(status.watchNote)})` : ""}; stops after ${String(status.idleMinutes)} idle minutes (log: ${join(target.cacheDir, LOG_FILE)})\n`,
  );
  return EXIT_OK;
}

/** `1 request`, `2 requests`. */
function counted(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

async function stopDaemon(target: Target, io: CliIo): Promise<number> {
  const answer = await askDaemon(target.cacheDir, { type: "stop" });
  io.stdout(answer?.type === "stopped" ? `graph-retrieve daemon: stopped pid ${String(answer.pid)} (${target.root})\n` : `graph-retrieve daemon: none serves ${target.root}\n`);
  return EXIT_OK;
}

async function runInForeground(
  target: Target,
  serving: { idleMinutes: number; watch: boolean },
  scan: { include?: string[]; exclude?: string[]; alsoInclude?: string[]; maxFileBytes?: number },
  io: CliIo,
  run: RunCli,
): Promise<number> {
  const log = (line: string) => io.stderr(`${line}\n`);
  let daemon;
  try {
    daemon = await startDaemon({ ...target, ...serving, scan, log, run });
  } catch (error) {
    // started by `daemon start`: it waits for this message, not for the log
    process.send?.({ failed: error instanceof Error ? error.message : String(error) });
    throw error;
  }
  const stop = () => void daemon.stop();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  process.send?.({ ready: true });
  process.disconnect?.();
  await daemon.stopped;
  process.off("SIGINT", stop);
  process.off("SIGTERM", stop);
  return EXIT_OK;
}

/** Flags `daemon run` takes over from `daemon start`. */
function forwardedFlags(values: CliValues): string[] {
  const flags: string[] = [];
  for (const glob of values.include ?? []) flags.push("--include", glob);
  for (const glob of values.exclude ?? []) flags.push("--exclude", glob);
  for (const glob of values["also-include"] ?? []) flags.push("--also-include", glob);
  if (values["max-file-bytes"] !== undefined) flags.push("--max-file-bytes", values["max-file-bytes"]);
  if (values["idle-minutes"] !== undefined) flags.push("--idle-minutes", values["idle-minutes"]);
  if (values["no-watch"] === true) flags.push("--no-watch");
  return flags;
}

async function startInBackground(target: Target, values: CliValues, io: CliIo): Promise<number> {
  const running = await askDaemon(target.cacheDir, { type: "status" });
  if (running?.type === "status") {
    io.stdout(`graph-retrieve daemon: pid ${String(running.pid)} already serves ${target.root}\n`);
    return EXIT_OK;
  }
  await claimDaemonFolder(target.cacheDir, [LOG_FILE, SOCKET_FILE]);
  const logPath = join(target.cacheDir, LOG_FILE);
  const log = openSync(logPath, "w");
  const main = fileURLToPath(new URL("./main.js", import.meta.url));
  const args = [main, "daemon", "run", "--root", target.root, "--cache-dir", target.cacheDir, ...forwardedFlags(values)];
  const child = spawn(process.execPath, args, { detached: true, stdio: ["ignore", log, log, "ipc"], cwd: target.root });
  closeSync(log);
  const outcome = await new Promise<{ ready: true } | { failed: string }>((done) => {
    child.on("message", (message: { ready?: boolean; failed?: string }) => {
      if (message.ready) done({ ready: true });
      else if (message.failed !== undefined) done({ failed: message.failed });
    });
    child.on("exit", (code) => done({ failed: `graph-retrieve daemon: it exited (code ${String(code)}) before serving; see ${logPath}` }));
    child.on("error", (error) => done({ failed: `graph-retrieve daemon: cannot start node (${error.message})` }));
  });
  if ("failed" in outcome) {
    io.stderr(`${outcome.failed.split("\n")[0]}\n`);
    return EXIT_FAILURE;
  }
  child.disconnect();
  child.unref();
  io.stdout(`graph-retrieve daemon: pid ${String(child.pid)} serves ${target.root} (commands run there answer from memory; log: ${logPath}; stop: graph-retrieve daemon stop)\n`);
  return EXIT_OK;
}
