/**
 * Where the task of a retrieval comes from: the one argument, `-` for
 * stdin, --task TEXT or --task-file FILE. Stdin is read only when asked with `-`: a
 * command spawned with an open, silent stdin (as agents and CI do) must not
 * hang waiting for it. Without a task while stdin is a pipe, the usage error
 * says to add `-`.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { GraphRetrieveError, UsageError } from "../index.js";
import type { CliIo } from "./cli-io.js";

/** The positional that reads the task from stdin. */
export const STDIN_TASK = "-";

/** The task as the command line gives it. */
export interface TaskArguments {
  /** The positionals (at most one: the task, or `-`). */
  positionals: readonly string[];
  /** --task TEXT: taken as is, never read as a command or as `-`. */
  task?: string;
  /** --task-file FILE. */
  taskFile?: string;
}

/**
 * The task text: the argument, stdin's text, or the file's; a usage error
 * for none, two, or an empty one, an io error for a file that cannot be read.
 *
 * @example
 * await readTask({ positionals: ["fix the cookie parser"] }, io); // "fix the cookie parser"
 * await readTask({ positionals: ["-"] }, io);                     // what was piped in
 */
export async function readTask(given: TaskArguments, io: CliIo): Promise<string> {
  const { positionals } = given;
  if (positionals.length > 1) {
    throw new UsageError(`graph-retrieve: one task expected, got ${positionals.length} arguments (quote the task: graph-retrieve "fix the token expiry bug")`);
  }
  const ways = [positionals.length > 0, given.task !== undefined, given.taskFile !== undefined].filter(Boolean).length;
  if (ways > 1) throw new UsageError("graph-retrieve: give the task once: as an argument, --task TEXT or --task-file FILE (pass one of them)");
  let task: string;
  let source: string | undefined;
  if (given.taskFile !== undefined) {
    task = await readTaskFile(given.taskFile, io.cwd);
    source = `--task-file "${given.taskFile}"`;
  } else if (given.task !== undefined) {
    task = given.task;
  } else if (positionals[0] === STDIN_TASK) {
    task = await readStdinTask(io);
    source = "stdin";
  } else if (positionals[0] !== undefined) {
    task = positionals[0];
  } else {
    const pipeHint = io.isStdinTty === false ? `; to read it from stdin, add -: echo "…" | graph-retrieve - --root DIR` : "";
    throw new UsageError(`graph-retrieve: no task given (usage: graph-retrieve "<task>" [--root DIR], or --task-file FILE${pipeHint}; see --help)`);
  }
  if (task.trim() === "") {
    throw new UsageError(source === undefined ? "graph-retrieve: the task is empty (describe the change in words)" : `graph-retrieve: the task read from ${source} is empty (describe the change in words)`);
  }
  return task;
}

async function readTaskFile(taskFile: string, cwd: string): Promise<string> {
  if (taskFile.trim() === "") throw new UsageError("graph-retrieve: --task-file needs a file path (e.g. --task-file issue.md)");
  try {
    return await readFile(resolve(cwd, taskFile), "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a folder" : code === "EACCES" || code === "EPERM" ? "permission denied" : (code ?? "read failed");
    throw new GraphRetrieveError("io", `graph-retrieve: cannot read --task-file "${taskFile}": ${why} (check the path)`, { cause: error });
  }
}

async function readStdinTask(io: CliIo): Promise<string> {
  if (io.isStdinTty === true || io.readStdin === undefined) {
    throw new UsageError(`graph-retrieve: "-" reads the task from stdin, but nothing is piped in (echo "fix the bug" | graph-retrieve - , or pass --task-file FILE)`);
  }
  return io.readStdin();
}
