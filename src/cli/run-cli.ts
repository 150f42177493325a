/**
 * The CLI: the only code that reads argv, writes stdout/stderr and decides
 * exit codes (0 ok, 1 runtime failure, 2 usage). It reaches the library only
 * through src/index.ts.
 */
import { GraphRetrieveError, isKnownError, UsageError } from "../index.js";
import { closestWords, stopParseWorkers } from "../faces.js";
import { runGraphCommand } from "./graph-command.js";
import { runIndexCommand } from "./index-command.js";
import { runRetrieveCommand } from "./retrieve-command.js";
import { HELP, VERSION } from "./help.js";
import { escapeControlCharacters } from "./terminal-text.js";
import { LONG_FLAGS, readArgv, timeoutMessage, unknownOptionOf } from "./options.js";
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, integerOption, type CliIo } from "./cli-io.js";

export type { CliIo } from "./cli-io.js";


export function parseCliArgs(argv: string[]) {
  try {
    return readArgv(argv);
  } catch (error) {
    const unknown = unknownOptionOf(error);
    if (unknown !== undefined) throw new UsageError(unknownOptionMessage(unknown), { cause: error });
    const message = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new UsageError(`graph-retrieve: ${message} (see graph-retrieve --help)`, { cause: error });
  }
}

/** An unknown flag, with the flag it is closest to (two edits at most), or how to pass a task that starts with "-". */
export function unknownOptionMessage(option: string): string {
  const name = option.split("=")[0] ?? option;
  const [closest] = name.startsWith("--") ? closestWords(name, LONG_FLAGS, 2) : [];
  const hint = closest !== undefined ? `did you mean ${closest}? see graph-retrieve --help` : `see graph-retrieve --help; a task that starts with "-" goes after --: graph-retrieve -- "${name} …"`;
  return `graph-retrieve: unknown option ${name} (${hint})`;
}

/** Commands a first word can name; a retrieval is any other first word. */
export const COMMANDS = ["index", "graph", "mcp", "daemon", "help"] as const;

/**
 * A usage error for a lone word one edit away from a command (`indx`): the
 * user meant the command far more often than a retrieval for that word. A
 * task of more words, or given with --task, is never taken for a command;
 * nor is a word under 4 letters (`map` is a word, not a typo of `mcp`).
 */
function checkNotMistypedCommand(positionals: readonly string[]): void {
  const [word] = positionals;
  if (positionals.length !== 1 || word === undefined || word.length < 4 || !/^[a-z]+$/i.test(word)) return;
  const [command] = closestWords(word.toLowerCase(), COMMANDS, 1);
  if (command === undefined) return;
  throw new UsageError(`graph-retrieve: "${word}" is not a command: did you mean graph-retrieve ${command}? (to retrieve for the word itself, pass --task "${word}")`);
}

/** Run the CLI with argv (without node and script); resolves to the exit code. */
export async function runCli(argv: string[], rawIo: CliIo): Promise<number> {
  // control characters from a task or a hostile file name are printed escaped, never raw
  const io: CliIo = {
    ...rawIo,
    stdout: (text) => rawIo.stdout(escapeControlCharacters(text)),
    stderr: (text) => rawIo.stderr(escapeControlCharacters(text)),
  };
  try {
    const { values, positionals } = parseCliArgs(argv);
    if (values.version) {
      io.stdout(`${VERSION}\n`);
      return EXIT_OK;
    }
    if (values.help) {
      io.stdout(HELP);
      return EXIT_OK;
    }
    const [first, ...rest] = positionals;
    if (first === "help") {
      io.stdout(HELP);
      return EXIT_OK;
    }
    if (first === "mcp") return await (await import("./mcp-command.js")).runMcpCommand(values, rest, io);
    if (first === "daemon") return await (await import("./daemon-command.js")).runDaemonCommand(values, rest, io, runCli);
    for (const name of ["idle-minutes", "no-watch"] as const) {
      if (values[name] !== undefined) throw new UsageError(`graph-retrieve: --${name} applies to graph-retrieve daemon start only (drop it)`);
    }
    const timeoutSeconds = io.memory ? undefined : integerOption(values, "timeout");
    if (first !== "index" && first !== "graph" && values.task === undefined) checkNotMistypedCommand(positionals);
    const command =
      first === "index" ? runIndexCommand(values, rest, io)
      : first === "graph" ? runGraphCommand(values, rest, io)
      : runRetrieveCommand(values, positionals, io);
    return await withTimeout(command, timeoutSeconds);
  } catch (error) {
    if (isKnownError(error)) {
      io.stderr(`${oneLine(error.message)}\n`);
      const code = error.code === "usage" ? EXIT_USAGE : EXIT_FAILURE;
      if (error.code === "timeout") {
        // parse workers are stopped between files first: one ended inside tree-sitter's parser aborts the process
        await stopParseWorkers();
        io.exit?.(code);
      }
      return code;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr(`graph-retrieve: unexpected failure: ${oneLine(message)} (please report this with the command you ran)\n`);
    return EXIT_FAILURE;
  }
}

/** The command's exit code, or a timeout error once `seconds` pass first (the command is abandoned, not stopped: the caller exits). */
async function withTimeout(command: Promise<number>, seconds: number | undefined): Promise<number> {
  if (seconds === undefined) return command;
  const abort = new AbortController();
  const expired = new Promise<never>((_resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new GraphRetrieveError("timeout", timeoutMessage(seconds)));
    }, seconds * 1000);
    abort.signal.addEventListener("abort", () => clearTimeout(timer));
  });
  try {
    return await Promise.race([command, expired]);
  } finally {
    abort.abort();
  }
}

function oneLine(text: string): string {
  return text.split("\n")[0] ?? "";
}
