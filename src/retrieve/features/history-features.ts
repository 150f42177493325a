/**
 * The repository's history as evidence for one task (see
 * history/file-history.ts): how well the words of the commits that changed
 * a file match the task (BM25 over its commit vocabulary: the code says
 * "hydration" where its fixes did), how often and how lately it changed,
 * and the files it changes with. A file whose past commits speak the task's
 * words is one the task is likely about; a file that changes with a likely
 * file is likely the second file of the change.
 */
import { vocabularyOf, type FileHistory } from "../../history/file-history.js";
import { hanPairs } from "../../util/terms.js";
import type { TaskQuery } from "../query.js";
import type { PreparedTerm } from "./lexical-features.js";

/** A term of the commit-vocabulary query: the task's terms, and its Chinese character pairs at half weight. */
export interface HistoryTerm {
  term: string;
  weight: number;
  idf: number;
}

/** The task against the history's commit vocabularies: its terms, and each file's weight for each of them. */
export interface HistoryQuery {
  terms: HistoryTerm[];
  /** term → path → weight in the file's commit vocabulary. */
  weights: Map<string, Map<string, number>>;
  /** path → BM25 of the task over its commit vocabulary (files with none are absent). */
  scores: Map<string, number>;
}

const K1 = 1.2;
const B = 0.75;
/** Weight of a Chinese character pair against a whole term. */
const PAIR_WEIGHT = 0.5;

/**
 * The task's query over commit vocabularies (term weights as frequencies, a
 * vocabulary's total weight as its length, idf over the files the history
 * knows), scored for every file at once.
 *
 * @example
 * historyQueryOf(history, taskQuery, terms).scores.get("src/hydrate.ts"); // 3.1
 */
export function historyQueryOf(history: FileHistory, taskQuery: TaskQuery, terms: readonly PreparedTerm[]): HistoryQuery {
  const asked = new Map<string, number>();
  for (const t of terms) if (!asked.has(t.term)) asked.set(t.term, t.weight);
  for (const pair of hanPairs(taskQuery.task)) if (!asked.has(pair)) asked.set(pair, PAIR_WEIGHT);
  const { weights, documentFrequency } = vocabularyOf(history, [...asked.keys()]);
  const n = history.vocabularyLength.size;
  const query: HistoryTerm[] = [];
  for (const [term, weight] of asked) {
    const df = documentFrequency.get(term) ?? 0;
    if (df === 0) continue;
    query.push({ term, weight, idf: Math.log(1 + (n - df + 0.5) / (df + 0.5)) });
  }
  const scores = new Map<string, number>();
  for (const t of query) {
    for (const [path, tf] of weights.get(t.term) ?? []) {
      const norm = 1 - B + (B * (history.vocabularyLength.get(path) ?? 0)) / Math.max(1e-9, history.averageLength);
      const f = tf / norm;
      scores.set(path, (scores.get(path) ?? 0) + t.weight * t.idf * (f / (K1 + f)));
    }
  }
  return { terms: query, weights, scores };
}

/** The terms of a file's commit vocabulary that the task holds, heaviest first: what a reason quotes. */
export function matchedHistoryTerms(query: HistoryQuery, path: string, max = 3): string[] {
  return query.terms
    .filter((t) => !t.term.startsWith("zh:") && (query.weights.get(t.term)?.get(path) ?? 0) > 0)
    .map((t) => ({ term: t.term, value: t.weight * t.idf * (query.weights.get(t.term)?.get(path) ?? 0) }))
    .sort((a, b) => b.value - a.value || (a.term < b.term ? -1 : 1))
    .slice(0, max)
    .map((t) => t.term);
}

/** Co-change of `b` with `a`, against a's heaviest partner: 1 for the file a changes with most. */
export function cochangeShare(history: FileHistory, a: string, b: string): number {
  const row = history.cochange.get(a);
  if (!row) return 0;
  const weight = row.get(b) ?? 0;
  if (weight === 0) return 0;
  const max = history.cochangeMax.get(a) ?? 0;
  return max > 0 ? weight / max : 0;
}

/** Past commits whose messages are most like the task lend their files their likeness (BugLocator's similar fixes). */
export const SIMILAR_COMMITS = 20;

/**
 * The past commits most like the task (BM25 of the task's terms over each
 * message, idf over commits, the older the less), and per file the sum and
 * the best of the likeness of those that changed it, a commit's likeness
 * shared among its files by the square root of their number. Read through
 * the history's term → commits index: only the commits holding a task term
 * are visited.
 *
 * @example
 * similarCommits(history, terms).get("src/hydrate.ts"); // { sum: 4.2, max: 3.0 }
 */
export function similarCommits(history: FileHistory, terms: readonly HistoryTerm[]): Map<string, { sum: number; max: number }> {
  const n = history.commitFiles.length;
  const raw = new Map<number, number>();
  for (const t of terms) {
    const df = history.commitFrequency.get(t.term) ?? 0;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    // termCommits holds only the commits that changed files of the codebase
    for (const c of history.termCommits.get(t.term) ?? []) raw.set(c, (raw.get(c) ?? 0) + t.weight * idf);
  }
  const scores: Array<[number, number]> = [];
  for (const [c, score] of raw) if (score > 0) scores.push([c, score * (0.5 + 0.5 * history.commitRecency[c]!)]);
  scores.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  const byFile = new Map<string, { sum: number; max: number }>();
  for (const [c, score] of scores.slice(0, SIMILAR_COMMITS)) {
    const files = history.commitFiles[c]!;
    const share = score / Math.sqrt(files.length);
    for (const file of files) {
      const known = byFile.get(file) ?? { sum: 0, max: 0 };
      known.sum += share;
      known.max = Math.max(known.max, score);
      byFile.set(file, known);
    }
  }
  return byFile;
}
