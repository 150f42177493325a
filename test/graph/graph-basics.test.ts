/**
 * buildGraph on fixtures/graph-basics, checked against the hand-written edge
 * table in fixtures/graph-basics/EDGES.md (parsed here, so the table stays the
 * single source of truth) and against facts read by hand in the fixture.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { buildGraph, renderGraphDot, renderGraphJson, type CodeGraph } from "../../src/index.js";
import { edgesOf, FIXTURES, fixtureRoot, readEdgeTable, type FlatEdge } from "./helpers.js";

const root = fixtureRoot("graph-basics");
const table = readEdgeTable("graph-basics");

let codeGraph: CodeGraph;
beforeAll(async () => {
  codeGraph = await buildGraph(root);
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Import / re-export edges written in the source (no `via`), in the table's terms. */
function directEdges(): FlatEdge[] {
  return edgesOf(codeGraph, ["import", "reexport"])
    .filter((edge) => edge.via === undefined)
    .map(({ kind, source, target, importKind, typeOnly }) => ({ kind, source, target, importKind, typeOnly }));
}

describe("graph-basics: the edge table", () => {
  it("reads the whole table (27 import facts, 2 unresolved)", () => {
    expect(table).toHaveLength(27);
    expect(table.filter((row) => row.to === undefined)).toHaveLength(2);
  });

  it("has exactly one import or reexport edge per resolved row of EDGES.md", () => {
    const expected: FlatEdge[] = table
      .filter((row) => row.to !== undefined)
      .map((row) => ({
        kind: row.kind === "reexport" ? "reexport" : "import",
        source: row.from,
        target: row.to!,
        importKind: row.kind,
        typeOnly: row.typeOnly,
      }));
    const key = (e: FlatEdge) => `${e.kind} ${e.source} -> ${e.target}`;
    expect(directEdges().sort((a, b) => key(a).localeCompare(key(b)))).toEqual(
      expected.sort((a, b) => key(a).localeCompare(key(b))),
    );
  });

  it("reports each `—` row as an unresolved diagnostic on its file, naming specifier and line, and no other", () => {
    const unresolved = codeGraph.diagnostics.filter((d) => d.kind === "unresolved");
    const expected = table.filter((row) => row.to === undefined);
    expect(unresolved).toHaveLength(expected.length);
    for (const row of expected) {
      expect(unresolved).toContainEqual({
        kind: "unresolved",
        path: row.from,
        message: expect.stringMatching(new RegExp(`"${escapeRegExp(row.specifier)}".* line ${row.line}\\b`)),
      });
    }
  });

  it("gives the files the table says import nothing no outgoing import or reexport edge", () => {
    const text = readFileSync(join(FIXTURES, "graph-basics", "EDGES.md"), "utf8");
    const paragraph = /Files without imports:([^]*?)\n\n/.exec(text)?.[1] ?? "";
    const files = paragraph.split(",").map((s) => s.trim().replace(/\.$/, ""));
    expect(files).toEqual([
      "src/config/locale.cjs",
      "src/legacy/delimited.js",
      "src/models/category.ts",
      "src/models/money.ts",
      "src/types/globals.d.ts",
    ]);
    for (const file of files) {
      expect(codeGraph.graph.getNodeAttribute(file, "kind")).toBe("file");
      const out = codeGraph.graph.outEdges(file).map((e) => codeGraph.graph.getEdgeAttribute(e, "kind"));
      expect(out.filter((k) => k === "import" || k === "reexport"), file).toEqual([]);
    }
  });

  it("has one file node per scanned source file (the stylesheet is not one)", () => {
    const files = codeGraph.graph.filterNodes((_id, a) => a.kind === "file").sort();
    expect(files).toEqual([
      "src/config/defaults.cjs",
      "src/config/locale.cjs",
      "src/config/settings.ts",
      "src/legacy/csv-import.ts",
      "src/legacy/delimited.js",
      "src/main.ts",
      "src/models/category.ts",
      "src/models/index.ts",
      "src/models/item.ts",
      "src/models/money.ts",
      "src/reports/summary.ts",
      "src/store/events.ts",
      "src/store/inventory.ts",
      "src/types/globals.d.ts",
      "src/ui/ItemRow.tsx",
      "src/ui/ItemTable.tsx",
    ]);
    expect(codeGraph.stats).toMatchObject({
      files: 16,
      specifiers: 27,
      resolvedSpecifiers: 22,
      unresolvedSpecifiers: 2,
      externalSpecifiers: 3,
      parseErrors: 1,
      skippedFiles: 0,
    });
  });
});

describe("graph-basics: barrels", () => {
  it("links a named import through src/models/index.ts to the defining file, exactly these nine", () => {
    const via = edgesOf(codeGraph, ["import", "reexport"])
      .filter((edge) => edge.via !== undefined)
      .map(({ source, target, names, typeOnly, importKind, via }) => ({ source, target, names, typeOnly, importKind, via }));
    const barrel = ["src/models/index.ts"];
    expect(via).toEqual([
      // `import { Category, type Item }`: the derived edge takes the statement's type-only flag,
      // since ImportedName carries no per-name `type` marker (so Item → item.ts reads as a value import).
      { source: "src/legacy/csv-import.ts", target: "src/models/category.ts", names: ["Category"], typeOnly: false, importKind: "static", via: barrel },
      { source: "src/legacy/csv-import.ts", target: "src/models/item.ts", names: ["Item"], typeOnly: false, importKind: "static", via: barrel },
      { source: "src/main.ts", target: "src/models/item.ts", names: ["Item"], typeOnly: true, importKind: "static", via: barrel },
      { source: "src/reports/summary.ts", target: "src/models/category.ts", names: ["categoryLabel"], typeOnly: false, importKind: "static", via: barrel },
      { source: "src/reports/summary.ts", target: "src/models/item.ts", names: ["Item", "stockValue"], typeOnly: false, importKind: "static", via: barrel },
      // `money` is `export * as money from "./money"`: the whole namespace
      { source: "src/reports/summary.ts", target: "src/models/money.ts", names: ["*"], typeOnly: false, importKind: "static", via: barrel },
      { source: "src/store/inventory.ts", target: "src/models/item.ts", names: ["Item", "stockValue"], typeOnly: false, importKind: "static", via: barrel },
      { source: "src/ui/ItemRow.tsx", target: "src/models/item.ts", names: ["Item"], typeOnly: true, importKind: "static", via: barrel },
      { source: "src/ui/ItemTable.tsx", target: "src/models/item.ts", names: ["Item"], typeOnly: true, importKind: "static", via: barrel },
    ]);
  });

  it("keeps the barrel's own re-export edges with the names they carry", () => {
    const reexports = edgesOf(codeGraph, ["reexport"]).map(({ source, target, names }) => ({ source, target, names }));
    expect(reexports).toEqual([
      { source: "src/models/index.ts", target: "src/models/category.ts", names: ["Category", "categoryLabel"] },
      { source: "src/models/index.ts", target: "src/models/item.ts", names: ["*"] },
      { source: "src/models/index.ts", target: "src/models/money.ts", names: ["*"] },
    ]);
  });

  it("lands references on the defining file's symbol, through the barrel and through `money.` namespace access", () => {
    const references = edgesOf(codeGraph, ["references"]).map(({ source, target }) => `${source} -> ${target}`);
    expect(references).toEqual([
      "src/legacy/csv-import.ts -> src/legacy/delimited.js#parseDelimited",
      "src/legacy/csv-import.ts -> src/models/category.ts#Category",
      "src/legacy/csv-import.ts -> src/models/item.ts#Item",
      "src/main.ts -> src/config/settings.ts#loadSettings",
      "src/main.ts -> src/models/item.ts#Item",
      "src/main.ts -> src/store/inventory.ts#createInventory",
      "src/models/item.ts -> src/models/category.ts#Category",
      "src/models/item.ts -> src/models/money.ts#Money",
      "src/models/item.ts -> src/models/money.ts#addMoney",
      "src/reports/summary.ts -> src/models/category.ts#categoryLabel",
      "src/reports/summary.ts -> src/models/item.ts#Item",
      "src/reports/summary.ts -> src/models/item.ts#stockValue",
      "src/reports/summary.ts -> src/models/money.ts#formatMoney",
      "src/store/events.ts -> src/store/inventory.ts#Inventory",
      "src/store/events.ts -> src/store/inventory.ts#createInventory",
      "src/store/inventory.ts -> src/models/item.ts#Item",
      "src/store/inventory.ts -> src/models/item.ts#stockValue",
      "src/store/inventory.ts -> src/store/events.ts#InventoryListener",
      "src/store/inventory.ts -> src/store/events.ts#emitChange",
      "src/ui/ItemRow.tsx -> src/models/item.ts#Item",
      "src/ui/ItemRow.tsx -> src/models/money.ts#formatMoney",
      "src/ui/ItemTable.tsx -> src/models/item.ts#Item",
      "src/ui/ItemTable.tsx -> src/ui/ItemRow.tsx#ItemRow",
    ]);
    // nothing is defined in the barrel, so nothing may point at it
    expect(codeGraph.graph.filterNodes((id) => id.startsWith("src/models/index.ts#"))).toEqual([]);
    // counts: Item is used 4 times in inventory.ts (lines 5, 7, 14, 29), Money 3 times in item.ts (8, 12, 13)
    expect(codeGraph.graph.getEdgeAttribute("references:src/store/inventory.ts->src/models/item.ts#Item", "count")).toBe(4);
    expect(codeGraph.graph.getEdgeAttribute("references:src/models/item.ts->src/models/money.ts#Money", "count")).toBe(3);
  });
});

describe("graph-basics: symbols", () => {
  function symbolsOf(file: string) {
    return codeGraph.graph
      .filterNodes((_id, a) => a.kind === "symbol" && a.file === file)
      .sort()
      .map((id) => {
        const a = codeGraph.graph.getNodeAttributes(id);
        return a.kind === "symbol" ? { id, kind: a.symbolKind, exported: a.exported, lines: [a.startLine, a.endLine] } : undefined;
      });
  }

  it("money.ts: two exported functions and an exported interface", () => {
    expect(symbolsOf("src/models/money.ts")).toEqual([
      { id: "src/models/money.ts#Money", kind: "interface", exported: true, lines: [2, 5] },
      { id: "src/models/money.ts#addMoney", kind: "function", exported: true, lines: [11, 14] },
      { id: "src/models/money.ts#formatMoney", kind: "function", exported: true, lines: [7, 9] },
    ]);
  });

  it("settings.ts: a private schema constant beside exported type and function", () => {
    expect(symbolsOf("src/config/settings.ts")).toEqual([
      { id: "src/config/settings.ts#Settings", kind: "type", exported: true, lines: [9, 9] },
      { id: "src/config/settings.ts#SettingsSchema", kind: "variable", exported: false, lines: [4, 7] },
      { id: "src/config/settings.ts#loadSettings", kind: "function", exported: true, lines: [11, 16] },
    ]);
  });

  it("inventory.ts: interface methods as Container.method, a module-private variable", () => {
    expect(symbolsOf("src/store/inventory.ts").map((s) => [s!.id.split("#")[1], s!.kind, s!.exported])).toEqual([
      ["Inventory", "interface", true],
      ["Inventory.add", "method", true],
      ["Inventory.list", "method", true],
      ["Inventory.onChange", "method", true],
      ["Inventory.remove", "method", true],
      ["createInventory", "function", true],
      ["listeners", "variable", false],
      ["totalValue", "function", true],
    ]);
  });

  it("has exactly one defines edge per symbol, from the symbol's own file", () => {
    const symbols = codeGraph.graph.filterNodes((_id, a) => a.kind === "symbol");
    const defines = edgesOf(codeGraph, ["defines"]);
    expect(defines).toHaveLength(symbols.length);
    expect(codeGraph.stats.edges.defines).toBe(symbols.length);
    for (const edge of defines) {
      const target = codeGraph.graph.getNodeAttributes(edge.target);
      expect(target.kind).toBe("symbol");
      expect(target.kind === "symbol" && target.file).toBe(edge.source);
      expect(edge.target.startsWith(`${edge.source}#`)).toBe(true);
    }
    expect(defines.filter((e) => e.source === "src/models/money.ts").map((e) => e.target)).toEqual([
      "src/models/money.ts#Money",
      "src/models/money.ts#addMoney",
      "src/models/money.ts#formatMoney",
    ]);
  });
});

describe("graph-basics: packages, cycles, syntax errors", () => {
  it("has the three external packages as package nodes, built-ins under node:", () => {
    const packages = codeGraph.graph
      .filterNodes((_id, a) => a.kind === "package")
      .sort()
      .map((id) => ({ id, ...codeGraph.graph.getNodeAttributes(id) }));
    expect(packages).toEqual([
      { id: "pkg:node:fs", kind: "package", name: "node:fs" },
      { id: "pkg:node:os", kind: "package", name: "node:os" },
      { id: "pkg:zod", kind: "package", name: "zod" },
    ]);
    expect(codeGraph.graph.inNeighbors("pkg:node:os")).toEqual(["src/config/defaults.cjs"]);
  });

  it("keeps the inventory ⇄ events cycle in both directions", () => {
    const g = codeGraph.graph;
    expect(g.hasEdge("import:src/store/inventory.ts->src/store/events.ts")).toBe(true);
    expect(g.hasEdge("import:src/store/events.ts->src/store/inventory.ts")).toBe(true);
    expect(g.getEdgeAttributes("import:src/store/events.ts->src/store/inventory.ts")).toMatchObject({
      names: ["Inventory", "createInventory"],
      importKind: "static",
    });
    expect(g.getEdgeAttributes("import:src/store/inventory.ts->src/store/events.ts")).toMatchObject({
      names: ["InventoryListener", "emitChange"],
      importKind: "static",
    });
  });

  it("still finds the three imports and two functions of the file with syntax errors, and says it had errors", () => {
    const path = "src/legacy/csv-import.ts";
    const parsed = codeGraph.files.get(path)!;
    expect(parsed.hasSyntaxErrors).toBe(true);
    expect(codeGraph.graph.getNodeAttributes(path)).toMatchObject({ kind: "file", hasSyntaxErrors: true });
    expect(parsed.imports.map((i) => [i.specifier, i.line])).toEqual([
      ["@app/models", 2],
      ["./delimited", 3],
      ["@app/legacy/barcode", 4],
    ]);
    expect(codeGraph.graph.hasEdge(`import:${path}->src/models/index.ts`)).toBe(true);
    expect(codeGraph.graph.hasEdge(`import:${path}->src/legacy/delimited.js`)).toBe(true);
    expect(codeGraph.graph.hasNode(`${path}#importCsv`)).toBe(true);
    expect(codeGraph.graph.hasNode(`${path}#importTsv`)).toBe(true);
    expect(codeGraph.diagnostics.filter((d) => d.kind === "parse-error")).toEqual([
      { kind: "parse-error", path, message: expect.stringMatching(/^parse-error: /) },
    ]);
  });
});

describe("graph-basics: output", () => {
  it("renders the same JSON and DOT bytes on two builds", async () => {
    const again = await buildGraph(root);
    expect(renderGraphJson(again, ".")).toBe(renderGraphJson(codeGraph, "."));
    expect(renderGraphDot(again)).toBe(renderGraphDot(codeGraph));
  });

  it("keeps absolute paths out of the JSON and DOT", () => {
    expect(renderGraphJson(codeGraph, ".")).not.toContain(root);
    expect(renderGraphDot(codeGraph)).not.toContain(root);
  });

  it("renders DOT as the golden file", async () => {
    await expect(renderGraphDot(codeGraph)).toMatchFileSnapshot("./__snapshots__/graph-basics.dot");
  });
});
