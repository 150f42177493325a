/**
 * Node built-ins that a command often never uses, loaded by require on
 * first use: git's process and its reading thread (a root with history),
 * the parse workers (files to parse), the daemon's socket (a daemon
 * running). Imported, each was loaded by every command before it did
 * anything: ~5 ms of a warm query that needs none of them.
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** node:child_process, loaded on first use. */
export const childProcess = (): typeof import("node:child_process") => require("node:child_process") as typeof import("node:child_process");

/** node:worker_threads, loaded on first use. */
export const workerThreads = (): typeof import("node:worker_threads") => require("node:worker_threads") as typeof import("node:worker_threads");

/** node:net, loaded on first use. */
export const net = (): typeof import("node:net") => require("node:net") as typeof import("node:net");
