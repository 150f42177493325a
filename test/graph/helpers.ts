import type { CodeGraph, EdgeAttributes } from "../../src/index.js";

export { FIXTURES, REPO_ROOT, fixtureRoot, readEdgeTable } from "../support/fixtures.js";

/** An import or re-export edge, flattened for exact comparison. */
export interface FlatEdge {
  kind: EdgeAttributes["kind"];
  source: string;
  target: string;
  importKind?: EdgeAttributes["importKind"];
  typeOnly?: boolean;
  names?: string[];
  via?: string[];
}

/** Edges of the given kinds, sorted by kind, source, target. */
export function edgesOf(codeGraph: CodeGraph, kinds: ReadonlyArray<EdgeAttributes["kind"]>): Array<{ source: string; target: string } & EdgeAttributes> {
  const out: Array<{ source: string; target: string } & EdgeAttributes> = [];
  codeGraph.graph.forEachEdge((_key, attributes, source, target) => {
    if (kinds.includes(attributes.kind)) out.push({ source, target, ...attributes });
  });
  return out.sort((a, b) => compare(a.kind, b.kind) || compare(a.source, b.source) || compare(a.target, b.target));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
