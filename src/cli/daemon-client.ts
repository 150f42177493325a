/**
 * The CLI's first step: when a daemon serves the root (its socket is in the
 * root's index folder), hand it the command and print what it answers. The
 * daemon holds the index in memory, so the answer skips loading the library,
 * reading the index and building the graph. Without a daemon (the usual
 * case: one stat finds no socket), or when it cannot answer, the caller runs
 * the command itself. This module loads no library code: it must cost the
 * process nothing when there is no daemon.
 */
import { existsSync, realpathSync } from "node:fs";
import { resolve } from "node:path";
import { net } from "../util/builtins.js";
import { cacheDirOption } from "./cache-options.js";
import { createLineReader, decodeMessage, encodeMessage, socketPath, type DaemonRequest } from "./daemon-protocol.js";
import { VERSION } from "./help.js";
import { readArgv, timeoutMessage } from "./options.js";

export interface ForwardIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
}

/** Commands a daemon answers (the default, a task, is any other first word). */
const NOT_FORWARDED = new Set(["mcp", "daemon", "help"]);

/**
 * The exit code of the command as the daemon ran it, or undefined when the
 * caller must run it itself (no daemon, another version, bad argv: the CLI
 * then reports the error as always). `command` is argv read by
 * {@link indexedCommand}, when the caller has it already.
 *
 * @example
 * const code = await forwardToDaemon(process.argv.slice(2), { stdout, stderr, cwd: process.cwd(), env: process.env });
 * if (code === undefined) await runCli(argv, io);
 */
export async function forwardToDaemon(argv: string[], io: ForwardIo, command = indexedCommand(argv, io)): Promise<number | undefined> {
  if (process.platform === "win32") return undefined;
  // the task on stdin is this process's to read, not the daemon's
  if (!command || command.positionals.includes("-")) return undefined;
  const { values, root, cacheDir } = command;
  let timeoutSeconds: number | undefined;
  if (values.timeout !== undefined) {
    if (!/^[0-9]+$/.test(values.timeout) || Number(values.timeout) < 1) return undefined;
    timeoutSeconds = Number(values.timeout);
  }
  const path = socketPath(cacheDir);
  if (!existsSync(path)) return undefined;
  // what picks the default index folder (the daemon computes the same one)
  const env = { XDG_CACHE_HOME: io.env.XDG_CACHE_HOME, LOCALAPPDATA: io.env.LOCALAPPDATA };
  return exchange(path, { type: "run", version: VERSION, root, argv, cwd: io.cwd, env }, io, timeoutSeconds);
}

/**
 * A command that reads the root's index (a retrieval, `index`, …): its
 * argv read, the root's real path and the index folder; undefined for any
 * other (no index, `daemon`, `mcp`, help) or an argv the command itself
 * will reject.
 */
export function indexedCommand(argv: string[], io: Pick<ForwardIo, "cwd" | "env">): (ReturnType<typeof readArgv> & { root: string; cacheDir: string }) | undefined {
  let parsed: ReturnType<typeof readArgv>;
  try {
    parsed = readArgv(argv);
  } catch {
    return undefined;
  }
  const { values, positionals } = parsed;
  const first = positionals[0];
  if (first === undefined || NOT_FORWARDED.has(first) || values.help || values.version || values["no-cache"]) return undefined;
  const rootArg = values.root ?? ".";
  let root: string;
  try {
    root = realpathSync(resolve(io.cwd, rootArg));
  } catch {
    return undefined;
  }
  const cacheDir = cacheDirOption(values, io, rootArg);
  return cacheDir === undefined ? undefined : { ...parsed, root, cacheDir };
}

/** Send the request and relay the answer; undefined when the daemon could not take it. */
function exchange(path: string, request: DaemonRequest, io: ForwardIo, timeoutSeconds: number | undefined): Promise<number | undefined> {
  return new Promise((done) => {
    const socket = net().createConnection(path);
    const lines = createLineReader();
    let printed = false;
    let settled = false;
    const finish = (code: number | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      done(code);
    };
    // the daemon finishes the abandoned command in its own time; this process is done
    const timer = timeoutSeconds === undefined ? undefined : setTimeout(() => {
      io.stderr(`${timeoutMessage(timeoutSeconds)}\n`);
      finish(1);
    }, timeoutSeconds * 1000);
    socket.setEncoding("utf8");
    socket.on("connect", () => socket.write(encodeMessage(request)));
    socket.on("data", (chunk: string) => {
      for (const line of lines.push(chunk)) {
        const message = decodeMessage(line);
        if (!message) continue;
        if ((message.type === "out" || message.type === "err") && typeof message.text === "string") {
          printed = true;
          (message.type === "out" ? io.stdout : io.stderr)(message.text);
        } else if (message.type === "exit" && typeof message.code === "number") {
          finish(message.code);
        } else if (message.type === "decline") {
          if (typeof message.reason === "string" && message.reason !== "") io.stderr(`${message.reason}\n`);
          finish(undefined);
        }
      }
    });
    // a stale socket (a daemon that was killed) or one that is not ours: run here
    socket.on("error", () => {
      if (!printed) finish(undefined);
    });
    socket.on("close", () => {
      if (settled) return;
      if (!printed) return finish(undefined);
      io.stderr("graph-retrieve: the daemon stopped before it finished answering (run the command again; graph-retrieve daemon status shows whether it runs)\n");
      finish(1);
    });
  });
}
