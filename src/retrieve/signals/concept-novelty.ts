/**
 * Concept novelty: the order of the files below the context. A change that
 * touches several files touches them for different parts of the task, so
 * among the ranked candidates a file that is named for, or defines, a task
 * concept that the files placed before it (below the context) do not is
 * worth more than one more file about the same concepts (a hub that
 * mentions everything). Greedy, in the manner of explicit query-aspect
 * diversification (Santos, Macdonald & Ounis,
 * "Exploiting query reformulations for web search result diversification",
 * WWW 2010, xQuAD), with the task's concepts as the aspects:
 *
 *   value(file) = relevance + coverageWeight × (weight of the concepts it defines)
 *                           + noveltyWeight × (weight of those no file placed before it defines)
 *
 * each time taking the file of highest value. The context's concepts do not
 * count as covered: the other files of a change often define the same
 * concept as its main file (measured: covering them from the start lost one
 * dev task). Only the order below the context changes, so the context (and
 * the best file) stay as EVALUATE left them.
 */
export interface NoveltyParameters {
  /** Share of the task's concept weight a file defines, added to its relevance. */
  coverageWeight: number;
  /** Share of the task's concept weight a file defines that no file placed before it defines, added to its relevance. */
  noveltyWeight: number;
  /** Added to the relevance of a file named for the task's scope, times the share of the scope's terms its name holds (see scope-name.ts). */
  scopeWeight: number;
  /** Added to the relevance of a file named with a plural code word of the task, times the share of those plurals its name holds (see plural-name.ts). */
  pluralWeight: number;
  /** Added to the relevance of a file that exports a name the task's prose words spell (see compound-name.ts). */
  compoundWeight: number;
  /** Added to the relevance of an entry barrel when the task speaks of imports or exports (see entry-barrel.ts). */
  entryWeight: number;
  /** Added to the relevance of a file in the best file's folder (the files of one change often sit together). */
  folderWeight: number;
}

export const DEFAULT_NOVELTY: NoveltyParameters = {
  coverageWeight: 0.05,
  noveltyWeight: 0.5,
  scopeWeight: 0.5,
  pluralWeight: 0.5,
  compoundWeight: 0.5,
  entryWeight: 0.2,
  folderWeight: 0.05,
};

export interface RankedFile {
  path: string;
  relevance: number;
  /** Task concepts the file is named for or defines (its name or definition names hold one of the concept's terms). */
  definedConcepts: readonly string[];
}

/**
 * Reorder `tail` (files below the context, best first) by concept novelty.
 * Returns each file with its new relevance (its value when picked, which
 * never rises with the picks, kept at or below `ceiling` and strictly
 * decreasing so that the order holds) and the concepts it was the first to
 * define (`novel`).
 *
 * @example
 * const order = orderByConceptNovelty(
 *   [{ path: "src/types.ts", relevance: 0.4, definedConcepts: ["query"] }, { path: "src/index.ts", relevance: 0.35, definedConcepts: [] }, { path: "src/path.ts", relevance: 0.3, definedConcepts: ["decode"] }],
 *   new Map([["query", 1], ["decode", 1]]), 0.69,
 * );
 * order.map((f) => f.path); // ["src/types.ts", "src/path.ts", "src/index.ts"]
 */
export function orderByConceptNovelty<T extends RankedFile>(
  tail: readonly T[],
  conceptWeights: ReadonlyMap<string, number>,
  ceiling: number,
  parameters: NoveltyParameters = DEFAULT_NOVELTY,
): Array<T & { relevance: number; novel: string[] }> {
  let total = 0;
  for (const weight of conceptWeights.values()) total += weight;
  const share = (concepts: Iterable<string>) => {
    if (total <= 0) return 0;
    let sum = 0;
    for (const concept of new Set(concepts)) sum += conceptWeights.get(concept) ?? 0;
    return sum / total;
  };
  const seen = new Set<string>();
  const left = tail.map((file, position) => ({ file, position, own: share(file.definedConcepts) }));
  const ordered: Array<T & { relevance: number; novel: string[] }> = [];
  let previous = ceiling + 0.001;
  while (left.length > 0) {
    let best = 0;
    let bestValue = -Infinity;
    left.forEach((entry, i) => {
      const novel = share(entry.file.definedConcepts.filter((c) => !seen.has(c)));
      const value = entry.file.relevance + parameters.coverageWeight * entry.own + parameters.noveltyWeight * novel;
      // ties keep the incoming order
      if (value > bestValue + 1e-12 || (value > bestValue - 1e-12 && entry.position < left[best]!.position)) {
        best = i;
        bestValue = value;
      }
    });
    const [picked] = left.splice(best, 1);
    const novel = [...new Set(picked!.file.definedConcepts.filter((c) => !seen.has(c) && (conceptWeights.get(c) ?? 0) > 0))];
    for (const concept of picked!.file.definedConcepts) seen.add(concept);
    const relevance = Math.max(0, Math.round(Math.min(bestValue, ceiling, previous - 0.001) * 1000) / 1000);
    previous = relevance;
    ordered.push({ ...picked!.file, relevance, novel });
  }
  return ordered;
}
