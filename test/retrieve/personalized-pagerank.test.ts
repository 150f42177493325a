/**
 * Personalized PageRank over a real codebase's file links: the scores of
 * the plain power iteration (written here the textbook way, a list of links
 * per file), bit for bit, since the learned ranker's trees split on them.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { buildGraph } from "../../src/index.js";
import type { FileLinks } from "../../src/graph/file-links.js";
import { createRetrievalContext } from "../../src/retrieve/retrieval-context.js";
import { DEFAULT_PAGERANK, personalizedPageRank } from "../../src/retrieve/signals/personalized-pagerank.js";
import { byCodeUnit } from "../../src/util/sort.js";

/** Power iteration as the formula reads: each file's mass spread over its links, damping · mass · weight / its total. */
function textbookPageRank(nodes: readonly string[], links: FileLinks, seeds: ReadonlyMap<string, number>): Map<string, number> {
  const { damping, maxIterations, tolerance, reverseWeight } = DEFAULT_PAGERANK;
  const ids = [...nodes].sort(byCodeUnit);
  const at = new Map(ids.map((id, i) => [id, i]));
  const n = ids.length;
  const restart = ids.map((id) => Math.max(0, seeds.get(id) ?? 0));
  const seedTotal = restart.reduce((a, b) => a + b, 0);
  for (let i = 0; i < n; i++) restart[i] = seedTotal === 0 ? 1 / n : restart[i]! / seedTotal;
  const edges: Array<Array<{ to: number; weight: number }>> = ids.map((id) => {
    const list: Array<{ to: number; weight: number }> = [];
    for (const [to, weight] of links.out.get(id) ?? []) if (at.has(to) && weight > 0) list.push({ to: at.get(to)!, weight });
    for (const [from, weight] of links.in.get(id) ?? []) if (at.has(from) && weight * reverseWeight > 0) list.push({ to: at.get(from)!, weight: weight * reverseWeight });
    return list;
  });
  const totals = edges.map((list) => list.reduce((sum, e) => sum + e.weight, 0));
  let rank = [...restart];
  for (let iteration = 0; iteration < maxIterations; iteration++) {
    const next = new Array<number>(n).fill(0);
    let dangling = 0;
    rank.forEach((mass, i) => {
      if (totals[i] === 0) dangling += mass;
      else for (const e of edges[i]!) next[e.to] = next[e.to]! + (damping * mass * e.weight) / totals[i]!;
    });
    let delta = 0;
    for (let i = 0; i < n; i++) {
      const value = next[i]! + (1 - damping + damping * dangling) * restart[i]!;
      delta += Math.abs(value - rank[i]!);
      next[i] = value;
    }
    rank = next;
    if (delta < tolerance) break;
  }
  return new Map(ids.map((id, i) => [id, rank[i]!]));
}

let links: FileLinks;
let files: string[];
beforeAll(async () => {
  const context = createRetrievalContext(await buildGraph("fixtures/auth-service"));
  links = context.links;
  files = [...context.index.byPath.keys()];
});

describe("personalized PageRank", () => {
  it("gives the textbook power iteration's scores, bit for bit, seeded or not, over all files or some", () => {
    const seeded = new Map([["src/auth/tokens.ts", 1], ["src/auth/jwt-utils.ts", 0.4]]);
    for (const seeds of [seeded, new Map<string, number>()]) {
      for (const nodes of [files, files.filter((_, i) => i % 3 !== 0)]) {
        const scores = personalizedPageRank(nodes, links, seeds);
        expect(scores).toEqual(textbookPageRank(nodes, links, seeds));
        expect([...scores.values()].reduce((a, b) => a + b, 0)).toBeCloseTo(1, 9);
      }
    }
    // the links are real: the seeds' neighbours score above a file far from them
    const scores = personalizedPageRank(files, links, seeded);
    const best = [...scores].sort((a, b) => b[1] - a[1]).map(([path]) => path);
    expect(best.slice(0, 2)).toEqual(["src/auth/tokens.ts", "src/auth/jwt-utils.ts"]);
  });
});
