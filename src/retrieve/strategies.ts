/**
 * The two baselines the graph retriever is measured against. They share
 * scan, parse, graph and the lexical index with it and differ only in
 * ranking, so a comparison is fair and runs in one command.
 * - bm25: lexical only, every field weighted alike (identifiers split, paths as terms);
 * - pagerank: an aider-style repo map, personalized PageRank over the
 *   definition/reference links from the files whose definitions name task terms.
 */
import type { CycleTrace, RetrievalResult, StrategyName } from "../types.js";
import { byCodeUnit } from "../util/sort.js";
import { dispatch } from "./dispatch.js";
import { relevanceOfRatio, DEFAULT_EVALUATE, type Evaluation } from "./evaluate.js";
import { assembleResult, createPathTest, type LoopInput } from "./loop.js";
import { extendGlossary, parseTask } from "./query.js";
import type { CycleQuery, RetrievalContext } from "./retrieval-context.js";
import { scoreBm25f, type Bm25fParameters } from "./signals/bm25f.js";
import { personalizedPageRank } from "./signals/personalized-pagerank.js";

const PLAIN_BM25: Bm25fParameters = {
  k1: 1.2,
  perFieldSaturation: false,
  fieldWeights: { name: 1, folder: 1, definitions: 1, identifiers: 1, comments: 1 },
  fieldB: { name: 0.75, folder: 0.75, definitions: 0.75, identifiers: 0.75, comments: 0.75 },
};

function toEvaluations(scores: Map<string, number>, describe: (path: string) => { reason: string; terms: string[] }): Evaluation[] {
  const best = Math.max(1e-12, ...scores.values());
  return [...scores.entries()]
    .filter(([, score]) => score > 0)
    .sort((a, b) => b[1] - a[1] || byCodeUnit(a[0], b[0]))
    .map(([path, score]) => {
      const { reason, terms } = describe(path);
      return {
        path,
        score,
        relevance: relevanceOfRatio(score / best, DEFAULT_EVALUATE.contextRatio),
        reason,
        missingContext: [],
        matchedTerms: terms,
      };
    });
}

function singleCycle(keywords: string[], evaluations: Evaluation[]): CycleTrace {
  return {
    cycle: 1,
    keywords,
    addedKeywords: [],
    patterns: [],
    candidates: evaluations.length,
    expandedFrom: [],
    high: evaluations.filter((e) => e.relevance >= 0.7).map((e) => ({ path: e.path, relevance: e.relevance })),
    excluded: [],
    gaps: [],
    stop: "single-pass strategy",
  };
}

/** Rank by one lexical pass, or by personalized PageRank; one cycle. */
export async function runBaselineStrategy(
  context: RetrievalContext,
  input: LoopInput,
  strategy: Exclude<StrategyName, "graph">,
): Promise<RetrievalResult> {
  const glossary = input.options.glossary ? extendGlossary(input.options.glossary, "retrieve: glossary") : undefined;
  const taskQuery = parseTask(input.task, { keywords: input.options.keywords, glossary });
  // the task's own words only: no abbreviations, no concepts, no refinement
  const query: CycleQuery = {
    keywords: taskQuery.terms.map((t) => ({ term: t.term, weight: t.weight, source: t.source, original: t.original })),
    identifiers: taskQuery.identifiers.map((id) => id.toLowerCase()),
    patterns: [],
    excluded: new Set(),
    focus: new Map(),
    concepts: new Map(),
    newTerms: new Set(),
  };
  const isAllowed = createPathTest(input.options.include, input.options.exclude);
  const weighted = query.keywords.map((k) => ({ term: k.term, weight: k.weight }));
  const keywords = query.keywords.map((k) => k.term);
  let evaluations: Evaluation[];
  if (strategy === "bm25") {
    const scores = new Map<string, number>();
    const matched = new Map<string, string[]>();
    for (const file of context.index.files) {
      if (!isAllowed(file.path)) continue;
      const lexical = scoreBm25f(context.index, file, weighted, PLAIN_BM25);
      if (lexical.score <= 0) continue;
      scores.set(file.path, lexical.score);
      matched.set(file.path, lexical.matches.map((m) => m.term));
    }
    evaluations = toEvaluations(scores, (path) => ({
      reason: `bm25: ${(matched.get(path) ?? []).slice(0, 4).join(", ")}`,
      terms: matched.get(path) ?? [],
    }));
  } else {
    // seeds: files whose definition names hold task terms, weighted by how many
    const seeds = new Map<string, number>();
    for (const candidate of dispatch(context, query, { maxCandidates: Number.MAX_SAFE_INTEGER, excludeTests: false, isAllowed })) {
      const definitionHits = candidate.lexical.matches.filter((m) => m.fields.includes("definitions")).length;
      const weight = definitionHits + 10 * candidate.definesIdentifiers.length;
      if (weight > 0) seeds.set(candidate.path, weight);
    }
    const nodes = context.index.files.map((f) => f.path).filter(isAllowed);
    const ranks = personalizedPageRank(nodes, context.links, seeds, { damping: 0.85, maxIterations: 100, tolerance: 1e-9, reverseWeight: 0 });
    evaluations = toEvaluations(ranks, (path) => ({
      reason: seeds.has(path) ? "pagerank: seed (defines task terms)" : "pagerank: reached over references",
      terms: [],
    }));
  }
  const firstCycle = new Map(evaluations.map((e) => [e.path, 1]));
  return assembleResult(context, input, evaluations, firstCycle, [singleCycle(keywords, evaluations)], [], {
    strategy,
    stoppedEarly: false,
  });
}
