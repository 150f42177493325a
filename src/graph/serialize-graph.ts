/**
 * The code graph as the index stores it: a compact form of graphology's
 * export that restores to the same graph, insertion order included.
 *
 * What it leaves out is what the assembly derives: edge keys
 * (`<kind>:<source>-><target>`), and the `defines` edges (one per symbol
 * node, from its file, added in node order before any other edge). Edge
 * ends are node indexes. On effect's 363 files this is 2.6 MB instead of
 * 6.6 MB, and reading it back takes about half the time of JSON.parse +
 * `graph.import()` of the full export.
 */
import type { SerializedEdge } from "./assemble-graph.js";
import { createEmptyGraph, edgeKey, type EdgeAttributes, type Graph, type NodeAttributes } from "./code-graph.js";

/** Marks the compact form (a graph.json written before it holds graphology's export, and is assembled again). */
export const COMPACT_GRAPH_FORMAT = "compact-1";

export interface CompactGraph {
  format: typeof COMPACT_GRAPH_FORMAT;
  /** Node ids, in insertion order. */
  nodes: string[];
  /** Their attributes, same order. */
  attributes: NodeAttributes[];
  /** Every edge but `defines`, in insertion order: [source index, target index, attributes]. */
  edges: Array<[number, number, EdgeAttributes]>;
}

/**
 * The compact form of an assembled graph.
 *
 * @example
 * const stored = JSON.stringify(serializeGraph(graph));
 * restoreGraph(JSON.parse(stored)); // the same graph
 */
export function serializeGraph(graph: Graph): CompactGraph {
  const nodes: string[] = [];
  const attributes: NodeAttributes[] = [];
  const indexOf = new Map<string, number>();
  graph.forEachNode((id, attrs) => {
    indexOf.set(id, nodes.length);
    nodes.push(id);
    attributes.push(attrs);
  });
  const edges: Array<[number, number, EdgeAttributes]> = [];
  graph.forEachEdge((_key, attrs, source, target) => {
    if (attrs.kind === "defines") return;
    edges.push([indexOf.get(source) as number, indexOf.get(target) as number, attrs]);
  });
  return { format: COMPACT_GRAPH_FORMAT, nodes, attributes, edges };
}

/** True when `value` has the compact form's shape (the index may hold an older form or a damaged file). */
export function isCompactGraph(value: unknown): value is CompactGraph {
  const graph = value as Partial<CompactGraph> | null;
  return (
    typeof graph === "object" &&
    graph !== null &&
    graph.format === COMPACT_GRAPH_FORMAT &&
    Array.isArray(graph.nodes) &&
    Array.isArray(graph.attributes) &&
    Array.isArray(graph.edges) &&
    graph.nodes.length === graph.attributes.length
  );
}

/**
 * The graph a compact form was made from; undefined when it does not hold
 * together (an edge end out of range, a repeated node or edge).
 *
 * @example
 * const graph = restoreGraph(stored.graph);
 */
export function restoreGraph(compact: CompactGraph): Graph | undefined {
  const graph = createEmptyGraph();
  const { nodes, attributes, edges } = compact;
  try {
    for (let i = 0; i < nodes.length; i++) graph.addNode(nodes[i] as string, attributes[i] as NodeAttributes);
    for (let i = 0; i < nodes.length; i++) {
      const attrs = attributes[i] as NodeAttributes;
      if (attrs.kind !== "symbol") continue;
      const id = nodes[i] as string;
      graph.addDirectedEdgeWithKey(edgeKey("defines", attrs.file, id), attrs.file, id, { kind: "defines" });
    }
    for (const [s, t, attrs] of edges) {
      const source = nodes[s];
      const target = nodes[t];
      if (source === undefined || target === undefined) return undefined;
      graph.addDirectedEdgeWithKey(edgeKey(attrs.kind, source, target), source, target, attrs);
    }
  } catch {
    return undefined; // a repeated key or a missing end: not a graph this code wrote
  }
  return graph;
}

/**
 * The edges of a compact form as graphology serialises them, `defines`
 * left out (what an update in place copies; see assembleGraphWithReads).
 */
export function compactEdges(compact: CompactGraph): SerializedEdge[] {
  const out: SerializedEdge[] = [];
  for (const [s, t, attributes] of compact.edges) {
    const source = compact.nodes[s];
    const target = compact.nodes[t];
    if (source === undefined || target === undefined) continue;
    out.push({ key: edgeKey(attributes.kind, source, target), source, target, attributes });
  }
  return out;
}

/**
 * The edges of a graph as {@link compactEdges} gives them for its compact
 * form (`defines` left out, insertion order), read from the graph itself:
 * what an update in place copies when the previous graph is in memory.
 */
export function graphEdges(graph: Graph): SerializedEdge[] {
  const out: SerializedEdge[] = [];
  graph.forEachEdge((key, attributes, source, target) => {
    if (attributes.kind !== "defines") out.push({ key, source, target, attributes });
  });
  return out;
}

/**
 * True when {@link restoreGraph} can restore `compact` without a clash: every
 * edge end in range, node ids and edge keys unique, every node's attributes
 * an object with a kind. Cheaper than restoring: what lets a build hand out
 * a stored graph that is restored only when something reads it.
 */
export function holdsTogether(compact: CompactGraph): boolean {
  const { nodes, attributes, edges } = compact;
  if (new Set(nodes).size !== nodes.length) return false;
  for (const attrs of attributes) if (typeof attrs !== "object" || attrs === null || typeof attrs.kind !== "string") return false;
  const keys = new Set<string>();
  for (const edge of edges) {
    if (!Array.isArray(edge)) return false;
    const [s, t, attrs] = edge;
    const source = nodes[s];
    const target = nodes[t];
    if (source === undefined || target === undefined || typeof attrs !== "object" || attrs === null || attrs.kind === "defines") return false;
    keys.add(edgeKey(attrs.kind, source, target));
  }
  return keys.size === edges.length;
}

/**
 * Compact forms already at hand, by owner: a build's result whose graph is
 * restored only when read (its stored form), or a graph (the form made for
 * the index write, or by {@link compactGraphOf}).
 */
const compacts = new WeakMap<object, CompactGraph>();

/** Remember the compact form of a build's result or of a graph. */
export function rememberCompactGraph(owner: object, compact: CompactGraph): void {
  compacts.set(owner, compact);
}

/**
 * The compact form of a build's graph, for readers that walk its edges
 * without graphology (the retriever's file links and gaps): the stored one
 * when the graph was loaded from the index (so reading it does not restore
 * the graph), else made from the graph once and kept with it.
 *
 * @example
 * const { nodes, attributes, edges } = compactGraphOf(codeGraph);
 */
export function compactGraphOf(codeGraph: { graph: Graph }): CompactGraph {
  const stored = compacts.get(codeGraph);
  if (stored) return stored;
  const graph = codeGraph.graph;
  let made = compacts.get(graph);
  if (!made) {
    made = serializeGraph(graph);
    compacts.set(graph, made);
  }
  return made;
}
