/**
 * V8 settings for a command that runs once and exits (see
 * {@link shortRunJit} and {@link coldBuildHeap}); the resident commands
 * keep V8's defaults.
 */
import { v8 } from "../util/builtins.js";
import { readArgv } from "./options.js";

/**
 * How much a function runs before V8 considers optimising it: 9× V8's
 * default, so only the truly hot loops are compiled. Effect cold index
 * 2.40 -> 2.22 s, date-fns 2.05 -> 1.88 s, monaco-editor level.
 */
const INTERRUPT_BUDGET = 1_200_000;

/**
 * A command runs for seconds at most, and much of its CPU went to V8's
 * optimising compiler: inlining makes each optimised function a large graph
 * to compile, and the hot parse loop is compiled several times per run (and
 * again in the parse worker, which shares the process's flags). Without
 * inlining, effect's cold index takes ~0.5 s less CPU and ~0.25 s less wall
 * time on 2 cores, and the parse's steady speed is the same. Not for the
 * daemon or the MCP server, which run for hours and gain from fully
 * optimised code; not set by the library, which must leave its host's V8
 * alone.
 */
export function shortRunJit(v8Version: string = process.versions.v8): void {
  if (!hasKnownFlags(v8Version)) return;
  const { setFlagsFromString } = v8();
  setFlagsFromString("--no-turbo-inlining");
  setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
}

/**
 * How far V8 lets the old generation grow past what its last full
 * collection left, in percent, while a one-shot command builds an index
 * from nothing. V8's own factor (up to 4× on a fast-growing heap) let the
 * cold index of a 54,782-file tree (bench:speed's monorepo-50k) reach a
 * peak RSS of 2,546 MB with a live heap of ~1.0 GB; at 20 % it peaks at
 * 1,950 MB, 51.4 -> 57.3 s; babel's cold index 882 -> 813 MB, 11.4 -> 11.2
 * s; effect's ~+0.2 s (session 33, one run each). Not for a build that
 * starts from an index: babel's warm query was ~60 ms slower with it (more
 * collections while the index is read).
 */
const COLD_BUILD_HEAP_GROWING_PERCENT = 20;

/** Before a one-shot command builds an index from nothing: a heap that grows by {@link COLD_BUILD_HEAP_GROWING_PERCENT} at a time. */
export function coldBuildHeap(v8Version: string = process.versions.v8): void {
  if (!hasKnownFlags(v8Version)) return;
  v8().setFlagsFromString(`--heap-growing-percent=${COLD_BUILD_HEAP_GROWING_PERCENT}`);
}

/** The MCP server and the daemon run for hours: they keep V8's defaults. A bad argv is left to runCli's error. */
export function isResident(args: string[]): boolean {
  try {
    const [first, second] = readArgv(args).positionals;
    return first === "mcp" || (first === "daemon" && second === "run");
  } catch {
    return false;
  }
}

/**
 * V8 versions known to have both flags (Node 20 to 24: V8 11 to 13). V8
 * prints "unrecognized flag" on stdout for a flag it lacks, which would
 * break piped output, so another V8 runs with its defaults.
 */
export function hasKnownFlags(v8Version: string): boolean {
  const major = Number.parseInt(v8Version, 10);
  return major >= 11 && major <= 13;
}
