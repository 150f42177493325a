/**
 * One task's first cycle, as data: the query, the pool, every pool file's
 * feature vector and the pool's graph. The retrieval scores it with the
 * learned ranker; `npm run train` stores it for training. Both call this
 * one function, so the model learns from exactly what it later sees.
 */
import type { RetrievalContext } from "../retrieval-context.js";
import { DEFAULT_BM25F, type Bm25fParameters } from "../signals/bm25f.js";
import { baseFeatures } from "./base-features.js";
import { collectPool, poolEntry, type LeftOutKinds, type PoolFile, type PoolOptions } from "./candidate-pool.js";
import { prepareTerms, type PreparedTerm } from "./lexical-features.js";
import { growPoolGraph, poolGraphOf, type PoolGraph } from "./relation-features.js";
import { searchTask, type SearchedTask, type TaskQueryOptions } from "./task-query.js";
import { taskNamesOf, type TaskNames } from "./task-names.js";
import { historyQueryOf, similarCommits } from "./history-features.js";
import { normaliseTerm } from "../../util/terms.js";
import { isVendoredPath } from "../lexical-index.js";

/** The history's side of the query: the task against commit vocabularies, and the past commits most like it. */
function historyQuery(context: RetrievalContext, searched: SearchedTask, terms: readonly PreparedTerm[]): Pick<PoolOptions, "historyQuery" | "similar"> {
  if (!context.history) return {};
  const query = historyQueryOf(context.history, searched.taskQuery, terms);
  return { historyQuery: query, similar: similarCommits(context.history, query.terms) };
}

export interface ExtractOptions extends TaskQueryOptions {
  isAllowed?: (path: string) => boolean;
  /** Rank vendored files whatever the task says: the caller's globs name a vendored folder (see {@link asksForVendored}). */
  rankVendored?: boolean;
  bm25f?: Bm25fParameters;
}

export interface TaskFeatures {
  searched: SearchedTask;
  terms: PreparedTerm[];
  names: TaskNames;
  pool: PoolFile[];
  /** Base feature rows, one per pool file (BASE_FEATURES order). */
  rows: number[][];
  graph: PoolGraph;
  excludeTests: boolean;
  /** How many files matched any query term. */
  matching: number;
  poolOptions: PoolOptions;
}

/** A task that speaks of tests, specs, mocks or fixtures may be about a test file. */
function speaksOfTests(searched: SearchedTask): boolean {
  return searched.query.keywords.some((k) => /^(test|spec|mock|fixtur)/.test(k.term));
}

/** The words, as the query normalises them ("vendored" and "vendoring" are "vendor"). */
const VENDORING = ["vendor", "thirdparty"].map(normaliseTerm);
const [THIRD, PARTY] = ["third", "party"].map(normaliseTerm) as [string, string];

/** The task speaks of vendored code ("vendor", "vendored", "third-party", "thirdparty"): vendored files may be ranked then. */
function speaksOfVendoring(searched: SearchedTask): boolean {
  const terms = new Set(searched.query.keywords.map((k) => k.term));
  return VENDORING.some((word) => terms.has(word)) || (terms.has(THIRD) && terms.has(PARTY));
}

/** An include glob names a vendored folder (`--include 'src/pip/_vendor/**'`): the caller asks for that code, so it is ranked. */
export function asksForVendored(options: { include?: readonly string[] | undefined; alsoInclude?: readonly string[] | undefined }): boolean {
  return [...(options.include ?? []), ...(options.alsoInclude ?? [])].some((glob) => isVendoredPath(glob));
}

/** What a task leaves out of the ranking: test files unless it speaks of tests, vendored code unless it speaks of it or the caller asks for it. */
export function leftOutKinds(searched: SearchedTask, rankVendored = false): LeftOutKinds {
  return { excludeTests: !speaksOfTests(searched), excludeVendored: !rankVendored && !speaksOfVendoring(searched) };
}

/**
 * @example
 * const features = extractTaskFeatures(context, "Fix the token expiry check");
 * features.pool.length === features.rows.length; // true
 */
export function extractTaskFeatures(context: RetrievalContext, task: string, options: ExtractOptions = {}): TaskFeatures {
  const searched = searchTask(context.index, task, options);
  const terms = prepareTerms(context.index, searched.query);
  const names = taskNamesOf(searched.taskQuery);
  const kinds = leftOutKinds(searched, options.rankVendored);
  const poolOptions = {
    isAllowed: options.isAllowed ?? (() => true),
    ...kinds,
    bm25f: options.bm25f ?? DEFAULT_BM25F,
    ...historyQuery(context, searched, terms),
  };
  // the files holding a term, read from the postings once: the pool weighs only them (and the named), the rows count them
  const holds = context.index.holdingAny(terms.map((t) => t.term));
  const pool = collectPool(context, terms, names, poolOptions, holds);
  let matching = 0;
  for (let i = 0; i < holds.length; i++) matching += holds[i]!;
  const rows = baseFeatures({ context, taskQuery: searched.taskQuery, pool, matching, ...(poolOptions.similar ? { similar: poolOptions.similar } : {}) });
  const graph = poolGraphOf(context, pool.map((f) => f.path));
  return { searched, terms, names, pool, rows, graph, excludeTests: kinds.excludeTests, matching, poolOptions };
}

/**
 * The pool grown by files a later cycle reaches (REFINE's expansion), with
 * every row computed again over the whole pool (a row's ranks and shares
 * are the pool's) and the pool graph grown by the added files.
 *
 * @example
 * const next = extendPool(context, features, [{ path: "src/lib/jwt.ts", via: "src/auth/tokens.ts" }]);
 */
export function extendPool(context: RetrievalContext, features: TaskFeatures, additions: ReadonlyArray<{ path: string; via: string }>): TaskFeatures {
  const known = new Set(features.pool.map((f) => f.path));
  const added: PoolFile[] = [];
  for (const { path, via } of additions) {
    if (known.has(path)) continue;
    const entry = poolEntry(context, path, features.terms, features.names, features.poolOptions, via);
    if (!entry) continue;
    known.add(path);
    added.push(entry);
  }
  if (added.length === 0) return features;
  const pool = [...features.pool, ...added];
  const rows = baseFeatures({ context, taskQuery: features.searched.taskQuery, pool, matching: features.matching, ...(features.poolOptions.similar ? { similar: features.poolOptions.similar } : {}) });
  const graph = growPoolGraph(context, features.graph, features.pool.map((f) => f.path), added.map((f) => f.path));
  return { ...features, pool, rows, graph };
}
