/**
 * The two baselines the learned graph ranking is measured against. They
 * share scan, parse, graph and the lexical index with it and differ only
 * in ranking, so a comparison is fair and runs in one command.
 * - bm25: one lexical pass, a plain code-aware BM25 (identifiers split,
 *   path terms counted three times, as ../shared/bench/baselines/bm25.mjs);
 * - pagerank: an aider-style repo map, personalized PageRank over the
 *   definition/reference links from the files whose definitions name task terms.
 * Their relevance is a score ratio, not a probability: the best file is
 * kept as context.
 */
import type { CycleTrace, RetrievalResult, StrategyName } from "../types.js";
import { byCodeUnit } from "../util/sort.js";
import { assembleResult, chooseContext, type AssembleInput, type ContextChoice, type RankedFile } from "./assemble-result.js";
import { CONTEXT_THRESHOLD, LOW_BAND } from "./bands.js";
import { leftOut } from "./features/candidate-pool.js";
import { asksForVendored, leftOutKinds } from "./features/extract.js";
import { searchTask } from "./features/task-query.js";
import { extendGlossary, parseTask } from "./query.js";
import type { RetrievalContext } from "./retrieval-context.js";
import { createPathTest } from "./retrieve-options.js";
import { scoreBm25f, type Bm25fParameters } from "./signals/bm25f.js";
import { personalizedPageRank } from "./signals/personalized-pagerank.js";

const PLAIN_BM25: Bm25fParameters = {
  k1: 1.2,
  perFieldSaturation: false,
  fieldWeights: { name: 3, folder: 3, definitions: 1, identifiers: 1, comments: 1 },
  fieldB: { name: 0.75, folder: 0.75, definitions: 0.75, identifiers: 0.75, comments: 0.75 },
};

/** A score ratio (score / best) as a relevance: ratio 0.9 → 0.7, 1 → 0.95, quadratic below. */
export function relevanceOfRatio(ratio: number, contextRatio = 0.9): number {
  const r = Math.max(0, Math.min(1, ratio));
  const relevance = r >= contextRatio ? 0.7 + (0.25 * (r - contextRatio)) / Math.max(1e-9, 1 - contextRatio) : 0.7 * (r / contextRatio) ** 2;
  return Math.round(relevance * 1000) / 1000;
}

function toRanked(scores: Map<string, number>, describe: (path: string) => { reason: string; terms: string[] }): RankedFile[] {
  const best = Math.max(1e-12, ...scores.values());
  const ranked = [...scores.entries()]
    .filter(([, score]) => score > 0)
    .sort((a, b) => b[1] - a[1] || byCodeUnit(a[0], b[0]))
    .map(([path, score]) => ({ path, score, relevance: relevanceOfRatio(score / best), missingContext: [], ...(({ reason, terms }) => ({ reason, matchedTerms: terms }))(describe(path)) }));
  // the best match is always handed over: these scores are ratios, and an agent is better served by the best file than by none
  const top = ranked[0];
  if (top && top.relevance < CONTEXT_THRESHOLD && top.relevance >= LOW_BAND) ranked[0] = { ...top, relevance: CONTEXT_THRESHOLD, reason: `${top.reason}; best match, kept as context` };
  return ranked;
}

function singleCycle(keywords: string[], ranked: RankedFile[], choice: ContextChoice): CycleTrace {
  return {
    cycle: 1,
    keywords,
    addedKeywords: [],
    patterns: [],
    candidates: ranked.length,
    expandedFrom: [],
    context: choice.paths.map((path) => ({ path, relevance: ranked.find((e) => e.path === path)?.relevance ?? 0 })),
    excluded: [],
    gaps: [],
    stop: "single-pass strategy",
  };
}

/** Rank by one lexical pass, or by personalized PageRank; one cycle. */
export async function runBaselineStrategy(context: RetrievalContext, input: AssembleInput, strategy: Exclude<StrategyName, "graph">): Promise<RetrievalResult> {
  const glossary = input.options.glossary ? extendGlossary(input.options.glossary, "retrieve: glossary") : undefined;
  const taskQuery = parseTask(input.task, { ...(input.options.keywords ? { keywords: input.options.keywords } : {}), ...(glossary ? { glossary } : {}) });
  // the task's own words only: no abbreviations, synonyms or refinement
  const weighted = taskQuery.terms.map((t) => ({ term: t.term, weight: 1 }));
  const keywords = weighted.map((k) => k.term);
  const isAllowed = createPathTest(input.options.include, input.options.exclude, input.options.alsoInclude);
  const kinds = leftOutKinds(searchTask(context.index, input.task, { parsed: taskQuery }), asksForVendored(input.options));
  const files = context.index.files.filter((f) => isAllowed(f.path) && !leftOut(f, kinds));
  // declaration files only where there is nothing else
  const ranked = files.some((f) => !f.isDeclaration) ? files.filter((f) => !f.isDeclaration) : files;
  let out: RankedFile[];
  if (strategy === "bm25") {
    const scores = new Map<string, number>();
    const matched = new Map<string, string[]>();
    for (const file of ranked) {
      const lexical = scoreBm25f(context.index, file, weighted, PLAIN_BM25);
      if (lexical.score <= 0) continue;
      scores.set(file.path, lexical.score);
      matched.set(file.path, lexical.matches.map((m) => m.term));
    }
    out = toRanked(scores, (path) => ({ reason: `bm25: ${(matched.get(path) ?? []).slice(0, 4).join(", ")}`, terms: matched.get(path) ?? [] }));
  } else {
    // seeds: files whose definition names hold task terms, weighted by how many (an exact identifier counts 10)
    const identifiers = taskQuery.identifiers.map((id) => id.toLowerCase());
    const seeds = new Map<string, number>();
    for (const file of ranked) {
      const definitionHits = scoreBm25f(context.index, file, weighted, PLAIN_BM25).matches.filter((m) => m.fields.includes("definitions")).length;
      const weight = definitionHits + 10 * identifiers.filter((id) => file.definedNames.has(id)).length;
      if (weight > 0) seeds.set(file.path, weight);
    }
    const ranks = personalizedPageRank(ranked.map((f) => f.path), context.links, seeds, { damping: 0.85, maxIterations: 100, tolerance: 1e-9, reverseWeight: 0 });
    out = toRanked(ranks, (path) => ({ reason: seeds.has(path) ? "pagerank: seed (defines task terms)" : "pagerank: reached over references", terms: [] }));
  }
  const firstCycle = new Map(out.map((e) => [e.path, 1]));
  const choice = chooseContext(context, out, input.options, "threshold", isAllowed);
  return assembleResult(context, input, out, firstCycle, [singleCycle(keywords, out, choice)], [], { strategy, stoppedEarly: false, choice });
}
