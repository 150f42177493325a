/**
 * The command line's option table, apart from the CLI itself so the daemon
 * client (which must start fast: it loads no library code) reads argv with
 * the same rules.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";

/** Shared option table: every command accepts these, unknown ones are a usage error. */
export const OPTIONS = {
  root: { type: "string" },
  task: { type: "string" },
  "task-file": { type: "string" },
  format: { type: "string" },
  "max-cycles": { type: "string" },
  budget: { type: "string" },
  include: { type: "string", multiple: true },
  "also-include": { type: "string", multiple: true },
  exclude: { type: "string", multiple: true },
  keywords: { type: "string", multiple: true },
  strategy: { type: "string" },
  model: { type: "string" },
  "max-file-bytes": { type: "string" },
  dot: { type: "string" },
  svg: { type: "string" },
  force: { type: "boolean" },
  explain: { type: "string" },
  "cache-dir": { type: "string" },
  "no-cache": { type: "boolean" },
  "no-history": { type: "boolean" },
  "history-commits": { type: "string" },
  timeout: { type: "string" },
  "idle-minutes": { type: "string" },
  "no-watch": { type: "boolean" },
  quiet: { type: "boolean", short: "q" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const satisfies ParseArgsConfig["options"];

/** The options that take a value, as typed (`--budget`): their value may be a negative number. */
const VALUE_FLAGS = new Set(Object.entries(OPTIONS).flatMap(([name, o]) => (o.type === "string" ? [`--${name}`] : [])));

/**
 * `--budget -5` as `--budget=-5`: node's parseArgs takes a value that starts
 * with a dash for an option and calls the flag ambiguous; joined, the value
 * reaches the flag's own check, which says what it takes.
 */
function joinNegativeValues(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    if (VALUE_FLAGS.has(arg) && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** argv read against the table (throws node's error on an unknown or malformed option). */
export function readArgv(argv: string[]) {
  return parseArgs({ args: joinNegativeValues(argv), options: OPTIONS, allowPositionals: true, strict: true });
}

/** Every long flag of the table, as typed: `--root`, `--format`, … */
export const LONG_FLAGS: readonly string[] = Object.keys(OPTIONS).map((name) => `--${name}`);

/** The option node's parseArgs named as unknown (`--foramt`), from its error; undefined for any other error. */
export function unknownOptionOf(error: unknown): string | undefined {
  if ((error as { code?: string } | undefined)?.code !== "ERR_PARSE_ARGS_UNKNOWN_OPTION") return undefined;
  return /^Unknown option '(.+?)'\./.exec((error as Error).message)?.[1];
}

export type CliValues = ReturnType<typeof readArgv>["values"];

/** The one line a run that ran out of --timeout ends with (the CLI's, or the daemon client's when it waited). */
export function timeoutMessage(seconds: number): string {
  return `graph-retrieve: timed out after ${seconds} s (raise --timeout, or narrow the run with --include / --exclude)`;
}
