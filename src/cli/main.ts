#!/usr/bin/env node
/** Entry point of the `graph-retrieve` command. */
import { setFlagsFromString } from "node:v8";
import { forwardToDaemon } from "./daemon-client.js";

/**
 * A command runs for seconds at most, and much of its CPU went to V8's
 * optimising compiler: inlining makes each optimised function a large graph
 * to compile, and the hot parse loop is compiled several times per run (and
 * again in the parse worker, which shares the process's flags). Without
 * inlining, effect's cold index takes ~0.5 s less CPU and ~0.25 s less wall
 * time on 2 cores, and the parse's steady speed is the same. Not for the
 * daemon, which runs for hours and gains from fully optimised code; not set
 * by the library, which must leave its host's V8 alone.
 */
function shortRunJit(): void {
  setFlagsFromString("--no-turbo-inlining");
}

// A closed pipe (`graph-retrieve … | head`) ends the run quietly.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

const argv = process.argv.slice(2);
const stdout = (text: string) => process.stdout.write(text);
const stderr = (text: string) => process.stderr.write(text);
// a daemon serving the root answers from memory; without one the library is loaded and the command runs here
const forwarded = await forwardToDaemon(argv, { stdout, stderr, cwd: process.cwd(), env: process.env });
if (forwarded !== undefined) {
  process.exitCode = forwarded;
} else {
  if (!(argv[0] === "daemon" && argv[1] === "run")) shortRunJit();
  const { runCli } = await import("./run-cli.js");
  const code = await runCli(argv, {
    stdout,
    stderr,
    cwd: process.cwd(),
    isStderrTty: Boolean(process.stderr.isTTY),
    progress: stderr,
    exit: (code) => process.exit(code),
  });
  process.exitCode = code;
}
