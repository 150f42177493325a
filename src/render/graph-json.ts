/**
 * The graph as JSON: `{"nodes":[{"id","kind",…}],"edges":[{"source","target","kind",…}]}`,
 * nodes and edges sorted so the same codebase gives the same bytes.
 */
import type { CodeGraph, EdgeAttributes, NodeAttributes } from "../graph/code-graph.js";
import type { CochangeEdge } from "../history/file-history.js";
import { byCodeUnit } from "../util/sort.js";

export interface GraphJson {
  schemaVersion: 1;
  root: string;
  nodes: Array<{ id: string } & NodeAttributes>;
  /** Import, re-export, defines and references edges, and with history `cochange` edges (files that changed together, undirected: source < target). */
  edges: Array<({ source: string; target: string } & EdgeAttributes) | ({ kind: "cochange" } & CochangeEdge)>;
  /** The build's counts (timings left out: they differ run to run). */
  stats: Omit<CodeGraph["stats"], "millis">;
  diagnostics: CodeGraph["diagnostics"];
}

/**
 * @example
 * const json = graphToJson(codeGraph, ".");
 * json.edges.filter((e) => e.kind === "import");
 */
export function graphToJson(codeGraph: CodeGraph, displayRoot: string, cochange: readonly CochangeEdge[] = []): GraphJson {
  const nodes: GraphJson["nodes"] = [];
  codeGraph.graph.forEachNode((id, attributes) => nodes.push({ id, ...attributes }));
  nodes.sort((a, b) => byCodeUnit(a.id, b.id));
  const edges: GraphJson["edges"] = [];
  codeGraph.graph.forEachEdge((_key, attributes, source, target) => edges.push({ source, target, ...attributes }));
  for (const edge of cochange) edges.push({ kind: "cochange", ...edge });
  edges.sort((a, b) => byCodeUnit(a.kind, b.kind) || byCodeUnit(a.source, b.source) || byCodeUnit(a.target, b.target));
  return {
    schemaVersion: 1,
    root: displayRoot,
    nodes,
    edges,
    stats: withoutTimings(codeGraph.stats),
    diagnostics: codeGraph.diagnostics,
  };
}

/** JSON text with a final newline. */
export function renderGraphJson(codeGraph: CodeGraph, displayRoot: string, cochange: readonly CochangeEdge[] = []): string {
  return `${JSON.stringify(graphToJson(codeGraph, displayRoot, cochange), null, 2)}\n`;
}

function withoutTimings(stats: CodeGraph["stats"]): Omit<CodeGraph["stats"], "millis"> {
  const { millis: _millis, ...rest } = stats;
  return rest;
}
