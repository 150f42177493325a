/**
 * The context pack: a Markdown document an agent reads instead of the
 * codebase. A header with the task, what each retrieval cycle did and how
 * tokens are counted; then the context's files best first, each with why it
 * is there and its code with line numbers; then the supporting files, as
 * the signatures of the names the context uses from them; then the next
 * candidates by name, one line each.
 *
 * Budget: tokens are counted with the o200k_base tokenizer (see
 * util/tokens.ts), over the whole pack: header, headings and fences
 * included. The pack never exceeds `budgetTokens` under that count. Files
 * are added best first; one that does not fit whole is reduced, in this order:
 *   1. its matched definitions (names sharing a term with the task) whole,
 *      the rest as signature lines (dropping matched definitions, largest
 *      first, until it fits);
 *   2. every definition as its signature line;
 *   3. the names of its definitions only;
 * and is left out if even that does not fit; smaller files after it are
 * still tried. Lines are never cut. The first context file is always in the
 * pack (if need be with a shorter header, and at worst as a shortened list
 * of names). A supporting file shows the signature lines of the names used
 * (else its names); a candidate is one line: path, relevance and a
 * shortened reason.
 */
import { DEFAULT_BUDGET_TOKENS, estimateTokens, loadTokenCounter, type TokenCounter } from "../util/tokens.js";
import { UsageError } from "../errors.js";
import type { CodeGraph } from "../graph/code-graph.js";
import type { Definition, RetrievalResult, RetrievedFile, SupportingFile } from "../types.js";
import { termsOf } from "../util/terms.js";
import { NEAR_RELEVANCE } from "./retrieval-subgraph.js";
import { supportingReason } from "./retrieval-text.js";
import { formatRelevance } from "../retrieve/bands.js";

/** Default pack size, the same as the retrieval's default budget. */
export const DEFAULT_PACK_BUDGET_TOKENS = DEFAULT_BUDGET_TOKENS;

const MAX_LISTED = 8;
const MAX_TASK_CHARS = 300;
/** A listed file's reason is cut to this many characters (at a word). */
const MAX_LISTED_REASON_CHARS = 140;

export interface ContextPackOptions {
  /** Reads a file's text by its root-relative path (the CLI reads only files the scan found under the root). */
  readFile: (path: string) => Promise<string>;
  /** The graph the result came from: each file's definitions and line ranges. */
  codeGraph: CodeGraph;
  /** Most tokens the pack may take (default 20000), counted with o200k_base. */
  budgetTokens?: number;
  /** Candidates outside the context are listed from this relevance on (default 0.2). */
  minRelevance?: number;
  /** The best this many ranked files are listed whatever their relevance (default 5). */
  minFiles?: number;
}

/** How much of a file the pack shows: its code (whole, reduced, signatures), its definitions' names, or one listed line. */
export type PackForm = "whole" | "reduced" | "signatures" | "names" | "listed";

/** The best ranked files the pack lists by default, whatever their relevance (the harness's acc@5). */
export const MIN_LISTED_FILES = 5;

/** One file of a pack, in the pack's order. */
export interface PackedFile {
  path: string;
  relevance: number;
  form: PackForm;
}

/** A context pack and what it holds. */
export interface ContextPack {
  text: string;
  /** Tokens of `text` under `tokenizer`: at most `budgetTokens`. */
  tokens: number;
  budgetTokens: number;
  tokenizer: string;
  files: PackedFile[];
  /** Picked files that did not fit, best first. */
  leftOut: string[];
}

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
  /** What the file is to the answer: its heading says so. */
  role: "context" | "supporting";
  /** A supporting file's context files and the names they use from it. */
  supporting?: SupportingFile;
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
    entry.role === "context" ? `## ${entry.rank}. ${file.path}` : `## Also read: ${file.path}`,
    "",
    entry.role === "context"
      ? `${formatRelevance(file.relevance)} ${file.band} · in the context · entered in cycle ${file.cycle} · ${shown}`
      : `${entry.rank > 0 ? `${formatRelevance(file.relevance)} ${file.band} · ` : ""}read beside the context · ${shown}`,
    entry.supporting ? `Why: ${supportingReason(entry.supporting)}` : `Why: ${file.reason}`,
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

/** The fullest section of a file that fits in `room` tokens, or undefined. */
function fitSection(entry: PackFile, room: number, counter: TokenCounter): { text: string; form: PackForm } | undefined {
  const fits = (text: string) => counter.fits(text, room);
  if (entry.readError === undefined) {
    const whole = codeSection(entry, `whole (${entry.lines.length} lines)`, undefined);
    if (fits(whole)) return { text: whole, form: "whole" };
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
      if (fits(text)) return { text, form: "reduced" };
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
      if (fits(text)) return { text, form: "signatures" };
    }
  }
  const names = namesSection(entry);
  if (fits(names)) return { text: names, form: "names" };
  return undefined;
}

/** The names section shortened until it fits in `room` tokens (for the top file only). */
function fitNamesShortened(entry: PackFile, room: number, counter: TokenCounter): string | undefined {
  let low = 0;
  let high = entry.definitions.length;
  let best: string | undefined;
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    const text = namesSection(entry, middle);
    if (counter.fits(text, room)) {
      best = text;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return best;
}

interface HeaderOptions {
  budgetTokens: number;
  tokenizer: string;
  full: boolean;
}

function header(result: RetrievalResult, { budgetTokens, tokenizer, full }: HeaderOptions): string {
  const task = result.task.length > MAX_TASK_CHARS ? `${result.task.slice(0, MAX_TASK_CHARS)}…` : result.task;
  const lines = [
    `# Context pack: ${task.replace(/\s+/g, " ")}`,
    "",
    `Budget: ${budgetTokens} tokens, counted with the ${tokenizer} tokenizer, over the whole pack including this header and the code fences.`,
  ];
  if (!full) return escapeControls(`${lines.join("\n")}\n`);
  const n = result.context.length;
  lines.push(
    n > 0
      ? `The context, ${n} file${n === 1 ? "" : "s"} best first (${result.decision.replace(/ \((.*)\)$/, ", $1")}), as code; ` +
          (result.supporting.length > 0 ? `then ${result.supporting.length} file${result.supporting.length === 1 ? "" : "s"} to read beside it, as the signatures of the names it uses; ` : "") +
          "then the next candidates by name. A file that does not fit whole shows its matched definitions whole and the rest as signatures, then signatures only, then names only."
      : `Nothing handed over: ${result.decision}. The next candidates are listed by name.`,
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
    parts.push(`context: ${list(cycle.context.map((h) => `${h.path} (${formatRelevance(h.relevance)})`), 5)}`);
    if (cycle.excluded.length > 0) parts.push(`excluded ${cycle.excluded.length}`);
    if (cycle.addedKeywords.length > 0) parts.push(`refined: added ${list(cycle.addedKeywords, 5)}`);
    if (cycle.stop) parts.push(`stopped: ${cycle.stop}`);
    lines.push(`- Cycle ${cycle.cycle}: ${parts.join("; ")}`);
  }
  if (result.gaps.length > 0) lines.push(`- Gaps left: ${list(result.gaps, 4)}`);
  return escapeControls(`${lines.join("\n")}\n`);
}

async function loadEntry(file: RetrievedFile, rank: number, options: ContextPackOptions, supporting?: SupportingFile): Promise<PackFile> {
  const role = supporting ? "supporting" : "context";
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
    return { file, rank, role, ...(supporting ? { supporting } : {}), lines: splitLines(text), definitions, matched };
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
    return { file, rank, role, ...(supporting ? { supporting } : {}), lines: [], definitions, matched: [], readError: message };
  }
}

/** A reason cut at a word to at most `max` characters, on one line. */
function shortReason(reason: string, max = MAX_LISTED_REASON_CHARS): string {
  const flat = reason.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[;,:]$/, "")}…`;
}

function listedLine(file: RetrievedFile, rank: number): string {
  return escapeControls(`- ${rank}. ${file.path} · ${formatRelevance(file.relevance)} ${file.band} · ${shortReason(file.reason)}\n`);
}

/** A supporting file's section: the signature lines of the names the context uses from it, else their names. */
function fitSupporting(entry: PackFile, room: number, counter: TokenCounter): { text: string; form: PackForm } | undefined {
  // a file the context uses shows the names used; one that uses the context shows all its signatures
  const names = new Set(entry.supporting?.tie === "defines" ? entry.supporting.names : []);
  const used = entry.definitions.filter((d) => names.has(d.name) || (d.container !== undefined && names.has(`${d.container}.${d.name}`)));
  const shownDefinitions = used.length > 0 ? used : entry.definitions;
  if (entry.readError === undefined) {
    const keep = [...new Set(shownDefinitions.map((d) => d.startLine))].filter((n) => n >= 1 && n <= entry.lines.length).sort((a, b) => a - b);
    if (keep.length > 0) {
      const text = codeSection(entry, `${used.length > 0 ? "signatures of the names used" : "signatures"} (${keep.length} of ${entry.lines.length} lines)`, keep);
      if (counter.fits(text, room)) return { text, form: "signatures" };
    }
  }
  const text = namesSection({ ...entry, definitions: shownDefinitions });
  return counter.fits(text, room) ? { text, form: "names" } : undefined;
}

/** A supporting file as a ranked file, when the ranking did not show it. */
function unrankedFile(path: string, codeGraph: CodeGraph): RetrievedFile {
  return { path, relevance: 0, band: "excluded", reason: "not ranked", missingContext: [], tokens: codeGraph.files.get(path)?.tokens ?? 0, cycle: 0, matchedTerms: [] };
}

/**
 * Build the context pack of a retrieval under a token budget: its text and
 * what it holds (each file's form, the files left out, the token count).
 *
 * @example
 * const pack = await buildContextPack(result, { codeGraph, readFile, budgetTokens: 8000 });
 * pack.tokens <= 8000; // true
 * pack.files.filter((f) => f.form === "listed").map((f) => f.path); // the next candidates, by name
 */
export async function buildContextPack(result: RetrievalResult, options: ContextPackOptions): Promise<ContextPack> {
  const budgetTokens = options.budgetTokens ?? DEFAULT_PACK_BUDGET_TOKENS;
  if (!Number.isInteger(budgetTokens) || budgetTokens < 1) {
    throw new UsageError(`renderContextPack: budgetTokens must be a positive whole number, got ${String(budgetTokens)}`);
  }
  const counter = await loadTokenCounter();
  const minRelevance = options.minRelevance ?? NEAR_RELEVANCE;
  const minFiles = Math.max(0, options.minFiles ?? MIN_LISTED_FILES);
  const rankOf = new Map(result.files.map((file, index) => [file.path, { file, rank: index + 1 }]));
  const inContext = new Set(result.context);
  const supportingPaths = new Set(result.supporting.map((s) => s.path));
  const contextFiles = result.context.flatMap((path) => {
    const ranked = rankOf.get(path);
    return ranked ? [ranked] : [];
  });
  const candidates = result.files
    .map((file, index) => ({ file, rank: index + 1 }))
    .filter(({ file, rank }) => !inContext.has(file.path) && !supportingPaths.has(file.path) && (rank <= minFiles || file.relevance >= minRelevance));
  const headerOptions = { budgetTokens, tokenizer: counter.name };
  const fullHeader = header(result, { ...headerOptions, full: true });
  const shortHeader = header(result, { ...headerOptions, full: false });
  const done = (text: string, files: PackedFile[], leftOut: string[]): ContextPack => ({
    text,
    tokens: counter.count(text),
    budgetTokens,
    tokenizer: counter.name,
    files,
    leftOut,
  });
  if (result.files.length === 0) {
    const text = `${fullHeader}\nNo file matched the task (try other words or --keywords).\n`;
    if (counter.fits(text, budgetTokens)) return done(text, [], []);
    if (counter.fits(shortHeader, budgetTokens)) return done(shortHeader, [], []);
    throw tooSmall(budgetTokens, counter.count(shortHeader));
  }

  // blocks[0] is the header, then one block a shown file; a listed file's line goes to `listed`
  const blocks: string[] = [];
  const files: PackedFile[] = [];
  const listed: { line: string; file: PackedFile }[] = [];
  const leftOut: string[] = [];
  let used = 0;

  const first = contextFiles[0];
  if (first) {
    // the first context file is always in, with the full header when its signatures (or better) fit beside it
    const top = await loadEntry(first.file, first.rank, options);
    const topWithFull = fitSection(top, budgetTokens - counter.count(fullHeader), counter);
    const topWithShort = fitSection(top, budgetTokens - counter.count(shortHeader), counter);
    const isGood = (fit: { form: PackForm } | undefined): boolean => fit !== undefined && fit.form !== "names";
    const useFull = isGood(topWithFull) || (!isGood(topWithShort) && topWithFull !== undefined);
    const head = useFull ? fullHeader : shortHeader;
    blocks.push(head);
    used += counter.count(head);
    const topFit = useFull ? topWithFull : topWithShort;
    const topText = topFit?.text ?? fitNamesShortened(top, budgetTokens - used, counter);
    if (topText === undefined) throw tooSmall(budgetTokens, used + counter.count(namesSection(top, 0)));
    blocks.push(topText);
    files.push({ path: top.file.path, relevance: top.file.relevance, form: topFit?.form ?? "names" });
    used += counter.count(topText);
  } else {
    const head = counter.fits(fullHeader, budgetTokens) ? fullHeader : shortHeader;
    if (!counter.fits(head, budgetTokens)) throw tooSmall(budgetTokens, counter.count(shortHeader));
    blocks.push(head);
    used += counter.count(head);
  }

  for (const { file, rank } of contextFiles.slice(1)) {
    const entry = await loadEntry(file, rank, options);
    const fit = fitSection(entry, budgetTokens - used, counter);
    if (!fit) {
      leftOut.push(file.path);
      continue;
    }
    blocks.push(fit.text);
    files.push({ path: file.path, relevance: file.relevance, form: fit.form });
    used += counter.count(fit.text);
  }
  for (const supporting of result.supporting) {
    const ranked = rankOf.get(supporting.path);
    const entry = await loadEntry(ranked?.file ?? unrankedFile(supporting.path, options.codeGraph), ranked?.rank ?? 0, options, supporting);
    const fit = fitSupporting(entry, budgetTokens - used, counter);
    if (!fit) {
      leftOut.push(supporting.path);
      continue;
    }
    blocks.push(fit.text);
    files.push({ path: supporting.path, relevance: entry.file.relevance, form: fit.form });
    used += counter.count(fit.text);
  }

  const listHeading = `\n## Next candidates, by name only\n\n`;
  let listCost = counter.count(listHeading);
  for (const { file, rank } of candidates) {
    const line = listedLine(file, rank);
    const cost = counter.count(line) + (listed.length === 0 ? listCost : 0);
    if (used + cost > budgetTokens) {
      leftOut.push(file.path);
      continue;
    }
    listed.push({ line, file: { path: file.path, relevance: file.relevance, form: "listed" } });
    used += cost;
    listCost = 0;
  }

  const assemble = (footer: string): string =>
    blocks.join("") + (listed.length > 0 ? listHeading + listed.map((l) => l.line).join("") : "") + footer;
  const order = new Map([...contextFiles.map((c) => c.file.path), ...result.supporting.map((s) => s.path), ...candidates.map((c) => c.file.path)].map((p, i) => [p, i]));
  const relevanceOf = (path: string) => rankOf.get(path)?.file.relevance ?? 0;
  const footersFor = (out: readonly string[]): string[] =>
    out.length === 0
      ? [""]
      : [
          escapeControls(`\nLeft out for the budget: ${list(out.map((p) => `${p} (${formatRelevance(relevanceOf(p))})`))}\n`),
          `\nLeft out for the budget: ${out.length} file${out.length === 1 ? "" : "s"}\n`,
          "",
        ];
  // sums of the blocks' counts are close to the whole's but not exact (BPE merges across a seam):
  // the whole is counted, and the last files given back until it fits
  for (;;) {
    leftOut.sort((a, b) => order.get(a)! - order.get(b)!);
    for (const footer of footersFor(leftOut)) {
      const text = assemble(footer);
      if (counter.fits(text, budgetTokens)) return done(text, [...files, ...listed.map((l) => l.file)], [...leftOut]);
    }
    const dropped = listed.pop()?.file ?? (blocks.length > 2 ? files.pop() : undefined);
    if (dropped === undefined) break;
    if (dropped.form !== "listed") blocks.pop();
    leftOut.push(dropped.path);
  }
  throw tooSmall(budgetTokens, counter.count(assemble("")));
}

/**
 * Render the context pack of a retrieval under a token budget (the text of
 * {@link buildContextPack}).
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
  return (await buildContextPack(result, options)).text;
}

function tooSmall(budgetTokens: number, neededTokens: number): UsageError {
  return new UsageError(
    `renderContextPack: a budget of ${budgetTokens} tokens cannot hold the pack's header and the top file's name (give ${neededTokens} tokens or more)`,
  );
}
