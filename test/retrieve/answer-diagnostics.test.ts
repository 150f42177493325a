import { describe, expect, it } from "vitest";
import { buildGraph, retrieve, type Diagnostic } from "../../src/index.js";

// graph-basics: src/legacy/csv-import.ts parses with errors and imports a path that resolves to nothing;
// src/ui/ItemTable.tsx imports a stylesheet
const ROOT = "fixtures/graph-basics";

describe("a retrieval's diagnostics", () => {
  it("are those about the files it names, then one line counting the others by kind", async () => {
    const result = await retrieve("format money amounts with the currency symbol", { root: ROOT, history: false, maxResults: 3 });
    const named = new Set([...result.files.map((f) => f.path), ...result.supporting.map((f) => f.path)]);
    expect(named.has("src/legacy/csv-import.ts")).toBe(false);
    const all = (await buildGraph(ROOT)).diagnostics;
    const kept = (d: Diagnostic) => d.path === undefined || d.kind === "skipped" || named.has(d.path);
    const about = all.filter(kept);
    const elsewhere = all.filter((d) => !kept(d));
    expect(elsewhere.map((d) => d.kind).sort()).toContain("parse-error");
    expect(result.diagnostics.slice(0, -1)).toEqual(about);
    const parseErrors = elsewhere.filter((d) => d.kind === "parse-error").length;
    const unresolved = elsewhere.filter((d) => d.kind === "unresolved").length;
    expect(result.diagnostics.at(-1)).toEqual({
      kind: "warning",
      message: `${elsewhere.length} more diagnostics about files outside this answer (${parseErrors} parse errors, ${unresolved} unresolved imports; graph --format json lists them)`,
    });
  });

  it("keep every diagnostic, uncounted, when the answer names every file they are about", async () => {
    const result = await retrieve("fix the csv import of legacy delimited files", { root: ROOT, history: false });
    expect(result.files.map((f) => f.path)).toContain("src/legacy/csv-import.ts");
    expect(result.diagnostics).toEqual((await buildGraph(ROOT)).diagnostics);
    expect(result.diagnostics.map((d) => d.kind)).toContain("parse-error");
  });
});
