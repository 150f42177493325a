/**
 * retrieve_context's answer, sized for an agent: the text it reads and the
 * same facts as structured content, together within the token budget
 * (default 8,000, counted with the pack's tokenizer; Claude Code cuts a tool
 * result at 25,000).
 *
 * - format "md": the text is the context pack (code for the context's
 *   files, within the budget; the signatures of the names the context uses
 *   for its supporting files; a one-line entry for the next candidates);
 *   the structured content is what the pack shows, without code.
 * - format "json": the text is the structured content serialised (as the MCP
 *   specification asks), with each file's reason and missing context, as
 *   many files as fit.
 * - format "paths": the best files' paths and relevances, one line each.
 *
 * Both parts count: the answer's tokens are the text's plus the structured
 * content's JSON, and never exceed the budget.
 *
 * @example
 * const answer = await buildContextAnswer(result, { codeGraph, readFile, budgetTokens: 8000, format: "md" });
 * answer.structured.files[0].path; // "src/auth/auth.ts"
 */
import {
  buildContextPack,
  formatRelevance,
  loadTokenCounter,
  type CodeGraph,
  type PackForm,
  type RetrievalResult,
  type RetrievedFile,
  type TokenCounter,
} from "../index.js";

/** The MCP server's default answer size, in tokens: well inside Claude Code's 25,000-token cap on a tool result. */
export const MCP_DEFAULT_BUDGET_TOKENS = 8_000;

/**
 * An answer names at least the best this many files, whatever their
 * relevance (the harness's acc@5). The relevance is the calibrated chance
 * that the change needs the file: on a task whose words are vague, every
 * file can sit below 0.2, and an answer of the top file alone would hide
 * the next candidates an agent may look at (one line each, no code).
 */
export const MIN_ANSWER_FILES = 5;

export type AnswerFormat = "md" | "json" | "paths";

/** How a file appears in the answer: its code (whole, reduced, signatures), its definitions' names, one listed line, or a ranked entry (json, paths). */
export type AnswerForm = PackForm | "ranked";

export interface AnswerFile {
  path: string;
  relevance: number;
  band: RetrievedFile["band"];
  /** What the file is to the answer: in the context, read beside it, or one of the next candidates. */
  role: "context" | "supporting" | "candidate";
  shown: AnswerForm;
  /** json only: why it scored what it did. */
  reason?: string;
  /** json only: what it uses that the context lacks. */
  missingContext?: string[];
}

/** The structured content of a retrieve_context answer (its outputSchema is in output-schemas.ts). */
export interface ContextAnswer {
  schemaVersion: 2;
  task: string;
  root: string;
  format: AnswerFormat;
  tokenizer: string;
  budgetTokens: number;
  /** Files shown: the context best first, its supporting files, then the next candidates. */
  files: AnswerFile[];
  /** The files to read, best first. */
  context: string[];
  /** Files to read beside the context. */
  supporting: RetrievalResult["supporting"];
  /** Why the context is what it is. */
  decision: string;
  /** Ranked files (from 0.2 on, or among the best five) the budget left out. */
  leftOut: number;
  /** Gaps left after the last cycle. */
  gaps: string[];
  stats: { strategy: string; cycles: number; candidates: number; files: number };
}

export interface ContextAnswerOptions {
  codeGraph: CodeGraph;
  readFile: (path: string) => Promise<string>;
  budgetTokens: number;
  format: AnswerFormat;
  /** Files from this relevance on are shown (default 0.2); the best {@link MIN_ANSWER_FILES} always are. */
  minRelevance?: number;
}

/** Room for the protocol's own keys around the two parts ({"content":[{"type":"text","text":…}],"structuredContent":…}). */
const ENVELOPE_TOKENS = 24;
const MAX_TRIES = 8;

function roleOf(result: RetrievalResult, path: string): AnswerFile["role"] {
  return result.context.includes(path) ? "context" : result.supporting.some((s) => s.path === path) ? "supporting" : "candidate";
}

function answerFile(result: RetrievalResult, file: RetrievedFile, shown: AnswerForm, withReasons: boolean): AnswerFile {
  return {
    path: file.path,
    relevance: file.relevance,
    band: file.band,
    role: roleOf(result, file.path),
    shown,
    ...(withReasons ? { reason: file.reason, missingContext: file.missingContext } : {}),
  };
}

function answerOf(result: RetrievalResult, format: AnswerFormat, counter: TokenCounter, budgetTokens: number, files: AnswerFile[], leftOut: number): ContextAnswer {
  return {
    schemaVersion: 2,
    task: result.task,
    root: result.root,
    format,
    tokenizer: counter.name,
    budgetTokens,
    files,
    context: result.context,
    supporting: result.supporting,
    decision: result.decision,
    leftOut,
    gaps: result.gaps,
    stats: { strategy: result.stats.strategy, cycles: result.stats.cycles, candidates: result.stats.candidates, files: result.stats.files },
  };
}

/** Tokens of an answer as the client receives it: the text, the structured content's JSON, and the envelope. */
export function answerTokens(counter: TokenCounter, text: string, structured: ContextAnswer): number {
  return counter.count(text) + counter.count(JSON.stringify(structured)) + ENVELOPE_TOKENS;
}

function pathsText(answer: ContextAnswer): string {
  return `${answer.files.map((f) => `${formatRelevance(f.relevance)} ${f.path}`).join("\n")}\n`;
}

/** The ranked files shown by json and paths: the most that fit, best first (the count is found by bisection: more files, more tokens). */
function fitRanked(
  result: RetrievalResult,
  shown: readonly RetrievedFile[],
  options: ContextAnswerOptions,
  counter: TokenCounter,
): { text: string; structured: ContextAnswer } | undefined {
  const withReasons = options.format === "json";
  const build = (n: number) => {
    const structured = answerOf(result, options.format, counter, options.budgetTokens, shown.slice(0, n).map((f) => answerFile(result, f, "ranked", withReasons)), shown.length - n);
    const text = options.format === "json" ? JSON.stringify(structured) : pathsText(structured);
    return { text, structured, fits: answerTokens(counter, text, structured) <= options.budgetTokens };
  };
  let low = 0;
  let high = shown.length;
  let best = build(0);
  if (!best.fits) return undefined;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    const attempt = build(middle);
    if (attempt.fits) {
      best = attempt;
      low = middle;
    } else {
      high = middle - 1;
    }
  }
  return best;
}

/** The md answer: the pack under what the structured part leaves of the budget, shrunk until the two fit together. */
async function fitPack(result: RetrievalResult, options: ContextAnswerOptions, counter: TokenCounter): Promise<{ text: string; structured: ContextAnswer } | undefined> {
  const byPath = new Map(result.files.map((f) => [f.path, f]));
  let packBudget = options.budgetTokens - ENVELOPE_TOKENS;
  for (let i = 0; i < MAX_TRIES && packBudget > 0; i++) {
    let pack;
    try {
      pack = await buildContextPack(result, {
        codeGraph: options.codeGraph,
        readFile: options.readFile,
        budgetTokens: packBudget,
        minFiles: MIN_ANSWER_FILES,
        ...(options.minRelevance !== undefined ? { minRelevance: options.minRelevance } : {}),
      });
    } catch {
      return undefined; // the budget cannot hold the pack's header and top file
    }
    const files = pack.files.map((f) => answerFile(result, byPath.get(f.path) ?? { path: f.path, relevance: f.relevance, band: "excluded", reason: "", missingContext: [], tokens: 0, cycle: 0, matchedTerms: [] }, f.form, false));
    const structured = answerOf(result, "md", counter, options.budgetTokens, files, pack.leftOut.length);
    const excess = answerTokens(counter, pack.text, structured) - options.budgetTokens;
    if (excess <= 0) return { text: pack.text, structured };
    packBudget -= excess + 8;
  }
  return undefined;
}

/**
 * The answer to one retrieve_context call, within `budgetTokens` (text and
 * structured content together); a budget too small for the smallest answer
 * is a one-line error.
 */
export async function buildContextAnswer(result: RetrievalResult, options: ContextAnswerOptions): Promise<{ text: string; structured: ContextAnswer }> {
  const counter = await loadTokenCounter();
  const minRelevance = options.minRelevance ?? 0.2;
  // the context first (whatever its relevance), then the rest best first
  const inContext = new Set(result.context);
  const shown = [...result.files.filter((f) => inContext.has(f.path)), ...result.files.filter((f, i) => !inContext.has(f.path) && (i < MIN_ANSWER_FILES || f.relevance >= minRelevance))];
  const answer = options.format === "md" ? await fitPack(result, options, counter) : fitRanked(result, shown, options, counter);
  if (!answer) {
    throw new Error(`retrieve_context: a budget of ${options.budgetTokens} tokens cannot hold the answer's header and its top file (give 1000 or more)`);
  }
  return answer;
}
