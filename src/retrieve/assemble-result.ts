/**
 * The public result, from any strategy's ranked files: best first, the
 * context (relevance ≥ 0.7) inside the token budget, every file with its
 * band, reason, gaps, tokens and the cycle it entered.
 */
import type { CycleTrace, RetrievalResult, RetrievedFile, StrategyName } from "../types.js";
import { byCodeUnit } from "../util/sort.js";
import { bandOf, CONTEXT_THRESHOLD } from "./bands.js";
import type { RetrievalContext } from "./retrieval-context.js";
import { DEFAULT_BUDGET_TOKENS, DEFAULT_MAX_RESULTS, type RetrieveOptions } from "./retrieve-options.js";

/** One ranked file as a strategy leaves it. */
export interface RankedFile {
  path: string;
  relevance: number;
  /** Breaks ties in relevance (a calibration step holds many files): the raw score. */
  score: number;
  reason: string;
  missingContext: string[];
  matchedTerms: string[];
}

/** Relevance a file from 0.7 gets when the token budget leaves it out of the context. */
const OVER_BUDGET_RELEVANCE = 0.69;

export function byRelevance(a: RankedFile, b: RankedFile): number {
  return b.relevance - a.relevance || b.score - a.score || byCodeUnit(a.path, b.path);
}

/**
 * The files handed over, walking `ranked` best first: each at 0.7 or more
 * while the token budget holds (a file that does not fit is skipped, a
 * smaller one after it may still fit).
 */
export function contextOf(ranked: readonly RankedFile[], budgetTokens: number, tokensOf: (path: string) => number): Set<RankedFile> {
  const context = new Set<RankedFile>();
  let used = 0;
  for (const file of ranked) {
    if (file.relevance < CONTEXT_THRESHOLD) continue;
    const tokens = tokensOf(file.path);
    if (used + tokens > budgetTokens) continue;
    used += tokens;
    context.add(file);
  }
  return context;
}

export interface AssembleInput {
  task: string;
  displayRoot: string;
  options: RetrieveOptions;
}

/** Rank, apply the token budget, and shape the public result. */
export function assembleResult(
  context: RetrievalContext,
  input: AssembleInput,
  files: readonly RankedFile[],
  firstCycle: ReadonlyMap<string, number>,
  cycles: CycleTrace[],
  gaps: string[],
  meta: { strategy: StrategyName; stoppedEarly: boolean },
): RetrievalResult {
  const { options } = input;
  const budget = options.budgetTokens ?? DEFAULT_BUDGET_TOKENS;
  const shown = [...files].sort(byRelevance).slice(0, options.maxResults ?? DEFAULT_MAX_RESULTS);
  const tokensOf = (path: string) => context.index.byPath.get(path)?.tokens ?? 0;
  const handedOver = contextOf(shown, budget, tokensOf);
  const out: RetrievedFile[] = shown.map((file) => {
    const overBudget = file.relevance >= CONTEXT_THRESHOLD && !handedOver.has(file);
    const relevance = overBudget ? OVER_BUDGET_RELEVANCE : file.relevance;
    return {
      path: file.path,
      relevance,
      band: bandOf(relevance),
      reason: overBudget ? `${file.reason}; over the ${budget}-token budget` : file.reason,
      missingContext: file.missingContext,
      tokens: tokensOf(file.path),
      cycle: firstCycle.get(file.path) ?? 1,
      matchedTerms: file.matchedTerms,
    };
  });
  // stable: a file left out by the budget drops below the context but keeps its place among the rest
  out.sort((a, b) => b.relevance - a.relevance);
  const inContext = out.filter((f) => f.relevance >= CONTEXT_THRESHOLD);
  let totalTokens = 0;
  for (const file of context.codeGraph.files.values()) totalTokens += file.tokens;
  const meanRelevance = inContext.length > 0 ? inContext.reduce((sum, f) => sum + f.relevance, 0) / inContext.length : 0;
  return {
    schemaVersion: 1,
    task: input.task,
    root: input.displayRoot,
    files: out,
    cycles,
    gaps,
    stats: {
      strategy: meta.strategy,
      files: context.index.files.length,
      candidates: files.length,
      cycles: cycles.length,
      stoppedEarly: meta.stoppedEarly,
      contextFiles: inContext.length,
      contextTokens: inContext.reduce((sum, f) => sum + f.tokens, 0),
      totalTokens,
      meanRelevance: Math.round(meanRelevance * 1000) / 1000,
      budgetTokens: budget,
      ...(context.history ? { history: { commits: context.history.commits, shallow: context.history.shallow, truncated: context.history.truncated } } : {}),
    },
    diagnostics: context.codeGraph.diagnostics,
  };
}
