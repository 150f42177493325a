/**
 * EVALUATE: every candidate gets a relevance in [0, 1], a one-line reason and
 * its missing context.
 *
 * score = lexical (BM25F) × size prior × role prior
 *       + a bonus for defining a name the task spells exactly
 *       + graph evidence: personalized PageRank from the lexical seeds over
 *         import and reference links, and a share of the score of the
 *         best files that import it.
 * relevance mixes how strong a file's score is (score / best score) with
 * how much of the task it covers (the share of the task's concepts, by
 * weight, its terms match), plus a link bonus for files that import or are
 * imported by a strong file; the mix maps onto the pattern's bands so that a
 * mix of `contextRatio` reaches 0.7 (the context).
 */
import type { RelevanceBand } from "../types.js";
import { byCodeUnit } from "../util/sort.js";
import { conceptSpecificity, coverageOf } from "./concepts.js";
import type { Candidate } from "./dispatch.js";
import type { CycleQuery, RetrievalContext } from "./retrieval-context.js";
import { personalizedPageRank } from "./signals/personalized-pagerank.js";

export interface EvaluateParameters {
  /** Weight of a file's size in the prior: score × (1 + sizeWeight × ln(tokens)). */
  sizeWeight: number;
  /** Bonus, as a share of the best lexical score, for defining a task identifier. */
  identifierBonus: number;
  /** Seeds that pass score to the files they import. */
  propagationSeeds: number;
  /** Share of a seed's score passed to a file it imports. */
  forwardShare: number;
  /** Share of a seed's score passed to a file that imports it. */
  backwardShare: number;
  /** Weight of personalized PageRank, as a share of the best lexical score. */
  pagerankWeight: number;
  /** Multiplier for test files and declaration files when the task is not about them. */
  secondaryFilePrior: number;
  /** Share of the best score from which a file enters the context (relevance 0.7). */
  contextRatio: number;
  /** Bonus, as a share of the best file's mix, for files tied to it by imports, times their coverage. */
  bestNeighbourBonus: number;
  /** Bonus, as a share of the best lexical score, for sitting in a folder of an earlier high file. */
  patternBonus: number;
  /** Weight of score strength against concept coverage in relevance (1 = strength only). */
  strengthWeight: number;
  /** Share of a linked strong file's mix added to a file's own. */
  linkBonus: number;
  /** How many hops a link bonus travels (a lifted file lifts its neighbours). */
  linkHops: number;
  /** The link bonus scales with the file's own coverage to this power: only files that cover (nearly) all of the task gain much. */
  linkCoverageExponent: number;
  /** Share of the link bonus a file gets from a strong file it imports (rather than one it is imported by). */
  importerShare: number;
  /** A dependency of a context file joins the context when it covers at least this share of the task (above 1: never). */
  gapFillCoverage: number;
  /** Concepts weighing at least this share of the heaviest, that no context file is named for, bring in the linked file named for them (above 1: never). */
  namedConceptShare: number;

  /** Coverage counts each concept by how strongly the file matches it against the best match of that concept (1), or just whether it matches (0). */
  conceptStrength: number;
  /** Exponent on a file's strength in a concept against the best file's (below 1: a fair match counts more). */
  conceptExponent: number;
}

export const DEFAULT_EVALUATE: EvaluateParameters = {
  sizeWeight: 0.1,
  identifierBonus: 1,
  propagationSeeds: 5,
  forwardShare: 0.1,
  backwardShare: 0,
  pagerankWeight: 0.02,
  secondaryFilePrior: 0.5,
  contextRatio: 0.9,
  patternBonus: 0.05,
  bestNeighbourBonus: 0.1,
  strengthWeight: 0.4,
  linkBonus: 0.3,
  linkHops: 2,
  linkCoverageExponent: 2,
  importerShare: 0.5,
  gapFillCoverage: 0.9,
  namedConceptShare: 0.5,
  conceptStrength: 1,
  conceptExponent: 0.7,
};

export interface Evaluation {
  path: string;
  relevance: number;
  reason: string;
  missingContext: string[];
  /** Raw score before mapping to [0, 1]. */
  score: number;
  matchedTerms: string[];
  /** Task concepts the file is named for or defines (a term of the concept in its name or definition names). */
  definedConcepts?: string[];
  /** Came in as a candidate over an import edge (REFINE's focus), not by its words. */
  expandedFrom?: string;
  /** Reached the context only through its import tie to this context file. */
  joinedVia?: string;
}

export function bandOf(relevance: number): RelevanceBand {
  if (relevance >= 0.8) return "high";
  if (relevance >= 0.5) return "medium";
  if (relevance >= 0.2) return "low";
  return "excluded";
}

/** Map a score ratio (score / best) to a relevance: ratio `contextRatio` → 0.7, 1 → 0.95. */
export function relevanceOfRatio(ratio: number, contextRatio: number): number {
  const r = Math.max(0, Math.min(1, ratio));
  const relevance = r >= contextRatio ? 0.7 + (0.25 * (r - contextRatio)) / Math.max(1e-9, 1 - contextRatio) : 0.7 * (r / contextRatio) ** 2;
  return Math.round(relevance * 1000) / 1000;
}

/** Lower scores of files whose role is secondary: tests, declaration files, barrels that define nothing. */
function rolePrior(candidate: Candidate, parameters: EvaluateParameters): number {
  if (candidate.file.isTest || candidate.file.isDeclaration) return parameters.secondaryFilePrior;
  return 1;
}

/**
 * Names a file imports from project files that are not in `inSet`: `Name (path)`, most used first.
 */
export function missingContextOf(context: RetrievalContext, path: string, inSet: ReadonlySet<string>): string[] {
  const gaps = new Map<string, number>();
  for (const use of context.uses.get(path) ?? []) {
    if (use.file === path || inSet.has(use.file)) continue;
    gaps.set(`${use.name} (${use.file})`, use.count);
  }
  return [...gaps.entries()]
    .sort((a, b) => b[1] - a[1] || byCodeUnit(a[0], b[0]))
    .slice(0, 5)
    .map(([gap]) => gap);
}

/**
 * @example
 * const evaluations = evaluate(context, candidates, query);
 * evaluations[0]; // { path, relevance: 0.95, reason: "defines …", missingContext: [...] }
 */
export function evaluate(
  context: RetrievalContext,
  candidates: readonly Candidate[],
  query: CycleQuery,
  parameters: EvaluateParameters = DEFAULT_EVALUATE,
): Evaluation[] {
  if (candidates.length === 0) return [];
  const base = new Map<string, number>();
  let bestLexical = 0;
  for (const candidate of candidates) {
    const size = 1 + parameters.sizeWeight * Math.log(1 + candidate.file.tokens);
    const lexical = candidate.lexical.score * size * rolePrior(candidate, parameters);
    base.set(candidate.path, lexical);
    bestLexical = Math.max(bestLexical, lexical);
  }
  if (bestLexical === 0) bestLexical = 1;

  const scores = new Map<string, number>();
  const carriedBy = new Map<string, string[]>();
  for (const candidate of candidates) {
    let score = base.get(candidate.path) ?? 0;
    if (candidate.definesIdentifiers.length > 0) score += parameters.identifierBonus * bestLexical;
    if (query.patterns.some((p) => candidate.path.startsWith(p))) score += parameters.patternBonus * bestLexical;
    scores.set(candidate.path, score);
  }

  // graph evidence 1: the best seeds pass a share of their score along import links
  const seeds = [...scores.entries()]
    .filter(([, s]) => s > 0)
    .sort((a, b) => b[1] - a[1] || byCodeUnit(a[0], b[0]))
    .slice(0, parameters.propagationSeeds);
  const passed = new Map<string, number>();
  for (const [seed, seedScore] of seeds) {
    for (const [target] of context.links.out.get(seed) ?? []) {
      if (!scores.has(target) || target === seed) continue;
      passed.set(target, (passed.get(target) ?? 0) + parameters.forwardShare * seedScore);
      carriedBy.set(target, [...(carriedBy.get(target) ?? []), `imported by ${seed}`]);
    }
    for (const [source] of context.links.in.get(seed) ?? []) {
      if (!scores.has(source) || source === seed) continue;
      passed.set(source, (passed.get(source) ?? 0) + parameters.backwardShare * seedScore);
      carriedBy.set(source, [...(carriedBy.get(source) ?? []), `imports ${seed}`]);
    }
  }

  // graph evidence 2: personalized PageRank from the seeds, over the candidates' links
  let pagerank = new Map<string, number>();
  if (parameters.pagerankWeight > 0) {
    pagerank = personalizedPageRank([...scores.keys()], context.links, new Map(seeds));
  }
  const bestRank = Math.max(1e-12, ...pagerank.values());

  const finalScores = new Map<string, number>();
  for (const [path, score] of scores) {
    const rank = pagerank.get(path) ?? 0;
    finalScores.set(path, score + (passed.get(path) ?? 0) + parameters.pagerankWeight * bestLexical * (rank / bestRank));
  }
  const best = Math.max(1e-12, ...finalScores.values());

  // relevance: strength and coverage, then a bonus for links to strong files
  const mixes = new Map<string, number>();
  const coverages = new Map<string, string[]>();
  const contributions = conceptContributions(candidates, query);
  const strengths = strengthsOf(contributions, query, parameters.conceptExponent);
  const hardCoverage = new Map<string, number>();
  for (const candidate of candidates) {
    const ratio = (finalScores.get(candidate.path) ?? 0) / best;
    const { coverage, covered } = coverageOf(query, new Set(candidate.lexical.matches.map((m) => m.term)));
    coverages.set(candidate.path, covered);
    hardCoverage.set(candidate.path, query.concepts.size > 0 ? coverage : 1);
    const blended = (1 - parameters.conceptStrength) * coverage + parameters.conceptStrength * (strengths.get(candidate.path) ?? 0);
    const mix = query.concepts.size > 0 ? parameters.strengthWeight * ratio + (1 - parameters.strengthWeight) * blended : ratio;
    mixes.set(candidate.path, mix);
  }
  const { boosted, via } = boostLinkedFiles(context, mixes, hardCoverage, parameters);
  joinNamedFiles(context, candidates, contributions, query, boosted, via, parameters);
  nudgeTowardBest(context, boosted, hardCoverage, parameters);

  const evaluations: Evaluation[] = candidates.map((candidate) => {
    const score = finalScores.get(candidate.path) ?? 0;
    const mix = boosted.get(candidate.path) ?? 0;
    const relevance = relevanceOfRatio(mix, parameters.contextRatio);
    const carried = [...(carriedBy.get(candidate.path) ?? [])];
    const anchor = via.get(candidate.path);
    if (anchor) carried.unshift(`tied by imports to ${anchor}`);
    return {
      path: candidate.path,
      relevance,
      score,
      reason: reasonOf(candidate, carried, coverages.get(candidate.path) ?? [], query.concepts.size),
      missingContext: [],
      matchedTerms: candidate.lexical.matches.map((m) => m.term),
      definedConcepts: definedConceptsOf(candidate, query),
      ...(candidate.expandedFrom ? { expandedFrom: candidate.expandedFrom } : {}),
      // in the context only through an import tie: the expansion step
      ...(anchor && mix >= parameters.contextRatio && (mixes.get(candidate.path) ?? 0) < parameters.contextRatio ? { joinedVia: anchor } : {}),
    };
  });
  evaluations.sort((a, b) => b.relevance - a.relevance || b.score - a.score || byCodeUnit(a.path, b.path));
  const inContext = new Set(evaluations.filter((e) => e.relevance >= 0.7).map((e) => e.path));
  for (const evaluation of evaluations) {
    if (evaluation.relevance >= 0.5) evaluation.missingContext = missingContextOf(context, evaluation.path, inContext);
  }
  return evaluations;
}

/**
 * Links to strong files: a file imported by, or importing, a file whose mix
 * reaches the context gains `linkBonus` × that mix × its own coverage², never
 * rising above the file it is tied to. A file lifted into the context lifts
 * its own neighbours in the next hop (auth → tokens → jwt helpers).
 */
export function boostLinkedFiles(
  context: RetrievalContext,
  mixes: ReadonlyMap<string, number>,
  coverage: ReadonlyMap<string, number>,
  parameters: EvaluateParameters,
): { boosted: Map<string, number>; via: Map<string, string> } {
  const boosted = new Map(mixes);
  const via = new Map<string, string>();
  for (let hop = 0; hop < parameters.linkHops; hop++) {
    const anchors = [...boosted.entries()]
      .filter(([, mix]) => mix >= parameters.contextRatio)
      .sort((a, b) => b[1] - a[1] || byCodeUnit(a[0], b[0]));
    let changed = false;
    for (const [path, anchorMix] of anchors) {
      // files it depends on fill its gaps; files that import it are its users and gain less
      const neighbours: Array<[string, number]> = [
        ...[...(context.links.out.get(path)?.keys() ?? [])].map((n): [string, number] => [n, 1]),
        ...[...(context.links.in.get(path)?.keys() ?? [])].map((n): [string, number] => [n, parameters.importerShare]),
      ];
      for (const [neighbour, direction] of neighbours) {
        if (neighbour === path || !boosted.has(neighbour)) continue;
        const own = mixes.get(neighbour) ?? 0;
        const share = coverage.get(neighbour) ?? 0;
        let lifted = Math.max(own, Math.min(own + direction * parameters.linkBonus * anchorMix * share ** parameters.linkCoverageExponent, anchorMix - 0.001));
        // a file that defines what a context file uses, and covers enough of the task itself, fills a gap: it joins
        if (direction === 1 && share >= parameters.gapFillCoverage) lifted = Math.max(lifted, Math.min(anchorMix - 0.001, parameters.contextRatio));
        if (lifted > (boosted.get(neighbour) ?? 0) + 1e-12) {
          boosted.set(neighbour, lifted);
          via.set(neighbour, path);
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return { boosted, via };
}

/**
 * Files tied by imports to the best file move up among the rest (never past
 * it), in proportion to their own coverage: changes travel along imports.
 */
export function nudgeTowardBest(
  context: RetrievalContext,
  boosted: Map<string, number>,
  coverage: ReadonlyMap<string, number>,
  parameters: EvaluateParameters,
): void {
  if (parameters.bestNeighbourBonus <= 0) return;
  const best = [...boosted.entries()].sort((a, b) => b[1] - a[1] || byCodeUnit(a[0], b[0]))[0];
  if (!best) return;
  const [bestPath, bestMix] = best;
  const neighbours = new Set([...(context.links.out.get(bestPath)?.keys() ?? []), ...(context.links.in.get(bestPath)?.keys() ?? [])]);
  for (const neighbour of neighbours) {
    const mix = boosted.get(neighbour);
    if (mix === undefined || neighbour === bestPath) continue;
    const nudged = Math.min(mix + parameters.bestNeighbourBonus * bestMix * (coverage.get(neighbour) ?? 0), bestMix - 0.002);
    if (nudged > mix) boosted.set(neighbour, nudged);
  }
}


/** Per file, what each task concept contributes to its lexical score; and each concept's best contribution. */
export interface ConceptContributions {
  perFile: Map<string, Map<string, number>>;
  best: Map<string, number>;
}

export function conceptContributions(candidates: readonly Candidate[], query: CycleQuery): ConceptContributions {
  const conceptOf = new Map<string, string>();
  for (const keyword of query.keywords) if (keyword.concept !== undefined && query.concepts.has(keyword.concept)) conceptOf.set(keyword.term, keyword.concept);
  const perFile = new Map<string, Map<string, number>>();
  const best = new Map<string, number>();
  for (const candidate of candidates) {
    const contributions = new Map<string, number>();
    for (const match of candidate.lexical.matches) {
      const concept = conceptOf.get(match.term);
      if (concept === undefined) continue;
      contributions.set(concept, (contributions.get(concept) ?? 0) + match.score);
    }
    for (const [concept, value] of contributions) best.set(concept, Math.max(best.get(concept) ?? 0, value));
    perFile.set(candidate.path, contributions);
  }
  return { perFile, best };
}

/**
 * Soft coverage: for each task concept, how strongly a file matches it
 * against the candidate that matches it best, weighted by the concept's
 * weight; in [0, 1]. The file that names a concept best scores 1 on it.
 */
function strengthsOf(contributions: ConceptContributions, query: CycleQuery, exponent: number): Map<string, number> {
  let total = 0;
  for (const weight of query.concepts.values()) total += weight;
  const strengths = new Map<string, number>();
  for (const [path, values] of contributions.perFile) {
    let sum = 0;
    for (const [concept, value] of values) {
      const best = contributions.best.get(concept) ?? 0;
      if (best > 0) sum += (query.concepts.get(concept) ?? 0) * (value / best) ** exponent;
    }
    strengths.set(path, total > 0 ? sum / total : 0);
  }
  return strengths;
}

/**
 * A heavy task concept that no context file is named for is a gap; the
 * file named for it that matches it best, when tied by imports to the
 * context, fills it and joins (the router setup for "endpoints" beside the
 * throttle middleware). A file's name says what it is about.
 */
export function joinNamedFiles(
  context: RetrievalContext,
  candidates: readonly Candidate[],
  contributions: ConceptContributions,
  query: CycleQuery,
  boosted: Map<string, number>,
  via: Map<string, string>,
  parameters: EvaluateParameters,
): void {
  const specificity = conceptSpecificity(context.index, query);
  const heaviest = Math.max(0, ...specificity.values());
  const termsOf = new Map<string, string[]>();
  for (const keyword of query.keywords) {
    if (keyword.concept === undefined) continue;
    termsOf.set(keyword.concept, [...(termsOf.get(keyword.concept) ?? []), keyword.term]);
  }
  const isNamedFor = (candidate: Candidate, concept: string) => (termsOf.get(concept) ?? []).some((t) => candidate.file.fields.name.has(t));
  for (const [concept, weight] of [...specificity.entries()].sort((a, b) => b[1] - a[1] || byCodeUnit(a[0], b[0]))) {
    if (weight < parameters.namedConceptShare * heaviest) continue;
    const members = new Set([...boosted.entries()].filter(([, mix]) => mix >= parameters.contextRatio).map(([path]) => path));
    if (members.size === 0) return;
    const named = candidates.filter((c) => isNamedFor(c, concept));
    if (named.length === 0 || named.some((c) => members.has(c.path))) continue;
    const value = (c: Candidate) => contributions.perFile.get(c.path)?.get(concept) ?? 0;
    const best = [...named].sort((a, b) => value(b) - value(a) || byCodeUnit(a.path, b.path))[0]!;
    const anchor = [...members]
      .filter((m) => context.links.out.get(m)?.has(best.path) || context.links.in.get(m)?.has(best.path))
      .sort((a, b) => (boosted.get(b) ?? 0) - (boosted.get(a) ?? 0) || byCodeUnit(a, b))[0];
    if (!anchor) continue;
    boosted.set(best.path, Math.max(boosted.get(best.path) ?? 0, Math.min((boosted.get(anchor) ?? 0) - 0.001, parameters.contextRatio)));
    via.set(best.path, anchor);
  }
}

/**
 * Task concepts whose terms the file holds in its name or its definition names, sorted.
 *
 * @example
 * definedConceptsOf(candidate, query); // ["decod", "path"] for src/path.ts and "Simplify decodePath"
 */
export function definedConceptsOf(candidate: Candidate, query: CycleQuery): string[] {
  const concepts = new Set<string>();
  for (const match of candidate.lexical.matches) {
    if (!match.fields.includes("name") && !match.fields.includes("definitions")) continue;
    for (const keyword of query.keywords) {
      if (keyword.term === match.term && keyword.concept !== undefined && query.concepts.has(keyword.concept)) concepts.add(keyword.concept);
    }
  }
  return [...concepts].sort(byCodeUnit);
}

/** One line: which terms matched where, which names it defines, which edges carried it. */
function reasonOf(candidate: Candidate, carried: readonly string[], covered: readonly string[], concepts: number): string {
  const parts: string[] = [];
  if (concepts > 0) parts.push(`covers ${covered.length}/${concepts} task concepts`);
  if (candidate.definesIdentifiers.length > 0) parts.push(`defines ${candidate.definesIdentifiers.join(", ")}`);
  const matches = candidate.lexical.matches.slice(0, 4).map((m) => `${m.term} (${m.fields.join("+")})`);
  if (matches.length > 0) parts.push(`matches ${matches.join(", ")}`);
  if (carried.length > 0) parts.push(carried.slice(0, 2).join(", "));
  if (candidate.expandedFrom) parts.push(`reached over an import edge from ${candidate.expandedFrom}`);
  return parts.length > 0 ? parts.join("; ") : "no direct match";
}
