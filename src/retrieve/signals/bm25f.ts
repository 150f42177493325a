/**
 * BM25F over code-aware fields (Robertson, Zaragoza & Taylor, "Simple BM25
 * extension to multiple weighted fields", CIKM 2004): each field's term
 * count is length-normalised and weighted, summed, then saturated once.
 * Rare terms count more (idf over this codebase's files).
 */
import { FIELD_INDEX, type Field, type IndexedFile, type LexicalIndex } from "../lexical-index.js";

export interface WeightedTerm {
  term: string;
  weight: number;
}

export interface Bm25fParameters {
  k1: number;
  /** Saturate the weighted sum of fields once (BM25F), or each field on its own and then weight (a file name match then counts whatever the body repeats). */
  perFieldSaturation: boolean;
  fieldWeights: Record<Field, number>;
  fieldB: Record<Field, number>;
}

export const DEFAULT_BM25F: Bm25fParameters = {
  k1: 2,
  perFieldSaturation: false,
  fieldWeights: { name: 3, folder: 1.5, definitions: 2, identifiers: 1, comments: 0.6 },
  fieldB: { name: 0.3, folder: 0.3, definitions: 0.75, identifiers: 0.75, comments: 0.75 },
};

export interface TermMatch {
  term: string;
  /** The term's contribution to the score. */
  score: number;
  fields: Field[];
}

export interface LexicalScore {
  score: number;
  matches: TermMatch[];
}

/** Inverse document frequency, never negative. */
export function idf(index: LexicalIndex, term: string): number {
  const n = index.files.length;
  const df = index.documentFrequency.get(term) ?? 0;
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

/**
 * @example
 * const { score, matches } = scoreBm25f(index, index.byPath.get("src/auth/tokens.ts")!, [{ term: "token", weight: 1 }]);
 */
export function scoreBm25f(
  index: LexicalIndex,
  file: IndexedFile,
  terms: readonly WeightedTerm[],
  parameters: Bm25fParameters = DEFAULT_BM25F,
): LexicalScore {
  let score = 0;
  const matches: TermMatch[] = [];
  for (const { term, weight } of terms) {
    const counts = file.termCounts(term);
    if (!counts) continue;
    let pseudoFrequency = 0;
    let saturatedSum = 0;
    const fields: Field[] = [];
    for (const field of Object.keys(parameters.fieldWeights) as Field[]) {
      const tf = counts[FIELD_INDEX[field]];
      if (!tf) continue;
      const b = parameters.fieldB[field];
      const norm = 1 - b + (b * file.lengths[field]) / index.averageLengths[field];
      const normalised = tf / norm;
      pseudoFrequency += parameters.fieldWeights[field] * normalised;
      saturatedSum += (parameters.fieldWeights[field] * normalised) / (parameters.k1 + normalised);
      fields.push(field);
    }
    if (pseudoFrequency <= 0) continue;
    const saturated = parameters.perFieldSaturation ? saturatedSum : pseudoFrequency / (parameters.k1 + pseudoFrequency);
    const contribution = weight * idf(index, term) * saturated;
    score += contribution;
    matches.push({ term, score: contribution, fields });
  }
  matches.sort((a, b) => b.score - a.score || (a.term < b.term ? -1 : 1));
  return { score, matches };
}
