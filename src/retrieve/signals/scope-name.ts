/**
 * Scope name: a conventional-commit scope (`router` of `fix(router): …`,
 * `subscribe` of `subscribe: …`) names the part of the code a change is
 * in, and a file's name says what it is about. The share of the scope's
 * terms a file's name holds, in [0, 1]. A scope that names a folder of the
 * codebase (`Schedulers: …` beside `src/scheduler/`, `parse: …` beside
 * `src/parse/`) names an area, not a file: then the share is that of the
 * file's folders, and a file named for the scope elsewhere gets nothing
 * (whether some file's folders hold every scope term is the lexical
 * index's `folderHoldsAll`, read from its postings).
 */
import { termsOf } from "../../util/terms.js";

/** The terms of the scopes as written, each once, in order. */
export function scopeTermsOf(scopes: readonly string[]): string[] {
  return [...new Set(scopes.flatMap((scope) => termsOf(scope)))];
}

/**
 * @example
 * scopeNameShare(new Map([["subscrib", 1]]), scopeTermsOf(["subscribe"])); // 1
 * scopeNameShare(new Map([["bind", 1], ["callback", 1]]), scopeTermsOf(["subscribe"])); // 0
 */
export function scopeNameShare(nameTerms: ReadonlyMap<string, number>, scopeTerms: readonly string[]): number {
  if (scopeTerms.length === 0) return 0;
  return scopeTerms.filter((term) => nameTerms.has(term)).length / scopeTerms.length;
}
