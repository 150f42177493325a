/**
 * Why one file got its score: its rank and relevance, the cycle it entered
 * (and how: the first query or an import tie), the terms it matched and the
 * definitions that carry them, its links to the other ranked files, and its
 * gaps. Read from the result and the graph; pure.
 */
import { UsageError } from "../errors.js";
import type { CodeGraph } from "../graph/code-graph.js";
import { plainPath, suggestFilePaths } from "../graph/resolve-file-path.js";
import type { RetrievalResult, RetrievedFile } from "../types.js";
import { byCodeUnit } from "../util/sort.js";
import { termsOf } from "../util/terms.js";
import { bandRange, EXCLUDE_BELOW, formatRelevance } from "../retrieve/bands.js";
import { parseMissingContext, readFileLinks, type FileLink } from "./retrieval-subgraph.js";

const MAX_LINKS = 12;

function describeFile(path: string, ranked: ReadonlyMap<string, RetrievedFile>): string {
  const file = ranked.get(path);
  return file ? `${path} (${formatRelevance(file.relevance)} ${file.band})` : `${path} (not a candidate)`;
}

function describeLink(link: FileLink): string {
  const kind = link.isReexport ? "re-exports" : link.isImport ? "imports" : link.viaBarrels.length > 0 ? `imports through ${link.viaBarrels.join(", ")}` : "";
  const parts = [
    kind && `${kind}${link.names.length > 0 ? ` ${link.names.join(", ")}` : ""}`,
    link.references > 0 ? `${link.references} reference${link.references === 1 ? "" : "s"}` : "",
  ].filter((p) => p !== "");
  return parts.join("; ");
}

function linkLines(title: string, links: readonly FileLink[], other: (l: FileLink) => string, ranked: ReadonlyMap<string, RetrievedFile>): string[] {
  if (links.length === 0) return [`  ${title}: none`];
  // ranked files first, best first; then the rest by path
  const sorted = [...links].sort((a, b) => {
    const ra = ranked.get(other(a))?.relevance ?? -1;
    const rb = ranked.get(other(b))?.relevance ?? -1;
    return rb - ra || byCodeUnit(other(a), other(b));
  });
  const lines = [`  ${title}:`];
  for (const link of sorted.slice(0, MAX_LINKS)) lines.push(`    ${describeFile(other(link), ranked)}: ${describeLink(link)}`);
  if (sorted.length > MAX_LINKS) lines.push(`    … (+${sorted.length - MAX_LINKS} more)`);
  return lines;
}

/** A link of one file to another, for a structured explanation. */
export interface ExplainedLink {
  path: string;
  /** The other file's relevance, when it was ranked. */
  relevance?: number;
  /** `imports a, b; 2 references`, `re-exports x`. */
  how: string;
}

/** The details of an explanation as data: what {@link renderExplanation} prints after the reason. */
export interface ExplanationDetails {
  /** Definitions carrying the matched terms: `Session.expire (method, lines 10–20)`. */
  definitions: string[];
  /** Files it uses (imports or references), ranked ones best first, then by path; at most 12. */
  uses: ExplainedLink[];
  /** Files that use it, in the same order. */
  usedBy: ExplainedLink[];
  /** Ranked files whose missing context it is. */
  fillsGapOf: string[];
}

function describeDefinitionAt(d: { container?: string; name: string; kind: string; startLine: number; endLine: number }): string {
  return `${d.container ? `${d.container}.` : ""}${d.name} (${d.kind}, ${d.startLine === d.endLine ? `line ${d.startLine}` : `lines ${d.startLine}–${d.endLine}`})`;
}

function explainedLinks(links: readonly FileLink[], other: (l: FileLink) => string, ranked: ReadonlyMap<string, RetrievedFile>): ExplainedLink[] {
  return [...links]
    .sort((a, b) => (ranked.get(other(b))?.relevance ?? -1) - (ranked.get(other(a))?.relevance ?? -1) || byCodeUnit(other(a), other(b)))
    .slice(0, MAX_LINKS)
    .map((link) => {
      const relevance = ranked.get(other(link))?.relevance;
      return { path: other(link), ...(relevance !== undefined ? { relevance } : {}), how: describeLink(link) };
    });
}

/**
 * The details of one file's explanation as data (for the MCP server's
 * structured answer). `path` is a root-relative path the graph knows.
 *
 * @example
 * readExplanationDetails(result, retriever.codeGraph, "src/auth/tokens.ts").usedBy[0]; // { path: "src/auth/auth.ts", relevance: 0.93, how: "imports checkToken; 2 references" }
 */
export function readExplanationDetails(result: RetrievalResult, codeGraph: CodeGraph, path: string): ExplanationDetails {
  const ranked = new Map(result.files.map((f) => [f.path, f]));
  const file = ranked.get(path);
  const terms = new Set(file?.matchedTerms ?? []);
  const definitions = (codeGraph.files.get(path)?.definitions ?? []).filter((d) => termsOf(d.name).some((t) => terms.has(t))).map(describeDefinitionAt);
  const links = [...readFileLinks(codeGraph).values()];
  return {
    definitions,
    uses: explainedLinks(links.filter((l) => l.source === path && l.target !== path), (l) => l.target, ranked),
    usedBy: explainedLinks(links.filter((l) => l.target === path && l.source !== path), (l) => l.source, ranked),
    fillsGapOf: result.files.filter((f) => f.missingContext.some((g) => parseMissingContext(g)?.path === path)).map((f) => f.path),
  };
}

/**
 * Explain one file of a retrieval. `path` is root-relative (`src/auth/tokens.ts`);
 * a path the graph does not know is a usage error.
 *
 * @example
 * const retriever = await createRetriever({ root: "./service" });
 * const result = await retriever.retrieve("Fix the token expiry bug");
 * console.log(renderExplanation(result, retriever.codeGraph, "src/auth/tokens.ts"));
 */
export function renderExplanation(result: RetrievalResult, codeGraph: CodeGraph, path: string): string {
  const normalised = plainPath(path);
  const parsed = codeGraph.files.get(normalised);
  if (!parsed) {
    const close = suggestFilePaths([...codeGraph.files.keys()], normalised);
    const hint = close.length > 0 ? `did you mean ${close.join(", ")}?` : `give a root-relative path such as ${result.files[0]?.path ?? "src/index.ts"}`;
    throw new UsageError(`renderExplanation: "${path}" is not a source file under the root (${hint})`);
  }
  const ranked = new Map(result.files.map((f) => [f.path, f]));
  const file = ranked.get(normalised);
  const rank = result.files.findIndex((f) => f.path === normalised) + 1;
  const lines: string[] = [];

  if (!file) {
    lines.push(`${normalised}: not a candidate in ${result.stats.cycles} cycle${result.stats.cycles === 1 ? "" : "s"}`);
    lines.push("  No searched term matched it strongly enough and no import tie to a high file brought it in.");
  } else {
    const inContext = result.context.includes(normalised);
    const supporting = result.supporting.find((s) => s.path === normalised);
    const role = inContext ? "in the context" : supporting ? `a supporting file (read beside ${supporting.for.join(", ")} for ${supporting.names.join(", ")})` : "not in the context";
    lines.push(`${normalised}: rank ${rank} of ${result.files.length}, relevance ${formatRelevance(file.relevance, 3)}, ${file.band} band ${bandRange(file.band)}, ${role}`);
    const joined = result.cycles.flatMap((c) => c.expandedFrom.filter((e) => e.path === normalised).map((e) => ({ cycle: c.cycle, via: e.via })));
    const firstJoin = joined.find((j) => j.cycle === file.cycle);
    lines.push(`  Entered: cycle ${file.cycle}, ${firstJoin ? `along imports from ${firstJoin.via}` : "by the cycle's search"}`);
    const decided = result.cycles.filter((c) => c.context.some((h) => h.path === normalised)).map((c) => c.cycle);
    const excluded = result.cycles.filter((c) => c.excluded.includes(normalised)).map((c) => c.cycle);
    if (decided.length > 0) lines.push(`  In the context after cycle${decided.length === 1 ? "" : "s"}: ${decided.join(", ")}`);
    if (excluded.length > 0) lines.push(`  Excluded (< ${EXCLUDE_BELOW}) in cycle${excluded.length === 1 ? "" : "s"}: ${excluded.join(", ")}`);
    lines.push(`  Reason: ${file.reason}`);
    lines.push(`  Terms matched: ${file.matchedTerms.length > 0 ? file.matchedTerms.join(", ") : "none"}`);
    const terms = new Set(file.matchedTerms);
    const carriers = parsed.definitions.filter((d) => termsOf(d.name).some((t) => terms.has(t)));
    if (carriers.length > 0) {
      lines.push(`  Definitions carrying them: ${carriers.map((d) => `${d.container ? `${d.container}.` : ""}${d.name} (${d.kind}, ${d.startLine === d.endLine ? `line ${d.startLine}` : `lines ${d.startLine}–${d.endLine}`})`).join(", ")}`);
    }
  }
  const lastKeywords = result.cycles[result.cycles.length - 1]?.keywords ?? [];
  if (lastKeywords.length > 0) lines.push(`  Keywords searched (last cycle): ${lastKeywords.join(", ")}`);

  const links = [...readFileLinks(codeGraph).values()];
  lines.push("  Edges:");
  lines.push(...linkLines("uses", links.filter((l) => l.source === normalised && l.target !== normalised), (l) => l.target, ranked).map((l) => `  ${l}`));
  lines.push(...linkLines("used by", links.filter((l) => l.target === normalised && l.source !== normalised), (l) => l.source, ranked).map((l) => `  ${l}`));

  const gaps = file?.missingContext ?? [];
  if (gaps.length === 0) {
    lines.push(file ? "  Gaps: none" : "  Gaps: not evaluated");
  } else {
    lines.push("  Gaps (what it uses that the context lacks):");
    for (const gap of gaps) {
      const target = parseMissingContext(gap);
      lines.push(`    ${gap}${target ? ` → ${describeFile(target.path, ranked)}` : ""}`);
    }
  }
  const filledBy = result.files.filter((f) => f.missingContext.some((g) => parseMissingContext(g)?.path === normalised)).map((f) => f.path);
  if (filledBy.length > 0) lines.push(`  Would fill a gap of: ${filledBy.join(", ")}`);
  return `${lines.join("\n")}\n`;
}
