/**
 * assembleGraphWithReads: what each file's edges read, and the update in
 * place after an edit (only the affected files' edges recomputed) equals a
 * full assembly, insertion order included.
 */
import { describe, expect, it } from "vitest";
import { assembleGraph, assembleGraphWithReads, asksAnyOf, changedExportNames, type ResolvedImports } from "../../src/graph/assemble-graph.js";
import { serializeGraph, type CompactGraph } from "../../src/graph/serialize-graph.js";
import type { ImportFact, ParsedFile } from "../../src/types.js";
import { named, star } from "../support/import-facts.js";

function file(path: string, facts: { defines?: string[]; imports?: ImportFact[]; uses?: string[] } = {}): ParsedFile {
  return {
    path,
    language: "typescript",
    isDeclaration: false,
    tokens: 1,
    lines: 1,
    definitions: (facts.defines ?? []).map((name) => ({ name, kind: "function", exported: true, startLine: 1, endLine: 1, signature: name })),
    imports: facts.imports ?? [],
    exports: [],
    references: (facts.uses ?? []).map((name) => ({ name, kind: "call", count: 1 })),
    vocabulary: { definitions: { terms: [], counts: [] }, identifiers: { terms: [], counts: [] }, comments: { terms: [], counts: [] } },
    literals: [],
    hasSyntaxErrors: false,
  };
}

const pkg = (name: string): ImportFact => named(name, "thing");

const TARGETS: Record<string, string[]> = {
  "app.ts": ["barrel.ts", "pkg:left"],
  "barrel.ts": ["first.ts", "second.ts"],
  "other.ts": ["second.ts", "pkg:right"],
};
const resolvedOf = (files: readonly ParsedFile[]): ResolvedImports => new Map(files.map((f) => [f.path, TARGETS[f.path] ?? []]));

/** app imports X through a barrel that star-exports first then second; second defines X; other uses second directly. */
function project(firstDefines: string[]): ParsedFile[] {
  return [
    file("app.ts", { imports: [named("./barrel", "X"), pkg("left")], uses: ["X"] }),
    file("barrel.ts", { imports: [star("./first"), star("./second")] }),
    file("first.ts", { defines: firstDefines }),
    file("other.ts", { imports: [named("./second", "Y"), pkg("right")], uses: ["Y"] }),
    file("second.ts", { defines: ["X", "Y"] }),
  ];
}

describe("assembleGraphWithReads", () => {
  it("records the files each file's edges read: the barrel and every file a lookup passed", () => {
    const files = project([]);
    const { reads, cyclesCut } = assembleGraphWithReads(files, resolvedOf(files));
    // paths in order: app barrel first other second
    expect(reads).toEqual([[1, 2, 4], [], [], [4], []]);
    expect(cyclesCut).toBe(0);
  });

  it("an edit that shadows a name behind a barrel moves the reader's edges; the update equals a full assembly", () => {
    const before = project([]);
    const old = assembleGraphWithReads(before, resolvedOf(before));
    expect(old.graph.hasEdge("references:app.ts->second.ts#X")).toBe(true);
    const after = project(["X"]); // first.ts now defines X: the barrel's first star wins
    // as stored: a copy, nothing shared with the old graph
    const graph = JSON.parse(JSON.stringify(serializeGraph(old.graph))) as CompactGraph;
    // first.ts changed; app.ts read it (through the barrel)
    const updated = assembleGraphWithReads(after, resolvedOf(after), { graph, reads: old.reads, affected: new Set(["first.ts", "app.ts"]) });
    expect(updated?.graph.hasEdge("references:app.ts->first.ts#X")).toBe(true);
    expect(updated?.graph.hasEdge("references:app.ts->second.ts#X")).toBe(false);
    expect(JSON.stringify(updated?.graph.export())).toBe(JSON.stringify(assembleGraph(after, resolvedOf(after)).export()));
    expect(updated?.reads).toEqual(assembleGraphWithReads(after, resolvedOf(after)).reads);
    // told which file changed, the others' symbol nodes are copied: the same graph
    const copying = assembleGraphWithReads(after, resolvedOf(after), { graph, reads: old.reads, affected: new Set(["first.ts", "app.ts"]), changed: new Set(["first.ts"]) });
    expect(JSON.stringify(copying?.graph.export())).toBe(JSON.stringify(updated?.graph.export()));
  });

  it("a name a namespace import does not give yet still makes the namespace a read: the file's edges follow when it is added", () => {
    const namespace: ImportFact = { specifier: "./lib", kind: "static", names: [{ name: "*", alias: "NS" }], typeOnly: false, line: 1 };
    const project = (libDefines: string[]): ParsedFile[] => [
      { ...file("lib.ts", { defines: libDefines }) },
      {
        ...file("user.ts", { imports: [namespace] }),
        references: [
          { name: "later", kind: "member-call", count: 2 },
          { name: "local", kind: "identifier", count: 3 },
        ],
      },
    ];
    const resolved = (files: readonly ParsedFile[]): ResolvedImports => new Map(files.map((f) => [f.path, f.path === "user.ts" ? ["lib.ts"] : []]));
    const before = project(["now"]);
    const old = assembleGraphWithReads(before, resolved(before));
    expect(old.graph.outEdges("user.ts").filter((e) => e.startsWith("references:"))).toEqual([]);
    // paths in order: lib user; no lookup found anything, yet user's references read lib
    expect(old.reads).toEqual([[], [0]]);
    const after = project(["now", "later"]);
    const graph = JSON.parse(JSON.stringify(old.lazy.compact)) as CompactGraph;
    const updated = assembleGraphWithReads(after, resolved(after), { graph, reads: old.reads, affected: new Set(["lib.ts", "user.ts"]) });
    expect(updated?.graph.getEdgeAttribute("references:user.ts->lib.ts#later", "count")).toBe(2);
    expect(JSON.stringify(updated?.graph.export())).toBe(JSON.stringify(assembleGraph(after, resolved(after)).export()));
  });

  it("an update told which files changed asks an unchanged file that defines nothing for its definitions only when a lookup passes it, and equals a full assembly", () => {
    const before = project([]);
    const old = assembleGraphWithReads(before, resolvedOf(before));
    const after = project(["X"]);
    // the files that define nothing and did not change (app, barrel, other) as the index holds them: facts read on demand
    const asked: string[] = [];
    const watched = after.map((f) =>
      f.path === "first.ts" || f.definitions.length > 0
        ? f
        : Object.defineProperty({ ...f }, "definitions", {
            get: () => {
              asked.push(f.path);
              return f.definitions;
            },
          }),
    );
    const graph = JSON.parse(JSON.stringify(serializeGraph(old.graph))) as CompactGraph;
    const updated = assembleGraphWithReads(watched, resolvedOf(watched), { graph, reads: old.reads, affected: new Set(["first.ts", "app.ts"]), changed: new Set(["first.ts"]) });
    // other.ts is neither recomputed nor on a recomputed file's way (app.ts reads the barrel)
    expect(asked).not.toContain("other.ts");
    expect(asked.length).toBeGreaterThan(0);
    expect(JSON.stringify(updated?.graph.export())).toBe(JSON.stringify(assembleGraph(after, resolvedOf(after)).export()));
    // a changed file that now defines nothing loses its symbol nodes
    const emptied = project([]);
    const from = assembleGraphWithReads(after, resolvedOf(after));
    const back = assembleGraphWithReads(emptied, resolvedOf(emptied), { graph: from.lazy.compact, reads: from.reads, affected: new Set(["first.ts", "app.ts"]), changed: new Set(["first.ts"]) });
    expect(JSON.stringify(back?.graph.export())).toBe(JSON.stringify(assembleGraph(emptied, resolvedOf(emptied)).export()));
  });

  it("keeps the unaffected files' edges, packages included, in their order", () => {
    const files = project([]);
    const old = assembleGraphWithReads(files, resolvedOf(files));
    const updated = assembleGraphWithReads(files, resolvedOf(files), { graph: old.lazy.compact, reads: old.reads, affected: new Set() });
    expect(JSON.stringify(updated?.graph.export())).toBe(JSON.stringify(old.graph.export()));
  });

  it("gives up (undefined) when a kept edge lands on a node that is gone, or the file count differs", () => {
    const files = project(["Z"]);
    const old = assembleGraphWithReads(files, resolvedOf(files));
    const { nodes, attributes, edges } = old.lazy.compact;
    // the previous graph had a symbol first.ts#Gone that other.ts used; first.ts no longer defines it
    const graph: CompactGraph = {
      ...old.lazy.compact,
      nodes: [...nodes, "first.ts#Gone"],
      attributes: [...attributes, { kind: "symbol", name: "Gone", file: "first.ts", symbolKind: "function", exported: true, startLine: 1, endLine: 1 }],
      edges: [...edges, [nodes.indexOf("other.ts"), nodes.length, { kind: "references", count: 1 }]],
    };
    expect(assembleGraphWithReads(files, resolvedOf(files), { graph, reads: old.reads, affected: new Set() })).toBeUndefined();
    expect(assembleGraphWithReads(files, resolvedOf(files), { graph: old.lazy.compact, reads: old.reads.slice(1), affected: new Set() })).toBeUndefined();
  });

  it("changedExportNames: the exported names whose answer moved, or undefined when the imports or their targets did", () => {
    const lib = (defines: string[], facts: Partial<ParsedFile> = {}): ParsedFile => ({ ...file("lib.ts", { defines }), ...facts });
    expect(changedExportNames(lib(["a"]), lib(["a"]), [], [])).toEqual(new Set());
    expect(changedExportNames(lib(["a"]), lib(["a", "b"]), [], [])).toEqual(new Set(["b"]));
    expect(changedExportNames(lib(["a", "b"]), lib(["b"]), [], [])).toEqual(new Set(["a"]));
    // `export { a as b }` of a local that stops being defined: b's answer moves
    const renamed = (defines: string[]) => lib(defines, { exports: [{ name: "b", kind: "named", local: "a" }] });
    expect(changedExportNames(renamed(["a"]), { ...renamed([]), definitions: [] }, [], [])).toEqual(new Set(["a", "b"]));
    // `export { a }` where only a method is named a: no symbol node until a top-level a comes
    const method = { name: "a", kind: "method" as const, container: "K", exported: false, startLine: 1, endLine: 1, signature: "a()" };
    const withMethod = lib([], { definitions: [method], exports: [{ name: "a", kind: "named" }] });
    const withFunction = { ...withMethod, definitions: [method, ...file("lib.ts", { defines: ["a"] }).definitions] };
    expect(changedExportNames(withMethod, withFunction, [], [])).toEqual(new Set(["a"]));
    const importing = lib(["a"], { imports: [named("./x", "y")] });
    expect(changedExportNames(importing, importing, ["x.ts"], ["other.ts"])).toBeUndefined();
    expect(changedExportNames(importing, lib(["a"], { imports: [named("./x", "z")] }), ["x.ts"], ["x.ts"])).toBeUndefined();
  });

  it("asksAnyOf: a file's imported names and aliases and the names it references", () => {
    const user: ParsedFile = {
      ...file("user.ts", { imports: [{ specifier: "./lib", kind: "static", names: [{ name: "thing", alias: "local" }], typeOnly: false, line: 1 }], uses: ["other"] }),
    };
    expect(asksAnyOf(user, new Set(["thing"]))).toBe(true);
    expect(asksAnyOf(user, new Set(["local"]))).toBe(true);
    expect(asksAnyOf(user, new Set(["other", "unrelated"]))).toBe(true);
    expect(asksAnyOf(user, new Set(["unrelated"]))).toBe(false);
  });
});
