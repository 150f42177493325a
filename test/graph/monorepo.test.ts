/**
 * buildGraph on fixtures/monorepo: workspace package imports (`@acme/core`,
 * `@acme/core/strings`, `@acme/shared/time`) land on packages/<name>/src files
 * and show as file edges, never as package nodes. EDGES.md is the contract.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { buildGraph, type CodeGraph } from "../../src/index.js";
import { edgesOf, fixtureRoot, readEdgeTable } from "./helpers.js";

const root = fixtureRoot("monorepo");
const table = readEdgeTable("monorepo");

let codeGraph: CodeGraph;
beforeAll(async () => {
  codeGraph = await buildGraph(root);
});

describe("monorepo", () => {
  it("has exactly the import and reexport edges of EDGES.md (plus the barrel-derived ones)", () => {
    expect(table).toHaveLength(13);
    const direct = edgesOf(codeGraph, ["import", "reexport"])
      .filter((e) => e.via === undefined)
      .map((e) => `${e.kind} ${e.source} -> ${e.target} ${e.importKind} ${e.typeOnly ? "type" : "value"}`);
    const expected = table.map(
      (row) => `${row.kind === "reexport" ? "reexport" : "import"} ${row.from} -> ${row.to} ${row.kind} ${row.typeOnly ? "type" : "value"}`,
    );
    expect(direct.sort()).toEqual(expected.sort());
    expect(codeGraph.diagnostics).toEqual([]);
  });

  it("turns workspace package specifiers into edges between files under packages/*/src", () => {
    const workspaceRows = table.filter((row) => row.specifier.startsWith("@acme/"));
    expect(workspaceRows.map((r) => r.specifier).sort()).toEqual(["@acme/core", "@acme/core", "@acme/core/strings", "@acme/shared", "@acme/shared/time"]);
    for (const row of workspaceRows) {
      expect(row.to).toMatch(/^packages\/[a-z]+\/src\/[a-z-/]+\.ts$/);
      expect(codeGraph.graph.getNodeAttribute(row.to!, "kind")).toBe("file");
      expect(codeGraph.graph.hasEdge(`import:${row.from}->${row.to}`)).toBe(true);
    }
    const packages = codeGraph.graph.filterNodes((_id, a) => a.kind === "package").sort();
    expect(packages).toEqual(["pkg:express", "pkg:node:path"]);
  });

  it("follows the workspace barrels to the defining file, across packages", () => {
    const via = edgesOf(codeGraph, ["import"])
      .filter((e) => e.via !== undefined)
      .map(({ source, target, names, via }) => ({ source, target, names, via }));
    expect(via).toEqual([
      { source: "packages/app/src/main.ts", target: "packages/core/src/logger.ts", names: ["createLogger"], via: ["packages/core/src/index.ts"] },
      { source: "packages/app/src/routes.ts", target: "packages/core/src/logger.ts", names: ["Logger"], via: ["packages/core/src/index.ts"] },
      { source: "packages/core/src/logger.ts", target: "packages/shared/src/time.ts", names: ["formatTimestamp"], via: ["packages/shared/src/index.ts"] },
    ]);
    expect(codeGraph.graph.hasEdge("references:packages/core/src/logger.ts->packages/shared/src/time.ts#formatTimestamp")).toBe(true);
    expect(codeGraph.graph.hasEdge("references:packages/app/src/main.ts->packages/core/src/strings.ts#slugify")).toBe(true);
  });
});
