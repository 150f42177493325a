/**
 * DISPATCH's pool: the files one task's first cycle evaluates. The best by
 * BM25F and by plain BM25, every file the task names (its path, its stem,
 * an identifier it defines), and the graph neighbours of the best lexical
 * files, whose words may miss the task while their imports do not.
 */
import { byCodeUnit } from "../../util/sort.js";
import type { IndexedFile } from "../lexical-index.js";
import type { RetrievalContext } from "../retrieval-context.js";
import type { Bm25fParameters } from "../signals/bm25f.js";
import { POOL_LEXICAL, POOL_NEIGHBOURS_PER_SEED, POOL_PLAIN, POOL_SEEDS } from "../parameters.js";
import { lexicalEvidence, type LexicalEvidence, type PreparedTerm } from "./lexical-features.js";
import { nameEvidence, type NameEvidence, type TaskNames } from "./task-names.js";

/** How a file came into the pool. */
export type PoolOrigin = "lexical" | "named" | "neighbour" | "expansion";

export interface PoolFile {
  path: string;
  file: IndexedFile;
  lexical: LexicalEvidence;
  names: NameEvidence;
  origin: PoolOrigin;
  /** For a neighbour or an expansion: the file it was reached from. */
  via?: string;
}

export interface PoolOptions {
  /** Which files may be ranked (the caller's include/exclude). */
  isAllowed: (path: string) => boolean;
  /** Leave test files out (the task does not speak of tests). */
  excludeTests: boolean;
  bm25f: Bm25fParameters;
}

function isNamed(names: NameEvidence): boolean {
  return names.pathNamed > 0 || names.stemNamed > 0 || names.definesIdentifier > 0;
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

/**
 * @example
 * const pool = collectPool(context, prepareTerms(index, query), taskNamesOf(taskQuery), options);
 * pool.map((f) => f.path); // best lexical first, then named files, then neighbours
 */
export function collectPool(context: RetrievalContext, terms: readonly PreparedTerm[], names: TaskNames, options: PoolOptions): PoolFile[] {
  const scored: PoolFile[] = [];
  const eligible = (file: IndexedFile) => options.isAllowed(file.path) && !(options.excludeTests && file.isTest);
  for (const file of context.index.files) {
    if (!eligible(file)) continue;
    const lexical = lexicalEvidence(context.index, file, terms, options.bm25f);
    const evidence = nameEvidence(file, names);
    if (lexical.matchedTerms === 0 && !isNamed(evidence)) continue;
    scored.push({ path: file.path, file, lexical, names: evidence, origin: "lexical" });
  }
  const byBm25f = [...scored].sort((a, b) => b.lexical.bm25f - a.lexical.bm25f || byCodeUnit(a.path, b.path));
  const byPlain = [...scored].sort((a, b) => b.lexical.plain - a.lexical.plain || byCodeUnit(a.path, b.path));
  const pool = new Map<string, PoolFile>();
  for (const entry of byBm25f.slice(0, POOL_LEXICAL)) pool.set(entry.path, entry);
  for (const entry of byPlain.slice(0, POOL_PLAIN)) if (!pool.has(entry.path)) pool.set(entry.path, entry);
  for (const entry of byBm25f) if (!pool.has(entry.path) && isNamed(entry.names)) pool.set(entry.path, { ...entry, origin: "named" });
  const seeds = byBm25f.slice(0, POOL_SEEDS);
  for (const seed of seeds) {
    let added = 0;
    for (const { path } of neighboursOf(context, seed.path)) {
      if (added >= POOL_NEIGHBOURS_PER_SEED) break;
      if (pool.has(path)) continue;
      const file = context.index.byPath.get(path);
      if (!file || !eligible(file)) continue;
      pool.set(path, {
        path,
        file,
        lexical: lexicalEvidence(context.index, file, terms, options.bm25f),
        names: nameEvidence(file, names),
        origin: "neighbour",
        via: seed.path,
      });
      added++;
    }
  }
  return [...pool.values()];
}

/** A pool entry for a file reached in a later cycle (REFINE's expansion toward a high file's gaps). */
export function poolEntry(context: RetrievalContext, path: string, terms: readonly PreparedTerm[], names: TaskNames, options: PoolOptions, via: string): PoolFile | undefined {
  const file = context.index.byPath.get(path);
  if (!file || !options.isAllowed(path) || (options.excludeTests && file.isTest)) return undefined;
  return { path, file, lexical: lexicalEvidence(context.index, file, terms, options.bm25f), names: nameEvidence(file, names), origin: "expansion", via };
}
