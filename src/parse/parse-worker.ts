/**
 * Worker thread of the parse pool (see parse-files.ts): for each job it
 * is sent, read the file, hash it, parse it, and post the facts back. The
 * tree never leaves the worker and is released as soon as its facts are read.
 */
import { readFileSync } from "node:fs";
import { parentPort } from "node:worker_threads";
import { parseSource } from "./index.js";
import { parseBytes, type WorkerReply, type WorkerRequest } from "./parse-files.js";

parentPort?.on("message", ({ id, job }: WorkerRequest) => {
  let reply: WorkerReply;
  try {
    reply = { id, outcome: parseBytes(job, readFileSync(job.absPath), parseSource) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== "string") throw error;
    reply = { id, outcome: { path: job.path, errorCode: code } };
  }
  parentPort?.postMessage(reply);
});
