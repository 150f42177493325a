/**
 * The public result, from any strategy's ranked files: best first, every
 * file with its band, reason, gaps, tokens and the cycle it entered; the
 * context (the files to read, decide-context.ts) within the token budget;
 * and the supporting files its gaps lead to.
 */
import type { CycleTrace, RetrievalResult, RetrievedFile, StrategyName, SupportingFile } from "../types.js";
import { byCodeUnit } from "../util/sort.js";
import { bandOf, CONTEXT_THRESHOLD } from "./bands.js";
import { decideContext, type ContextDecision } from "./decide-context.js";
import { CONTEXT_MAX_FILES } from "./parameters.js";
import type { RetrievalContext } from "./retrieval-context.js";
import { DEFAULT_BUDGET_TOKENS, DEFAULT_MAX_RESULTS, type RetrieveOptions } from "./retrieve-options.js";
import { supportingFiles } from "./supporting-files.js";
import { diagnosticsOfAnswer } from "./answer-diagnostics.js";

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

export function byRelevance(a: RankedFile, b: RankedFile): number {
  return b.relevance - a.relevance || b.score - a.score || byCodeUnit(a.path, b.path);
}

/**
 * How a strategy's relevances become a context: "chances" when they are
 * calibrated chances (the learned ranking, or a custom evaluator's
 * verdicts, which the pattern reads the same way): the expected-F1 decision;
 * "threshold" when they are score ratios (the bm25 and pagerank baselines):
 * the files at 0.7 or more.
 */
export type ContextRule = "chances" | "threshold";

/** The context and its supporting files, as one decision. */
export interface ContextChoice extends ContextDecision {
  supporting: SupportingFile[];
}

/** The files at 0.7 or more, best first, while the budget holds (a file that does not fit is skipped, a smaller one after it may still fit). */
function thresholdContext(ranked: readonly RankedFile[], budgetTokens: number, tokensOf: (path: string) => number): ContextDecision {
  const paths: string[] = [];
  const overBudget: string[] = [];
  let used = 0;
  for (const file of ranked) {
    if (file.relevance < CONTEXT_THRESHOLD) break;
    const tokens = tokensOf(file.path);
    if (used + tokens > budgetTokens) {
      overBudget.push(file.path);
      continue;
    }
    used += tokens;
    paths.push(file.path);
  }
  const reason = paths.length > 0 ? `the files at ${CONTEXT_THRESHOLD} or more` : `no file reached ${CONTEXT_THRESHOLD}`;
  return { paths, expectedF1: 0, overBudget, reason: overBudget.length > 0 ? `${reason}; ${overBudget.length} over the ${budgetTokens}-token budget` : reason };
}

/**
 * Decide the context of ranked files (best first, all of them) and name its
 * supporting files.
 *
 * @example
 * const choice = chooseContext(context, ranked, { budgetTokens: 20000 }, "chances", () => true);
 * choice.paths;      // ["src/auth/tokens.ts", "src/auth/auth.ts"]
 * choice.supporting; // [{ path: "src/auth/jwt-utils.ts", for: ["src/auth/tokens.ts"], names: ["verifyJwt"] }]
 */
export function chooseContext(
  context: RetrievalContext,
  ranked: readonly RankedFile[],
  options: Pick<RetrieveOptions, "budgetTokens">,
  rule: ContextRule,
  isAllowed: (path: string) => boolean,
): ContextChoice {
  const budgetTokens = options.budgetTokens ?? DEFAULT_BUDGET_TOKENS;
  const tokensOf = (path: string) => context.index.byPath.get(path)?.tokens ?? 0;
  const decision =
    rule === "threshold"
      ? thresholdContext(ranked, budgetTokens, tokensOf)
      : decideContext(
          ranked.map((f) => ({ path: f.path, chance: f.relevance, tokens: tokensOf(f.path) })),
          { maxFiles: CONTEXT_MAX_FILES, budgetTokens },
        );
  const chance = new Map(ranked.map((f) => [f.path, f.relevance]));
  // the baselines' relevances are score ratios, not chances: their supporting files come from the graph alone
  const chanceOf = rule === "chances" ? (path: string) => chance.get(path) ?? 0 : () => 0;
  return { ...decision, supporting: supportingFiles(context, decision.paths, chanceOf, isAllowed) };
}

export interface AssembleInput {
  task: string;
  displayRoot: string;
  options: RetrieveOptions;
}

/** Shape the public result from every evaluated file and the final decision. */
export function assembleResult(
  context: RetrievalContext,
  input: AssembleInput,
  files: readonly RankedFile[],
  firstCycle: ReadonlyMap<string, number>,
  cycles: CycleTrace[],
  gaps: string[],
  meta: { strategy: StrategyName; stoppedEarly: boolean; choice: ContextChoice },
): RetrievalResult {
  const { options } = input;
  const budget = options.budgetTokens ?? DEFAULT_BUDGET_TOKENS;
  const { choice } = meta;
  const tokensOf = (path: string) => context.index.byPath.get(path)?.tokens ?? 0;
  const overBudget = new Set(choice.overBudget);
  const inContext = new Set(choice.paths);
  const sorted = [...files].sort(byRelevance);
  // every context file is shown, whatever maxResults asks
  const limit = options.maxResults ?? DEFAULT_MAX_RESULTS;
  const shown = sorted.filter((file, i) => i < limit || inContext.has(file.path));
  const out: RetrievedFile[] = shown.map((file) => ({
    path: file.path,
    relevance: file.relevance,
    band: bandOf(file.relevance),
    reason: overBudget.has(file.path) ? `${file.reason}; over the ${budget}-token budget` : file.reason,
    missingContext: file.missingContext,
    tokens: tokensOf(file.path),
    cycle: firstCycle.get(file.path) ?? 1,
    matchedTerms: file.matchedTerms,
  }));
  const contextFiles = out.filter((f) => inContext.has(f.path));
  let totalTokens = 0;
  for (const file of context.codeGraph.files.values()) totalTokens += file.tokens;
  const meanRelevance = contextFiles.length > 0 ? contextFiles.reduce((sum, f) => sum + f.relevance, 0) / contextFiles.length : 0;
  return {
    schemaVersion: 2,
    task: input.task,
    root: input.displayRoot,
    files: out,
    context: choice.paths,
    supporting: choice.supporting,
    decision: choice.reason,
    cycles,
    gaps,
    stats: {
      strategy: meta.strategy,
      files: context.index.files.length,
      candidates: files.length,
      cycles: cycles.length,
      stoppedEarly: meta.stoppedEarly,
      contextFiles: contextFiles.length,
      contextTokens: contextFiles.reduce((sum, f) => sum + f.tokens, 0),
      supportingFiles: choice.supporting.length,
      totalTokens,
      meanRelevance: Math.round(meanRelevance * 1000) / 1000,
      budgetTokens: budget,
      ...(context.history ? { history: { commits: context.history.commits, shallow: context.history.shallow, truncated: context.history.truncated } } : {}),
    },
    diagnostics: diagnosticsOfAnswer(context.codeGraph.diagnostics, new Set([...out.map((file) => file.path), ...choice.supporting.map((file) => file.path)])),
  };
}
