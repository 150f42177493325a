/**
 * The context as a decision: which files to hand over, chosen from each
 * file's calibrated chance that the change needs it.
 *
 * The pattern hands over "the files at 0.7 or more". That was a rule for an
 * LLM's judgement; on calibrated chances such as 0.41 / 0.27 / 0.19 it
 * hands over nothing, the worst answer when the first two are the right
 * ones. Instead the context is the set of best files that maximises the
 * expected F1 of what is handed over against the files the change needs,
 * each file needed with its chance, independently (Jansche 2007, "A
 * maximum expected utility framework for binary sequence labeling"; Ye,
 * Chai, Lee & Chieu 2012, "Optimizing F-measures: a tale of two
 * approaches": under independence the best set is a set of best files, and
 * its expected F1 is computed exactly from the chances).
 *
 * - Every file at 0.7 or more is in it (the pattern's context), budget
 *   permitting.
 * - It is empty only when no file is plausible: the best is below the low
 *   band (0.2), the pattern's "excluded"; the decision then says so.
 * - It holds at most `maxFiles` files (besides those at 0.7 or more) and
 *   `budgetTokens` tokens: a file that does not fit is passed over and a
 *   smaller one after it may still be taken. The best file is never passed
 *   over for its size: a file larger than the whole budget is still the one
 *   to read first (a context pack shows it reduced), and the reason says so.
 */
import { CONTEXT_THRESHOLD, formatRelevance, LOW_BAND } from "./bands.js";

/** One ranked file as the decision sees it. */
export interface ContextCandidate {
  path: string;
  /** The calibrated chance that the change needs the file, in [0, 1]. */
  chance: number;
  tokens: number;
}

export interface ContextLimits {
  /** Most files taken below {@link CONTEXT_THRESHOLD}; the files at or above it are always taken. */
  maxFiles: number;
  /** Most tokens the context may hold. */
  budgetTokens: number;
  /** Below this best chance no file is plausible and the context is empty (the low band's edge). */
  floor?: number;
}

export interface ContextDecision {
  /** The files handed over, best first. */
  paths: string[];
  /** The expected F1 of that set (0 when empty). */
  expectedF1: number;
  /** Files at 0.7 or more the token budget left out, best first. */
  overBudget: string[];
  /** Why this set, in one line. */
  reason: string;
}

/** The chance distribution of a sum of independent Bernoulli variables is kept up to this count; the rest is lumped into the last cell. */
const MAX_COUNT = 64;

/** The distribution of the number of successes among independent chances (a Poisson binomial), truncated at {@link MAX_COUNT}. */
export function countDistribution(chances: readonly number[]): Float64Array {
  const dist = new Float64Array(MAX_COUNT + 1);
  dist[0] = 1;
  let top = 0;
  for (const raw of chances) {
    const p = Math.min(1, Math.max(0, raw));
    if (p === 0) continue;
    top = Math.min(MAX_COUNT, top + 1);
    // the last cell holds "MAX_COUNT or more": what reaches it stays there
    dist[MAX_COUNT] = dist[MAX_COUNT]! + dist[MAX_COUNT - 1]! * p;
    for (let c = Math.min(top, MAX_COUNT - 1); c >= 1; c--) dist[c] = dist[c]! * (1 - p) + dist[c - 1]! * p;
    dist[0] = dist[0]! * (1 - p);
  }
  return dist;
}

/**
 * The expected F1 of handing over the first k files, for k = 1 … `upTo`,
 * when file i is needed with chance `chances[i]`, independently. F1 of a
 * set S against the needed set G is 2|S ∩ G| / (|S| + |G|), so
 * E[F1(first k)] = Σ_{i ≤ k} p_i · E[2 / (k + 1 + N_{-i})], N_{-i} the
 * number of needed files other than i.
 *
 * @returns expected[k - 1] for k = 1 … upTo
 * @example
 * expectedF1OfPrefixes([0.9, 0.1], 2); // [0.857…, 0.633…]: the first alone is best
 */
export function expectedF1OfPrefixes(chances: readonly number[], upTo: number): number[] {
  const k = Math.min(upTo, chances.length);
  if (k <= 0) return [];
  // the rest (beyond the first k) once; each of the first k is added to it without file i
  const rest = countDistribution(chances.slice(k));
  const expected: number[] = new Array<number>(k).fill(0);
  for (let i = 0; i < k; i++) {
    const pi = chances[i]!;
    if (pi <= 0) continue;
    const others = [...chances.slice(0, i), ...chances.slice(i + 1, k)];
    let dist = rest;
    if (others.length > 0) {
      dist = rest.slice();
      for (const p of others) {
        dist[MAX_COUNT] = dist[MAX_COUNT]! + dist[MAX_COUNT - 1]! * p;
        for (let c = MAX_COUNT - 1; c >= 1; c--) dist[c] = dist[c]! * (1 - p) + dist[c - 1]! * p;
        dist[0] = dist[0]! * (1 - p);
      }
    }
    // E[2 / (size + 1 + N_{-i})] for every size from i + 1 (the first prefix holding i) to k
    for (let size = i + 1; size <= k; size++) {
      let mean = 0;
      for (let c = 0; c <= MAX_COUNT; c++) mean += dist[c]! / (size + 1 + c);
      expected[size - 1]! += 2 * pi * mean;
    }
  }
  return expected;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * Choose the context from `ranked` (best first, every evaluated file: the
 * ones outside the choice still count among the files the change may need).
 *
 * @example
 * decideContext([{ path: "auth.ts", chance: 0.41, tokens: 900 }, { path: "tokens.ts", chance: 0.27, tokens: 700 }, { path: "user.ts", chance: 0.02, tokens: 300 }], { maxFiles: 8, budgetTokens: 20000 }).paths;
 * // ["auth.ts", "tokens.ts"]
 */
export function decideContext(ranked: readonly ContextCandidate[], limits: ContextLimits): ContextDecision {
  const floor = limits.floor ?? LOW_BAND;
  const best = ranked[0];
  if (!best) return { paths: [], expectedF1: 0, overBudget: [], reason: "no file matched the task" };
  if (best.chance < floor) {
    return {
      paths: [],
      expectedF1: 0,
      overBudget: [],
      reason: `no file is plausible: the best, ${best.path}, is at ${formatRelevance(best.chance)}, below the low band (${floor})`,
    };
  }
  // the files that may be taken, best first: those that fit the budget, at most maxFiles below the threshold
  const eligible: ContextCandidate[] = [];
  const overBudget: string[] = [];
  let used = 0;
  let below = 0;
  for (const file of ranked) {
    const sure = file.chance >= CONTEXT_THRESHOLD;
    if (!sure && below >= limits.maxFiles) break;
    if (used + file.tokens > limits.budgetTokens && eligible.length > 0) {
      if (sure) overBudget.push(file.path);
      continue;
    }
    used += file.tokens;
    eligible.push(file);
    if (!sure) below++;
  }
  // the chances in the order of the choice: the eligible first, then every other file (needed or not, it counts in F1's |G|)
  const taken = new Set(eligible.map((f) => f.path));
  const chances = [...eligible.map((f) => f.chance), ...ranked.filter((f) => !taken.has(f.path)).map((f) => f.chance)];
  const expected = expectedF1OfPrefixes(chances, eligible.length);
  const sureCount = eligible.filter((f) => f.chance >= CONTEXT_THRESHOLD).length;
  let size = Math.max(1, sureCount);
  for (let k = size + 1; k <= eligible.length; k++) if (expected[k - 1]! > expected[size - 1]! + 1e-12) size = k;
  const paths = eligible.slice(0, size).map((f) => f.path);
  const expectedF1 = expected[size - 1]!;
  const oversized = eligible[0]!.tokens > limits.budgetTokens ? `${eligible[0]!.path} alone is over the ${limits.budgetTokens}-token budget` : "";
  const sureText = sureCount > 0 ? `${plural(sureCount, "file")} at ${CONTEXT_THRESHOLD} or more` : "";
  const addedCount = size - sureCount;
  const addedText = addedCount > 0 ? `${sureCount > 0 ? " and " : ""}the best ${sureCount > 0 ? "next " : ""}${addedCount} by expected F1` : "";
  const notes = [`expected F1 ${expectedF1.toFixed(2)}`];
  if (oversized) notes.push(oversized);
  if (overBudget.length > 0) notes.push(`${plural(overBudget.length, "file")} at ${CONTEXT_THRESHOLD} or more over the ${limits.budgetTokens}-token budget`);
  return {
    paths,
    expectedF1,
    overBudget,
    reason: `${sureText}${addedText} (${notes.join("; ")})`,
  };
}
