/**
 * LOOP: DISPATCH → EVALUATE → decide the context → REFINE, at most
 * `maxCycles` times (3). After each cycle the context (the files to read,
 * decide-context.ts) and its supporting files are decided from the
 * relevances; the loop stops early when another cycle has nothing to
 * settle: the decision is the one the cycle before made and every file the
 * context uses has been scored (no critical gap), or the next cycle would
 * score the same files the same way, or (the pattern's own stop) 3 or more
 * context files are at 0.7 or more with no critical gap. The result ranks every file ever
 * evaluated by its last relevance, best first.
 */
import type { CycleTrace, RetrievalResult } from "../types.js";
import { byCodeUnit } from "../util/sort.js";
import { assembleResult, byRelevance, chooseContext, type AssembleInput, type ContextChoice } from "./assemble-result.js";
import { builtTwins, twinEvidence } from "./built-twins.js";
import { CONTEXT_THRESHOLD, MEDIUM_BAND } from "./bands.js";
import { dispatch, dispatchAgain } from "./dispatch.js";
import { evaluate, firstStageProbabilities, missingContextOf, type Evaluation, type PreviousCycle } from "./evaluate.js";
import { asksForVendored, type TaskFeatures } from "./features/extract.js";
import { loadRanker, shippedModelPath } from "./model/ranker.js";
import { DEFAULT_MAX_CYCLES, MIN_SURE_FILES } from "./parameters.js";
import { extendGlossary, extendThesaurus, parseTask } from "./query.js";
import { refine } from "./refine.js";
import type { RetrievalContext } from "./retrieval-context.js";
import { createPathTest, type Evaluator, type EvaluatorInput } from "./retrieve-options.js";

/** The evaluator sees this many of a cycle's best candidates. */
const EVALUATOR_CANDIDATES = 40;
/** A later cycle that moves no relevance by more than this changed nothing. */
const SETTLED = 0.01;
/** A file whose relevance a later cycle raises by this much or more is named in its trace. */
const LIFT_SHOWN = 0.1;

export interface LoopInput extends AssembleInput {
  readFile: (path: string) => Promise<string>;
}

async function applyEvaluator(evaluator: Evaluator | undefined, evaluations: Evaluation[], input: Omit<EvaluatorInput, "candidates">): Promise<Evaluation[]> {
  if (!evaluator) return evaluations;
  const shown = evaluations.slice(0, EVALUATOR_CANDIDATES).map(({ path, relevance, reason, missingContext }) => ({ path, relevance, reason, missingContext }));
  const verdicts = await evaluator({ ...input, candidates: shown });
  const byPath = new Map(verdicts.map((v) => [v.path, v]));
  const adjusted = evaluations.map((e) => {
    const verdict = byPath.get(e.path);
    if (!verdict || !Number.isFinite(verdict.relevance)) return e;
    const relevance = Math.max(0, Math.min(1, verdict.relevance));
    return { ...e, relevance, probability: relevance, reason: verdict.reason ?? e.reason };
  });
  return adjusted.sort((a, b) => b.relevance - a.relevance || b.score - a.score || byCodeUnit(a.path, b.path));
}

/** Two decisions hand over the same files (the context's and the supporting files, whatever their order among equal chances). */
function sameDecision(a: ContextChoice | undefined, b: ContextChoice): boolean {
  if (!a) return false;
  const key = (c: ContextChoice) => JSON.stringify([[...c.paths].sort(), c.supporting.map((s) => s.path).sort()]);
  return key(a) === key(b);
}

/** Each file's gaps against the decided context: what it uses from files the context lacks (the likely files only, from the medium band, and the context's own). */
function withGaps(context: RetrievalContext, evaluations: readonly Evaluation[], contextPaths: readonly string[]): Evaluation[] {
  const inContext = new Set(contextPaths);
  return evaluations.map((e) =>
    inContext.has(e.path) || e.relevance >= MEDIUM_BAND ? { ...e, missingContext: missingContextOf(context, e.path, inContext) } : e.missingContext.length > 0 ? { ...e, missingContext: [] } : e,
  );
}

/** Files a later cycle raised, with the tie that raised them. */
function liftsOf(evaluations: readonly Evaluation[], previous: ReadonlyMap<string, number>): NonNullable<CycleTrace["lifted"]> {
  return evaluations
    .filter((e) => e.tie !== undefined && e.relevance - (previous.get(e.path) ?? 0) >= LIFT_SHOWN)
    .map((e) => ({ path: e.path, from: previous.get(e.path) ?? 0, to: e.relevance, tie: e.tie! }))
    .sort((a, b) => b.to - a.to || byCodeUnit(a.path, b.path));
}

/**
 * Run the iterative retrieval over a prepared context.
 *
 * @example
 * const result = await runIterativeRetrieval(context, { task: "Add rate limiting", displayRoot: ".", options: {}, readFile });
 */
export async function runIterativeRetrieval(context: RetrievalContext, input: LoopInput): Promise<RetrievalResult> {
  const { task, options } = input;
  const model = loadRanker(options.model ?? shippedModelPath(context.history?.commits ?? 0));
  const maxCycles = options.maxCycles ?? DEFAULT_MAX_CYCLES;
  const glossary = options.glossary ? extendGlossary(options.glossary, "retrieve: glossary") : undefined;
  const thesaurus = options.thesaurus ? extendThesaurus(options.thesaurus, "retrieve: thesaurus") : undefined;
  let parsed = parseTask(task, { ...(options.keywords ? { keywords: options.keywords } : {}), ...(glossary ? { glossary } : {}) });
  if (options.expandQuery) parsed = await options.expandQuery(parsed);
  const isAllowed = createPathTest(options.include, options.exclude, options.alsoInclude);

  const latest = new Map<string, Evaluation>();
  const firstCycle = new Map<string, number>();
  const excluded = new Set<string>();
  const cycles: CycleTrace[] = [];
  let previous: PreviousCycle | undefined;
  let gaps: string[] = [];
  let stoppedEarly = false;
  let features: TaskFeatures | undefined;
  let expansions: Array<{ path: string; via: string }> = [];

  let choice: ContextChoice | undefined;
  for (let cycle = 1; cycle <= maxCycles; cycle++) {
    const poolBefore = features?.pool.length ?? 0;
    features = features ? dispatchAgain(context, features, expansions) : dispatch(context, task, { parsed, isAllowed, rankVendored: asksForVendored(options), ...(thesaurus ? { thesaurus } : {}) });
    // stage 2 was trained on the first stage's answers (scripts/learn/train.mjs), not on its own: a later cycle
    // feeds it those, for the pool as it now is (expanded files included); fed its own answers, a third cycle
    // moved files by chance (docs/quality.md, session 23). A custom evaluator's verdicts feed it instead.
    const fed = previous && !options.evaluator ? { probability: firstStageProbabilities(features, model), relevance: previous.relevance } : previous;
    let evaluations = evaluate(context, features, model, cycle, fed)
      // an excluded file keeps the relevance it left with
      .map((e) => (excluded.has(e.path) ? (latest.get(e.path) ?? e) : e));
    evaluations = await applyEvaluator(options.evaluator, evaluations, {
      task,
      cycle,
      keywords: features.searched.query.keywords.map((k) => k.term),
      readFile: input.readFile,
    });
    for (const evaluation of evaluations) {
      latest.set(evaluation.path, evaluation);
      if (!firstCycle.has(evaluation.path)) firstCycle.set(evaluation.path, cycle);
    }
    const before = choice;
    choice = chooseContext(context, [...latest.values()].sort(byRelevance), options, "chances", isAllowed);
    evaluations = withGaps(context, evaluations, choice.paths);
    for (const evaluation of evaluations) latest.set(evaluation.path, evaluation);
    const excludedBefore = new Set(excluded);
    const refinement = refine(context, features, evaluations, excluded, isAllowed, choice.paths);
    for (const path of refinement.excluded) excluded.add(path);
    gaps = refinement.gaps;
    const relevanceBefore = previous?.relevance ?? new Map<string, number>();
    const moved = cycle === 1 ? Infinity : Math.max(0, ...evaluations.map((e) => Math.abs(e.relevance - (relevanceBefore.get(e.path) ?? 0))));
    const relevanceOf = new Map(evaluations.map((e) => [e.path, e.relevance]));
    const trace: CycleTrace = {
      cycle,
      keywords: features.searched.query.keywords.map((k) => k.term),
      addedKeywords: [],
      patterns: refinement.patterns,
      candidates: evaluations.filter((e) => !excludedBefore.has(e.path)).length,
      expandedFrom: cycle > 1 ? features.pool.slice(poolBefore).map((f) => ({ path: f.path, via: f.via ?? "" })) : [],
      context: choice.paths.map((path) => ({ path, relevance: relevanceOf.get(path) ?? latest.get(path)?.relevance ?? 0 })),
      excluded: refinement.excluded,
      gaps: refinement.gaps,
      ...(cycle === 1 && features.searched.synonyms.length > 0 ? { vocabulary: features.searched.synonyms } : {}),
      ...(cycle > 1 ? { lifted: liftsOf(evaluations, relevanceBefore) } : {}),
    };
    cycles.push(trace);
    previous = { probability: new Map(evaluations.map((e) => [e.path, e.probability])), relevance: relevanceOf };
    expansions = refinement.expansions;
    const sure = choice.paths.filter((path) => (relevanceOf.get(path) ?? 0) >= CONTEXT_THRESHOLD).length;
    if (sure >= MIN_SURE_FILES && refinement.criticalGaps.length === 0) {
      trace.stop = `${sure} context files at ${CONTEXT_THRESHOLD} or more and no critical gap (the pattern's stop)`;
      stoppedEarly = cycle < maxCycles;
      break;
    }
    if (cycle > 1 && expansions.length === 0 && moved < SETTLED) {
      trace.stop = "nothing left to change: no file to add, and another cycle would score the same files the same way";
      stoppedEarly = cycle < maxCycles;
      break;
    }
    if (cycle > 1 && sameDecision(before, choice) && refinement.criticalGaps.length === 0) {
      trace.stop = "the context and its supporting files are the cycle before's, and every file the context uses has been scored: no gap left for another cycle to settle";
      stoppedEarly = cycle < maxCycles;
      break;
    }
    if (cycle === maxCycles) trace.stop = `reached the cycle limit (${maxCycles})`;
  }

  // build output committed beside the best files, ranked after them by how often it changed with them (not in the
  // context: it is rebuilt, not read)
  const ranked = [...latest.values()];
  const history = context.historyIndex;
  const twins = history ? builtTwins(ranked, twinEvidence(context, history, isAllowed)) : [];
  return assembleResult(context, input, [...ranked, ...twins], firstCycle, cycles, gaps, { strategy: "graph", stoppedEarly, choice: choice! });
}
