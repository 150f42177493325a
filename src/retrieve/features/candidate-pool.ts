/**
 * DISPATCH's pool: the files one task's first cycle evaluates. The best by
 * BM25F and by plain BM25, every file the task names (its path, its stem,
 * an identifier it defines), the graph neighbours of the best lexical
 * files, whose words may miss the task while their imports do not, and,
 * with history, the files whose past commits best match the task and the
 * files the best lexical ones change with.
 */
import { byCodeUnit } from "../../util/sort.js";
import type { IndexedFile, LexicalIndex } from "../lexical-index.js";
import type { RetrievalContext } from "../retrieval-context.js";
import type { Bm25fParameters } from "../signals/bm25f.js";
import { POOL_COCHANGE_PER_SEED, POOL_HISTORY, POOL_SIMILAR, POOL_LEXICAL, POOL_NEIGHBOURS_PER_SEED, POOL_PLAIN, POOL_SEEDS } from "../parameters.js";
import type { HistoryQuery } from "./history-features.js";
import { lexicalEvidence, type LexicalEvidence, type PreparedTerm } from "./lexical-features.js";
import { nameEvidence, stemOf, type FileStem, type NameEvidence, type TaskNames } from "./task-names.js";

/** How a file came into the pool. */
export type PoolOrigin = "lexical" | "named" | "neighbour" | "history" | "expansion";

export interface PoolFile {
  path: string;
  file: IndexedFile;
  lexical: LexicalEvidence;
  names: NameEvidence;
  /** BM25 of the task over the file's commit vocabulary (0 without history). */
  historyMatch: number;
  origin: PoolOrigin;
  /** For a neighbour or an expansion: the file it was reached from. */
  via?: string;
}

export interface PoolOptions {
  /** Which files may be ranked (the caller's include/exclude). */
  isAllowed: (path: string) => boolean;
  /** Leave test files out (the task does not speak of tests). */
  excludeTests: boolean;
  /** Leave vendored third-party files out (the task does not speak of vendored code); absent: kept. */
  excludeVendored?: boolean;
  bm25f: Bm25fParameters;
  /** The task against the commit vocabularies (with history). */
  historyQuery?: HistoryQuery;
  /** The files of the past commits most like the task (with history), by likeness. */
  similar?: ReadonlyMap<string, { sum: number; max: number }>;
}

/** The kinds of file a task leaves out of the ranking (see leftOutKinds in extract.ts). */
export type LeftOutKinds = Pick<PoolOptions, "excludeTests" | "excludeVendored">;

/** A test file when tests are left out, a vendored file when vendored code is. */
export function leftOut(file: IndexedFile, options: LeftOutKinds): boolean {
  return (options.excludeTests && file.isTest) || (options.excludeVendored === true && file.isVendored);
}

function isNamed(names: NameEvidence): boolean {
  return names.pathNamed > 0 || names.stemNamed > 0 || names.definesIdentifier > 0 || names.literalShare === 1;
}

/** The neighbours of a file over import and reference links, heaviest first. */
export function neighboursOf(context: RetrievalContext, path: string): Array<{ path: string; weight: number }> {
  const weights = new Map<string, number>();
  for (const [target, weight] of context.links.out.get(path) ?? []) weights.set(target, weight);
  for (const [source, weight] of context.links.in.get(path) ?? []) weights.set(source, Math.max(weights.get(source) ?? 0, weight));
  return [...weights.entries()]
    .filter(([p]) => p !== path)
    .map(([p, weight]) => ({ path: p, weight }))
    .sort((a, b) => b.weight - a.weight || byCodeUnit(a.path, b.path));
}

/** Each index's files the caller's path test allows (1) or not (0), by test: a resident process asks the same of every query. */
const allowedByIndex = new WeakMap<LexicalIndex, WeakMap<(path: string) => boolean, Uint8Array>>();

/**
 * The files' stems (in the index's order), each made when first asked and kept with the index: a resident
 * process's queries ask them again; a command's one query asks only the files it weighs (rollup's tests are not).
 */
const stemsByIndex = new WeakMap<LexicalIndex, Array<FileStem | undefined>>();

function stemsOf(index: LexicalIndex): Array<FileStem | undefined> {
  let stems = stemsByIndex.get(index);
  if (!stems) stemsByIndex.set(index, (stems = new Array<FileStem | undefined>(index.files.length)));
  return stems;
}

function allowedFiles(index: LexicalIndex, isAllowed: (path: string) => boolean): Uint8Array {
  let byTest = allowedByIndex.get(index);
  if (!byTest) allowedByIndex.set(index, (byTest = new WeakMap()));
  let allowed = byTest.get(isAllowed);
  if (!allowed) {
    // a plain loop: Uint8Array.from walks its source through the iterator protocol (rollup: 12,724 files, ~10 ms)
    const { files } = index;
    allowed = new Uint8Array(files.length);
    for (let i = 0; i < files.length; i++) allowed[i] = isAllowed(files[i]!.path) ? 1 : 0;
    byTest.set(isAllowed, allowed);
  }
  return allowed;
}

/**
 * @example
 * const pool = collectPool(context, prepareTerms(index, query), taskNamesOf(taskQuery), options);
 * pool.map((f) => f.path); // best lexical first, then named files, then neighbours
 */
export function collectPool(
  context: RetrievalContext,
  terms: readonly PreparedTerm[],
  names: TaskNames,
  options: PoolOptions,
  holds: Uint8Array = context.index.holdingAny(terms.map((t) => t.term)),
): PoolFile[] {
  const scored: PoolFile[] = [];
  const remembered: PoolFile[] = [];
  const eligible = (file: IndexedFile) => options.isAllowed(file.path) && !leftOut(file, options);
  const history = context.history;
  const pastOf = (path: string) => options.historyQuery?.scores.get(path) ?? 0;
  const allowed = allowedFiles(context.index, options.isAllowed);
  const { files } = context.index;
  // a file holding no term (`holds`: 1 for each that holds one) has no lexical evidence to weigh: it is weighed only
  // when named or remembered (54,782 files: the evidence of every file, nearly all matching nothing, was ~25 ms of each query)
  const stems = stemsOf(context.index);
  const literalsOf = (path: string) => context.codeGraph.files.get(path)?.literals ?? [];
  for (let i = 0; i < files.length; i++) {
    const file = files[i]!;
    if (allowed[i] === 0 || leftOut(file, options)) continue;
    const evidence = nameEvidence(file, names, (stems[i] ??= stemOf(file.path)), literalsOf);
    const past = pastOf(file.path);
    if (holds[i] === 0 && !isNamed(evidence)) {
      if (past > 0) remembered.push({ path: file.path, file, lexical: lexicalEvidence(context.index, file, terms, options.bm25f), names: evidence, historyMatch: past, origin: "history" });
      continue;
    }
    scored.push({ path: file.path, file, lexical: lexicalEvidence(context.index, file, terms, options.bm25f), names: evidence, historyMatch: past, origin: "lexical" });
  }
  const byBm25f = [...scored].sort((a, b) => b.lexical.bm25f - a.lexical.bm25f || byCodeUnit(a.path, b.path));
  const byPlain = [...scored].sort((a, b) => b.lexical.plain - a.lexical.plain || byCodeUnit(a.path, b.path));
  const pool = new Map<string, PoolFile>();
  for (const entry of byBm25f.slice(0, POOL_LEXICAL)) pool.set(entry.path, entry);
  for (const entry of byPlain.slice(0, POOL_PLAIN)) if (!pool.has(entry.path)) pool.set(entry.path, entry);
  for (const entry of byBm25f) if (!pool.has(entry.path) && isNamed(entry.names)) pool.set(entry.path, { ...entry, origin: "named" });
  const seeds = byBm25f.slice(0, POOL_SEEDS);
  const join = (path: string, origin: PoolOrigin, via: string) => {
    const file = context.index.byPath.get(path);
    if (!file || !eligible(file) || pool.has(path)) return false;
    pool.set(path, {
      path,
      file,
      lexical: lexicalEvidence(context.index, file, terms, options.bm25f),
      names: nameEvidence(file, names, undefined, literalsOf),
      historyMatch: pastOf(path),
      origin,
      via,
    });
    return true;
  };
  for (const seed of seeds) {
    let added = 0;
    for (const { path } of neighboursOf(context, seed.path)) {
      if (added >= POOL_NEIGHBOURS_PER_SEED) break;
      if (join(path, "neighbour", seed.path)) added++;
    }
  }
  if (history) {
    // the files whose past commits speak the task's words, whether or not their code does
    const byHistory = [...scored, ...remembered].filter((f) => f.historyMatch > 0).sort((a, b) => b.historyMatch - a.historyMatch || byCodeUnit(a.path, b.path));
    for (const entry of byHistory.slice(0, POOL_HISTORY)) if (!pool.has(entry.path)) pool.set(entry.path, { ...entry, origin: "history" });
    // the files of the past commits most like the task
    const bySimilar = [...(options.similar ?? new Map<string, { sum: number; max: number }>()).entries()].sort((a, b) => b[1].sum - a[1].sum || byCodeUnit(a[0], b[0]));
    for (const [path] of bySimilar.slice(0, POOL_SIMILAR)) join(path, "history", "a past commit like the task");
    // and the files the best lexical ones change with
    for (const seed of seeds) {
      const partners = [...(history.cochange.get(seed.path) ?? new Map<string, number>()).entries()].sort((a, b) => b[1] - a[1] || byCodeUnit(a[0], b[0]));
      let added = 0;
      for (const [path] of partners) {
        if (added >= POOL_COCHANGE_PER_SEED) break;
        if (join(path, "history", seed.path)) added++;
      }
    }
  }
  return [...pool.values()];
}

/** A pool entry for a file reached in a later cycle (REFINE's expansion toward a high file's gaps). */
export function poolEntry(context: RetrievalContext, path: string, terms: readonly PreparedTerm[], names: TaskNames, options: PoolOptions, via: string): PoolFile | undefined {
  const file = context.index.byPath.get(path);
  if (!file || !options.isAllowed(path) || leftOut(file, options)) return undefined;
  const past = options.historyQuery?.scores.get(path) ?? 0;
  const literalsOf = (p: string) => context.codeGraph.files.get(p)?.literals ?? [];
  return { path, file, lexical: lexicalEvidence(context.index, file, terms, options.bm25f), names: nameEvidence(file, names, undefined, literalsOf), historyMatch: past, origin: "expansion", via };
}
