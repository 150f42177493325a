/**
 * buildGraph on a real package: rxjs@7.8.1 as installed (it ships src/ and a
 * tsconfig.json with `paths`). Measures how many relative and aliased
 * specifiers resolve, checked against an independent oracle (TypeScript's
 * preProcessFile for the specifiers, plain file-exists rules for the targets),
 * and a few facts read by hand in node_modules/rxjs/src.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildGraph, type CodeGraph } from "../../src/index.js";
import { REPO_ROOT } from "./helpers.js";

const RXJS = realpathSync(join(REPO_ROOT, "node_modules", "rxjs"));
const MIN_RESOLVED_SHARE = 0.99;

/** tsconfig `paths` of rxjs: pattern → first target (root-relative, without extension). */
function readPaths(root: string): Map<string, string> {
  const config = ts.readConfigFile(join(root, "tsconfig.json"), ts.sys.readFile).config as {
    compilerOptions: { paths: Record<string, string[]> };
  };
  return new Map(Object.entries(config.compilerOptions.paths).map(([key, [target]]) => [key, posix.normalize(target!)]));
}

/** The file a specifier must land on, by the plain rules (extensions, then index), or undefined when there is none. */
function expectedTarget(files: ReadonlySet<string>, from: string, specifier: string, paths: Map<string, string>): string | undefined {
  let base: string | undefined;
  if (specifier.startsWith("./") || specifier.startsWith("../")) {
    base = posix.join(posix.dirname(from), specifier);
  } else {
    for (const [pattern, target] of paths) {
      if (pattern.endsWith("/*") && specifier.startsWith(pattern.slice(0, -1))) {
        base = target.replace("*", specifier.slice(pattern.length - 1));
      } else if (pattern === specifier) {
        base = target;
      }
    }
  }
  if (base === undefined) return undefined;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}.d.ts`, `${base}.js`, `${base}/index.ts`, `${base}/index.js`]) {
    if (files.has(candidate)) return candidate;
  }
  return undefined;
}

function isRelative(specifier: string): boolean {
  return specifier.startsWith("./") || specifier.startsWith("../");
}

function isAliased(specifier: string, paths: Map<string, string>): boolean {
  return [...paths.keys()].some((p) => (p.endsWith("/*") ? specifier.startsWith(p.slice(0, -1)) : p === specifier));
}

interface Tally {
  total: number;
  resolved: number;
  unresolved: Array<{ from: string; specifier: string; line: number; fileExists: boolean }>;
}

/** Every relative or aliased import fact, and whether the graph holds the edge it must make. */
function tallyResolution(codeGraph: CodeGraph, paths: Map<string, string>): Tally {
  const files = new Set(codeGraph.files.keys());
  const tally: Tally = { total: 0, resolved: 0, unresolved: [] };
  for (const [path, parsed] of codeGraph.files) {
    for (const fact of parsed.imports) {
      if (!isRelative(fact.specifier) && !isAliased(fact.specifier, paths)) continue;
      tally.total++;
      const target = expectedTarget(files, path, fact.specifier, paths);
      const kind = fact.kind === "reexport" ? "reexport" : "import";
      if (target !== undefined && codeGraph.graph.hasEdge(`${kind}:${path}->${target}`)) {
        tally.resolved++;
      } else {
        const onDisk = posix.join(posix.dirname(path), fact.specifier);
        tally.unresolved.push({
          from: path,
          specifier: fact.specifier,
          line: fact.line,
          fileExists: ["", ".ts", ".js", ".d.ts"].some((ext) => existsSync(join(codeGraph.root, onDisk + ext))),
        });
      }
    }
  }
  return tally;
}

describe("rxjs@7.8.1 src/", () => {
  const paths = readPaths(RXJS);
  let codeGraph: CodeGraph;

  beforeAll(async () => {
    codeGraph = await buildGraph(RXJS, { include: ["src/**"] });
  });

  it("finds every import specifier TypeScript's own preProcessFile finds, file by file", () => {
    expect(codeGraph.stats.files).toBeGreaterThan(200);
    let specifiers = 0;
    for (const [path, parsed] of codeGraph.files) {
      const info = ts.preProcessFile(readFileSync(join(RXJS, path), "utf8"), true, true);
      const oracle = [...info.importedFiles, ...info.referencedFiles, ...info.typeReferenceDirectives].map((f) => f.fileName).sort();
      expect(parsed.imports.map((i) => i.specifier).sort(), path).toEqual(oracle);
      specifiers += oracle.length;
    }
    expect(codeGraph.stats.specifiers).toBe(specifiers);
  });

  it(`resolves at least ${MIN_RESOLVED_SHARE * 100}% of relative and aliased specifiers, each to the file it names`, () => {
    const tally = tallyResolution(codeGraph, paths);
    const share = tally.resolved / tally.total;
    console.info(
      `rxjs@7.8.1 src/: ${tally.resolved}/${tally.total} relative or aliased specifiers resolve (${(share * 100).toFixed(2)}%); ` +
        `${codeGraph.stats.files} files, ${codeGraph.stats.millis.total} ms`,
    );
    for (const miss of tally.unresolved) {
      console.info(`  unresolved: ${miss.from}:${miss.line} "${miss.specifier}"${miss.fileExists ? " (a file exists there!)" : " (no such file in the package)"}`);
    }
    expect(tally.total).toBeGreaterThan(1000);
    expect(share).toBeGreaterThanOrEqual(MIN_RESOLVED_SHARE);
    // every miss is reported as such, and none is a file the resolver should have found
    expect(tally.unresolved.every((miss) => !miss.fileExists)).toBe(true);
    const diagnosed = codeGraph.diagnostics
      .filter((d) => d.kind === "unresolved")
      .map((d) => d.path)
      .sort();
    expect(diagnosed).toEqual(tally.unresolved.map((miss) => miss.from).sort());
    expect(codeGraph.stats.unresolvedSpecifiers).toBe(tally.unresolved.length);
  });

  it("map.ts: imports ../util/lift, ./OperatorSubscriber and ../types; defines the exported function map", () => {
    const g = codeGraph.graph;
    const map = "src/internal/operators/map.ts";
    const imports = g
      .outEdges(map)
      .filter((e) => g.getEdgeAttribute(e, "kind") === "import")
      .map((e) => [g.target(e), g.getEdgeAttribute(e, "names")])
      .sort();
    expect(imports).toEqual([
      ["src/internal/operators/OperatorSubscriber.ts", ["createOperatorSubscriber"]],
      ["src/internal/types.ts", ["OperatorFunction"]],
      ["src/internal/util/lift.ts", ["operate"]],
    ]);
    expect(g.getNodeAttributes(`${map}#map`)).toMatchObject({ kind: "symbol", symbolKind: "function", exported: true });
    expect(g.hasEdge(`defines:${map}->${map}#map`)).toBe(true);
    expect(g.hasEdge(`references:${map}->src/internal/util/lift.ts#operate`)).toBe(true);
  });

  it("src/index.ts re-exports Observable and map from the defining files", () => {
    const g = codeGraph.graph;
    expect(g.getEdgeAttributes("reexport:src/index.ts->src/internal/Observable.ts")).toMatchObject({ names: ["Observable"] });
    expect(g.getEdgeAttributes("reexport:src/index.ts->src/internal/operators/map.ts")).toMatchObject({ names: ["map"] });
    expect(g.hasEdge("reexport:src/operators/index.ts->src/internal/operators/map.ts")).toBe(true);
    expect(g.getNodeAttributes("src/internal/Observable.ts#Observable")).toMatchObject({ symbolKind: "class", exported: true });
  });

  it("builds in a few seconds", () => {
    expect(codeGraph.stats.millis.total).toBeLessThan(15_000);
  });
});

describe("rxjs@7.8.1 src/ with a consumer using the package's tsconfig paths", () => {
  // rxjs's own src/ imports relatively only; its specs (not shipped) import "rxjs" and
  // "rxjs/operators" through the tsconfig paths. A copy of src/ and tsconfig.json plus one
  // spec-like file exercises those real aliases and barrels.
  let base: string;
  let codeGraph: CodeGraph;
  const consumer = "spec/alias-usage.ts";

  beforeAll(async () => {
    base = realpathSync(mkdtempSync(join(tmpdir(), "graph-retrieve-rxjs-")));
    cpSync(join(RXJS, "src"), join(base, "src"), { recursive: true });
    cpSync(join(RXJS, "tsconfig.json"), join(base, "tsconfig.json"));
    mkdirSync(join(base, "spec"));
    writeFileSync(
      join(base, consumer),
      [
        "import { Observable, of } from 'rxjs';",
        "import { map, filter } from 'rxjs/operators';",
        "import { Subscriber } from 'rxjs/internal/Subscriber';",
        "",
        "export const doubled: Observable<number> = of(1, 2, 3).pipe(map((x) => x * 2), filter((x) => x > 2));",
        "export type Sink = Subscriber<number>;",
        "",
      ].join("\n"),
    );
    codeGraph = await buildGraph(base);
  });

  afterAll(() => {
    if (base) rmSync(base, { recursive: true, force: true });
  });

  it("resolves the aliases to src/ files", () => {
    const g = codeGraph.graph;
    expect(g.hasEdge(`import:${consumer}->src/index.ts`)).toBe(true);
    expect(g.hasEdge(`import:${consumer}->src/operators/index.ts`)).toBe(true);
    expect(g.hasEdge(`import:${consumer}->src/internal/Subscriber.ts`)).toBe(true);
    expect(codeGraph.diagnostics.filter((d) => d.path === consumer)).toEqual([]);
  });

  it("links each named import through the barrels to its defining file, and references to its symbol", () => {
    const g = codeGraph.graph;
    const derived = (target: string) => g.getEdgeAttributes(`import:${consumer}->${target}`);
    expect(derived("src/internal/Observable.ts")).toMatchObject({ names: ["Observable"], via: ["src/index.ts"] });
    expect(derived("src/internal/observable/of.ts")).toMatchObject({ names: ["of"], via: ["src/index.ts"] });
    expect(derived("src/internal/operators/map.ts")).toMatchObject({ names: ["map"], via: ["src/operators/index.ts"] });
    expect(derived("src/internal/operators/filter.ts")).toMatchObject({ names: ["filter"], via: ["src/operators/index.ts"] });
    expect(g.hasEdge(`references:${consumer}->src/internal/operators/map.ts#map`)).toBe(true);
    expect(g.hasEdge(`references:${consumer}->src/internal/Observable.ts#Observable`)).toBe(true);
    expect(g.hasEdge(`references:${consumer}->src/internal/Subscriber.ts#Subscriber`)).toBe(true);
  });
});
