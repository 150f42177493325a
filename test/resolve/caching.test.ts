import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createResolver } from "../../src/resolve/index.js";
import { fixtureRoot, listSourceFiles, readEdges, writeTree } from "./helpers.js";

describe("caches", () => {
  it("shares one module resolution cache per tsconfig and reuses it", () => {
    const root = fixtureRoot("graph-basics");
    const resolver = createResolver(root, listSourceFiles(root));
    const edges = readEdges("graph-basics");
    // Aliases and relative paths naming scanned files take the fast paths; bare names go through TypeScript
    // (the fixture's baseUrl may map them to files), with the tsconfig's own options only.
    const fast = edges.filter((edge) => edge.to !== undefined && !edge.to.startsWith("pkg:"));
    for (const edge of fast) resolver.resolve(edge.from, edge.specifier, edge.kind);
    expect(resolver.stats().moduleNameResolutions).toBe(0);
    const throughTypeScript = [
      { from: "src/config/settings.ts", specifier: "zod", kind: "static" as const },
      { from: "src/main.ts", specifier: "zod", kind: "static" as const },
      { from: "src/ui/ItemRow.tsx", specifier: "react", kind: "static" as const },
    ];
    for (const edge of throughTypeScript) resolver.resolve(edge.from, edge.specifier, edge.kind);
    const afterFirstPass = resolver.stats();
    expect(afterFirstPass.moduleNameResolutions).toBeGreaterThan(0);
    expect(afterFirstPass.resolutionCaches).toBe(1);

    // The same specifiers again, from the same folders: answered by the memo, no new TypeScript work.
    for (const edge of throughTypeScript) resolver.resolve(edge.from, edge.specifier, edge.kind);
    const afterSecondPass = resolver.stats();
    expect(afterSecondPass.moduleNameResolutions).toBe(afterFirstPass.moduleNameResolutions);
    expect(afterSecondPass.memoHits - afterFirstPass.memoHits).toBe(throughTypeScript.length);

    // Fallback modes get their own cache once, whatever the number of failures.
    for (const edge of edges) resolver.resolve(edge.from, edge.specifier, edge.kind);
    resolver.resolve("src/main.ts", "./missing-one", "static");
    resolver.resolve("src/ui/ItemRow.tsx", "./missing-two", "static");
    resolver.resolve("src/ui/ItemRow.tsx", "@app/missing-three", "static");
    expect(resolver.stats().resolutionCaches).toBe(2);
  });

  it("keeps one cache per tsconfig in a monorepo", () => {
    const root = fixtureRoot("monorepo");
    const resolver = createResolver(root, listSourceFiles(root));
    for (const edge of readEdges("monorepo")) resolver.resolve(edge.from, edge.specifier, edge.kind);
    const first = resolver.stats().resolutionCaches;
    // 3 package tsconfigs (NodeNext) + a Bundler fallback in two of them.
    expect(first).toBeLessThanOrEqual(6);
    for (const edge of readEdges("monorepo")) resolver.resolve(edge.from, edge.specifier, edge.kind);
    expect(resolver.stats().resolutionCaches).toBe(first);
  });
});

describe("speed", () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "graph-retrieve-speed-")));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("resolves 6,000 specifiers in well under a second", () => {
    const files: Record<string, string> = {
      "tsconfig.json": JSON.stringify({ compilerOptions: { paths: { "@app/*": ["./src/*"] } } }),
    };
    const DIRS = 30;
    const PER_DIR = 20;
    for (let d = 0; d < DIRS; d++) {
      for (let f = 0; f < PER_DIR; f++) files[`src/feature${d}/file${f}.ts`] = "";
      files[`src/feature${d}/index.ts`] = "";
    }
    writeTree(root, files);
    const paths = Object.keys(files).filter((path) => path.endsWith(".ts")).sort();
    const imports: Array<[string, string]> = [];
    for (let d = 0; d < DIRS; d++) {
      for (let f = 0; f < PER_DIR; f++) {
        const from = `src/feature${d}/file${f}.ts`;
        imports.push(
          [from, `./file${(f + 1) % PER_DIR}`],
          [from, `./file${(f + 2) % PER_DIR}.js`],
          [from, `../feature${(d + 1) % DIRS}`],
          [from, `@app/feature${(d + 2) % DIRS}/file${f}`],
          [from, "node:fs"],
          [from, "zod"],
          [from, "@tanstack/react-query"],
          [from, `./file${f}-missing`],
          [from, `../feature${(d + 3) % DIRS}/file${(f + 5) % PER_DIR}`],
          [from, "react"],
        );
      }
    }
    expect(imports).toHaveLength(6000);
    const start = performance.now();
    const resolver = createResolver(root, paths);
    let resolvedCount = 0;
    for (const [from, specifier] of imports) if (resolver.resolve(from, specifier, "static").target !== undefined) resolvedCount += 1;
    const elapsed = performance.now() - start;
    expect(resolvedCount).toBe(5400);
    // ~0.1 s on a laptop; generous bound for loaded CI machines.
    expect(elapsed).toBeLessThan(1500);
    console.log(`resolve: 6000 specifiers in ${elapsed.toFixed(0)} ms`, resolver.stats());
  });
});
