/**
 * REFINE: from one cycle's evaluation, the next cycle's search.
 * - exclusions: files below 0.2 leave the search, unless they are among
 *   the anchors (the high files and the best three) or tied to an anchor
 *   or a likely file (≥ 0.5): the next cycle weighs that tie. The best
 *   three anchor even below 0.7: a calibrated relevance seldom reaches it
 *   for the second file of a change, whose dependencies are the pattern's
 *   cycle-2 candidates;
 * - expansion: along the graph from the files at 0.7 or more (the best three
 *   while there are none) toward their gaps: the files whose names they
 *   use, then the files they changed with before (with history), then the
 *   files they import and that import them, that the pool lacks;
 * - gaps: what the context's files (the decided context,
 *   decide-context.ts) use from files outside it; a gap is critical while
 *   its file has not been scored (it is not in the pool yet): another
 *   cycle can settle it;
 * - patterns: the folders of the context's files.
 * The codebase's own words (synonyms for task words no code names) are
 * learned before the first cycle (features/task-query.ts), so the model is
 * trained on the query it sees.
 */
import { byCodeUnit } from "../util/sort.js";
import { CONTEXT_THRESHOLD, EXCLUDE_BELOW, MEDIUM_BAND } from "./bands.js";
import type { Evaluation } from "./evaluate.js";
import type { TaskFeatures } from "./features/extract.js";
import { EXPANSION_PER_FILE } from "./parameters.js";
import type { RetrievalContext } from "./retrieval-context.js";

export interface Refinement {
  /** Files excluded by this cycle, sorted. */
  excluded: string[];
  /** Files the next cycle adds to the pool, and the high file each was reached from. */
  expansions: Array<{ path: string; via: string }>;
  /** The high files' folders (`src/auth/`). */
  patterns: string[];
  gaps: string[];
  /** Gaps another cycle can settle: their file has not been scored yet. */
  criticalGaps: string[];
}

/** The files tied to `path` in the pool graph or by links: its uses, imports and importers. */
function tiedFiles(context: RetrievalContext, path: string): Set<string> {
  return new Set([
    ...(context.links.out.get(path)?.keys() ?? []),
    ...(context.links.in.get(path)?.keys() ?? []),
    ...(context.uses.get(path) ?? []).map((u) => u.file),
  ]);
}

/** What an anchor leads to that the pool lacks: the files whose names it uses (most used first), then its other links (heaviest first). */
function expansionsFrom(context: RetrievalContext, anchor: string, inPool: ReadonlySet<string>, isAllowed: (path: string) => boolean): string[] {
  const used = new Map<string, number>();
  for (const use of context.uses.get(anchor) ?? []) if (use.file !== anchor) used.set(use.file, (used.get(use.file) ?? 0) + use.count);
  const linked = new Map<string, number>();
  for (const [p, w] of context.links.out.get(anchor) ?? []) linked.set(p, w);
  for (const [p, w] of context.links.in.get(anchor) ?? []) linked.set(p, Math.max(linked.get(p) ?? 0, w / 2));
  // the files it changed with before: the history's word for what a change to it touches
  const changedWith = [...(context.history?.cochange.get(anchor) ?? new Map<string, number>()).entries()];
  const order = [
    ...[...used.entries()].sort((a, b) => b[1] - a[1] || byCodeUnit(a[0], b[0])).map(([p]) => p),
    ...changedWith.sort((a, b) => b[1] - a[1] || byCodeUnit(a[0], b[0])).slice(0, EXPANSION_PER_FILE / 2).map(([p]) => p),
    ...[...linked.entries()].sort((a, b) => b[1] - a[1] || byCodeUnit(a[0], b[0])).map(([p]) => p),
  ];
  const out: string[] = [];
  for (const path of order) {
    if (out.length >= EXPANSION_PER_FILE) break;
    if (path === anchor || inPool.has(path) || out.includes(path) || !isAllowed(path)) continue;
    out.push(path);
  }
  return out;
}

/**
 * @example
 * const next = refine(context, features, evaluations, excluded, (p) => true, ["src/auth/tokens.ts"]);
 * next.expansions; // [{ path: "src/lib/jwt.ts", via: "src/auth/tokens.ts" }]
 */
export function refine(
  context: RetrievalContext,
  features: TaskFeatures,
  evaluations: readonly Evaluation[],
  excludedBefore: ReadonlySet<string>,
  isAllowed: (path: string) => boolean,
  contextPaths: readonly string[],
): Refinement {
  const relevance = new Map(evaluations.map((e) => [e.path, e.relevance]));
  const high = evaluations.filter((e) => e.relevance >= CONTEXT_THRESHOLD);
  const bestThree = [...evaluations].sort((a, b) => b.relevance - a.relevance).slice(0, 3);
  const anchors = high.length > 0 ? high : bestThree;
  const kept = new Set<string>([...anchors, ...bestThree].map((e) => e.path));
  for (const e of evaluations) {
    if (e.relevance < MEDIUM_BAND && !anchors.includes(e) && !bestThree.includes(e)) continue;
    kept.add(e.path);
    for (const tied of tiedFiles(context, e.path)) kept.add(tied);
  }

  const excluded = evaluations
    .filter((e) => e.relevance < EXCLUDE_BELOW && !excludedBefore.has(e.path) && !kept.has(e.path))
    .map((e) => e.path)
    .sort(byCodeUnit);

  const inPool = new Set(features.pool.map((f) => f.path));
  const expansions: Array<{ path: string; via: string }> = [];
  const taken = new Set<string>();
  for (const anchor of anchors) {
    for (const path of expansionsFrom(context, anchor.path, inPool, isAllowed)) {
      if (taken.has(path)) continue;
      taken.add(path);
      expansions.push({ path, via: anchor.path });
    }
  }

  const gaps: string[] = [];
  const criticalGaps: string[] = [];
  const byPath = new Map(evaluations.map((e) => [e.path, e]));
  const inContext = new Set(contextPaths);
  for (const path of contextPaths) {
    for (const gap of byPath.get(path)?.missingContext ?? []) {
      gaps.push(`${path} uses ${gap}`);
      const target = /\(([^()]+)\)$/.exec(gap)?.[1];
      if (target === undefined || inContext.has(target)) continue;
      if (!inPool.has(target) && !relevance.has(target) && isAllowed(target)) criticalGaps.push(`${path} uses ${gap}`);
    }
  }
  const patterns = [...new Set(contextPaths.map((p) => p.slice(0, p.lastIndexOf("/") + 1)).filter((p) => p !== ""))].sort(byCodeUnit);
  return { excluded, expansions: expansions.sort((a, b) => byCodeUnit(a.path, b.path)), patterns, gaps: [...new Set(gaps)], criticalGaps: [...new Set(criticalGaps)] };
}
