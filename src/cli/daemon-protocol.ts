/**
 * How the CLI talks to its daemon: one Unix socket in the root's index
 * folder (so only its owner can reach it, and nothing is written outside
 * that folder), one JSON object a line each way.
 *
 * Client → daemon: a `run` (argv as typed), a `status` or a `stop`.
 * Daemon → client: `out`/`err` text as the command writes it, then `exit`;
 * or `decline` (another version or root: the client runs the command
 * itself); or the `status` / `stopped` answer.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { net } from "../util/builtins.js";

/** The socket's name in the index folder. */
export const SOCKET_FILE = "daemon.sock";
/** The daemon's log (its start, its warnings, its stop) in the index folder. */
export const LOG_FILE = "daemon.log";
/** Longest socket path the OS takes (sun_path is 108 bytes on Linux, 104 on macOS, with the closing NUL). */
export const MAX_SOCKET_PATH = 103;

export type DaemonRequest =
  | { type: "run"; version: string; root: string; argv: string[]; cwd: string; env: Record<string, string | undefined> }
  | { type: "status" }
  | { type: "stop" };

export interface DaemonStatus {
  type: "status";
  pid: number;
  version: string;
  root: string;
  cacheDir: string;
  /** ISO time the daemon started. */
  startedAt: string;
  requests: number;
  idleMinutes: number;
  /** Folders watched for edits (0: not watching). */
  watching: number;
  /** Why the scan's folders are not all watched (the system's watch limit, --no-watch, a folder that could not be watched). */
  watchNote?: string;
  /** The watch is trusted to see every edit: a command looks at the files it named, not at every file. */
  trusted: boolean;
  /** Refreshes of the index made on a change seen by the watch, before a command asked. */
  refreshes: number;
}

export type DaemonReply =
  | { type: "out" | "err"; text: string }
  | { type: "exit"; code: number }
  | { type: "decline"; reason: string }
  | DaemonStatus
  | { type: "stopped"; pid: number };

/** The socket of the daemon serving the index in `cacheDir`. */
export function socketPath(cacheDir: string): string {
  return join(cacheDir, SOCKET_FILE);
}

/** One message as a line. */
export function encodeMessage(message: DaemonRequest | DaemonReply): string {
  return `${JSON.stringify(message)}\n`;
}

/**
 * Split incoming text into complete lines, keeping the unfinished tail.
 *
 * @example
 * const lines = createLineReader();
 * lines.push('{"a":1}\n{"b"'); // ['{"a":1}']
 * lines.push(":2}\n"); // ['{"b":2}']
 */
export function createLineReader(): { push: (chunk: string) => string[] } {
  let tail = "";
  return {
    push(chunk) {
      const parts = (tail + chunk).split("\n");
      tail = parts.pop() ?? "";
      return parts.filter((line) => line.length > 0);
    },
  };
}

/** The message on a line, or undefined when it is not a JSON object with a string `type`. */
export function decodeMessage(line: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(line) as unknown;
    return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string" ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One request to the daemon of `cacheDir` and its one answer; undefined
 * when none answers (no socket, a stale one, or nothing listening).
 *
 * @example
 * const status = await askDaemon(cacheDir, { type: "status" }); // { type: "status", pid, … } or undefined
 */
export function askDaemon(cacheDir: string, request: DaemonRequest): Promise<Record<string, unknown> | undefined> {
  const path = socketPath(cacheDir);
  if (!existsSync(path)) return Promise.resolve(undefined);
  return new Promise((done) => {
    const socket = net().createConnection(path);
    const lines = createLineReader();
    let answer: Record<string, unknown> | undefined;
    socket.setEncoding("utf8");
    socket.on("connect", () => socket.write(encodeMessage(request)));
    socket.on("data", (chunk: string) => {
      for (const line of lines.push(chunk)) answer ??= decodeMessage(line);
    });
    socket.on("error", () => undefined);
    socket.on("close", () => done(answer));
  });
}
