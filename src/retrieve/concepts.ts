/**
 * From the parsed task to the first cycle's query, in this codebase's terms:
 * - each task word is a concept; its keywords are the word and the
 *   abbreviations of it the codebase uses ("auth" for "authentication",
 *   "config" for "configuration", "param" for "parameters");
 * - each concept weighs the idf of its rarest alternative present in the
 *   codebase, counting thesaurus synonyms REFINE may still try; a concept
 *   that neither the word nor any synonym can find is no evidence either
 *   way and is left out of coverage.
 */
import { byCodeUnit } from "../util/sort.js";
import type { LexicalIndex } from "./lexical-index.js";
import type { TaskQuery } from "./query.js";
import type { CycleQuery, Keyword } from "./retrieval-context.js";
import { idf } from "./signals/bm25f.js";
/** Thesaurus lookup: term → synonym terms (normalised). */
export type SynonymLookup = (terms: string[]) => Map<string, string[]>;

/** Shortest abbreviation considered, and the shortest word abbreviated. */
const MIN_ABBREVIATION = 4;
const MIN_ABBREVIATED = 6;
/** Coverage weight of a concept that no code names, only comments and strings. */
export const COMMENT_ONLY_WEIGHT = 0.3;
/** Query weight of an abbreviation, as a share of its word's. */
export const ABBREVIATION_WEIGHT = 0.5;

/** Terms of the codebase that abbreviate `term` (its prefixes of 4+ letters that some file uses). */
export function abbreviationsOf(index: LexicalIndex, term: string): string[] {
  if (term.length < MIN_ABBREVIATED || !/^[a-z]+$/.test(term)) return [];
  const found: string[] = [];
  for (let length = MIN_ABBREVIATION; length < term.length; length++) {
    const prefix = term.slice(0, length);
    if (index.documentFrequency.has(prefix)) found.push(prefix);
  }
  return found;
}

/**
 * A concept's weight in coverage: 1 for a specific word, less for a word
 * most files hold (its best alternative's idf against the idf of a word in
 * a tenth of the files), so "query" in a query library counts less than
 * "hydration".
 */
export function conceptWeight(index: LexicalIndex, alternatives: readonly string[]): number {
  const n = index.files.length;
  const reference = Math.log(1 + (n - n / 10 + 0.5) / (n / 10 + 0.5));
  const best = Math.max(...alternatives.map((t) => idf(index, t)));
  return Math.min(1, best / Math.max(1e-9, reference));
}

/**
 * @example
 * const query = createInitialQuery(index, parseTask("Fix the authentication token expiry bug"), synonyms);
 * query.keywords.map((k) => k.term); // ["authentic", "token", "expir", "auth"]
 */
export function createInitialQuery(
  index: LexicalIndex,
  taskQuery: TaskQuery,
  synonyms: SynonymLookup,
  phrases: (terms: string[]) => string[][] = () => [],
): CycleQuery {
  const keywords: Keyword[] = [];
  const seen = new Set<string>();
  // words of a phrase the thesaurus knows ("rate limit") are one concept
  const phraseOf = new Map<string, string>();
  for (const phrase of phrases(taskQuery.terms.map((t) => t.term))) {
    for (const word of phrase) phraseOf.set(word, phrase.join(" "));
  }
  for (const term of taskQuery.terms) {
    if (seen.has(term.term)) continue;
    seen.add(term.term);
    // a glossary word's keywords (身份验证 → authentication, auth) are one concept
    const concept = term.source === "glossary" ? term.original : (phraseOf.get(term.term) ?? term.term);
    keywords.push({ term: term.term, weight: term.weight, source: term.source, original: term.original, concept });
  }
  for (const keyword of [...keywords]) {
    for (const abbreviation of abbreviationsOf(index, keyword.term)) {
      if (seen.has(abbreviation)) continue;
      seen.add(abbreviation);
      keywords.push({
        term: abbreviation,
        weight: keyword.weight * ABBREVIATION_WEIGHT,
        source: "abbreviation",
        original: keyword.original,
        ...(keyword.concept !== undefined ? { concept: keyword.concept } : {}),
      });
    }
  }

  const lookup = synonyms(keywords.map((k) => k.term));
  const concepts = new Map<string, number>();
  for (const keyword of keywords) {
    if (keyword.concept === undefined) continue;
    const alternatives = [keyword.term, ...(lookup.get(keyword.term) ?? [])].filter((t) => index.documentFrequency.has(t));
    if (alternatives.length === 0) continue;
    // a concept only comments mention is weak evidence either way
    const inCode = alternatives.some((t) => index.codeFrequency.has(t));
    const weight = conceptWeight(index, alternatives) * Math.min(1, keyword.weight) * (inCode ? 1 : COMMENT_ONLY_WEIGHT);
    concepts.set(keyword.concept, Math.max(concepts.get(keyword.concept) ?? 0, weight));
  }
  return {
    keywords,
    identifiers: [...new Set(taskQuery.identifiers.map((id) => id.toLowerCase()))].sort(byCodeUnit),
    patterns: [],
    excluded: new Set(),
    focus: new Map(),
    concepts,
    newTerms: new Set(),
  };
}
