/**
 * What every CLI command shares: where it writes (CliIo), its exit codes
 * and the parsing of an integer flag. Its own module, so that the command
 * files and run-cli.ts, which dispatches to them, do not import each other.
 */
import { UsageError, type IndexMemory } from "../index.js";
import type { CliValues } from "./options.js";

/** Where the CLI writes; tests pass their own. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  /** True when stderr is a terminal (progress is drawn only then). */
  isStderrTty: boolean;
  /** True when stdin is a terminal; false when something is piped in; undefined: unknown (the daemon). */
  isStdinTty?: boolean;
  /** All of stdin as text, for the task `-`; none: `-` is refused. */
  readStdin?: () => Promise<string>;
  /** Raw stderr for the progress bar (it redraws its line with a carriage return); none: no bar. */
  progress?: (text: string) => void;
  /** Environment for the default index folder (XDG_CACHE_HOME, LOCALAPPDATA); default process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /** End the process now (after a --timeout: the abandoned work must not keep it alive); tests leave it out. */
  exit?: (code: number) => void;
  /**
   * Called before a command builds with no index on disk to start from (or
   * none kept: --no-cache); the one-shot CLI then lets its heap grow less
   * (see jit-flags.ts). Not in the daemon, which keeps V8's defaults.
   */
  beforeColdBuild?: () => void;
  /**
   * The index kept in memory by the daemon, which runs commands with it:
   * they build from it. --timeout is then not applied here: the client that
   * forwarded the command keeps the time.
   */
  memory?: IndexMemory;
}

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

/** A positive integer option, or a usage error naming the flag. */
export function integerOption(values: CliValues, name: keyof CliValues, fallback?: number): number | undefined {
  const raw = values[name];
  if (raw === undefined) return fallback;
  const text = String(raw);
  if (!/^[0-9]+$/.test(text) || Number(text) < 1) {
    throw new UsageError(`graph-retrieve: --${name} must be a positive whole number, got "${text}"`);
  }
  return Number(text);
}

/** The CLI's entry (run-cli.ts's runCli), handed to the daemon, which runs its clients' commands with it. */
export type RunCli = (argv: string[], io: CliIo) => Promise<number>;
