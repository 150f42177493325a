/**
 * A file's vocabulary for BM25F-style matching: three fields of normalised
 * term counts, made with util/terms.ts so parse and retrieve agree.
 */
import type { FileVocabulary, TermCounts } from "../types.js";
import { countTerms } from "../util/terms.js";

/** Longest string literal read as prose, in characters. */
export const MAX_PROSE_STRING_CHARS = 300;

const PROSE = /^[A-Za-z][A-Za-z' ,.!?:;()-]*$/;

/**
 * True for a string literal that reads as words ("token expired", "Not
 * found"): letters, spaces and punctuation only, so no paths, URLs,
 * selectors or code.
 *
 * @example
 * isProseString("Token has expired.") // true
 * isProseString("./auth/token.js")    // false
 */
export function isProseString(value: string): boolean {
  return value.length <= MAX_PROSE_STRING_CHARS && PROSE.test(value);
}

/** The raw material of a vocabulary. */
export interface VocabularySource {
  /** Names of definitions and exports (each occurrence once). */
  definitionNames: readonly string[];
  /** Every other identifier or property name → its number of occurrences. */
  identifierCounts: ReadonlyMap<string, number>;
  /** Comment texts and prose string literals. */
  prose: readonly string[];
}

/**
 * Count the terms of each field.
 *
 * @example
 * buildVocabulary({ definitionNames: ["parseToken"], identifierCounts: new Map([["expiresAt", 2]]), prose: [] })
 * // { definitions: { terms: ["pars", "token"], counts: [1, 1] }, identifiers: { terms: ["expir", "at"], counts: [2, 2] },
 * //   comments: { terms: [], counts: [] } }
 */
export function buildVocabulary(source: VocabularySource): FileVocabulary {
  const definitions: Record<string, number> = {};
  const identifiers: Record<string, number> = {};
  const comments: Record<string, number> = {};
  for (const name of source.definitionNames) countTerms(definitions, name);
  for (const [name, count] of source.identifierCounts) {
    if (count > 0) countTerms(identifiers, name, count);
  }
  for (const text of source.prose) countTerms(comments, text);
  return { definitions: termCountsOf(definitions), identifiers: termCountsOf(identifiers), comments: termCountsOf(comments) };
}

/** A term → count record as parallel arrays, in the record's order. */
function termCountsOf(record: Record<string, number>): TermCounts {
  return { terms: Object.keys(record), counts: Object.values(record) };
}
