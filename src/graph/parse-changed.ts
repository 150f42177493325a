/**
 * Parse: the files the index could not give, on worker threads when there
 * are enough of them (resolving each one's imports as its facts come back),
 * then every file's facts in scan order.
 */
import { availableParallelism } from "node:os";
import { parseFiles, type ParseOutcome } from "../parse/parse-files.js";
import type { IndexStore } from "../store/index.js";
import type { Diagnostic, ParsedFile, ScanResult, ScannedFile } from "../types.js";
import type { IndexMemory } from "./index-memory.js";
import { startEarlyResolution, type EarlyResolved } from "./resolve-imports.js";
import { stableMtime, type ReusedFacts } from "./reuse-facts.js";

/** Above this many files to parse, or this many bytes, workers pay for their start-up. */
export const PARALLEL_MIN_FILES = 200;
export const PARALLEL_MIN_BYTES = 4 * 1024 * 1024;
/** Worker threads at most (the parse is CPU-bound; more than the cores only adds memory). */
export const MAX_PARSE_WORKERS = 2;

/** Workers to use for `bytes` in `files` files to parse. */
export function chooseParseWorkers(files: number, bytes: number, requested?: number): number {
  if (requested !== undefined) return Math.max(0, Math.floor(requested));
  if (files <= PARALLEL_MIN_FILES && bytes <= PARALLEL_MIN_BYTES) return 0;
  return Math.min(MAX_PARSE_WORKERS, availableParallelism());
}

export interface ParsedStage {
  /** Every file's facts, in scan order (a file that could not be read is left out). */
  parsedFiles: ParsedFile[];
  /** Files parsed now (read without error). */
  parsed: number;
  /** Worker threads used. */
  workers: number;
  /** The targets resolved during the parse, when it used workers and every file could be read. */
  early?: EarlyResolved;
  diagnostics: Diagnostic[];
}

export interface ParseContext {
  previous: IndexStore["files"];
  scanWallClock: number;
  /** Told once per file parsed. */
  done: () => void;
  /** Worker threads asked for (BuildGraphOptions.workers). */
  workers?: number;
  memory?: IndexMemory;
}

/**
 * Parses `reused.jobs` and adds their entries to `reused.entries`.
 *
 * @example
 * const stage = await parseChanged(scan, reused, { previous: {}, scanWallClock: Date.now(), done: () => {} });
 * stage.parsedFiles.length; // every scanned file that could be read
 */
export async function parseChanged(scan: ScanResult, reused: ReusedFacts, context: ParseContext): Promise<ParsedStage> {
  const { jobs, entries } = reused;
  const threads = jobs.length > 0 ? chooseParseWorkers(jobs.length, reused.jobBytes, context.workers) : 0;
  // by default this thread parses too, with one worker fewer: each worker isolate costs CPU of its own
  // (modules, compiled queries, JIT warm-up, its own GC). Effect cold on 2 cores: 1 worker + this thread
  // 3.8 s wall / 6.6 s CPU, against 2 workers 4.3 s / 7.5 s
  const help = context.workers === undefined && threads > 1;
  const workers = help ? threads - 1 : threads;
  // a parse big enough for workers: each new file's imports are resolved as soon as its facts come back,
  // between two files this thread parses, instead of all after the parse (and TypeScript, when a specifier
  // needs it, is loaded then too). Against the scanned files: kept when every file could be read
  const early = workers > 0 ? startEarlyResolution(scan.root, scan.files.map((f) => f.path)) : undefined;
  const onParsed = (outcome: ParseOutcome) => {
    if (early && outcome.errorCode === undefined && context.previous[outcome.path] === undefined) early.add(outcome.parsed);
    context.done();
  };
  const outcomes = await parseFiles(jobs, { workers, helpInThread: help, onParsed, ...(context.memory ? { trees: context.memory.trees } : {}) });
  const earlyResolved = outcomes.every((o) => o.errorCode === undefined) ? await early?.finish() : undefined;
  const diagnostics: Diagnostic[] = [];
  const scannedByPath = new Map(scan.files.map((f) => [f.path, f]));
  for (const outcome of outcomes) {
    if (outcome.errorCode !== undefined) {
      diagnostics.push({ kind: "skipped", path: outcome.path, message: `skipped: cannot read the file (${outcome.errorCode})` });
      continue;
    }
    const file = scannedByPath.get(outcome.path) as ScannedFile;
    entries.set(outcome.path, { size: file.size, mtimeMs: stableMtime(file, context.scanWallClock), hash: outcome.hash, parsed: outcome.parsed });
  }
  const parsedFiles: ParsedFile[] = [];
  for (const file of scan.files) {
    const entry = entries.get(file.path);
    if (!entry) continue;
    parsedFiles.push(entry.parsed);
    if (entry.parsed.hasSyntaxErrors) {
      diagnostics.push({
        kind: "parse-error",
        path: file.path,
        message: "parse-error: syntax errors; facts completed with the TypeScript parser (check the file compiles)",
      });
    }
  }
  return {
    parsedFiles,
    parsed: outcomes.filter((o) => o.errorCode === undefined).length,
    workers,
    ...(earlyResolved ? { early: earlyResolved } : {}),
    diagnostics,
  };
}
