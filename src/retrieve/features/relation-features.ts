/**
 * Cycle k's features of a pool file beyond the first cycle's: its ties to
 * what cycle k − 1 found. A file that a likely file imports or uses, that
 * defines a name a likely file uses (the gap it fills), that sits two hops
 * from one or beside one, is likelier itself: the files of one change
 * travel along the graph. Computed from the pool's own graph (indices into
 * the pool) and the previous cycle's relevance of each file, so training
 * computes them exactly as a retrieval does.
 */
import { folderOf } from "../../util/folders.js";
import { firstInOrder } from "../../util/sort.js";
import type { FileLinks } from "../../graph/file-links.js";
import type { RetrievalContext } from "../retrieval-context.js";

export const RELATION_FEATURES = [
  "prevRelevance", "prevRank", "usedByLikely", "usesLikely", "fillsGapOf", "mostUsedBy", "twoHopLikely", "besideLikely", "neighbourMass",
  "bestRelevance", "secondRelevance", "likelyFiles", "cochangeLikely", "cochangeMass", "cochangeRankOfBest",
] as const;

/** The pool's graph: for each file (an index into the pool), the pool files it is tied to. */
export interface PoolGraph {
  /** out[i]: the pool files i imports or references. */
  out: number[][];
  /** in[i]: the pool files that import or reference i. */
  in: number[][];
  /** uses[i]: [j, count] for each pool file j whose symbols i uses. */
  uses: Array<Array<[number, number]>>;
  /** twoHop[i]: pool files two links from i through a file of at most MAX_MIDDLE_DEGREE links (either direction). */
  twoHop: number[][];
  /** folder[i]: an id of i's folder. */
  folder: number[];
  /** cochange[i]: [j, share] for each pool file j that i changes with (share of i's heaviest partner; empty without history). */
  cochange: Array<Array<[number, number]>>;
}

/** A file with more links than this is a hub (a barrel, a types module): two hops through it say nothing. */
export const MAX_MIDDLE_DEGREE = 30;
/** Two-hop partners kept per file. */
const MAX_TWO_HOP = 40;

/** A file's neighbours, whether it is narrow enough to be a middle, and (once asked) the files two hops away through such middles. */
interface Around {
  list: string[];
  middle: boolean;
  far?: string[];
  /** `far` as a set, once a grown pool asks (growPoolGraph). */
  farSet?: Set<string>;
}

/** Each file's neighbours, listed once per graph's links (each cycle, and each query of a resident process, asks again). */
const neighboursOf = new WeakMap<FileLinks, Map<string, Around>>();

/** What poolGraphOf lists of one pool file (its row of each of PoolGraph's lists but the folder). */
interface PoolRow {
  out: number[];
  in: number[];
  uses: Array<[number, number]>;
  twoHop: number[];
  cochange: Array<[number, number]>;
}

/** Each file's neighbours, its narrowness and (once asked) its two-hop files, listed once per graph's links. */
function aroundOf(context: RetrievalContext): (path: string) => Around {
  let known = neighboursOf.get(context.links);
  if (!known) neighboursOf.set(context.links, (known = new Map()));
  const neighbours = known;
  const around = (p: string): Around => {
    let entry = neighbours.get(p);
    if (!entry) {
      const outs = context.links.out.get(p);
      const ins = context.links.in.get(p);
      entry = { list: [...(outs?.keys() ?? []), ...(ins?.keys() ?? [])], middle: (outs?.size ?? 0) + (ins?.size ?? 0) <= MAX_MIDDLE_DEGREE };
      neighbours.set(p, entry);
    }
    return entry;
  };
  return (path) => {
    const own = around(path);
    if (!own.far) {
      const far = new Set<string>();
      for (const middle of own.list) {
        const next = around(middle);
        if (next.middle) for (const file of next.list) if (file !== path) far.add(file);
      }
      own.far = [...far];
    }
    return own;
  };
}

/** One pool file's ties to the pool's files (indices by `indexOf`), each list in index order. */
function poolRowOf(context: RetrievalContext, path: string, indexOf: ReadonlyMap<string, number>, own: Around): PoolRow {
  const o: number[] = [];
  const n: number[] = [];
  for (const target of context.links.out.get(path)?.keys() ?? []) {
    const j = indexOf.get(target);
    if (j !== undefined && target !== path) o.push(j);
  }
  for (const source of context.links.in.get(path)?.keys() ?? []) {
    const j = indexOf.get(source);
    if (j !== undefined && source !== path) n.push(j);
  }
  const counts = new Map<number, number>();
  for (const use of context.uses.get(path) ?? []) {
    const j = indexOf.get(use.file);
    if (j !== undefined && use.file !== path) counts.set(j, (counts.get(j) ?? 0) + use.count);
  }
  const hops = new Set<number>();
  for (const far of own.far ?? []) {
    const j = indexOf.get(far);
    if (j !== undefined) hops.add(j);
  }
  const partners: Array<[number, number]> = [];
  const row = context.history?.cochange.get(path);
  if (row) {
    const max = context.history?.cochangeMax.get(path) ?? 0;
    for (const [partner, w] of row) {
      const j = indexOf.get(partner);
      if (j !== undefined && partner !== path && max > 0) partners.push([j, cochangeShareOf(w, max)]);
    }
  }
  return {
    out: o.sort((a, b) => a - b),
    in: n.sort((a, b) => a - b),
    uses: [...counts.entries()].sort((a, b) => a[0] - b[0]),
    twoHop: firstInOrder(hops, MAX_TWO_HOP, (a, b) => a - b),
    cochange: partners.sort((a, b) => a[0] - b[0]),
  };
}

/** A co-change weight as a share of the file's heaviest partner, to 4 decimals. */
function cochangeShareOf(weight: number, max: number): number {
  return Math.round((weight / max) * 1e4) / 1e4;
}

/** Each path's folder as an id, numbered in the order the folders first appear. */
function folderIds(paths: readonly string[]): number[] {
  const folders = new Map<string, number>();
  const folder: number[] = [];
  for (const path of paths) {
    const f = folderOf(path);
    if (!folders.has(f)) folders.set(f, folders.size);
    folder.push(folders.get(f)!);
  }
  return folder;
}

/**
 * @example
 * const graph = poolGraphOf(context, pool.map((f) => f.path));
 * graph.out[0]; // pool indices the first file imports
 */
export function poolGraphOf(context: RetrievalContext, paths: readonly string[]): PoolGraph {
  const indexOf = new Map(paths.map((p, i) => [p, i]));
  const around = aroundOf(context);
  const rows = paths.map((path) => poolRowOf(context, path, indexOf, around(path)));
  return {
    out: rows.map((r) => r.out),
    in: rows.map((r) => r.in),
    uses: rows.map((r) => r.uses),
    twoHop: rows.map((r) => r.twoHop),
    folder: folderIds(paths),
    cochange: rows.map((r) => r.cochange),
  };
}

/**
 * The pool graph of `paths` followed by `added`, made from the graph of
 * `paths` alone: the same lists poolGraphOf gives for the whole pool. The
 * added files come last, so a known file's lists keep their indices and
 * gain only the added ones (each list is in index order); the added files'
 * own rows are made as poolGraphOf makes them. A later cycle's pool grows
 * by a few files, and making the whole graph again was a third of its cost.
 *
 * @example
 * const grown = growPoolGraph(context, graph, paths, ["src/lib/jwt.ts"]);
 */
export function growPoolGraph(context: RetrievalContext, graph: PoolGraph, paths: readonly string[], added: readonly string[]): PoolGraph {
  if (graph.out.length !== paths.length) return poolGraphOf(context, [...paths, ...added]);
  const all = [...paths, ...added];
  const indexOf = new Map(all.map((p, i) => [p, i]));
  const around = aroundOf(context);
  const n0 = paths.length;
  const out = graph.out.map((list) => [...list]);
  const inbound = graph.in.map((list) => [...list]);
  const uses = graph.uses.map((list) => [...list]);
  const twoHop = graph.twoHop.map((list) => [...list]);
  const cochange = graph.cochange.map((list) => [...list]);
  for (let i = 0; i < n0; i++) {
    const path = paths[i]!;
    const links = { out: context.links.out.get(path), in: context.links.in.get(path) };
    const own = around(path);
    let useCounts: Map<string, number> | undefined;
    const row = context.history?.cochange.get(path);
    const max = context.history?.cochangeMax.get(path) ?? 0;
    for (let k = 0; k < added.length; k++) {
      const target = added[k]!;
      if (target === path) continue;
      const j = n0 + k;
      if (links.out?.has(target)) out[i]!.push(j);
      if (links.in?.has(target)) inbound[i]!.push(j);
      if (twoHop[i]!.length < MAX_TWO_HOP) {
        own.farSet ??= new Set(own.far);
        if (own.farSet.has(target)) twoHop[i]!.push(j);
      }
      if (!useCounts) {
        useCounts = new Map();
        for (const use of context.uses.get(path) ?? []) useCounts.set(use.file, (useCounts.get(use.file) ?? 0) + use.count);
      }
      const count = useCounts.get(target);
      if (count !== undefined) uses[i]!.push([j, count]);
      const w = row?.get(target);
      if (w !== undefined && max > 0) cochange[i]!.push([j, cochangeShareOf(w, max)]);
    }
  }
  for (const path of added) {
    const row = poolRowOf(context, path, indexOf, around(path));
    out.push(row.out);
    inbound.push(row.in);
    uses.push(row.uses);
    twoHop.push(row.twoHop);
    cochange.push(row.cochange);
  }
  return { out, in: inbound, uses, twoHop, folder: folderIds(all), cochange };
}

/** Relevance from which a file counts as likely (the medium band). */
const LIKELY = 0.5;

/**
 * @param previous each pool file's probability in the previous cycle (0 for a file new to this one)
 *
 * @example
 * const rows = relationFeatures(graph, [0.9, 0.1, 0]);
 * rows[2][RELATION_FEATURES.indexOf("usedByLikely")]; // 0.9 when the first file imports the third
 */
export function relationFeatures(graph: PoolGraph, previous: readonly number[]): number[][] {
  const n = previous.length;
  const order = previous.map((p, i) => [p, i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  const rank = new Array<number>(n);
  order.forEach(([, i], r) => (rank[i] = r));
  const best = order[0]?.[0] ?? 0;
  const second = order[1]?.[0] ?? 0;
  const likely = previous.filter((p) => p >= LIKELY).length;
  // i fills a gap of h when h uses i's symbols: usedBy[i] = [h, count]
  const usedBy: Array<Array<[number, number]>> = Array.from({ length: n }, () => []);
  // and how much of h's use goes to i, against the file h uses most
  const mostUsed = graph.uses.map((list) => Math.max(0, ...list.map(([, count]) => count)));
  graph.uses.forEach((list, h) => {
    for (const [j, count] of list) usedBy[j]!.push([h, count]);
  });
  const changedWith: Array<Array<[number, number]>> = Array.from({ length: n }, () => []);
  (graph.cochange ?? []).forEach((list, h) => {
    for (const [j, share] of list) changedWith[j]!.push([h, share]);
  });
  const bestFile = order[0]?.[1];
  const bestPartners = bestFile === undefined ? [] : [...(graph.cochange?.[bestFile] ?? [])].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([j]) => j);
  const bestInFolder = new Map<number, Array<[number, number]>>();
  for (let i = 0; i < n; i++) {
    const list = bestInFolder.get(graph.folder[i]!) ?? [];
    list.push([previous[i]!, i]);
    bestInFolder.set(graph.folder[i]!, list);
  }
  for (const list of bestInFolder.values()) list.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  const rows: number[][] = [];
  for (let i = 0; i < n; i++) {
    let usedByLikely = 0;
    for (const h of graph.in[i]!) usedByLikely = Math.max(usedByLikely, previous[h]!);
    let usesLikely = 0;
    for (const h of graph.out[i]!) usesLikely = Math.max(usesLikely, previous[h]!);
    let fills = 0;
    let most = 0;
    for (const [h, count] of usedBy[i]!) {
      fills = Math.max(fills, previous[h]! * Math.min(1, count / 3));
      most = Math.max(most, (previous[h]! * count) / Math.max(1, mostUsed[h]!));
    }
    let twoHop = 0;
    for (const h of graph.twoHop[i]!) twoHop = Math.max(twoHop, previous[h]!);
    const mates = bestInFolder.get(graph.folder[i]!) ?? [];
    const beside = (mates[0]?.[1] === i ? mates[1]?.[0] : mates[0]?.[0]) ?? 0;
    let mass = 0;
    for (const h of new Set([...graph.in[i]!, ...graph.out[i]!])) mass += previous[h]!;
    // i changes with h: h's row holds i (the share of h's heaviest partner)
    let cochangeLikely = 0;
    let cochangeMass = 0;
    for (const [h, share] of changedWith[i]!) {
      cochangeLikely = Math.max(cochangeLikely, previous[h]! * share);
      cochangeMass += previous[h]! * share;
    }
    // where i stands among the partners of the previous cycle's best file: 1 for its heaviest, ½ the next, …
    const place = bestPartners.indexOf(i);
    const cochangeRankOfBest = place < 0 ? 0 : 1 / (1 + place);
    rows.push([
      previous[i]!, Math.log2(2 + rank[i]!), usedByLikely, usesLikely, fills, most, twoHop, beside, Math.min(3, mass),
      best, second, likely, cochangeLikely, Math.min(3, cochangeMass), cochangeRankOfBest,
    ]);
  }
  return rows;
}
