#!/usr/bin/env node
/** Entry point of the `graph-retrieve` command. */
import { runCli } from "./run-cli.js";

// A closed pipe (`graph-retrieve … | head`) ends the run quietly.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  cwd: process.cwd(),
  isStderrTty: Boolean(process.stderr.isTTY),
  progress: (text) => process.stderr.write(text),
  exit: (code) => process.exit(code),
});
process.exitCode = code;
