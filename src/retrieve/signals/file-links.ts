/**
 * File-to-file links from the code graph: a file imports another (directly
 * or through a barrel), or references symbols defined there. One weighted,
 * directed adjacency built once per graph; proximity signals walk it.
 */
import type { Graph } from "../../graph/code-graph.js";
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
 *
 * @example
 * const links = buildFileLinks(codeGraph.graph);
 * links.out.get("src/app.ts"); // Map { "src/router.ts" => 1.5, … }
 */
export function buildFileLinks(graph: Graph): FileLinks {
  const out = new Map<string, Map<string, number>>();
  const inbound = new Map<string, Map<string, number>>();
  const referenceWeights = new Map<string, number>();
  const edges: Array<[string, string, number]> = [];
  graph.forEachEdge((_key, attributes, source, target) => {
    if (source === target) return;
    if (attributes.kind === "import" || attributes.kind === "reexport") {
      if (graph.getNodeAttribute(target, "kind") !== "file") return;
      edges.push([source, target, attributes.typeOnly ? 0.5 : 1]);
    } else if (attributes.kind === "references") {
      const targetAttributes = graph.getNodeAttributes(target);
      if (targetAttributes.kind !== "symbol" || targetAttributes.file === source) return;
      const key = `${source}\u0000${targetAttributes.file}`;
      referenceWeights.set(key, Math.min(1, (referenceWeights.get(key) ?? 0) + 0.25));
    }
  });
  for (const [key, weight] of referenceWeights) {
    const [source, target] = key.split("\u0000") as [string, string];
    edges.push([source, target, weight]);
  }
  edges.sort((a, b) => byCodeUnit(a[0], b[0]) || byCodeUnit(a[1], b[1]) || a[2] - b[2]);
  for (const [source, target, weight] of edges) {
    add(out, source, target, weight);
    add(inbound, target, source, weight);
  }
  return { out, in: inbound };
}
