/**
 * The stored form of the graph: restores to the same graph (export equal,
 * insertion order included), and refuses what does not hold together.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildGraph } from "../../src/index.js";
import { CompactGraphBuilder, isCompactGraph, restoreGraph, serializeGraph } from "../../src/graph/serialize-graph.js";
import { REPO_ROOT } from "../store/helpers.js";

describe("serializeGraph / restoreGraph", () => {
  it("round-trips a real graph (files, symbols, packages, every edge kind) through JSON", async () => {
    const { graph } = await buildGraph(join(REPO_ROOT, "fixtures", "graph-basics"));
    const compact = JSON.parse(JSON.stringify(serializeGraph(graph))) as unknown;
    expect(isCompactGraph(compact)).toBe(true);
    const restored = isCompactGraph(compact) ? restoreGraph(compact) : undefined;
    expect(JSON.stringify(restored?.export())).toBe(JSON.stringify(graph.export()));
  });

  it("the form the assembly builds is the serialisation of the graph it restores to", async () => {
    const codeGraph = await buildGraph(join(REPO_ROOT, "fixtures", "graph-basics"));
    const built = codeGraph.compact; // the builder's, taken without restoring
    expect(JSON.stringify(serializeGraph(codeGraph.graph))).toBe(JSON.stringify(built));
    expect(codeGraph.graph).toBe(codeGraph.graph); // restored once
  });

  it("is part of the result: a copy of a CodeGraph keeps it, and the copy's graph is the same graph", async () => {
    const codeGraph = await buildGraph(join(REPO_ROOT, "fixtures", "graph-basics"));
    const copy = { ...codeGraph };
    expect(copy.compact).toBe(codeGraph.compact);
    expect(JSON.stringify(serializeGraph(copy.graph))).toBe(JSON.stringify(copy.compact));
  });

  it("refuses graphology's own export (an older graph.json) and a form whose edges point nowhere", async () => {
    const { graph } = await buildGraph(join(REPO_ROOT, "fixtures", "graph-basics"));
    expect(isCompactGraph(graph.export())).toBe(false);
    const compact = serializeGraph(graph);
    expect(restoreGraph({ ...compact, edges: [...compact.edges, [0, compact.nodes.length + 5, { kind: "import" }]] })).toBeUndefined();
    expect(restoreGraph({ ...compact, nodes: [...compact.nodes, compact.nodes[0] as string], attributes: [...compact.attributes, compact.attributes[0]!] })).toBeUndefined();
  });
});

describe("CompactGraphBuilder", () => {
  const file = () => ({ kind: "file" as const, language: "typescript" as const, isDeclaration: false, tokens: 1, lines: 1, hasSyntaxErrors: false });
  it("keeps graphology's rules: a node or edge twice, an edge to a missing node, a defines edge to a file are errors", () => {
    const builder = new CompactGraphBuilder();
    builder.addNode("a.ts", file());
    builder.addNode("b.ts", file());
    expect(() => builder.addNode("a.ts", file())).toThrow(/added twice/);
    builder.addDirectedEdgeWithKey("import:a.ts->b.ts", "a.ts", "b.ts", { kind: "import", names: ["x"] });
    expect(() => builder.addDirectedEdgeWithKey("import:a.ts->b.ts", "a.ts", "b.ts", { kind: "import" })).toThrow(/added twice/);
    expect(() => builder.addDirectedEdgeWithKey("import:a.ts->c.ts", "a.ts", "c.ts", { kind: "import" })).toThrow(/missing node/);
    expect(() => builder.addDirectedEdgeWithKey("defines:a.ts->b.ts", "a.ts", "b.ts", { kind: "defines" })).toThrow(/no symbol/);
    expect(() => builder.getEdgeAttributes("import:b.ts->a.ts")).toThrow(/no edge/);
  });

  it("merges and updates edge attributes in place, and restores to the graph graphology would have built", () => {
    const builder = new CompactGraphBuilder();
    builder.addNode("a.ts", file());
    builder.addNode("b.ts", file());
    builder.addNode("b.ts#X", { kind: "symbol", name: "X", file: "b.ts", symbolKind: "class", exported: true, startLine: 1, endLine: 2 });
    builder.addDirectedEdgeWithKey("defines:b.ts->b.ts#X", "b.ts", "b.ts#X", { kind: "defines" });
    expect(builder.hasEdge("defines:b.ts->b.ts#X")).toBe(true);
    builder.addDirectedEdgeWithKey("import:a.ts->b.ts", "a.ts", "b.ts", { kind: "import", names: ["X"], typeOnly: true });
    builder.mergeEdgeAttributes("import:a.ts->b.ts", { typeOnly: false });
    builder.addDirectedEdgeWithKey("references:a.ts->b.ts#X", "a.ts", "b.ts#X", { kind: "references", count: 1 });
    builder.updateEdgeAttribute("references:a.ts->b.ts#X", "count", (c) => (c ?? 0) + 2);
    const restored = restoreGraph(builder.toCompact());
    expect(restored?.getEdgeAttributes("import:a.ts->b.ts")).toEqual({ kind: "import", names: ["X"], typeOnly: false });
    expect(restored?.getEdgeAttribute("references:a.ts->b.ts#X", "count")).toBe(3);
    expect(restored?.edges()).toEqual(["defines:b.ts->b.ts#X", "import:a.ts->b.ts", "references:a.ts->b.ts#X"]);
  });
});

