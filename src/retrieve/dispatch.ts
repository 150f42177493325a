/**
 * DISPATCH: the broad query of a cycle. Scores every file lexically against
 * the cycle's keywords (BM25F: definition names and paths first, then
 * identifiers, then comments; rare terms count more) and keeps the best as
 * candidates, plus the focus files REFINE asked for.
 */
import type { IndexedFile } from "./lexical-index.js";
import type { CycleQuery, RetrievalContext } from "./retrieval-context.js";
import { DEFAULT_BM25F, scoreBm25f, type Bm25fParameters, type LexicalScore } from "./signals/bm25f.js";

export interface Candidate {
  path: string;
  file: IndexedFile;
  lexical: LexicalScore;
  /** Task identifiers this file defines by exactly that name. */
  definesIdentifiers: string[];
  /** Set when the file came in through an import edge rather than its words: the high file it was reached from. */
  expandedFrom?: string;
}

export interface DispatchOptions {
  /** Most lexical candidates kept per cycle. */
  maxCandidates: number;
  /** Leave test files out unless the task talks about tests. */
  excludeTests: boolean;
  /** Path filter from the caller's include/exclude globs. */
  isAllowed: (path: string) => boolean;
  bm25f?: Bm25fParameters;
}

/** An excluded file comes back when a term REFINE just added names it (in its file name or its definitions). */
export function isRecalled(file: IndexedFile, newTerms: ReadonlySet<string>): boolean {
  for (const term of newTerms) if (file.fields.name.has(term) || file.fields.definitions.has(term)) return true;
  return false;
}

/** Task identifiers (lower-cased) that the file defines by exactly that name. */
export function definedIdentifiers(file: IndexedFile, identifiers: readonly string[]): string[] {
  return identifiers.filter((id) => file.definedNames.has(id));
}

/**
 * @example
 * const candidates = dispatch(context, query, { maxCandidates: 40, excludeTests: true, isAllowed: () => true });
 */
export function dispatch(
  context: RetrievalContext,
  query: CycleQuery,
  options: DispatchOptions,
  carried: ReadonlySet<string> = new Set(),
): Candidate[] {
  const weighted = query.keywords.map((k) => ({ term: k.term, weight: k.weight }));
  const scored: Candidate[] = [];
  for (const file of context.index.files) {
    if (!options.isAllowed(file.path)) continue;
    if (query.excluded.has(file.path) && !isRecalled(file, query.newTerms)) continue;
    if (options.excludeTests && file.isTest) continue;
    const lexical = scoreBm25f(context.index, file, weighted, options.bm25f ?? DEFAULT_BM25F);
    const definesIdentifiers = definedIdentifiers(file, query.identifiers);
    if (lexical.score <= 0 && definesIdentifiers.length === 0 && !query.focus.has(file.path) && !carried.has(file.path)) continue;
    scored.push({ path: file.path, file, lexical, definesIdentifiers });
  }
  scored.sort((a, b) => b.lexical.score - a.lexical.score || (a.path < b.path ? -1 : 1));
  const kept = scored.slice(0, options.maxCandidates);
  // exact identifier matches, focus files and earlier candidates always come in
  for (const candidate of scored.slice(options.maxCandidates)) {
    const focusFrom = query.focus.get(candidate.path);
    if (candidate.definesIdentifiers.length > 0 || focusFrom !== undefined || carried.has(candidate.path)) {
      kept.push(focusFrom !== undefined && !carried.has(candidate.path) ? { ...candidate, expandedFrom: focusFrom } : candidate);
    }
  }
  for (const candidate of kept) {
    const focusFrom = query.focus.get(candidate.path);
    if (focusFrom !== undefined && candidate.lexical.score <= 0 && !carried.has(candidate.path)) candidate.expandedFrom = focusFrom;
  }
  return kept;
}
