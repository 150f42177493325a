/**
 * Worker thread of the parse pool (see parse-files.ts): for each job it
 * is sent, read the file, hash it, parse it, and post the facts back. The
 * tree never leaves the worker and is released as soon as its facts are read.
 *
 * A file whose facts need TypeScript's parser (tree-sitter's grammar fell
 * short) is handed back to the pool's own thread instead: loading TypeScript
 * costs a thread ~0.2-0.4 s of CPU, and that thread loads it anyway when its
 * resolver or its own files need it (effect@4.1.0's cold index: both
 * threads loaded it).
 */
import { readFileSync } from "node:fs";
import { parentPort } from "node:worker_threads";
import { parseSource, TypescriptWanted } from "./index.js";
import { parseBytes, type WorkerReply, type WorkerRequest } from "./parse-files.js";

const withoutTypescript: typeof parseSource = (path, text, language, isDeclaration, trees) => parseSource(path, text, language, isDeclaration, trees, false);

parentPort?.on("message", ({ id, job }: WorkerRequest) => {
  let reply: WorkerReply;
  try {
    reply = { id, outcome: parseBytes(job, readFileSync(job.absPath), withoutTypescript) };
  } catch (error) {
    if (error instanceof TypescriptWanted) {
      reply = { id, inThread: true };
    } else {
      const code = (error as NodeJS.ErrnoException).code;
      if (typeof code !== "string") throw error;
      reply = { id, outcome: { path: job.path, errorCode: code } };
    }
  }
  parentPort?.postMessage(reply);
});
