/**
 * File-to-file links from the code graph: a file imports another (directly
 * or through a barrel), or references symbols defined there. One weighted,
 * directed adjacency built once per graph; proximity signals walk it. And
 * each file's uses of other files' symbols, what its gaps are made of.
 *
 * Both are all a retrieval reads of the graph, so the index stores them
 * (encodeFileRelations) beside the facts: a warm query reads them instead
 * of the whole graph.
 */
import type { CompactGraph, FileLinks, FileRelations, NodeAttributes, SymbolUse, UsesByFile } from "./code-graph.js";
import { bytesOf, unpack } from "../util/packed.js";
import { byCodeUnit } from "../util/sort.js";

export type { FileLinks, FileRelations, SymbolUse, UsesByFile } from "./code-graph.js";

/** A link of the adjacency: [source, target, weight]. */
type Link = [string, string, number];

function add(map: Map<string, Map<string, number>>, from: string, to: string, weight: number): void {
  let row = map.get(from);
  if (!row) {
    row = new Map();
    map.set(from, row);
  }
  row.set(to, (row.get(to) ?? 0) + weight);
}

/**
 * Weights: an import edge 1 (type-only 0.5), plus 0.25 per distinct symbol
 * referenced in the target (capped at 1); files only, packages left out.
 * Sorted, so the adjacency is made in one order whatever the graph's.
 */
function linksOf(compact: CompactGraph): Link[] {
  const { nodes, attributes } = compact;
  // source → file of the symbol → weight (nested maps: no key string to make and split again)
  const referenceWeights = new Map<string, Map<string, number>>();
  const links: Link[] = [];
  for (const [s, t, edge] of compact.edges) {
    if (s === t) continue;
    const source = nodes[s] as string;
    const target = attributes[t] as NodeAttributes;
    if (edge.kind === "import" || edge.kind === "reexport") {
      if (target.kind !== "file") continue;
      links.push([source, nodes[t] as string, edge.typeOnly ? 0.5 : 1]);
    } else if (edge.kind === "references") {
      if (target.kind !== "symbol" || target.file === source) continue;
      let row = referenceWeights.get(source);
      if (!row) referenceWeights.set(source, (row = new Map()));
      row.set(target.file, Math.min(1, (row.get(target.file) ?? 0) + 0.25));
    }
  }
  for (const [source, row] of referenceWeights) for (const [target, weight] of row) links.push([source, target, weight]);
  links.sort((a, b) => byCodeUnit(a[0], b[0]) || byCodeUnit(a[1], b[1]) || a[2] - b[2]);
  return links;
}

function adjacencyOf(links: readonly Link[]): FileLinks {
  const out = new Map<string, Map<string, number>>();
  const inbound = new Map<string, Map<string, number>>();
  for (const [source, target, weight] of links) {
    add(out, source, target, weight);
    add(inbound, target, source, weight);
  }
  return { out, in: inbound };
}

/**
 * @example
 * const links = buildFileLinks(codeGraph.compact);
 * links.out.get("src/app.ts"); // Map { "src/router.ts" => 1.5, … }
 */
export function buildFileLinks(compact: CompactGraph): FileLinks {
  return adjacencyOf(linksOf(compact));
}

/**
 * @example
 * usesByFile(codeGraph.compact).get("src/app.ts"); // [{ name: "Router", file: "src/router.ts", count: 2 }, …]
 */
export function usesByFile(compact: CompactGraph): Map<string, SymbolUse[]> {
  const { nodes, attributes } = compact;
  const uses = new Map<string, SymbolUse[]>();
  for (const [s, t, edge] of compact.edges) {
    if (edge.kind !== "references") continue;
    const symbol = attributes[t] as NodeAttributes;
    if (symbol.kind !== "symbol") continue;
    const source = nodes[s] as string;
    let list = uses.get(source);
    if (!list) uses.set(source, (list = []));
    list.push({ name: symbol.name, file: symbol.file, count: edge.count ?? 1 });
  }
  return uses;
}

/** The links and uses of a graph. */
export function buildFileRelations(compact: CompactGraph): FileRelations {
  return { links: buildFileLinks(compact), uses: usesByFile(compact) };
}

const MAGIC = 0x31524647; // "GFR1", little-endian
const HEAD_INTS = 8;

/** Strings as one table: each string's number, and the table's text. */
function stringTable(): { number(text: string): number; text(): string; size(): number } {
  const numbers = new Map<string, number>();
  const list: string[] = [];
  return {
    number(text) {
      let n = numbers.get(text);
      if (n === undefined) {
        numbers.set(text, (n = list.length));
        list.push(text);
      }
      return n;
    },
    text: () => list.join("\n"),
    size: () => list.length,
  };
}

/**
 * A graph's relations as bytes: the sorted links (weights, then ends), the
 * uses by file (in their order), and the path and name tables.
 *
 * @example
 * decodeFileRelations(encodeFileRelations(codeGraph.compact)); // what buildFileRelations makes
 */
export function encodeFileRelations(compact: CompactGraph): Uint8Array {
  const links = linksOf(compact);
  const uses = usesByFile(compact);
  const paths = stringTable();
  const names = stringTable();
  const weights = new Float64Array(links.length);
  const ends = new Int32Array(links.length * 2);
  links.forEach(([source, target, weight], k) => {
    weights[k] = weight;
    ends[2 * k] = paths.number(source);
    ends[2 * k + 1] = paths.number(target);
  });
  let useCount = 0;
  for (const list of uses.values()) useCount += list.length;
  const sources = new Int32Array(uses.size * 2);
  const entries = new Int32Array(useCount * 3);
  let at = 0;
  [...uses].forEach(([source, list], k) => {
    sources[2 * k] = paths.number(source);
    sources[2 * k + 1] = list.length;
    for (const use of list) {
      entries[at++] = names.number(use.name);
      entries[at++] = paths.number(use.file);
      entries[at++] = use.count;
    }
  });
  const pathBytes = Buffer.from(paths.text(), "utf8");
  const nameBytes = Buffer.from(names.text(), "utf8");
  const head = new Int32Array([MAGIC, links.length, uses.size, useCount, paths.size(), names.size(), pathBytes.length, nameBytes.length]);
  return Buffer.concat([bytesOf(head), bytesOf(weights), bytesOf(ends), bytesOf(sources), bytesOf(entries), pathBytes, nameBytes]);
}

/**
 * The relations `encodeFileRelations` wrote, or undefined when the bytes
 * are not that.
 */
export function decodeFileRelations(bytes: Uint8Array): FileRelations | undefined {
  const packed = unpack(bytes, HEAD_INTS);
  if (!packed) return undefined;
  const { own } = packed;
  const [magic, linkCount, sourceCount, useCount, pathCount, nameCount, pathLength, nameLength] = packed.head as [number, number, number, number, number, number, number, number];
  if (magic !== MAGIC) return undefined;
  const expected = HEAD_INTS * 4 + 8 * linkCount + 4 * (2 * linkCount + 2 * sourceCount + 3 * useCount) + pathLength + nameLength;
  if (expected !== own.byteLength) return undefined;
  let at = HEAD_INTS * 4;
  const weights = new Float64Array(own.buffer, at, linkCount);
  at += 8 * linkCount;
  const ints = (n: number): Int32Array => {
    const view = new Int32Array(own.buffer, at, n);
    at += 4 * n;
    return view;
  };
  const ends = ints(2 * linkCount);
  const sources = ints(2 * sourceCount);
  const entries = ints(3 * useCount);
  const decoder = new TextDecoder();
  const paths = pathCount === 0 ? [] : decoder.decode(own.subarray(at, at + pathLength)).split("\n");
  at += pathLength;
  const names = nameCount === 0 ? [] : decoder.decode(own.subarray(at, at + nameLength)).split("\n");
  if (paths.length !== pathCount || names.length !== nameCount) return undefined;
  const inRange = (values: Int32Array, every: number, offset: number, limit: number) => {
    for (let k = offset; k < values.length; k += every) if (values[k]! < 0 || values[k]! >= limit) return false;
    return true;
  };
  if (!inRange(ends, 1, 0, pathCount) || !inRange(sources, 2, 0, pathCount) || !inRange(entries, 3, 0, nameCount) || !inRange(entries, 3, 1, pathCount)) return undefined;
  // each file's uses made when asked for (a retrieval asks for those of its pool's files)
  const firstUse = new Map<string, [number, number]>();
  let entry = 0;
  for (let k = 0; k < sourceCount; k++) {
    firstUse.set(paths[sources[2 * k]!]!, [entry, sources[2 * k + 1]!]);
    entry += 3 * sources[2 * k + 1]!;
  }
  if (entry !== entries.length) return undefined;
  const made = new Map<string, SymbolUse[]>();
  const uses: UsesByFile = {
    get(path) {
      let list = made.get(path);
      const at = list ? undefined : firstUse.get(path);
      if (at) {
        list = [];
        for (let n = 0, e = at[0]; n < at[1]; n++, e += 3) list.push({ name: names[entries[e]!]!, file: paths[entries[e + 1]!]!, count: entries[e + 2]! });
        made.set(path, list);
      }
      return list;
    },
  };
  return { links: lazyAdjacency(paths, ends, weights), uses };
}

/**
 * The adjacency of sorted links, each file's rows made when asked for: the
 * same maps as adjacencyOf's (a row's entries come in the links' order, so
 * its sums add up in the same order), for the files a retrieval reaches.
 */
function lazyAdjacency(paths: readonly string[], ends: Int32Array, weights: Float64Array): FileLinks {
  const count = weights.length;
  // the links of each source are contiguous (sorted by source); those of each target, listed in link order
  const outStart = new Map<number, [number, number]>();
  for (let k = 0; k < count; k++) {
    const source = ends[2 * k]!;
    const range = outStart.get(source);
    if (range) range[1] = k + 1;
    else outStart.set(source, [k, k + 1]);
  }
  const byTarget = new Map<number, number[]>();
  for (let k = 0; k < count; k++) {
    const target = ends[2 * k + 1]!;
    let list = byTarget.get(target);
    if (!list) byTarget.set(target, (list = []));
    list.push(k);
  }
  const numberOf = new Map(paths.map((path, i) => [path, i]));
  const row = (links: Iterable<number>, other: 0 | 1): Map<string, number> => {
    const made = new Map<string, number>();
    for (const k of links) {
      const path = paths[ends[2 * k + other]!]!;
      made.set(path, (made.get(path) ?? 0) + weights[k]!);
    }
    return made;
  };
  const rows = (links: (i: number) => Iterable<number> | undefined, other: 0 | 1) => {
    const made = new Map<number, Map<string, number>>();
    return {
      get(path: string): ReadonlyMap<string, number> | undefined {
        const i = numberOf.get(path);
        if (i === undefined) return undefined;
        let found = made.get(i);
        if (!found) {
          const list = links(i);
          if (!list) return undefined;
          made.set(i, (found = row(list, other)));
        }
        return found;
      },
    };
  };
  const range = function* (from: number, to: number) {
    for (let k = from; k < to; k++) yield k;
  };
  return {
    out: rows((i) => {
      const at = outStart.get(i);
      return at ? range(at[0], at[1]) : undefined;
    }, 1),
    in: rows((i) => byTarget.get(i), 0),
  };
}
