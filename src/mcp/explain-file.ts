/**
 * Why one file scored what it did for a task: its ranked entry in the
 * result, and what each cycle of the trace did with it, one entry a cycle
 * (a file never a candidate says so for each cycle, with what was
 * searched). Pure.
 *
 * @example
 * explainFile(result, "src/auth/tokens.ts").relevance; // 0.95
 */
import { EXCLUDE_BELOW, type RetrievalResult } from "../index.js";

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
  /** What each cycle did with the file, one entry a cycle (entered, high, reached over an import edge, lifted, excluded, kept, not a candidate). */
  trace: string[];
  /** The keywords each cycle searched, for a file that was never a candidate. */
  keywords?: string[];
}


const MAX_TRACE_KEYWORDS = 8;

function keywordList(keywords: readonly string[]): string {
  const shown = keywords.slice(0, MAX_TRACE_KEYWORDS).map((k) => `"${k}"`).join(", ");
  return keywords.length > MAX_TRACE_KEYWORDS ? `${shown}, … (+${keywords.length - MAX_TRACE_KEYWORDS})` : shown;
}

/** One entry a cycle: what it did with `path`, which entered the candidates in cycle `entered` (undefined: never). */
function traceOf(result: RetrievalResult, path: string, entered: number | undefined): string[] {
  const trace: string[] = [];
  let excludedIn: number | undefined;
  for (const cycle of result.cycles) {
    const events: string[] = [];
    const expanded = cycle.expandedFrom.find((e) => e.path === path);
    if (cycle.cycle === entered) events.push(expanded ? `entered the candidates, reached over the graph from ${expanded.via}` : "entered the candidates through the search");
    else if (expanded) events.push(`reached over the graph from ${expanded.via}`);
    const lifted = cycle.lifted?.find((l) => l.path === path);
    if (lifted) events.push(`lifted from ${lifted.from} to ${lifted.to} (${lifted.tie})`);
    const decided = cycle.context.find((h) => h.path === path);
    if (decided) events.push(`in the context (${decided.relevance})`);
    if (cycle.excluded.includes(path)) {
      events.push(`excluded from later cycles (relevance < ${EXCLUDE_BELOW})`);
      excludedIn ??= cycle.cycle;
    }
    if (events.length === 0) {
      if (entered === undefined || cycle.cycle < entered) events.push(`not a candidate (searched ${keywordList(cycle.keywords)})`);
      else if (excludedIn !== undefined) events.push(`left out (excluded in cycle ${excludedIn})`);
      else events.push("scored again, neither in the context nor excluded");
    }
    trace.push(`cycle ${cycle.cycle}: ${events.join("; ")}`);
  }
  return trace;
}

/** Explain `path` (a file the graph knows; the caller checks) against a result ranked over every candidate. */
export function explainFile(result: RetrievalResult, path: string): FileExplanation {
  const entered = result.files.find((f) => f.path === path)?.cycle;
  const trace = traceOf(result, path, entered);
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
    inContext: result.context.includes(path),
    rank: index + 1,
    reason: file.reason,
    missingContext: file.missingContext,
    matchedTerms: file.matchedTerms,
    cycle: file.cycle,
    tokens: file.tokens,
    trace,
  };
}
