/**
 * Node built-ins that a command often never uses, loaded by require on
 * first use: git's process and its reading thread (a root with history),
 * the parse workers (files to parse), the daemon's socket (a daemon
 * running), the hash of the default index folder (no --cache-dir), V8's
 * flags (a command run without the daemon). Imported, each was loaded by
 * every command before it did anything: ~5 ms of a warm query that needs
 * none of them; node:crypto alone ~10 ms of a daemon client's ~0.2 s.
 */
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/** node:child_process, loaded on first use. */
export const childProcess = (): typeof import("node:child_process") => require("node:child_process") as typeof import("node:child_process");

/** node:worker_threads, loaded on first use. */
export const workerThreads = (): typeof import("node:worker_threads") => require("node:worker_threads") as typeof import("node:worker_threads");

/** node:net, loaded on first use. */
export const net = (): typeof import("node:net") => require("node:net") as typeof import("node:net");

/** node:crypto, loaded on first use. */
export const crypto = (): typeof import("node:crypto") => require("node:crypto") as typeof import("node:crypto");

/** node:os, loaded on first use. */
export const os = (): typeof import("node:os") => require("node:os") as typeof import("node:os");

/** node:v8, loaded on first use. */
export const v8 = (): typeof import("node:v8") => require("node:v8") as typeof import("node:v8");
