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
import { COMPACT_GRAPH_FORMAT, createEmptyGraph, edgeKey, type CompactGraph, type EdgeAttributes, type Graph, type NodeAttributes } from "./code-graph.js";

export type { CompactGraph } from "./code-graph.js";

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
 * True when {@link restoreGraph} can restore `compact` without a clash: every
 * edge end in range, node ids and edge keys unique, every node's attributes
 * an object with a kind. Cheaper than restoring: what lets a build hand out
 * a stored graph that is restored only when something reads it.
 */
export function holdsTogether(compact: CompactGraph): boolean {
  const { nodes, attributes, edges } = compact;
  if (new Set(nodes).size !== nodes.length) return false;
  for (const attrs of attributes) if (typeof attrs !== "object" || attrs === null || typeof attrs.kind !== "string") return false;
  // node ids are unique, so an edge key is unique when its (kind, source, target) is: one number each, not a
  // string (a warm query on effect spent ~35 ms making and hashing the keys as strings)
  const n = nodes.length;
  const kinds = new Map<string, number>();
  const keys = new Set<number>();
  const fitsNumbers = n * n * 8 < Number.MAX_SAFE_INTEGER;
  const named = fitsNumbers ? undefined : new Set<string>();
  for (const edge of edges) {
    if (!Array.isArray(edge)) return false;
    const [s, t, attrs] = edge;
    if (!Number.isInteger(s) || !Number.isInteger(t) || s < 0 || t < 0 || s >= n || t >= n) return false;
    if (typeof attrs !== "object" || attrs === null || attrs.kind === "defines") return false;
    let kind = kinds.get(attrs.kind);
    if (kind === undefined) kinds.set(attrs.kind, (kind = kinds.size));
    if (kind >= 8) return false;
    if (named) named.add(edgeKey(attrs.kind, nodes[s]!, nodes[t]!));
    else keys.add((s * n + t) * 8 + kind);
  }
  return (named ?? keys).size === edges.length;
}

/** The graph operations the assembly uses (graphology's names and meaning), so it can build either. */
export interface GraphSink {
  hasNode(id: string): boolean;
  addNode(id: string, attributes: NodeAttributes): unknown;
  hasEdge(key: string): boolean;
  addDirectedEdgeWithKey(key: string, source: string, target: string, attributes: EdgeAttributes): unknown;
  getEdgeAttributes(key: string): EdgeAttributes;
  mergeEdgeAttributes(key: string, attributes: Partial<EdgeAttributes>): unknown;
  updateEdgeAttribute(key: string, name: "count", updater: (value: number | undefined) => number): unknown;
}

/**
 * Builds the compact form directly, with graphology's rules for the
 * operations the assembly uses (a node or edge key added twice, an edge to
 * a missing node: an error), in the same insertion order. A graphology
 * graph spends most of an assembly on its adjacency objects; this keeps
 * two arrays and two index maps, and {@link restoreGraph} makes the graph
 * when something reads it.
 *
 * @example
 * const builder = new CompactGraphBuilder();
 * builder.addNode("a.ts", fileAttributes);
 * builder.toCompact(); // { format: "compact-1", nodes: ["a.ts"], … }
 */
export class CompactGraphBuilder implements GraphSink {
  private readonly nodeIndex = new Map<string, number>();
  private readonly nodes: string[] = [];
  private readonly attributes: NodeAttributes[] = [];
  private readonly edgeIndex = new Map<string, number>();
  private readonly edges: Array<[number, number, EdgeAttributes]> = [];
  /** `defines` keys: the compact form leaves those edges out (one per symbol node, restored from the nodes). */
  private readonly defines = new Set<string>();

  hasNode(id: string): boolean {
    return this.nodeIndex.has(id);
  }

  addNode(id: string, attributes: NodeAttributes): void {
    if (this.nodeIndex.has(id)) throw new Error(`graph: node "${id}" added twice`);
    this.nodeIndex.set(id, this.nodes.length);
    this.nodes.push(id);
    this.attributes.push(attributes);
  }

  hasEdge(key: string): boolean {
    return this.edgeIndex.has(key) || this.defines.has(key);
  }

  addDirectedEdgeWithKey(key: string, source: string, target: string, attributes: EdgeAttributes): void {
    const s = this.nodeIndex.get(source);
    const t = this.nodeIndex.get(target);
    if (s === undefined || t === undefined) throw new Error(`graph: edge "${key}" ends on a missing node`);
    if (this.hasEdge(key)) throw new Error(`graph: edge "${key}" added twice`);
    if (attributes.kind === "defines") {
      // restoreGraph adds these from the symbol nodes, in node order: the assembly adds them in that order
      if ((this.attributes[t] as NodeAttributes).kind !== "symbol") throw new Error(`graph: "defines" edge "${key}" to a node that is no symbol`);
      this.defines.add(key);
      return;
    }
    this.edgeIndex.set(key, this.edges.length);
    this.edges.push([s, t, attributes]);
  }

  /**
   * Add a symbol node of a previous build with its `defines` edge (which
   * the compact form leaves implicit), without the edge's key: an update
   * copies the symbols of the files it did not see change this way, and
   * never asks for those edges by key.
   */
  addCopiedSymbol(id: string, attributes: NodeAttributes): void {
    if (attributes.kind !== "symbol" || !this.nodeIndex.has(attributes.file)) throw new Error(`graph: symbol "${id}" copied before its file`);
    this.addNode(id, attributes);
  }

  /** The index of a node (its place in the compact form), undefined when there is none. */
  indexOf(id: string): number | undefined {
    return this.nodeIndex.get(id);
  }

  /**
   * Add an edge of a previous build between two nodes, by index, without
   * its key: an update copies the edges of the files it keeps this way, and
   * never asks for them by key (each file's edges are made by that file
   * alone, and a kept file's are done).
   */
  addKeptEdge(source: number, target: number, attributes: EdgeAttributes): void {
    this.edges.push([source, target, attributes]);
  }

  getEdgeAttributes(key: string): EdgeAttributes {
    return this.edgeAt(key)[2];
  }

  mergeEdgeAttributes(key: string, attributes: Partial<EdgeAttributes>): void {
    Object.assign(this.edgeAt(key)[2], attributes);
  }

  updateEdgeAttribute(key: string, name: "count", updater: (value: number | undefined) => number): void {
    const attributes = this.edgeAt(key)[2];
    attributes[name] = updater(attributes[name]);
  }

  toCompact(): CompactGraph {
    return { format: COMPACT_GRAPH_FORMAT, nodes: this.nodes, attributes: this.attributes, edges: this.edges };
  }

  private edgeAt(key: string): [number, number, EdgeAttributes] {
    const index = this.edgeIndex.get(key);
    if (index === undefined) throw new Error(`graph: no edge "${key}"`);
    return this.edges[index] as [number, number, EdgeAttributes];
  }
}

/** A graph in its compact form, restored to a graphology graph on the first {@link LazyGraph.graph} call and kept. */
export interface LazyGraph {
  readonly compact: CompactGraph;
  graph(): Graph;
}

/**
 * The graph of a compact form that {@link restoreGraph} restores (one this
 * code built, or a stored one {@link holdsTogether} accepted), or of the
 * compact form `source` makes when first read.
 *
 * @example
 * const lazy = lazyGraph(builder.toCompact());
 * lazy.graph().order; // restored now
 */
export function lazyGraph(source: CompactGraph | (() => CompactGraph)): LazyGraph {
  let compact = typeof source === "function" ? undefined : source;
  let restored: Graph | undefined;
  const compactForm = (): CompactGraph => (compact ??= (source as () => CompactGraph)());
  return {
    get compact() {
      return compactForm();
    },
    graph() {
      restored ??= restoreGraph(compactForm());
      if (!restored) throw new Error("graph: a compact graph that holds together did not restore (please report this)");
      return restored;
    },
  };
}
