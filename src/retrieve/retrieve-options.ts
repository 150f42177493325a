/**
 * What a caller can set on a retrieval, and the plug points (a custom
 * evaluator, a query expander), checked once at the door.
 */
import { UsageError } from "../errors.js";
import type { IndexMemory } from "../graph/index-memory.js";
import { createPathFilter } from "../scan/path-filter.js";
import type { StrategyName } from "../types.js";
import { DEFAULT_BUDGET_TOKENS } from "../util/tokens.js";
import type { TaskQuery } from "./query.js";

/** The strategies, the learned graph ranking first (the default). */
export const STRATEGIES: readonly StrategyName[] = ["graph", "bm25", "pagerank"];

/** What a custom evaluator sees: the default evaluation of one cycle. */
export interface EvaluatorInput {
  task: string;
  cycle: number;
  keywords: string[];
  /** The default evaluation's best candidates, best first. */
  candidates: ReadonlyArray<{ path: string; relevance: number; reason: string; missingContext: string[] }>;
  /** Read a candidate's text (inside the root), e.g. to show it to an LLM judge. */
  readFile: (path: string) => Promise<string>;
}

/** A rescored candidate; paths left out keep their default relevance. */
export interface EvaluatorVerdict {
  path: string;
  relevance: number;
  reason?: string;
}

/** Replaces or adjusts EVALUATE (e.g. an LLM judge). Plain async function. */
export type Evaluator = (input: EvaluatorInput) => Promise<EvaluatorVerdict[]>;

/** Replaces or adjusts the parsed task query before the first cycle. */
export type QueryExpander = (query: TaskQuery) => Promise<TaskQuery>;

export interface RetrieveOptions {
  /** Codebase root (default: the current folder). */
  root?: string;
  /** At most this many cycles (default 3). */
  maxCycles?: number;
  /** Token budget of the context (default 20000): a file past it is left out of the context (the best one never is). */
  budgetTokens?: number;
  /** Only files matching one of these root-relative globs (replaces what is read). */
  include?: string[];
  /** Files matching these globs are read too, on top of the rest (adds to what is read). */
  alsoInclude?: string[];
  /** Leave out files matching these globs. */
  exclude?: string[];
  /** Extra keywords for the first query. */
  keywords?: string[];
  /** Ranking strategy (default "graph"). */
  strategy?: StrategyName;
  /** Skip files larger than this (default 1 MiB). */
  maxFileBytes?: number;
  /** Folder of the persistent index (default: none, nothing is written); see buildGraph. */
  cacheDir?: string;
  /** Called as files are parsed or taken from the index: done, total. */
  onProgress?: (done: number, total: number) => void;
  /**
   * The index kept in memory by a long-running process (`createIndexMemory`),
   * with `cacheDir`: the graph build starts from it instead of reading the
   * index back, and the index write waits for `flushIndexMemory`.
   */
  memory?: IndexMemory;
  evaluator?: Evaluator;
  expandQuery?: QueryExpander;
  /** Thesaurus groups added to the built-in ones (`data/thesaurus.json` format: group name → synonyms). */
  thesaurus?: Record<string, string[]>;
  /** Chinese glossary entries added to the built-in ones (`data/glossary-zh.json` format); a key given here replaces the built-in one. */
  glossary?: Record<string, string[]>;
  /** Ranked files returned (default 50). */
  maxResults?: number;
  /** A ranker model file trained by `npm run train` (default: the shipped data/ranker.bin with git history, data/ranker-no-history.bin without). */
  model?: string;
  /** Read the repository's git history (co-change, the words of past commits): default true; false reads none. */
  history?: boolean;
  /** The last this many commits of the history (default 5000). */
  historyCommits?: number;
}

export { DEFAULT_BUDGET_TOKENS };
export const DEFAULT_MAX_RESULTS = 50;

/** Validate the numeric options; a bad one is the caller's mistake. */
export function checkRetrieveOptions(options: RetrieveOptions): void {
  const positive = (name: string, value: number | undefined) => {
    if (value !== undefined && (!Number.isInteger(value) || value < 1)) {
      throw new UsageError(`retrieve: ${name} must be a positive whole number, got ${String(value)}`);
    }
  };
  positive("maxCycles", options.maxCycles);
  positive("budgetTokens", options.budgetTokens);
  positive("maxResults", options.maxResults);
  positive("historyCommits", options.historyCommits);
  if (options.history !== undefined && typeof options.history !== "boolean") throw new UsageError(`retrieve: history must be true or false, got ${JSON.stringify(options.history)}`);
  if (options.strategy !== undefined && !STRATEGIES.includes(options.strategy)) {
    throw new UsageError(`retrieve: strategy must be ${STRATEGIES.slice(0, -1).join(", ")} or ${STRATEGIES[STRATEGIES.length - 1]}, got "${String(options.strategy)}"`);
  }
  if (options.model !== undefined && (typeof options.model !== "string" || options.model === "")) {
    throw new UsageError("retrieve: model must be the path of a ranker model file (trained by npm run train)");
  }
}

/** The last globs made into a path test, and that test. */
let lastPathTest: { key: string; test: (path: string) => boolean } | undefined;

/**
 * The caller's include/exclude globs as one path test (the scan's own glob
 * rules). The same globs again give the same function, so that what is
 * kept by the test (the pool's allowed files of an index, see
 * candidate-pool.ts) is found again by a resident process's next query.
 */
export function createPathTest(include?: string[], exclude?: string[], alsoInclude?: string[]): (path: string) => boolean {
  const key = JSON.stringify([include ?? null, exclude ?? null, alsoInclude ?? null]);
  if (lastPathTest?.key !== key) {
    const filter = createPathFilter({ include, exclude, alsoInclude });
    lastPathTest = { key, test: (path) => filter.isIncluded(path) && !filter.isExcluded(path) };
  }
  return lastPathTest.test;
}
