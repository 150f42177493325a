/**
 * The context pack: a Markdown document an agent reads instead of the
 * codebase. A header with the task, what each retrieval cycle did and how
 * tokens are counted; then the picked files best first, each with why it was
 * picked and its code with line numbers.
 *
 * Budget: tokens are estimated as characters / 4, rounded up (the estimate
 * the rest of graph-retrieve uses), over the whole pack: header, headings and
 * fences included. The pack never exceeds `budgetTokens`. Files are added
 * best first; one that does not fit whole is reduced, in this order:
 *   1. its matched definitions (names sharing a term with the task) whole,
 *      the rest as signature lines (dropping matched definitions, largest
 *      first, until it fits);
 *   2. every definition as its signature line;
 *   3. the names of its definitions only;
 * and is left out if even that does not fit; smaller files after it are
 * still tried. Lines are never cut. The top file is always in the pack (if
 * need be with a shorter header, and at worst as a shortened list of names).
 */
import { DEFAULT_BUDGET_TOKENS, estimateTokens } from "../util/tokens.js";
import { UsageError } from "../errors.js";
import type { CodeGraph } from "../graph/code-graph.js";
import type { Definition, RetrievalResult, RetrievedFile } from "../types.js";
import { termsOf } from "../util/terms.js";
import { CONTEXT_RELEVANCE, NEAR_RELEVANCE } from "./retrieval-subgraph.js";
import { formatRelevance } from "../retrieve/bands.js";

/** Default pack size, the same as the retrieval's default budget. */
export const DEFAULT_PACK_BUDGET_TOKENS = DEFAULT_BUDGET_TOKENS;

const MAX_LISTED = 8;
const MAX_TASK_CHARS = 300;

export interface ContextPackOptions {
  /** Reads a file's text by its root-relative path (the CLI reads only files the scan found under the root). */
  readFile: (path: string) => Promise<string>;
  /** The graph the result came from: each file's definitions and line ranges. */
  codeGraph: CodeGraph;
  /** Most tokens the pack may take (default 20000), estimated as characters / 4. */
  budgetTokens?: number;
  /** Files from this relevance on are packed after the top file (default 0.2). */
  minRelevance?: number;
}

/** How much of a file the pack shows. */
export type PackForm = "whole" | "reduced" | "signatures" | "names";

export { estimateTokens };

/**
 * Control characters but tab and newline, and the bidi overrides, shown
 * escaped: a pack is read on terminals too (the same set as the CLI's
 * escapeControlCharacters, applied here so that the budget counts what is
 * printed).
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function escapeControls(text: string): string {
  return text.replace(CONTROL, (char) => {
    const code = char.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

function list(items: readonly string[], max = MAX_LISTED): string {
  if (items.length === 0) return "none";
  const shown = items.slice(0, max).join(", ");
  return items.length > max ? `${shown} … (+${items.length - max})` : shown;
}

function languageTag(path: string): string {
  if (/\.tsx$/.test(path)) return "tsx";
  if (/\.jsx$/.test(path)) return "jsx";
  if (/\.[mc]?js$/.test(path)) return "js";
  return "ts";
}

/** A fence longer than any backtick run in the code (CommonMark), at least three. */
function fenceFor(lines: readonly string[]): string {
  let longest = 0;
  for (const line of lines) for (const run of line.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return "`".repeat(Math.max(3, longest + 1));
}

function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Numbered code lines for the kept line numbers (1-based, sorted), with a `…` line for each skipped run (the numbers around it say which lines). */
function numberedLines(lines: readonly string[], keep: readonly number[] | undefined): string[] {
  const width = String(lines.length).length;
  const out: string[] = [];
  const numbered = (n: number): string => {
    const text = lines[n - 1] ?? "";
    return `${String(n).padStart(width)} |${text === "" ? "" : ` ${text}`}`;
  };
  if (!keep) {
    for (let n = 1; n <= lines.length; n++) out.push(numbered(n));
    return out;
  }
  let next = 1;
  for (const n of keep) {
    if (n > next) out.push(`${" ".repeat(width)} | …`);
    out.push(numbered(n));
    next = n + 1;
  }
  if (next <= lines.length) out.push(`${" ".repeat(width)} | …`);
  return out;
}

interface PackFile {
  file: RetrievedFile;
  rank: number;
  lines: string[];
  definitions: Definition[];
  /** Definitions whose name shares a term with the file's matched terms, best first. */
  matched: Definition[];
  readError?: string;
}

function describeDefinition(d: Definition): string {
  const where = d.startLine === d.endLine ? `${d.startLine}` : `${d.startLine}–${d.endLine}`;
  return `${d.container ? `${d.container}.` : ""}${d.name} (${d.kind}, ${where})`;
}

function sectionHead(entry: PackFile, shown: string): string[] {
  const { file } = entry;
  const head = [
    "",
    `## ${entry.rank}. ${file.path}`,
    "",
    `${formatRelevance(file.relevance)} ${file.band}${file.relevance >= CONTEXT_RELEVANCE ? " (in the context)" : ""} · entered in cycle ${file.cycle} · ${shown}`,
    `Why: ${file.reason}`,
  ];
  if (file.missingContext.length > 0) head.push(`Missing context: ${list(file.missingContext)}`);
  head.push("");
  return head;
}

function codeSection(entry: PackFile, shown: string, keep: readonly number[] | undefined): string {
  const body = numberedLines(entry.lines, keep);
  const fence = fenceFor(entry.lines);
  return escapeControls(`${[...sectionHead(entry, shown), `${fence}${languageTag(entry.file.path)}`, ...body, fence].join("\n")}\n`);
}

function namesSection(entry: PackFile, maxNames = Number.POSITIVE_INFINITY): string {
  const { definitions } = entry;
  const shownNames = definitions.slice(0, maxNames).map(describeDefinition);
  const more = definitions.length - shownNames.length;
  const text =
    entry.readError !== undefined
      ? `(could not be read: ${entry.readError})`
      : definitions.length === 0
        ? `No definitions (${entry.lines.length} lines).`
        : `Definitions: ${shownNames.join(", ")}${more > 0 ? `, … (+${more} more)` : ""}.`;
  const shown = entry.readError !== undefined ? "not readable" : `names only (${entry.lines.length} lines)`;
  return escapeControls(`${[...sectionHead(entry, shown), text].join("\n")}\n`);
}

function signatureLines(entry: PackFile): number[] {
  return [...new Set(entry.definitions.map((d) => d.startLine))].filter((n) => n >= 1 && n <= entry.lines.length);
}

function reducedLines(entry: PackFile, matched: readonly Definition[]): number[] {
  const keep = new Set(signatureLines(entry));
  for (const d of matched) {
    for (let n = Math.max(1, d.startLine); n <= Math.min(entry.lines.length, d.endLine); n++) keep.add(n);
  }
  return [...keep].sort((a, b) => a - b);
}

/** The fullest section of a file that fits in `roomChars`, or undefined. */
function fitSection(entry: PackFile, roomChars: number): { text: string; form: PackForm } | undefined {
  if (entry.readError === undefined) {
    const whole = codeSection(entry, `whole (${entry.lines.length} lines)`, undefined);
    if (whole.length <= roomChars) return { text: whole, form: "whole" };
    const signatures = signatureLines(entry);
    // matched definitions whole, dropping the largest until it fits
    const matched = [...entry.matched];
    while (matched.length > 0) {
      const keep = reducedLines(entry, matched);
      const text = codeSection(
        entry,
        `reduced: ${matched.length} matched definition${matched.length === 1 ? "" : "s"} whole, other definitions as signatures (${keep.length} of ${entry.lines.length} lines)`,
        keep,
      );
      if (text.length <= roomChars) return { text, form: "reduced" };
      let largest = 0;
      matched.forEach((d, i) => {
        const size = d.endLine - d.startLine;
        const best = matched[largest]!;
        if (size > best.endLine - best.startLine) largest = i;
      });
      matched.splice(largest, 1);
    }
    if (signatures.length > 0) {
      const text = codeSection(entry, `signatures only (${signatures.length} of ${entry.lines.length} lines)`, signatures);
      if (text.length <= roomChars) return { text, form: "signatures" };
    }
  }
  const names = namesSection(entry);
  if (names.length <= roomChars) return { text: names, form: "names" };
  return undefined;
}

/** The names section shortened until it fits (for the top file only). */
function fitNamesShortened(entry: PackFile, roomChars: number): string | undefined {
  let low = 0;
  let high = entry.definitions.length;
  let best: string | undefined;
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    const text = namesSection(entry, middle);
    if (text.length <= roomChars) {
      best = text;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return best;
}

function header(result: RetrievalResult, picked: readonly RetrievedFile[], budgetTokens: number, full: boolean): string {
  const task = result.task.length > MAX_TASK_CHARS ? `${result.task.slice(0, MAX_TASK_CHARS)}…` : result.task;
  const inContext = picked.filter((f) => f.relevance >= CONTEXT_RELEVANCE).length;
  const lines = [
    `# Context pack: ${task.replace(/\s+/g, " ")}`,
    "",
    `Budget: ${budgetTokens} tokens, estimated as characters / 4 rounded up (as everywhere in graph-retrieve), over the whole pack including this header and the code fences.`,
  ];
  if (!full) return escapeControls(`${lines.join("\n")}\n`);
  lines.push(
    `Files best first: ${inContext} in the context (relevance ≥ ${CONTEXT_RELEVANCE}), ${picked.length - inContext} nearby; ` +
      "a file that does not fit whole shows its matched definitions whole and the rest as signatures, then signatures only, then names only.",
    "",
    `## Retrieval (${result.stats.strategy}, ${result.stats.cycles} cycle${result.stats.cycles === 1 ? "" : "s"}, ${result.stats.candidates} candidates of ${result.stats.files} files)`,
    "",
  );
  for (const cycle of result.cycles) {
    const parts = cycle.cycle === 1 ? [`searched ${list(cycle.keywords.map((k) => `"${k}"`), 12)}`] : [];
    if (cycle.vocabulary && cycle.vocabulary.length > 0) parts.push(`the codebase's words: ${list(cycle.vocabulary, 4)}`);
    if (cycle.expandedFrom.length > 0) parts.push(`expanded: ${list(cycle.expandedFrom.map((e) => `${e.path} (from ${e.via})`), 4)}`);
    parts.push(`${cycle.candidates} candidates`);
    if (cycle.lifted && cycle.lifted.length > 0) parts.push(`lifted: ${list(cycle.lifted.map((l) => `${l.path} ${formatRelevance(l.from)} → ${formatRelevance(l.to)}`), 4)}`);
    if (cycle.high.length > 0) parts.push(`high: ${list(cycle.high.map((h) => `${h.path} (${formatRelevance(h.relevance)})`), 5)}`);
    if (cycle.excluded.length > 0) parts.push(`excluded ${cycle.excluded.length}`);
    if (cycle.addedKeywords.length > 0) parts.push(`refined: added ${list(cycle.addedKeywords, 5)}`);
    if (cycle.stop) parts.push(`stopped: ${cycle.stop}`);
    lines.push(`- Cycle ${cycle.cycle}: ${parts.join("; ")}`);
  }
  if (result.gaps.length > 0) lines.push(`- Gaps left: ${list(result.gaps, 4)}`);
  return escapeControls(`${lines.join("\n")}\n`);
}

async function loadEntry(file: RetrievedFile, rank: number, options: ContextPackOptions): Promise<PackFile> {
  const parsed = options.codeGraph.files.get(file.path);
  const definitions = [...(parsed?.definitions ?? [])].sort((a, b) => a.startLine - b.startLine || a.endLine - b.endLine);
  const terms = new Set(file.matchedTerms);
  const matched = definitions
    .map((d) => ({ d, hits: termsOf(d.name).filter((t) => terms.has(t)).length }))
    .filter((m) => m.hits > 0)
    .sort((a, b) => b.hits - a.hits || a.d.endLine - a.d.startLine - (b.d.endLine - b.d.startLine) || a.d.startLine - b.d.startLine)
    .map((m) => m.d);
  try {
    const text = await options.readFile(file.path);
    return { file, rank, lines: splitLines(text), definitions, matched };
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
    return { file, rank, lines: [], definitions, matched: [], readError: message };
  }
}

/**
 * Render the context pack of a retrieval under a token budget.
 *
 * @example
 * const retriever = await createRetriever({ root: "./service" });
 * const result = await retriever.retrieve("Fix the authentication token expiry bug");
 * const pack = await renderContextPack(result, {
 *   codeGraph: retriever.codeGraph,
 *   readFile: (path) => readFile(join(retriever.codeGraph.root, path), "utf8"),
 *   budgetTokens: 8000,
 * });
 */
export async function renderContextPack(result: RetrievalResult, options: ContextPackOptions): Promise<string> {
  const budgetTokens = options.budgetTokens ?? DEFAULT_PACK_BUDGET_TOKENS;
  if (!Number.isInteger(budgetTokens) || budgetTokens < 1) {
    throw new UsageError(`renderContextPack: budgetTokens must be a positive whole number, got ${String(budgetTokens)}`);
  }
  const budgetChars = budgetTokens * 4;
  const minRelevance = options.minRelevance ?? NEAR_RELEVANCE;
  const ranked = result.files.map((file, index) => ({ file, rank: index + 1 }));
  const picked = ranked.filter((r, index) => index === 0 || r.file.relevance >= minRelevance);

  const fullHeader = header(result, picked.map((p) => p.file), budgetTokens, true);
  const shortHeader = header(result, picked.map((p) => p.file), budgetTokens, false);
  if (picked.length === 0) {
    const text = `${fullHeader}\nNo file matched the task (try other words or --keywords).\n`;
    if (text.length <= budgetChars) return text;
    if (shortHeader.length <= budgetChars) return shortHeader;
    throw tooSmall(budgetTokens, shortHeader.length);
  }

  const blocks: string[] = [];
  let used = 0;
  const leftOut: RetrievedFile[] = [];

  // the top file first: it is always in, with the full header when its signatures (or better) fit beside it
  const top = await loadEntry(picked[0]!.file, picked[0]!.rank, options);
  const topWithFull = fitSection(top, budgetChars - fullHeader.length);
  const topWithShort = fitSection(top, budgetChars - shortHeader.length);
  const isGood = (fit: { form: PackForm } | undefined): boolean => fit !== undefined && fit.form !== "names";
  const useFull = isGood(topWithFull) || (!isGood(topWithShort) && topWithFull !== undefined);
  const head = useFull ? fullHeader : shortHeader;
  blocks.push(head);
  used += head.length;
  const topFit = useFull ? topWithFull : topWithShort;
  const topText = topFit?.text ?? fitNamesShortened(top, budgetChars - used);
  if (topText === undefined) throw tooSmall(budgetTokens, used + namesSection(top, 0).length);
  blocks.push(topText);
  used += topText.length;

  for (const { file, rank } of picked.slice(1)) {
    const entry = await loadEntry(file, rank, options);
    const fit = fitSection(entry, budgetChars - used);
    if (!fit) {
      leftOut.push(file);
      continue;
    }
    blocks.push(fit.text);
    used += fit.text.length;
  }

  if (leftOut.length > 0) {
    const names = leftOut.map((f) => `${f.path} (${f.relevance.toFixed(2)})`);
    for (const footer of [
      escapeControls(`\nLeft out for the budget: ${list(names)}\n`),
      `\nLeft out for the budget: ${leftOut.length} file${leftOut.length === 1 ? "" : "s"}\n`,
    ]) {
      if (used + footer.length <= budgetChars) {
        blocks.push(footer);
        used += footer.length;
        break;
      }
    }
  }
  return blocks.join("");
}

function tooSmall(budgetTokens: number, neededChars: number): UsageError {
  return new UsageError(
    `renderContextPack: a budget of ${budgetTokens} tokens cannot hold the pack's header and the top file's name (give ${Math.ceil(neededChars / 4)} tokens or more)`,
  );
}
