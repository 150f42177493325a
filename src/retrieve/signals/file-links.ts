/**
 * File-to-file links from the code graph: a file imports another (directly
 * or through a barrel), or references symbols defined there. One weighted,
 * directed adjacency built once per graph; proximity signals walk it.
 */
import type { NodeAttributes } from "../../graph/code-graph.js";
import type { CompactGraph } from "../../graph/code-graph.js";
import { byCodeUnit } from "../../util/sort.js";

export interface FileLinks {
  /** file → files it depends on → weight */
  out: Map<string, Map<string, number>>;
  /** file → files that depend on it → weight */
  in: Map<string, Map<string, number>>;
}

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
 * Read from the graph's compact form (CodeGraph.compact): a warm query
 * then never restores the graphology graph.
 *
 * @example
 * const links = buildFileLinks(codeGraph.compact);
 * links.out.get("src/app.ts"); // Map { "src/router.ts" => 1.5, … }
 */
export function buildFileLinks(compact: CompactGraph): FileLinks {
  const { nodes, attributes } = compact;
  const out = new Map<string, Map<string, number>>();
  const inbound = new Map<string, Map<string, number>>();
  // source → file of the symbol → weight (nested maps: no key string to make and split again)
  const referenceWeights = new Map<string, Map<string, number>>();
  const edges: Array<[string, string, number]> = [];
  for (const [s, t, edge] of compact.edges) {
    if (s === t) continue;
    const source = nodes[s] as string;
    const target = attributes[t] as NodeAttributes;
    if (edge.kind === "import" || edge.kind === "reexport") {
      if (target.kind !== "file") continue;
      edges.push([source, nodes[t] as string, edge.typeOnly ? 0.5 : 1]);
    } else if (edge.kind === "references") {
      if (target.kind !== "symbol" || target.file === source) continue;
      let row = referenceWeights.get(source);
      if (!row) referenceWeights.set(source, (row = new Map()));
      row.set(target.file, Math.min(1, (row.get(target.file) ?? 0) + 0.25));
    }
  }
  for (const [source, row] of referenceWeights) for (const [target, weight] of row) edges.push([source, target, weight]);
  edges.sort((a, b) => byCodeUnit(a[0], b[0]) || byCodeUnit(a[1], b[1]) || a[2] - b[2]);
  for (const [source, target, weight] of edges) {
    add(out, source, target, weight);
    add(inbound, target, source, weight);
  }
  return { out, in: inbound };
}

/** A symbol of another file that a file uses, and how many times (a `references` edge). */
export interface SymbolUse {
  name: string;
  file: string;
  count: number;
}

/**
 * Each file's uses of symbols (its `references` edges, in edge order), from
 * the compact form: what a file's gaps are made of.
 *
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
