/**
 * Lexical evidence of one file for a query, in one pass over the query's
 * terms: BM25F as the retriever weighs the fields, plain BM25 with every
 * field alike (the reference ranking), BM25 of each field alone, and how
 * much of the task the file covers (by concept weight, by idf, in its name,
 * in its definitions). Raw values; the extractor adds the ones relative to
 * the task's best file.
 */
import { FIELDS, type Field, type IndexedFile, type LexicalIndex } from "../lexical-index.js";
import type { CycleQuery } from "../retrieval-context.js";
import { idf, type Bm25fParameters, type TermMatch } from "../signals/bm25f.js";

export interface LexicalEvidence {
  /** BM25F with the retriever's field weights (DISPATCH's score). */
  bm25f: number;
  /** BM25F with every field weighted 1 and b = 0.75: a plain code-aware BM25. */
  plain: number;
  /** BM25 of each field alone (k1 1.2, the field's own length normalisation). */
  field: Record<Field, number>;
  /** Share of the task's concept weight the file's terms cover, in [0, 1]. */
  coverage: number;
  /** The same, counting only terms in the file's name or folders. */
  pathCoverage: number;
  /** The same, counting only terms in its definition names. */
  definitionCoverage: number;
  /** Share of the query's idf mass the file holds. */
  idfCoverage: number;
  /** The highest idf among the terms it holds, over the highest idf of the query. */
  rarestMatch: number;
  /** Query terms held. */
  matchedTerms: number;
  /** The BM25F matches, best first (for reasons and refinement). */
  matches: TermMatch[];
}

const FIELD_K1 = 1.2;
const FIELD_B: Record<Field, number> = { name: 0.3, folder: 0.3, definitions: 0.75, identifiers: 0.75, comments: 0.75 };
const PLAIN_B = 0.75;
const PLAIN_K1 = 1.2;

/** Per query term, what every file's evidence needs: its weight, idf and concept. */
export interface PreparedTerm {
  term: string;
  weight: number;
  idf: number;
  concept?: string;
  conceptWeight: number;
}

/** The query's terms with their idf over this codebase, each term once (highest weight kept). */
export function prepareTerms(index: LexicalIndex, query: CycleQuery): PreparedTerm[] {
  const byTerm = new Map<string, PreparedTerm>();
  for (const keyword of query.keywords) {
    const known = byTerm.get(keyword.term);
    if (known && known.weight >= keyword.weight) continue;
    const concept = keyword.concept !== undefined && query.concepts.has(keyword.concept) ? keyword.concept : undefined;
    byTerm.set(keyword.term, {
      term: keyword.term,
      weight: keyword.weight,
      idf: idf(index, keyword.term),
      ...(concept !== undefined ? { concept } : {}),
      conceptWeight: concept !== undefined ? (query.concepts.get(concept) ?? 0) : 0,
    });
  }
  return [...byTerm.values()];
}

/**
 * @example
 * const terms = prepareTerms(index, query);
 * lexicalEvidence(index, index.byPath.get("src/auth/tokens.ts")!, terms, DEFAULT_BM25F).coverage; // 0.67
 */
export function lexicalEvidence(index: LexicalIndex, file: IndexedFile, terms: readonly PreparedTerm[], bm25f: Bm25fParameters): LexicalEvidence {
  const field = { name: 0, folder: 0, definitions: 0, identifiers: 0, comments: 0 } as Record<Field, number>;
  let score = 0;
  let plainFrequency = 0;
  let plain = 0;
  let idfTotal = 0;
  let idfHeld = 0;
  let maxIdf = 0;
  let rarest = 0;
  let matched = 0;
  const matches: TermMatch[] = [];
  const conceptTotal = new Map<string, number>();
  const covered = new Set<string>();
  const pathCovered = new Set<string>();
  const definitionCovered = new Set<string>();
  for (const t of terms) {
    idfTotal += t.weight * t.idf;
    maxIdf = Math.max(maxIdf, t.idf);
    if (t.concept !== undefined) conceptTotal.set(t.concept, t.conceptWeight);
    const counts = file.termCounts(t.term);
    if (!counts) continue;
    matched++;
    idfHeld += t.weight * t.idf;
    rarest = Math.max(rarest, t.idf);
    let pseudo = 0;
    plainFrequency = 0;
    const fields: Field[] = [];
    for (let fi = 0; fi < FIELDS.length; fi++) {
      const f = FIELDS[fi]!;
      const tf = counts[fi];
      if (!tf) continue;
      fields.push(f);
      const ratio = file.lengths[f] / index.averageLengths[f];
      const own = tf / (1 - FIELD_B[f] + FIELD_B[f] * ratio);
      field[f] += t.weight * t.idf * own / (FIELD_K1 + own);
      const b = bm25f.fieldB[f];
      pseudo += bm25f.fieldWeights[f] * (tf / (1 - b + b * ratio));
      plainFrequency += tf / (1 - PLAIN_B + PLAIN_B * ratio);
    }
    if (pseudo > 0) {
      const contribution = t.weight * t.idf * (pseudo / (bm25f.k1 + pseudo));
      score += contribution;
      matches.push({ term: t.term, score: contribution, fields });
    }
    plain += t.weight * t.idf * (plainFrequency / (PLAIN_K1 + plainFrequency));
    if (t.concept !== undefined) {
      covered.add(t.concept);
      if (fields.includes("name") || fields.includes("folder")) pathCovered.add(t.concept);
      if (fields.includes("definitions")) definitionCovered.add(t.concept);
    }
  }
  matches.sort((a, b) => b.score - a.score || (a.term < b.term ? -1 : 1));
  let conceptSum = 0;
  for (const weight of conceptTotal.values()) conceptSum += weight;
  const share = (set: ReadonlySet<string>) => {
    if (conceptSum <= 0) return 0;
    let sum = 0;
    for (const concept of set) sum += conceptTotal.get(concept) ?? 0;
    return sum / conceptSum;
  };
  return {
    bm25f: score,
    plain,
    field,
    coverage: share(covered),
    pathCoverage: share(pathCovered),
    definitionCoverage: share(definitionCovered),
    idfCoverage: idfTotal > 0 ? idfHeld / idfTotal : 0,
    rarestMatch: maxIdf > 0 ? rarest / maxIdf : 0,
    matchedTerms: matched,
    matches,
  };
}
