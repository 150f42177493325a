#!/usr/bin/env node
/** Entry point of the `graph-retrieve` command. */
import { forwardToDaemon, indexedCommand } from "./daemon-client.js";
import { coldBuildHeap, isResident, shortRunJit } from "./jit-flags.js";

// A closed pipe (`graph-retrieve … | head`) ends the run quietly.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

const argv = process.argv.slice(2);

/** All of stdin, as UTF-8 text (the task `-`). */
async function readAllStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
/** Settles once everything written to `stream` before is out (a pipe is written asynchronously on POSIX). */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write("", () => resolve()));
}
const stdout = (text: string) => process.stdout.write(text);
const stderr = (text: string) => process.stderr.write(text);
// a command that reads the index (its root and index folder found once, for both steps below)
const indexed = indexedCommand(argv, { cwd: process.cwd(), env: process.env });
// a daemon serving the root answers from memory; without one the library is loaded and the command runs here
const forwarded = await forwardToDaemon(argv, { stdout, stderr, cwd: process.cwd(), env: process.env }, indexed);
if (forwarded !== undefined) {
  process.exitCode = forwarded;
} else {
  const resident = isResident(argv);
  if (!resident) shortRunJit();
  // the worker that stats the index's paths starts before the library loads (a resident command reads no index here)
  if (indexed) (await import("../scan/stat-ahead.js")).startStatsAheadEarly(indexed.root, indexed.cacheDir);
  const { runCli } = await import("./run-cli.js");
  const code = await runCli(argv, {
    stdout,
    stderr,
    cwd: process.cwd(),
    isStderrTty: Boolean(process.stderr.isTTY),
    isStdinTty: Boolean(process.stdin.isTTY),
    readStdin: readAllStdin,
    progress: stderr,
    exit: (code) => process.exit(code),
    ...(resident ? {} : { beforeColdBuild: () => coldBuildHeap() }),
  });
  process.exitCode = code;
  // a one-shot command is done once its output is out: exit then, without the heap's teardown that a natural exit
  // waits for (rollup's warm query: ~8 ms). Nothing is left running by then (no handle, no worker).
  if (!resident) {
    await flushed(process.stdout);
    await flushed(process.stderr);
    process.exit(code);
  }
}
