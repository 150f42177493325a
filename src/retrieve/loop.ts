/**
 * LOOP: DISPATCH → EVALUATE → REFINE, at most `maxCycles` times; stop early
 * once 3 or more files reach 0.7 and no critical gap remains, or when
 * REFINE finds nothing new to search. The result ranks every file ever
 * evaluated by its last relevance, the context (≥ 0.7) first.
 */
import { DEFAULT_BUDGET_TOKENS } from "../util/tokens.js";
import { createPathFilter } from "../scan/path-filter.js";
import { UsageError } from "../errors.js";
import type { IndexMemory } from "../graph/index-memory.js";
import type { CycleTrace, RetrievalResult, RetrievedFile, StrategyName } from "../types.js";
import { folderOf } from "../util/folders.js";
import { byCodeUnit } from "../util/sort.js";
import { createInitialQuery } from "./concepts.js";
import { dispatch } from "./dispatch.js";
import { bandOf, DEFAULT_EVALUATE, evaluate, type EvaluateParameters, type Evaluation } from "./evaluate.js";
import { expandWithThesaurus, extendGlossary, extendThesaurus, parseTask, thesaurusPhrasesIn, type TaskQuery } from "./query.js";
import { DEFAULT_REFINE, refine, type RefineParameters } from "./refine.js";
import type { CycleQuery, RetrievalContext } from "./retrieval-context.js";
import { DEFAULT_BM25F, type Bm25fParameters } from "./signals/bm25f.js";
import { DEFAULT_NOVELTY, orderByConceptNovelty, type NoveltyParameters } from "./signals/concept-novelty.js";
import { pluralNameShare, pluralPartsOf } from "./signals/plural-name.js";
import { scopeNamesFolder, scopeNameShare, scopeTermsOf } from "./signals/scope-name.js";
import { compoundFilter, compoundsOf, definedCompounds } from "./signals/compound-name.js";
import { entryBarrels, speaksOfModuleBoundary } from "./signals/entry-barrel.js";
import { loadStopwords } from "./query-data.js";

/** The BM25F parameters with the caller's overrides. */
export function bm25fParameters(options: RetrieveOptions): Bm25fParameters {
  const tuning = options.tuning?.bm25f;
  return {
    k1: tuning?.k1 ?? DEFAULT_BM25F.k1,
    perFieldSaturation: tuning?.perFieldSaturation ?? DEFAULT_BM25F.perFieldSaturation,
    fieldWeights: { ...DEFAULT_BM25F.fieldWeights, ...tuning?.fieldWeights },
    fieldB: { ...DEFAULT_BM25F.fieldB, ...tuning?.fieldB },
  };
}

export const CONTEXT_THRESHOLD = 0.7;
const MIN_HIGH_FILES = 3;

/** What a custom evaluator sees: the default evaluation of one cycle. */
export interface EvaluatorInput {
  task: string;
  cycle: number;
  keywords: string[];
  /** The default evaluation, best first. */
  candidates: ReadonlyArray<Pick<Evaluation, "path" | "relevance" | "reason" | "missingContext">>;
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
  /** Token budget of the context (default 20000): files past it drop below 0.7. */
  budgetTokens?: number;
  /** Only files matching one of these root-relative globs. */
  include?: string[];
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
  /** Parameter overrides, for experiments. */
  tuning?: {
    evaluate?: Partial<EvaluateParameters>;
    refine?: Partial<RefineParameters>;
    bm25f?: { k1?: number; perFieldSaturation?: boolean; fieldWeights?: Partial<Bm25fParameters["fieldWeights"]>; fieldB?: Partial<Bm25fParameters["fieldB"]> };
    maxCandidates?: number;
    novelty?: Partial<NoveltyParameters>;
  };
}

export const DEFAULT_MAX_CYCLES = 3;
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
  if (options.strategy !== undefined && !["graph", "bm25", "pagerank"].includes(options.strategy)) {
    throw new UsageError(`retrieve: strategy must be graph, bm25 or pagerank, got "${String(options.strategy)}"`);
  }
}

/** The caller's include/exclude globs as one path test (the scan's own glob rules). */
export function createPathTest(include?: string[], exclude?: string[]): (path: string) => boolean {
  const filter = createPathFilter({ include, exclude });
  return (path) => filter.isIncluded(path) && !filter.isExcluded(path);
}

function mentionsTests(query: CycleQuery): boolean {
  return query.keywords.some((k) => /^(test|spec|mock|fixtur)/.test(k.term));
}

async function applyEvaluator(
  evaluator: Evaluator | undefined,
  evaluations: Evaluation[],
  input: Omit<EvaluatorInput, "candidates">,
): Promise<Evaluation[]> {
  if (!evaluator) return evaluations;
  const verdicts = await evaluator({ ...input, candidates: evaluations.map(({ path, relevance, reason, missingContext }) => ({ path, relevance, reason, missingContext })) });
  const byPath = new Map(verdicts.map((v) => [v.path, v]));
  const adjusted = evaluations.map((e) => {
    const verdict = byPath.get(e.path);
    if (!verdict || !Number.isFinite(verdict.relevance)) return e;
    const relevance = Math.max(0, Math.min(1, verdict.relevance));
    return { ...e, relevance, score: relevance, reason: verdict.reason ?? e.reason };
  });
  return adjusted.sort((a, b) => b.relevance - a.relevance || b.score - a.score || byCodeUnit(a.path, b.path));
}

/** Files this cycle reached over import edges: brought in as focus, or lifted into the context by a tie. */
function expansionsOf(evaluations: readonly Evaluation[]): Array<{ path: string; via: string }> {
  const expansions = new Map<string, string>();
  for (const evaluation of evaluations) {
    const via = evaluation.joinedVia ?? evaluation.expandedFrom;
    if (via !== undefined) expansions.set(evaluation.path, via);
  }
  return [...expansions.entries()].map(([path, via]) => ({ path, via })).sort((a, b) => byCodeUnit(a.path, b.path));
}

export interface LoopInput {
  task: string;
  displayRoot: string;
  options: RetrieveOptions;
  readFile: (path: string) => Promise<string>;
}

/**
 * Run the iterative retrieval over a prepared context.
 *
 * @example
 * const result = await runIterativeRetrieval(context, { task: "Add rate limiting", displayRoot: ".", options: {}, readFile });
 */
export async function runIterativeRetrieval(context: RetrievalContext, input: LoopInput): Promise<RetrievalResult> {
  const { task, options } = input;
  const maxCycles = options.maxCycles ?? DEFAULT_MAX_CYCLES;
  const evaluateParameters = { ...DEFAULT_EVALUATE, ...options.tuning?.evaluate };
  const refineParameters = { ...DEFAULT_REFINE, ...options.tuning?.refine };
  const glossary = options.glossary ? extendGlossary(options.glossary, "retrieve: glossary") : undefined;
  const thesaurus = options.thesaurus ? extendThesaurus(options.thesaurus, "retrieve: thesaurus") : undefined;
  let taskQuery = parseTask(task, { keywords: options.keywords, glossary });
  if (options.expandQuery) taskQuery = await options.expandQuery(taskQuery);
  const synonyms = (terms: string[]) => expandWithThesaurus(terms, thesaurus);
  let query = createInitialQuery(context.index, taskQuery, synonyms, (terms) => thesaurusPhrasesIn(terms, thesaurus));
  const isAllowed = createPathTest(options.include, options.exclude);
  const excludeTests = !mentionsTests(query);

  const latest = new Map<string, Evaluation>();
  const firstCycle = new Map<string, number>();
  const cycles: CycleTrace[] = [];
  let gaps: string[] = [];
  let stoppedEarly = false;

  for (let cycle = 1; cycle <= maxCycles; cycle++) {
    const carried = new Set([...latest.keys()].filter((p) => !query.excluded.has(p)));
    const candidates = dispatch(
      context,
      query,
      { maxCandidates: options.tuning?.maxCandidates ?? 40, excludeTests, isAllowed, bm25f: bm25fParameters(options) },
      carried,
    );
    let evaluations = evaluate(context, candidates, query, evaluateParameters);
    evaluations = await applyEvaluator(options.evaluator, evaluations, {
      task,
      cycle,
      keywords: query.keywords.map((k) => k.term),
      readFile: input.readFile,
    });
    for (const evaluation of evaluations) {
      latest.set(evaluation.path, evaluation);
      if (!firstCycle.has(evaluation.path)) firstCycle.set(evaluation.path, cycle);
    }
    const refinement = refine(context, evaluations, query, synonyms, refineParameters);
    gaps = refinement.gaps;
    const high = evaluations.filter((e) => e.relevance >= CONTEXT_THRESHOLD);
    const trace: CycleTrace = {
      cycle,
      keywords: query.keywords.map((k) => k.term),
      addedKeywords: refinement.addedKeywords,
      patterns: refinement.patterns,
      candidates: candidates.length,
      expandedFrom: expansionsOf(evaluations),
      high: high.map((e) => ({ path: e.path, relevance: e.relevance })),
      excluded: refinement.excluded,
      gaps: refinement.gaps,
    };
    cycles.push(trace);
    if (high.length >= MIN_HIGH_FILES && refinement.criticalGaps.length === 0) {
      trace.stop = `${high.length} files at ${CONTEXT_THRESHOLD} or more and no critical gap`;
      stoppedEarly = cycle < maxCycles;
      break;
    }
    const newFocus = [...refinement.query.focus.keys()].some((p) => !latest.has(p));
    if (refinement.addedKeywords.length === 0 && !newFocus) {
      trace.stop = "nothing new to search";
      stoppedEarly = cycle < maxCycles;
      break;
    }
    if (cycle === maxCycles) trace.stop = `reached the cycle limit (${maxCycles})`;
    query = refinement.query;
  }

  const ranked = orderBelowContext([...latest.values()], query.concepts, {
    novelty: options.tuning?.novelty,
    ...belowContextSignals(context, task, taskQuery),
    budgetTokens: options.budgetTokens ?? DEFAULT_BUDGET_TOKENS,
    tokensOf: (path) => context.index.byPath.get(path)?.tokens ?? 0,
  });
  return assembleResult(context, input, ranked, firstCycle, cycles, gaps, {
    strategy: "graph",
    stoppedEarly,
  });
}

/**
 * What the task says about the files below the context: its scope (a file
 * named for it, or in the folder it names), its plural code words, the
 * entities its prose spells, and whether it speaks of imports or exports.
 */
function belowContextSignals(
  context: RetrievalContext,
  task: string,
  taskQuery: TaskQuery,
): Pick<BelowContextOptions, "scopeShare" | "scopeIsFolder" | "pluralShare" | "compoundNames" | "entryBarrels"> {
  const { index, codeGraph } = context;
  const scopeTerms = scopeTermsOf(taskQuery.scopes ?? []);
  // a scope that names a folder names an area: the files in it, not the files named for it
  const scopeIsFolder = scopeNamesFolder(index.files.map((f) => f.fields.folder), scopeTerms);
  const scopeField = scopeIsFolder ? "folder" : "name";
  const pluralParts = pluralPartsOf(taskQuery.identifiers);
  const stopwords = loadStopwords();
  const compounds = compoundsOf(task, (word) => stopwords.english.has(word) || stopwords.boilerplate.has(word));
  const mayDefineCompound = compoundFilter(compounds);
  const exportedNames = (path: string) => (codeGraph.files.get(path)?.definitions ?? []).filter((d) => d.exported).map((d) => d.name);
  return {
    scopeShare: (path) => scopeNameShare(index.byPath.get(path)?.fields[scopeField] ?? new Map(), scopeTerms),
    scopeIsFolder,
    pluralShare: (path) => pluralNameShare(path, pluralParts),
    compoundNames: (path) => {
      const definitionTerms = index.byPath.get(path)?.fields.definitions;
      return definitionTerms && mayDefineCompound(definitionTerms) ? definedCompounds(exportedNames(path), compounds) : [];
    },
    entryBarrels: speaksOfModuleBoundary(task) ? new Set(entryBarrels(index.files.filter((f) => f.isBarrel).map((f) => f.path))) : undefined,
  };
}

/** How the files below the context are ordered; every field has a default. */
export interface BelowContextOptions {
  novelty?: Partial<NoveltyParameters>;
  /** Share of the task's scope terms a file's name holds, or its folders when the scope names a folder (see signals/scope-name.ts). */
  scopeShare?: (path: string) => number;
  /** The scope names a folder (the reason says so). */
  scopeIsFolder?: boolean;
  /** Share of the task's plural code-word parts a file's name holds as written (see signals/plural-name.ts). */
  pluralShare?: (path: string) => number;
  /** The exported names of a file that the task's prose words spell (see signals/compound-name.ts). */
  compoundNames?: (path: string) => string[];
  /** The entry barrels, when the task speaks of imports or exports (see signals/entry-barrel.ts). */
  entryBarrels?: ReadonlySet<string>;
  /** The context's token budget (default: none) and each file's tokens: a file past the budget is no context and is ordered with the rest. */
  budgetTokens?: number;
  tokensOf?: (path: string) => number;
}

/**
 * The files handed over, walking `ranked` best first: the first one, then
 * each at 0.7 or more while the token budget holds (a file that does not fit
 * is skipped, a smaller one after it may still fit). What orderBelowContext
 * keeps above the rest and what assembleResult leaves at 0.7 or more.
 */
function contextOf(ranked: readonly Evaluation[], budgetTokens: number, tokensOf: (path: string) => number): Set<Evaluation> {
  const context = new Set<Evaluation>();
  let used = 0;
  for (const [i, evaluation] of ranked.entries()) {
    if (i > 0 && evaluation.relevance < CONTEXT_THRESHOLD) continue;
    const tokens = tokensOf(evaluation.path);
    if (i > 0 && used + tokens > budgetTokens) continue;
    used += tokens;
    context.add(evaluation);
  }
  return context;
}

/**
 * The best file and the context keep their relevance; the files below them
 * are ordered by concept novelty (see signals/concept-novelty.ts), best first.
 * A file that reached 0.7 past the token budget is not handed over either,
 * so it is ordered with them (its relevance still counts there).
 *
 * @example
 * const ranked = orderBelowContext([...latest.values()], query.concepts);
 * ranked[1]?.reason; // "…; first below the context to define decod"
 */
export function orderBelowContext(
  evaluations: readonly Evaluation[],
  concepts: ReadonlyMap<string, number>,
  options: BelowContextOptions = {},
): Evaluation[] {
  const parameters = { ...DEFAULT_NOVELTY, ...options.novelty };
  const scopeShare = options.scopeShare ?? (() => 0);
  const pluralShare = options.pluralShare ?? (() => 0);
  const compoundNames = options.compoundNames ?? (() => []);
  const ranked = [...evaluations].sort((a, b) => b.relevance - a.relevance || b.score - a.score || byCodeUnit(a.path, b.path));
  const context = contextOf(ranked, options.budgetTokens ?? Infinity, options.tokensOf ?? (() => 0));
  const head = ranked.filter((e) => context.has(e));
  const tail = ranked
    .filter((e) => !context.has(e))
    .map((e) => (e.relevance >= CONTEXT_THRESHOLD ? { ...e, reason: `${e.reason}; over the ${options.budgetTokens}-token budget` } : e));
  const ceiling = Math.min(CONTEXT_THRESHOLD, head[head.length - 1]?.relevance ?? 1) - 0.001;
  // the files of one change often sit together: a file beside the best one starts a little higher
  const bestFolder = head[0] ? folderOf(head[0].path) : undefined;
  // a file named for the task's scope, or for a collection the task names in the plural, or that exports
  // an entity the task's words spell, or the entry barrel of a task about imports or exports, starts higher;
  // so does, a little, a file beside the best one
  const files = tail.map((e) => ({
    ...e,
    definedConcepts: e.definedConcepts ?? [],
    scope: scopeShare(e.path),
    plural: pluralShare(e.path),
    compound: compoundNames(e.path),
    entry: options.entryBarrels?.has(e.path) ?? false,
    beside: bestFolder !== undefined && folderOf(e.path) === bestFolder,
  }));
  const lifted = files.map((e) => ({
    ...e,
    relevance:
      e.relevance +
      parameters.scopeWeight * e.scope +
      parameters.pluralWeight * e.plural +
      (e.compound.length > 0 ? parameters.compoundWeight : 0) +
      (e.entry ? parameters.entryWeight : 0) +
      (e.beside ? parameters.folderWeight : 0),
  }));
  const ordered = orderByConceptNovelty(lifted, concepts, ceiling, parameters);
  return [
    ...head,
    ...ordered.map(({ novel, scope, plural, compound, entry, beside: _beside, ...e }) => {
      const notes = [
        ...(scope > 0 ? [options.scopeIsFolder ? "in the folder the task's scope names" : "named for the task's scope"] : []),
        ...(plural > 0 ? ["named for a plural the task names"] : []),
        ...(compound.length > 0 ? [`exports ${compound.join(", ")}, which the task's words spell`] : []),
        ...(entry ? ["the package's entry, and the task speaks of imports or exports"] : []),
        ...(novel.length > 0 ? [`first below the context to define ${novel.join(", ")}`] : []),
      ];
      return notes.length > 0 ? { ...e, reason: `${e.reason}; ${notes.join("; ")}` } : e;
    }),
  ];
}

/** Rank, apply the token budget, and shape the public result. */
export function assembleResult(
  context: RetrievalContext,
  input: LoopInput,
  evaluations: Evaluation[],
  firstCycle: ReadonlyMap<string, number>,
  cycles: CycleTrace[],
  gaps: string[],
  meta: { strategy: StrategyName; stoppedEarly: boolean },
): RetrievalResult {
  const { options } = input;
  const budget = options.budgetTokens ?? DEFAULT_BUDGET_TOKENS;
  const ranked = [...evaluations].sort((a, b) => b.relevance - a.relevance || b.score - a.score || byCodeUnit(a.path, b.path));
  // the best match is always handed over: an agent is better served by the best file than by none
  const top = ranked[0];
  if (top && top.relevance < CONTEXT_THRESHOLD && top.relevance >= 0.2) {
    ranked[0] = { ...top, relevance: CONTEXT_THRESHOLD, reason: `${top.reason}; best match, kept as context` };
  }
  const shown = ranked.slice(0, options.maxResults ?? DEFAULT_MAX_RESULTS);
  const tokensOf = (path: string) => context.index.byPath.get(path)?.tokens ?? 0;
  const handedOver = contextOf(shown, budget, tokensOf);
  const files: RetrievedFile[] = [];
  for (const evaluation of shown) {
    const tokens = tokensOf(evaluation.path);
    let relevance = evaluation.relevance;
    let reason = evaluation.reason;
    if (relevance >= CONTEXT_THRESHOLD && !handedOver.has(evaluation)) {
      relevance = 0.69;
      reason = `${reason}; over the ${budget}-token budget`;
    }
    files.push({
      path: evaluation.path,
      relevance,
      band: bandOf(relevance),
      reason,
      missingContext: evaluation.missingContext,
      tokens,
      cycle: firstCycle.get(evaluation.path) ?? 1,
      matchedTerms: evaluation.matchedTerms,
    });
  }
  files.sort((a, b) => b.relevance - a.relevance);
  const context_ = files.filter((f) => f.relevance >= CONTEXT_THRESHOLD);
  let totalTokens = 0;
  for (const file of context.codeGraph.files.values()) totalTokens += file.tokens;
  const meanRelevance = context_.length > 0 ? context_.reduce((sum, f) => sum + f.relevance, 0) / context_.length : 0;
  return {
    schemaVersion: 1,
    task: input.task,
    root: input.displayRoot,
    files,
    cycles,
    gaps,
    stats: {
      strategy: meta.strategy,
      files: context.index.files.length,
      candidates: evaluations.length,
      cycles: cycles.length,
      stoppedEarly: meta.stoppedEarly,
      contextFiles: context_.length,
      contextTokens: context_.reduce((sum, f) => sum + f.tokens, 0),
      totalTokens,
      meanRelevance: Math.round(meanRelevance * 1000) / 1000,
      budgetTokens: budget,
    },
    diagnostics: context.codeGraph.diagnostics,
  };
}
