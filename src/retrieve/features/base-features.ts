/**
 * The first cycle's feature vector of every pool file: what the learned
 * ranker scores. Groups, in order:
 * - lexical: BM25F, plain BM25 and each field's BM25, raw, against the
 *   task's best file and as a rank; concept, idf, path and definition
 *   coverage; the rarest term held;
 * - named: the task names the file's path or stem, an identifier it
 *   defines, a phrase it holds, a message its string literals hold as one
 *   string; its scope, a plural, a compound it exports;
 * - graph: ties to the best lexical files (imports either way, two hops,
 *   the same folder), personalized PageRank from them, fan-in and fan-out;
 * - priors: test, declaration, barrel, index, size, depth, JavaScript,
 *   an examples/docs/scripts folder;
 * - task: how many terms and concepts, Chinese, identifiers, a scope, the
 *   codebase's size, how peaked the lexical scores are, whether it reads as
 *   an issue (read-issue.ts) and its length;
 * - history (0 without one): the task against the file's commit vocabulary,
 *   raw, relative and as a rank; how often and how lately it changed; its
 *   co-change with the best lexical files and with the files whose commits
 *   best match the task; the history's length.
 * Every value is a plain number; the same task and codebase give the same
 * vector.
 */
import { folderOf } from "../../util/folders.js";
import { byCodeUnit } from "../../util/sort.js";
import { FIELD_INDEX, FIELDS, type LexicalIndex } from "../lexical-index.js";
import type { TaskQuery } from "../query.js";
import type { RetrievalContext } from "../retrieval-context.js";
import { GRAPH_SEEDS } from "../parameters.js";
import { personalizedPageRank } from "../signals/personalized-pagerank.js";
import { pluralNameShare, pluralPartsOf } from "../signals/plural-name.js";
import { scopeNameShare, scopeTermsOf } from "../signals/scope-name.js";
import { compoundFilter, compoundsOf, definedCompounds } from "../signals/compound-name.js";
import { entryBarrels, speaksOfModuleBoundary } from "../signals/entry-barrel.js";
import { loadStopwords } from "../query-data.js";
import { isPackageIndexPath } from "../../parse/languages.js";
import type { PoolFile } from "./candidate-pool.js";
import { cochangeShare } from "./history-features.js";

/** The history features' names: zeroed, they are the model without history (see scripts/learn/train.mjs). */
export const HISTORY_FEATURES = [
  "historyMatch", "historyMatchRel", "historyMatchRank", "historyChanges", "historyAge", "cochangeSeed", "cochangeHistorySeed", "historyCommits", "fromHistory",
  "similarCommits", "similarCommitsRel", "similarCommitBest",
] as const;

export const BASE_FEATURES = [
  // lexical
  "bm25f", "bm25fRel", "bm25fRank", "plain", "plainRel", "plainRank",
  ...FIELDS.map((f) => `field.${f}`), ...FIELDS.map((f) => `field.${f}.rel`),
  "coverage", "pathCoverage", "definitionCoverage", "idfCoverage", "rarestMatch", "matchedTerms", "matchedShare", "coverageRank",
  // named
  "pathNamed", "stemNamed", "genericStemNamed", "definesIdentifier", "identifierInDefinitions", "phraseShare", "literalShare",
  "scopeName", "scopeFolder", "pluralName", "compoundName", "entryBarrel",
  // graph
  "importsSeed", "importedBySeed", "twoHopSeed", "sameFolderSeed", "folderMass", "pagerank", "fanIn", "fanOut", "fromNeighbour",
  // priors
  "isTest", "isDeclaration", "isBarrel", "isIndex", "logTokens", "depth", "isJs", "auxFolder", "definitions", "exports",
  // task
  "taskTerms", "taskConcepts", "taskZh", "taskIdentifiers", "taskScope", "taskPaths", "logFiles", "bestBm25f", "secondRel", "logMatching", "jsShare",
  "taskIssue", "taskLogChars",
  // history
  ...HISTORY_FEATURES,
] as const;

/** A file the history never saw changing is this many days old to the model (past any window). */
const NEVER_CHANGED_DAYS = 10_000;


/** Folders whose files a change to the source seldom touches: examples, docs, demos, scripts, benchmarks, stories, mocks. */
const AUX_FOLDER = /(^|\/)(examples?|docs?|demos?|scripts?|bench(marks?)?|stories|storybook|mocks?|__mocks__|fixtures?|playground|sandbox|e2e|website|site)\//i;

const JS_NAME = /\.[cm]?jsx?$/;

function rankOf(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  const ranks = new Array<number>(values.length);
  order.forEach(([, i], r) => (ranks[i] = r));
  return ranks;
}

/** What each index's files are, asked once of each index (three cycles a query, and a resident process's queries, ask it again). */
interface CodebaseFacts {
  jsShare: number;
  entries?: ReadonlySet<string>;
}
const codebaseFacts = new WeakMap<LexicalIndex, CodebaseFacts>();

function factsOf(index: LexicalIndex): CodebaseFacts {
  let facts = codebaseFacts.get(index);
  if (!facts) {
    const jsFiles = index.files.filter((f) => JS_NAME.test(f.path)).length;
    facts = { jsShare: index.files.length > 0 ? jsFiles / index.files.length : 0 };
    codebaseFacts.set(index, facts);
  }
  return facts;
}

/** The share of the codebase's files that are JavaScript. */
function jsShareOf(index: LexicalIndex): number {
  return factsOf(index).jsShare;
}

/** The codebase's entry barrels (see signals/entry-barrel.ts): every file asked once an index, not once a cycle (54,782 files: 18 ms of each daemon query). */
function entryBarrelsOf(index: LexicalIndex): ReadonlySet<string> {
  const facts = factsOf(index);
  facts.entries ??= new Set(entryBarrels(index.files.filter((f) => f.isBarrel).map((f) => f.path)));
  return facts.entries;
}

export interface BaseFeatureInput {
  context: RetrievalContext;
  taskQuery: TaskQuery;
  pool: readonly PoolFile[];
  /** How many files matched any query term (the pool holds the best of them). */
  matching: number;
  /** With history: the files of the past commits most like the task. */
  similar?: ReadonlyMap<string, { sum: number; max: number }>;
}

/** The graph neighbours of `path` in both directions with their weight (imports and references). */
function linked(context: RetrievalContext, path: string): { out: ReadonlyMap<string, number>; in: ReadonlyMap<string, number> } {
  return { out: context.links.out.get(path) ?? new Map(), in: context.links.in.get(path) ?? new Map() };
}

/**
 * @example
 * const rows = baseFeatures({ context, taskQuery, pool, matching });
 * rows[0][BASE_FEATURES.indexOf("bm25fRel")]; // 1 for the best lexical file
 */
export function baseFeatures(input: BaseFeatureInput): number[][] {
  const { context, taskQuery, pool } = input;
  const { index } = context;
  const n = pool.length;
  const bm25f = pool.map((f) => f.lexical.bm25f);
  const plain = pool.map((f) => f.lexical.plain);
  const bestBm25f = Math.max(1e-9, ...bm25f);
  const bestPlain = Math.max(1e-9, ...plain);
  const bestField = Object.fromEntries(FIELDS.map((f) => [f, Math.max(1e-9, ...pool.map((p) => p.lexical.field[f]))]));
  const bm25fRanks = rankOf(bm25f);
  const plainRanks = rankOf(plain);
  const coverageRanks = rankOf(pool.map((f) => f.lexical.coverage + 1e-6 * f.lexical.bm25f / bestBm25f));
  const sortedBm25f = [...bm25f].sort((a, b) => b - a);
  const secondRel = (sortedBm25f[1] ?? 0) / bestBm25f;

  // task-level
  const terms = new Set(taskQuery.terms.map((t) => t.term));
  const concepts = new Set(taskQuery.terms.map((t) => (t.source === "glossary" ? t.original : t.term)));
  const isZh = /\p{Script=Han}/u.test(taskQuery.task) ? 1 : 0;
  const jsShare = jsShareOf(index);
  const taskLogChars = Math.log2(1 + taskQuery.task.length);

  // named signals of the task's words
  const scopeTerms = scopeTermsOf(taskQuery.scopes ?? []);
  const scopeIsFolder = scopeTerms.length > 0 && index.folderHoldsAll(scopeTerms);
  const pluralParts = pluralPartsOf(taskQuery.identifiers);
  const stopwords = loadStopwords();
  const compounds = compoundsOf(taskQuery.task, (word) => stopwords.english.has(word) || stopwords.boilerplate.has(word));
  const mayDefineCompound = compoundFilter(compounds);
  const entries = speaksOfModuleBoundary(taskQuery.task) ? entryBarrelsOf(index) : new Set<string>();

  // graph: seeds are the best files by BM25F
  const seedOrder = pool
    .map((f, i) => ({ i, score: f.lexical.bm25f }))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || byCodeUnit(pool[a.i]!.path, pool[b.i]!.path))
    .slice(0, GRAPH_SEEDS);
  const seedRel = new Map(seedOrder.map((s) => [pool[s.i]!.path, s.score / bestBm25f]));
  const pagerank = personalizedPageRank(pool.map((f) => f.path), context.links, seedRel);
  const bestRank = Math.max(1e-12, ...pagerank.values());
  const folderScore = new Map<string, number>();
  for (const f of pool) {
    const folder = folderOf(f.path);
    folderScore.set(folder, (folderScore.get(folder) ?? 0) + f.lexical.bm25f / bestBm25f);
  }
  // each seed's neighbours either way, as one set: a file two hops from a seed shares one with it
  const seedNeighbours = new Map<string, Set<string>>();
  for (const seed of seedRel.keys()) {
    const around = linked(context, seed);
    seedNeighbours.set(seed, new Set([...around.out.keys(), ...around.in.keys()]));
  }

  // history: the files whose past commits best match the task seed its co-change feature as the lexical seeds do theirs
  const history = context.history;
  const pastScores = pool.map((f) => f.historyMatch);
  const bestPast = Math.max(1e-9, ...pastScores);
  const pastRanks = rankOf(pastScores);
  const pastSeeds = pool
    .map((f, i) => ({ path: f.path, rel: pastScores[i]! / bestPast }))
    .filter((s) => s.rel > 0)
    .sort((a, b) => b.rel - a.rel || byCodeUnit(a.path, b.path))
    .slice(0, GRAPH_SEEDS);
  const similar = input.similar ?? new Map<string, { sum: number; max: number }>();
  const bestSimilar = Math.max(1e-9, ...[...similar.values()].map((s) => s.sum));
  const bestSimilarOne = Math.max(1e-9, ...[...similar.values()].map((s) => s.max));

  const historyRow = (f: PoolFile, i: number): number[] => {
    if (!history) return HISTORY_FEATURES.map(() => 0);
    let cochangeSeed = 0;
    for (const [seed, rel] of seedRel) if (seed !== f.path) cochangeSeed = Math.max(cochangeSeed, rel * cochangeShare(history, seed, f.path));
    let cochangePast = 0;
    for (const seed of pastSeeds) if (seed.path !== f.path) cochangePast = Math.max(cochangePast, seed.rel * cochangeShare(history, seed.path, f.path));
    return [
      f.historyMatch, f.historyMatch / bestPast, f.historyMatch > 0 ? Math.log2(2 + pastRanks[i]!) : 0,
      Math.log2(1 + (history.changes.get(f.path) ?? 0)), Math.log2(1 + (history.daysSinceChange.get(f.path) ?? NEVER_CHANGED_DAYS)),
      cochangeSeed, cochangePast, Math.log2(1 + history.commits), f.origin === "history" ? 1 : 0,
      similar.get(f.path)?.sum ?? 0, (similar.get(f.path)?.sum ?? 0) / bestSimilar, (similar.get(f.path)?.max ?? 0) / bestSimilarOne,
    ];
  };

  const rows: number[][] = [];
  for (let i = 0; i < n; i++) {
    const f = pool[i]!;
    const { lexical, names, file } = f;
    const own = linked(context, f.path);
    let importsSeed = 0;
    let importedBySeed = 0;
    let twoHop = 0;
    let sameFolder = 0;
    const folder = folderOf(f.path);
    let middles: string[] | undefined;
    for (const [seed, rel] of seedRel) {
      if (seed === f.path) continue;
      if (own.out.has(seed)) importsSeed = Math.max(importsSeed, rel);
      if (own.in.has(seed)) importedBySeed = Math.max(importedBySeed, rel);
      if (folderOf(seed) === folder) sameFolder = Math.max(sameFolder, rel);
      if (!own.out.has(seed) && !own.in.has(seed) && rel > twoHop) {
        const around = seedNeighbours.get(seed)!;
        middles ??= [...own.out.keys(), ...own.in.keys()];
        if (middles.some((middle) => around.has(middle))) twoHop = rel;
      }
    }
    // from the term postings; the file's own definitions (its facts) only when its definition names may spell a compound
    const definitionTerms = { has: (term: string) => (file.termCounts(term)?.[FIELD_INDEX.definitions] ?? 0) > 0 };
    const [definitionCount, exportedCount] = file.definitionCounts;
    const exportedNames = () => (context.codeGraph.files.get(f.path)?.definitions ?? []).filter((d) => d.exported).map((d) => d.name);
    const compound = mayDefineCompound(definitionTerms) && definedCompounds(exportedNames(), compounds).length > 0 ? 1 : 0;
    const row: number[] = [
      lexical.bm25f, lexical.bm25f / bestBm25f, Math.log2(2 + bm25fRanks[i]!), lexical.plain, lexical.plain / bestPlain, Math.log2(2 + plainRanks[i]!),
      ...FIELDS.map((field) => lexical.field[field]), ...FIELDS.map((field) => lexical.field[field] / bestField[field]!),
      lexical.coverage, lexical.pathCoverage, lexical.definitionCoverage, lexical.idfCoverage, lexical.rarestMatch, lexical.matchedTerms,
      terms.size > 0 ? lexical.matchedTerms / terms.size : 0, Math.log2(2 + coverageRanks[i]!),
      names.pathNamed, names.stemNamed, names.genericStemNamed, names.definesIdentifier, names.identifierInDefinitions, names.phraseShare, names.literalShare,
      scopeNameShare(scopeIsFolder ? file.fields.folder : file.fields.name, scopeTerms), scopeIsFolder ? 1 : 0, pluralNameShare(f.path, pluralParts), compound, entries.has(f.path) ? 1 : 0,
      importsSeed, importedBySeed, twoHop, sameFolder, (folderScore.get(folder) ?? 0) - lexical.bm25f / bestBm25f, (pagerank.get(f.path) ?? 0) / bestRank,
      Math.log2(1 + own.in.size), Math.log2(1 + own.out.size), f.origin === "neighbour" || f.origin === "expansion" ? 1 : 0,
      file.isTest ? 1 : 0, file.isDeclaration ? 1 : 0, file.isBarrel ? 1 : 0, isPackageIndexPath(f.path) ? 1 : 0, Math.log2(1 + file.tokens),
      f.path.split("/").length, JS_NAME.test(f.path) ? 1 : 0, AUX_FOLDER.test(f.path) ? 1 : 0,
      Math.log2(1 + definitionCount), Math.log2(1 + exportedCount),
      terms.size, concepts.size, isZh, taskQuery.identifiers.length, (taskQuery.scopes ?? []).length > 0 ? 1 : 0, taskQuery.paths.length,
      Math.log2(1 + index.files.length), bestBm25f, secondRel, Math.log2(1 + input.matching), jsShare,
      taskQuery.isIssue ? 1 : 0, taskLogChars,
      ...historyRow(f, i),
    ];
    rows.push(row);
  }
  return rows;
}
