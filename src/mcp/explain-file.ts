/**
 * Why one file scored what it did for a task: its ranked entry in the
 * result, and what each cycle of the trace did with it. Pure.
 *
 * @example
 * explainFile(result, "src/auth/tokens.ts").relevance; // 0.95
 */
import { CONTEXT_THRESHOLD, EXCLUDE_BELOW, type RetrievalResult } from "../index.js";

export interface FileExplanation {
  path: string;
  task: string;
  /** In [0, 1]; 0 when the file was never a candidate. */
  relevance: number;
  band: "high" | "medium" | "low" | "excluded";
  /** True when relevance ≥ 0.7: the file is in the context. */
  inContext: boolean;
  /** 1-based place in the ranking, when ranked. */
  rank?: number;
  reason: string;
  missingContext: string[];
  matchedTerms: string[];
  /** The cycle in which it first became a candidate, when it did. */
  cycle?: number;
  tokens?: number;
  /** What each cycle did with the file (high, excluded, reached over an import edge). */
  trace: string[];
  /** The keywords each cycle searched, for a file that was never a candidate. */
  keywords?: string[];
}


/** Explain `path` (a file the graph knows; the caller checks) against a result ranked over every candidate. */
export function explainFile(result: RetrievalResult, path: string): FileExplanation {
  const trace: string[] = [];
  const entered = result.files.find((f) => f.path === path)?.cycle;
  for (const cycle of result.cycles) {
    if (cycle.cycle === entered && !cycle.expandedFrom.some((e) => e.path === path)) trace.push(`cycle ${cycle.cycle}: entered the candidates`);
    const high = cycle.high.find((h) => h.path === path);
    if (high) trace.push(`cycle ${cycle.cycle}: high (${high.relevance})`);
    const expanded = cycle.expandedFrom.find((e) => e.path === path);
    if (expanded) trace.push(`cycle ${cycle.cycle}: reached over the graph from ${expanded.via}`);
    const lifted = cycle.lifted?.find((l) => l.path === path);
    if (lifted) trace.push(`cycle ${cycle.cycle}: lifted from ${lifted.from} to ${lifted.to} (${lifted.tie})`);
    if (cycle.excluded.includes(path)) trace.push(`cycle ${cycle.cycle}: excluded from later cycles (relevance < ${EXCLUDE_BELOW})`);
  }
  const index = result.files.findIndex((f) => f.path === path);
  const file = result.files[index];
  if (!file) {
    const keywords = [...new Set(result.cycles.flatMap((c) => c.keywords))];
    return {
      path,
      task: result.task,
      relevance: 0,
      band: "excluded",
      inContext: false,
      reason: "never a candidate: none of the searched keywords matched its names, identifiers or comments, and no import edge from a relevant file led to it",
      missingContext: [],
      matchedTerms: [],
      trace,
      keywords,
    };
  }
  return {
    path,
    task: result.task,
    relevance: file.relevance,
    band: file.band,
    inContext: file.relevance >= CONTEXT_THRESHOLD,
    rank: index + 1,
    reason: file.reason,
    missingContext: file.missingContext,
    matchedTerms: file.matchedTerms,
    cycle: file.cycle,
    tokens: file.tokens,
    trace,
  };
}
