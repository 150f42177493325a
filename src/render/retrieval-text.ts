/**
 * The human report, shaped like the pattern's own: per cycle the keywords
 * searched, the candidates, the context that cycle decided with scores,
 * what was excluded and the gaps; then the final context, the files to
 * read beside it, and the next candidates.
 */
import { EXCLUDE_BELOW, formatRelevance } from "../retrieve/bands.js";
import type { RetrievalResult, SupportingFile } from "../types.js";
import { shortTask } from "./short-task.js";

const MAX_LISTED = 8;

function list(items: readonly string[], max = MAX_LISTED): string {
  if (items.length === 0) return "none";
  const shown = items.slice(0, max).join(", ");
  return items.length > max ? `${shown} … (+${items.length - max})` : shown;
}

/** Why a supporting file is read, in words: `src/auth/tokens.ts uses verifyJwt, signJwt`. */
export function supportingReason(s: SupportingFile): string {
  const names = s.names.length > 0 ? list(s.names, 6) : "its names";
  return s.tie === "defines" ? `${list(s.for, 3)} use${s.for.length === 1 ? "s" : ""} ${names}` : `it uses ${names} of ${list(s.for, 3)}`;
}

/**
 * @example
 * console.log(renderText(await retrieve("Add rate limiting to the API endpoints")));
 */
export function renderText(result: RetrievalResult): string {
  const lines: string[] = [`## Context retrieval: ${shortTask(result.task)}`, ""];
  for (const cycle of result.cycles) {
    lines.push(`Cycle ${cycle.cycle}:`);
    if (cycle.cycle === 1) lines.push(`- Searched: ${list(cycle.keywords.map((k) => `"${k}"`), 16)}`);
    if (cycle.vocabulary && cycle.vocabulary.length > 0) lines.push(`- The codebase's words: ${list(cycle.vocabulary)}`);
    if (cycle.expandedFrom.length > 0) {
      lines.push(`- Expanded along the graph: ${list(cycle.expandedFrom.map((e) => `${e.path} (from ${e.via})`))}`);
    }
    lines.push(`- Candidates: ${cycle.candidates} file${cycle.candidates === 1 ? "" : "s"}`);
    if (cycle.lifted && cycle.lifted.length > 0) {
      lines.push(`- Lifted by their ties: ${list(cycle.lifted.map((l) => `${l.path} ${formatRelevance(l.from)} → ${formatRelevance(l.to)} (${l.tie})`), 4)}`);
    }
    lines.push(`- Context: ${list(cycle.context.map((h) => `${h.path} (${formatRelevance(h.relevance)})`))}`);
    if (cycle.excluded.length > 0) lines.push(`- Excluded (< ${EXCLUDE_BELOW}): ${cycle.excluded.length} file${cycle.excluded.length === 1 ? "" : "s"}`);
    if (cycle.addedKeywords.length > 0) lines.push(`- Refined: added ${list(cycle.addedKeywords)}`);
    if (cycle.gaps.length > 0) lines.push(`- Gaps: ${list(cycle.gaps, 4)}`);
    if (cycle.stop) lines.push(`- Stopped: ${cycle.stop}`);
    lines.push("");
  }
  const inContext = new Set(result.context);
  const context = result.files.filter((f) => inContext.has(f.path));
  lines.push(
    `Final context: ${context.length} file${context.length === 1 ? "" : "s"}, ${result.stats.contextTokens} tokens, mean relevance ${formatRelevance(result.stats.meanRelevance)}: ${result.decision}`,
  );
  for (const file of context) {
    lines.push(`  ${formatRelevance(file.relevance)} ${file.band.padEnd(6)}  ${file.path}  (${file.tokens} tokens) ${file.reason}`);
    if (file.missingContext.length > 0) lines.push(`        missing: ${file.missingContext.join(", ")}`);
  }
  if (result.supporting.length > 0) {
    lines.push("Also read (as signatures):");
    for (const s of result.supporting) lines.push(`  ${s.path}, because ${supportingReason(s)}`);
  }
  const supporting = new Set(result.supporting.map((s) => s.path));
  const nearby = result.files.filter((f) => !inContext.has(f.path) && !supporting.has(f.path)).slice(0, 5);
  if (nearby.length > 0) {
    lines.push("Next candidates:");
    for (const file of nearby) lines.push(`  ${formatRelevance(file.relevance)} ${file.band.padEnd(6)}  ${file.path}  ${file.reason}`);
  }
  if (result.files.length === 0) lines.push("  (no file matched the task; try other words or --keywords)");
  else if (context.length === 0) lines.push(`  (nothing handed over: ${result.decision}; the next candidates are the best guesses)`);
  return `${lines.join("\n")}\n`;
}
