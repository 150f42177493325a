/**
 * Personalized PageRank (Page et al. 1999; Haveliwala, "Topic-sensitive
 * PageRank", WWW 2002) by power iteration: a walker follows weighted links
 * and, with probability 1 − damping, jumps back to the seeds in proportion to
 * their weights. graphology's pagerank has no personalization vector (and
 * throws when it does not converge): this one stops after `maxIterations`
 * with what it has.
 */
import { byCodeUnit } from "../../util/sort.js";
import type { FileLinks } from "../../graph/file-links.js";

export interface PageRankOptions {
  damping: number;
  maxIterations: number;
  tolerance: number;
  /** Follow links against their direction too (importers as well as imports), with this weight. */
  reverseWeight: number;
}

export const DEFAULT_PAGERANK: PageRankOptions = { damping: 0.7, maxIterations: 50, tolerance: 1e-7, reverseWeight: 0.5 };

/**
 * @param nodes every node the walk may visit
 * @param seeds node → personalization weight (need not sum to 1); empty seeds = uniform
 * @returns node → score, scores summing to 1
 *
 * @example
 * personalizedPageRank(["a.ts", "b.ts"], links, new Map([["a.ts", 1]]));
 */
export function personalizedPageRank(
  nodes: readonly string[],
  links: FileLinks,
  seeds: ReadonlyMap<string, number>,
  options: PageRankOptions = DEFAULT_PAGERANK,
): Map<string, number> {
  const ids = [...nodes].sort(byCodeUnit);
  const indexOf = new Map(ids.map((id, i) => [id, i]));
  const n = ids.length;
  if (n === 0) return new Map();

  // personalization vector
  const restart = new Float64Array(n);
  let seedTotal = 0;
  for (const [id, weight] of seeds) {
    const i = indexOf.get(id);
    if (i === undefined || weight <= 0) continue;
    restart[i] = restart[i]! + weight;
    seedTotal += weight;
  }
  if (seedTotal === 0) restart.fill(1 / n);
  else for (let i = 0; i < n; i++) restart[i] = restart[i]! / seedTotal;

  // outgoing weighted adjacency in index space (forward + reverse links), flat: row i is [start[i], start[i + 1])
  const targetList: number[] = [];
  const weightList: number[] = [];
  const start = new Int32Array(n + 1);
  const outTotals = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const id = ids[i]!;
    const link = (to: string, weight: number) => {
      const b = indexOf.get(to);
      if (b === undefined || weight <= 0) return;
      targetList.push(b);
      weightList.push(weight);
      outTotals[i] = outTotals[i]! + weight;
    };
    for (const [to, weight] of links.out.get(id) ?? []) link(to, weight);
    if (options.reverseWeight > 0) {
      for (const [from, weight] of links.in.get(id) ?? []) link(from, weight * options.reverseWeight);
    }
    start[i + 1] = targetList.length;
  }
  const targets = Int32Array.from(targetList);
  const weights = Float64Array.from(weightList);
  const { damping } = options;

  let rank = Float64Array.from(restart);
  for (let iteration = 0; iteration < options.maxIterations; iteration++) {
    const next = new Float64Array(n);
    let dangling = 0;
    for (let i = 0; i < n; i++) {
      const mass = rank[i]!;
      const total = outTotals[i]!;
      if (total === 0) {
        dangling += mass;
        continue;
      }
      // (damping · mass · weight) / total, in that order: the same bits as one product per link
      const share = damping * mass;
      for (let k = start[i]!, end = start[i + 1]!; k < end; k++) {
        const j = targets[k]!;
        next[j] = next[j]! + (share * weights[k]!) / total;
      }
    }
    let delta = 0;
    const jump = 1 - damping + damping * dangling;
    for (let i = 0; i < n; i++) {
      const value = next[i]! + jump * restart[i]!;
      delta += Math.abs(value - rank[i]!);
      next[i] = value;
    }
    rank = next;
    if (delta < options.tolerance) break;
  }
  return new Map(ids.map((id, i) => [id, rank[i]!]));
}
