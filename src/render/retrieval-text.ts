/**
 * The human report, shaped like the pattern's own: per cycle the keywords
 * searched, the candidates, the high-relevance files with scores, what was
 * excluded and the gaps; then the final context.
 */
import { CONTEXT_THRESHOLD, EXCLUDE_BELOW, formatRelevance } from "../retrieve/bands.js";
import type { RetrievalResult } from "../types.js";
import { shortTask } from "./short-task.js";

const MAX_LISTED = 8;

function list(items: readonly string[], max = MAX_LISTED): string {
  if (items.length === 0) return "none";
  const shown = items.slice(0, max).join(", ");
  return items.length > max ? `${shown} … (+${items.length - max})` : shown;
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
    // the cycle's high files are those at the context's threshold, not the high band alone: the line says which
    lines.push(`- High relevance (≥ ${CONTEXT_THRESHOLD}): ${list(cycle.high.map((h) => `${h.path} (${formatRelevance(h.relevance)})`))}`);
    if (cycle.excluded.length > 0) lines.push(`- Excluded (< ${EXCLUDE_BELOW}): ${cycle.excluded.length} file${cycle.excluded.length === 1 ? "" : "s"}`);
    if (cycle.addedKeywords.length > 0) lines.push(`- Refined: added ${list(cycle.addedKeywords)}`);
    if (cycle.gaps.length > 0) lines.push(`- Gaps: ${list(cycle.gaps, 4)}`);
    if (cycle.stop) lines.push(`- Stopped: ${cycle.stop}`);
    lines.push("");
  }
  const context = result.files.filter((f) => f.relevance >= CONTEXT_THRESHOLD);
  lines.push(
    `Final context: ${context.length} file${context.length === 1 ? "" : "s"}, ${result.stats.contextTokens} tokens, mean relevance ${formatRelevance(result.stats.meanRelevance)}`,
  );
  for (const file of context) {
    lines.push(`  ${formatRelevance(file.relevance)}  ${file.path}  (${file.tokens} tokens) ${file.reason}`);
    if (file.missingContext.length > 0) lines.push(`        missing: ${file.missingContext.join(", ")}`);
  }
  const nearby = result.files.filter((f) => f.relevance < CONTEXT_THRESHOLD).slice(0, 5);
  if (nearby.length > 0) {
    lines.push("Next candidates:");
    for (const file of nearby) lines.push(`  ${formatRelevance(file.relevance)}  ${file.path}  ${file.reason}`);
  }
  if (result.files.length === 0) lines.push("  (no file matched the task; try other words or --keywords)");
  else if (context.length === 0) lines.push(`  (no file is likely enough to hand over: none reached ${CONTEXT_THRESHOLD}; the next candidates are the best guesses)`);
  return `${lines.join("\n")}\n`;
}
