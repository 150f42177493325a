/**
 * assembleGraph on small facts built in code: barrel following through
 * re-export chains and cycles.
 */
import { describe, expect, it } from "vitest";
import { assembleGraph, type ResolvedImports } from "../../src/graph/assemble-graph.js";
import type { ImportFact, ParsedFile } from "../../src/types.js";
import { named, star } from "../support/import-facts.js";

function file(path: string, facts: { defines?: string[]; imports?: Array<[ImportFact, string]> } = {}): ParsedFile {
  return {
    path,
    language: "typescript",
    isDeclaration: false,
    tokens: 1,
    lines: 1,
    definitions: (facts.defines ?? []).map((name) => ({ name, kind: "function", exported: true, startLine: 1, endLine: 1, signature: name })),
    imports: (facts.imports ?? []).map(([fact]) => fact),
    exports: [],
    references: [],
    vocabulary: { definitions: { terms: [], counts: [] }, identifiers: { terms: [], counts: [] }, comments: { terms: [], counts: [] } },
    literals: [],
    hasSyntaxErrors: false,
  };
}


function build(files: Array<ParsedFile & { targets?: string[] }>, targets: Record<string, string[]>) {
  const resolved: ResolvedImports = new Map(files.map((f) => [f.path, targets[f.path] ?? []]));
  return assembleGraph(files, resolved);
}

describe("assembleGraph: barrels", () => {
  it("follows a chain of star re-exports to the defining file", () => {
    const g = build(
      [
        file("app.ts", { imports: [[named("./outer", "X"), "outer.ts"]] }),
        file("outer.ts", { imports: [[star("./inner"), "inner.ts"]] }),
        file("inner.ts", { imports: [[star("./x"), "x.ts"]] }),
        file("x.ts", { defines: ["X"] }),
      ],
      { "app.ts": ["outer.ts"], "outer.ts": ["inner.ts"], "inner.ts": ["x.ts"] },
    );
    expect(g.getEdgeAttributes("import:app.ts->x.ts")).toMatchObject({ names: ["X"], via: ["outer.ts", "inner.ts"] }); // barrels in the order passed
  });

  it("finds a name through barrels that star-export each other, whichever barrel is asked first", () => {
    // a.ts: export * from "./b"; export * from "./c"   b.ts: export * from "./a"   c.ts: export function X
    // b re-exports a, which re-exports c: X is reachable from b too.
    const files = [
      file("a.ts", { imports: [[star("./b"), "b.ts"], [star("./c"), "c.ts"]] }),
      file("b.ts", { imports: [[star("./a"), "a.ts"]] }),
      file("c.ts", { defines: ["X"] }),
      file("use-a.ts", { imports: [[named("./a", "X"), "a.ts"]] }),
      file("use-b.ts", { imports: [[named("./b", "X"), "b.ts"]] }),
    ];
    const g = build(files, { "a.ts": ["b.ts", "c.ts"], "b.ts": ["a.ts"], "use-a.ts": ["a.ts"], "use-b.ts": ["b.ts"] });
    expect(g.getEdgeAttributes("import:use-a.ts->c.ts")).toMatchObject({ names: ["X"], via: ["a.ts"] });
    expect(g.getEdgeAttributes("import:use-b.ts->c.ts")).toMatchObject({ names: ["X"], via: ["b.ts", "a.ts"] });
  });

  it("ends on a re-export cycle that defines nothing", () => {
    const g = build(
      [
        file("a.ts", { imports: [[star("./b"), "b.ts"]] }),
        file("b.ts", { imports: [[star("./a"), "a.ts"]] }),
        file("use.ts", { imports: [[named("./a", "Nope"), "a.ts"]] }),
      ],
      { "a.ts": ["b.ts"], "b.ts": ["a.ts"], "use.ts": ["a.ts"] },
    );
    expect(g.outNeighbors("use.ts")).toEqual(["a.ts"]);
  });
});
