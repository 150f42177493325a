/**
 * EVALUATE: every pool file gets a relevance in [0, 1], a one-line reason
 * and its missing context. The relevance is the learned ranker's
 * calibrated chance that the change needs the file (model/ranker.ts): in
 * the first cycle from the file's own evidence, in later cycles also from
 * its ties to what the cycle before found (features/relation-features.ts).
 * The reason names the evidence that stands out, in the pattern's words.
 */
import { byCodeUnit } from "../util/sort.js";
import { CONTEXT_THRESHOLD, formatRelevance, LOW_BAND, MEDIUM_BAND } from "./bands.js";
import type { RankedFile } from "./assemble-result.js";
import type { PoolOrigin } from "./features/candidate-pool.js";
import type { TaskFeatures } from "./features/extract.js";
import { relationFeatures, type PoolGraph } from "./features/relation-features.js";
import { calibrate, scoreRow, type RankerModel } from "./model/ranker.js";
import { matchedHistoryTerms } from "./features/history-features.js";
import type { RetrievalContext } from "./retrieval-context.js";

export interface Evaluation extends RankedFile {
  /** The ranker's raw probability (its log-odds through the logistic); a custom evaluator's verdicts feed the next cycle with it. */
  probability: number;
  origin: PoolOrigin;
  /** The file an expansion or a neighbour came from. */
  via?: string;
  /** The strongest tie to a likely file of the previous cycle, as the reason says it. */
  tie?: string;
}

/** Most gaps listed per file. */
const MAX_GAPS = 5;
/** A co-change a reason names: at least this share of the partner's heaviest. */
const COCHANGE_TIE = 0.3;

/**
 * Names a file uses from project files that are not in `inSet`: `Name (path)`, most used first.
 */
export function missingContextOf(context: RetrievalContext, path: string, inSet: ReadonlySet<string>): string[] {
  const gaps = new Map<string, number>();
  for (const use of context.uses.get(path) ?? []) {
    if (use.file === path || inSet.has(use.file)) continue;
    gaps.set(`${use.name} (${use.file})`, use.count);
  }
  return [...gaps.entries()]
    .sort((a, b) => b[1] - a[1] || byCodeUnit(a[0], b[0]))
    .slice(0, MAX_GAPS)
    .map(([gap]) => gap);
}

const round = (value: number) => Math.round(value * 1000) / 1000;

/**
 * Each pool file's strongest tie to a file of the previous cycle worth a look (relevance ≥ 0.2), in words.
 * Ties are weighed in this order, the first of equal relevance kept: defines names a file uses, is imported
 * by it, imports it, changed before with it. Walked from the few files worth a look, not from every file.
 */
function tiesOf(graph: PoolGraph, paths: readonly string[], relevance: ReadonlyMap<string, number>): Array<string | undefined> {
  const best: Array<{ relevance: number; text: string } | undefined> = paths.map(() => undefined);
  const worth = paths.map((p) => relevance.get(p) ?? 0);
  const consider = (i: number, h: number, text: string) => {
    const value = worth[h]!;
    if (h === i || value < LOW_BAND) return;
    const current = best[i];
    if (!current || value > current.relevance) best[i] = { relevance: value, text: `${text} ${paths[h]} (${formatRelevance(value)})` };
  };
  const looked = worth.flatMap((value, h) => (value >= LOW_BAND ? [h] : []));
  for (const h of looked) for (const i of new Set(graph.uses[h]?.map(([j]) => j))) consider(i, h, "defines names used by");
  paths.forEach((_, i) => {
    for (const h of graph.in[i] ?? []) consider(i, h, "imported by");
    for (const h of graph.out[i] ?? []) consider(i, h, "imports");
  });
  for (const h of looked) {
    const partners = new Set((graph.cochange[h] ?? []).filter(([, share]) => share >= COCHANGE_TIE).map(([j]) => j));
    for (const i of partners) consider(i, h, "changed before with");
  }
  return best.map((b) => b?.text);
}

/** The evidence of a pool file that stands out, as one line. */
function reasonOf(features: TaskFeatures, i: number, tie: string | undefined): string {
  const file = features.pool[i]!;
  const parts: string[] = [];
  if (file.names.pathNamed > 0) parts.push("the task names its path");
  else if (file.names.stemNamed > 0 || file.names.genericStemNamed > 0) parts.push("the task writes its name");
  if (file.names.literalShare >= 1) parts.push("writes a message the task quotes, as one string");
  else if (file.names.literalShare >= 0.5) parts.push(`writes ${Math.round(100 * file.names.literalShare)} % of a message the task quotes`);
  if (file.names.definesIdentifier > 0) parts.push(`defines ${features.names.identifiers.filter((id) => file.file.definedNames.has(id)).join(", ")}, which the task names`);
  const matches = file.lexical.matches.slice(0, 4).map((m) => `${m.term} (${m.fields.join("+")})`);
  if (matches.length > 0) parts.push(`matches ${matches.join(", ")}`);
  if (file.lexical.coverage > 0 && file.lexical.coverage < 1) parts.push(`covers ${Math.round(100 * file.lexical.coverage)} % of the task's concepts`);
  if (features.poolOptions.historyQuery && file.historyMatch > 0) {
    const said = matchedHistoryTerms(features.poolOptions.historyQuery, file.path);
    if (said.length > 0) parts.push(`past changes to this file say: ${said.join(", ")}`);
  }
  if (features.poolOptions.similar?.has(file.path)) parts.push("changed by a past commit like the task");
  if (tie) parts.push(tie);
  if (file.origin === "expansion" && file.via) parts.push(`reached over the graph from ${file.via}`);
  else if (file.origin === "neighbour" && file.via && matches.length === 0) parts.push(`a graph neighbour of ${file.via}`);
  return parts.length > 0 ? parts.join("; ") : "no direct match";
}

/** What a later cycle is fed: each file's raw probability (the relation features' input) and the cycle before's relevance (for the reasons). */
export interface PreviousCycle {
  probability: ReadonlyMap<string, number>;
  relevance: ReadonlyMap<string, number>;
}

const sigmoid = (margin: number): number => 1 / (1 + Math.exp(-margin));

/**
 * Each pool file's first-stage raw probability, by path: what stage 2 was
 * trained to read (scripts/learn/train.mjs), so what a later cycle feeds it.
 * Only the scores: no reasons, gaps or calibration.
 */
export function firstStageProbabilities(features: TaskFeatures, model: RankerModel): Map<string, number> {
  const stage = model.stages[0];
  return new Map(features.pool.map((file, i) => [file.path, sigmoid(scoreRow(stage, features.rows[i]!))]));
}

/**
 * Score the pool: cycle 1 with the ranker's first stage, a later cycle with
 * its second, fed with the previous cycle's answer for each file (0 for a
 * file new to this cycle).
 *
 * @example
 * const evaluations = evaluate(context, features, model, 1);
 * evaluations[0]; // { path, relevance: 0.83, reason: "the task writes its name; matches …", … }
 */
export function evaluate(
  context: RetrievalContext,
  features: TaskFeatures,
  model: RankerModel,
  cycle: number,
  previous?: PreviousCycle,
): Evaluation[] {
  const paths = features.pool.map((f) => f.path);
  const stage = model.stages[cycle === 1 || !previous ? 0 : 1];
  const isIssue = features.searched.taskQuery.isIssue === true;
  const relations = previous
    ? relationFeatures(features.graph, paths.map((p) => previous.probability.get(p) ?? 0))
    : undefined;
  const ties = previous ? tiesOf(features.graph, paths, previous.relevance) : undefined;
  const evaluations: Evaluation[] = features.pool.map((file, i) => {
    const row = relations ? [...features.rows[i]!, ...relations[i]!] : features.rows[i]!;
    const margin = scoreRow(stage, row);
    const tie = ties?.[i];
    return {
      path: file.path,
      relevance: round(calibrate(stage, margin, isIssue)),
      score: margin,
      probability: sigmoid(margin),
      reason: reasonOf(features, i, tie),
      missingContext: [],
      matchedTerms: file.lexical.matches.map((m) => m.term),
      origin: file.origin,
      ...(file.via !== undefined ? { via: file.via } : {}),
      ...(tie !== undefined ? { tie } : {}),
    };
  });
  evaluations.sort((a, b) => b.relevance - a.relevance || b.score - a.score || byCodeUnit(a.path, b.path));
  const inContext = new Set(evaluations.filter((e) => e.relevance >= CONTEXT_THRESHOLD).map((e) => e.path));
  for (const evaluation of evaluations) {
    if (evaluation.relevance >= MEDIUM_BAND) evaluation.missingContext = missingContextOf(context, evaluation.path, inContext);
  }
  return evaluations;
}
