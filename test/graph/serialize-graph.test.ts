/**
 * The stored form of the graph: restores to the same graph (export equal,
 * insertion order included), and refuses what does not hold together.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildGraph } from "../../src/index.js";
import { compactEdges, graphEdges, isCompactGraph, restoreGraph, serializeGraph } from "../../src/graph/serialize-graph.js";
import { REPO_ROOT } from "../store/helpers.js";

describe("serializeGraph / restoreGraph", () => {
  it("round-trips a real graph (files, symbols, packages, every edge kind) through JSON", async () => {
    const { graph } = await buildGraph(join(REPO_ROOT, "fixtures", "graph-basics"));
    const compact = JSON.parse(JSON.stringify(serializeGraph(graph))) as unknown;
    expect(isCompactGraph(compact)).toBe(true);
    const restored = isCompactGraph(compact) ? restoreGraph(compact) : undefined;
    expect(JSON.stringify(restored?.export())).toBe(JSON.stringify(graph.export()));
    // the edges an update in place copies: every edge but defines, in order, keys included
    const expected = (graph.export().edges as Array<{ key: string; attributes: { kind: string } }>).filter((e) => e.attributes.kind !== "defines");
    expect(isCompactGraph(compact) ? compactEdges(compact).map((e) => e.key) : []).toEqual(expected.map((e) => e.key));
    // and the same edges read from the graph object (the index kept in memory), attributes included
    expect(JSON.parse(JSON.stringify(graphEdges(graph)))).toEqual(isCompactGraph(compact) ? compactEdges(compact) : []);
  });

  it("refuses graphology's own export (an older graph.json) and a form whose edges point nowhere", async () => {
    const { graph } = await buildGraph(join(REPO_ROOT, "fixtures", "graph-basics"));
    expect(isCompactGraph(graph.export())).toBe(false);
    const compact = serializeGraph(graph);
    expect(restoreGraph({ ...compact, edges: [...compact.edges, [0, compact.nodes.length + 5, { kind: "import" }]] })).toBeUndefined();
    expect(restoreGraph({ ...compact, nodes: [...compact.nodes, compact.nodes[0] as string], attributes: [...compact.attributes, compact.attributes[0]!] })).toBeUndefined();
  });
});
