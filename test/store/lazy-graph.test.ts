/**
 * A one-shot build that finds its graph in the index hands it out in the
 * stored (compact) form and restores the graphology graph only when
 * something reads `graph`: a warm query reads the file links and gaps from
 * the compact form and never pays the restore.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildGraph, type CodeGraph } from "../../src/index.js";
import { runIterativeRetrieval } from "../../src/retrieve/loop.js";
import { createRetrievalContext } from "../../src/retrieve/retrieval-context.js";
import { holdsTogether, serializeGraph, type CompactGraph } from "../../src/graph/serialize-graph.js";
import { comparable, copyFixture, makeTempDir, uncached } from "./helpers.js";

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  temp = makeTempDir("gr-lazy-");
});
afterEach(() => temp.cleanup());

/** The retrieval of `task` over a build, as the loop returns it. */
function retrieveOver(codeGraph: CodeGraph, task: string) {
  return runIterativeRetrieval(createRetrievalContext(codeGraph), { task, displayRoot: ".", options: {}, readFile: async () => "" });
}

describe("the stored graph, restored when read", () => {
  it("equals a full assembly once read, with the same stats, and a retrieval over it never reads it", async () => {
    const root = copyFixture("api-gateway", join(temp.dir, "root"));
    const cacheDir = join(temp.dir, "index");
    const cold = await buildGraph(root, { cacheDir });
    const warm = await buildGraph(root, { cacheDir });
    expect(warm.cache).toMatchObject({ found: true, parsed: 0, graphReused: true });
    expect(warm.stats.edges).toEqual(cold.stats.edges);
    expect(warm.stats.symbols).toBe(cold.stats.symbols);
    expect(warm.stats.packages).toBe(cold.stats.packages);

    const task = "Add rate limiting to the API endpoints";
    const expected = await retrieveOver(cold, task);
    const untouched = await buildGraph(root, { cacheDir });
    Object.defineProperty(untouched, "graph", {
      get() {
        throw new Error("the retrieval restored the graph");
      },
    });
    expect(await retrieveOver(untouched, task)).toEqual(expected);
    // read at last, it is the graph a build without an index assembles
    expect(comparable(warm)).toEqual(await uncached(root));
  });

  it("a stored graph that would not restore is assembled again when read", async () => {
    const root = copyFixture("auth-service", join(temp.dir, "root"));
    const cacheDir = join(temp.dir, "index");
    await buildGraph(root, { cacheDir });
    // two edges under one key: JSON-valid, the right key, but not a graph this code wrote
    const path = join(cacheDir, "graph.json");
    const stored = JSON.parse(readFileSync(path, "latin1")) as { graph: CompactGraph };
    stored.graph.edges.push(stored.graph.edges[0] as CompactGraph["edges"][number]);
    writeFileSync(path, JSON.stringify(stored));
    // the build hands out the stored relations; the graph, when read, is assembled from the facts
    const warm = await buildGraph(root, { cacheDir });
    expect(warm.cache?.parsed).toBe(0);
    expect(comparable(warm)).toEqual(await uncached(root));
  });
});

describe("holdsTogether", () => {
  it("accepts what serializeGraph writes and refuses a repeated node or edge, an end out of range, a defines edge", async () => {
    const compact = serializeGraph((await buildGraph("fixtures/api-gateway")).graph);
    expect(holdsTogether(compact)).toBe(true);
    const edge = compact.edges[0] as CompactGraph["edges"][number];
    expect(holdsTogether({ ...compact, nodes: [...compact.nodes.slice(0, -1), compact.nodes[0] as string] })).toBe(false);
    expect(holdsTogether({ ...compact, edges: [...compact.edges, edge] })).toBe(false);
    expect(holdsTogether({ ...compact, edges: [...compact.edges, [0, compact.nodes.length, edge[2]]] })).toBe(false);
    expect(holdsTogether({ ...compact, edges: [...compact.edges, [0, 1, { kind: "defines" }]] })).toBe(false);
    expect(holdsTogether({ ...compact, attributes: [null as never, ...compact.attributes.slice(1)] })).toBe(false);
  });
});
