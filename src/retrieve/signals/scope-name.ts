/**
 * Scope name: a conventional-commit scope (`router` of `fix(router): …`,
 * `subscribe` of `subscribe: …`) names the part of the code a change is
 * in, and a file's name says what it is about. The share of the scope's
 * terms a file's name holds, in [0, 1]. A scope that names a folder of the
 * codebase (`Schedulers: …` beside `src/scheduler/`, `parse: …` beside
 * `src/parse/`) names an area, not a file: then the share is that of the
 * file's folders, and a file named for the scope elsewhere gets nothing.
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

/**
 * True when the scope names a folder: some file's folders hold every one of
 * the scope's terms.
 *
 * @example
 * scopeNamesFolder([new Map([["src", 1], ["schedul", 1]])], scopeTermsOf(["Schedulers"])); // true
 * scopeNamesFolder([new Map([["src", 1]])], scopeTermsOf(["subscribe"]));                  // false
 */
export function scopeNamesFolder(folders: Iterable<ReadonlyMap<string, number>>, scopeTerms: readonly string[]): boolean {
  if (scopeTerms.length === 0) return false;
  for (const folder of folders) if (scopeNameShare(folder, scopeTerms) === 1) return true;
  return false;
}
