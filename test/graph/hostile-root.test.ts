/**
 * A generated root full of files a real checkout can hold: syntax errors, a
 * binary `.ts`, a file over the size limit, symlink loops, symlinks out of the
 * root, an empty file, invalid UTF-8. The graph is still built, each skipped
 * file gets exactly one warning, and nothing outside the root is read or named.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildGraph, renderGraphDot, renderGraphJson, type CodeGraph } from "../../src/index.js";
import { runCli } from "../../src/cli/run-cli.js";

const MAX_FILE_BYTES = 64 * 1024;
const SECRET = "TOP_SECRET_MARKER_7f3a";

let base: string;
let root: string;
let outside: string;
let codeGraph: CodeGraph;

beforeAll(async () => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "graph-retrieve-hostile-")));
  root = join(base, "project");
  outside = join(base, "private-outside");
  mkdirSync(join(root, "src"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, "secret.ts"), `export const ${SECRET} = "do not read";\n`);
  const file = (path: string, content: string | Buffer) => writeFileSync(join(root, path), content);

  file("src/good.ts", "export const answer = 42;\nexport function useAnswer(): number {\n  return answer;\n}\n");
  file("src/broken.ts", 'import { answer } from "./good";\nexport function broken( {\n  return answer +;\n');
  file("src/broken-view.tsx", 'import { useAnswer } from "./good";\nexport const View = () => <div><span>{useAnswer()}</div>;\n');
  file("src/binary.ts", Buffer.concat([Buffer.from("export const x = 1;\n"), Buffer.from([0, 0, 1, 2, 255, 0, 7])]));
  file("src/big.ts", `export const big = 1;\n${"// padding line to pass the size limit\n".repeat(52_000)}`);
  file("src/empty.ts", "");
  file("src/bad-utf8.ts", Buffer.concat([Buffer.from('export const label = "'), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('";\n')]));
  file("src/uses-all.ts", 'import { label } from "./bad-utf8";\nimport { answer } from "./good";\nimport "./empty";\nimport { x } from "./binary";\nexport const all = [label, answer, x];\n');
  file('src/quote"d name.ts', 'import { answer } from "./good";\nexport const quoted = answer;\n');
  symlinkSync("..", join(root, "src", "loop")); // a folder cycle: src/loop/src/loop/…
  symlinkSync("ring-b.ts", join(root, "src", "ring-a.ts")); // a link cycle: ELOOP
  symlinkSync("ring-a.ts", join(root, "src", "ring-b.ts"));
  symlinkSync(outside, join(root, "src", "escape")); // a folder out of the root
  symlinkSync(join(outside, "secret.ts"), join(root, "src", "secret.ts")); // a file out of the root
  file("src/reach-out.ts", 'import { TOP } from "./escape/secret";\nimport { T2 } from "./secret";\nexport const r = [TOP, T2];\n');

  codeGraph = await buildGraph(root, { maxFileBytes: MAX_FILE_BYTES });
});

afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

describe("a hostile root", () => {
  it("still yields a graph of the readable files, each once (the folder loop adds nothing)", () => {
    const files = codeGraph.graph.filterNodes((_id, a) => a.kind === "file").sort();
    expect(files).toEqual([
      "src/bad-utf8.ts",
      "src/broken-view.tsx",
      "src/broken.ts",
      "src/empty.ts",
      "src/good.ts",
      'src/quote"d name.ts',
      "src/reach-out.ts",
      "src/uses-all.ts",
    ]);
    expect(codeGraph.graph.hasEdge("import:src/broken.ts->src/good.ts")).toBe(true);
    expect(codeGraph.graph.hasEdge("import:src/broken-view.tsx->src/good.ts")).toBe(true);
    expect(codeGraph.graph.hasEdge("import:src/uses-all.ts->src/bad-utf8.ts")).toBe(true);
    expect(codeGraph.graph.hasEdge("import:src/uses-all.ts->src/empty.ts")).toBe(true);
    expect(codeGraph.graph.hasEdge('import:src/quote"d name.ts->src/good.ts')).toBe(true);
    expect(codeGraph.graph.hasNode("src/bad-utf8.ts#label")).toBe(true);
    expect(codeGraph.graph.outDegree("src/empty.ts")).toBe(0);
  });

  it("gives exactly one skipped warning per skipped file, saying why", () => {
    const skipped = codeGraph.diagnostics.filter((d) => d.kind === "skipped").map((d) => [d.path, d.message]);
    expect(skipped).toEqual([
      ["src/big.ts", expect.stringMatching(/over the 64 KiB limit/)],
      ["src/binary.ts", expect.stringMatching(/binary/)],
      ["src/escape", expect.stringMatching(/outside the root/)],
      ["src/ring-a.ts", expect.stringMatching(/ELOOP/)],
      ["src/ring-b.ts", expect.stringMatching(/ELOOP/)],
      ["src/secret.ts", expect.stringMatching(/outside the root/)],
    ]);
    expect(codeGraph.stats.skippedFiles).toBe(6);
  });

  it("reports the two files with syntax errors and nothing else as parse errors", () => {
    expect(codeGraph.diagnostics.filter((d) => d.kind === "parse-error").map((d) => d.path)).toEqual([
      "src/broken-view.tsx",
      "src/broken.ts",
    ]);
  });

  it("leaves imports of skipped files and of paths through outside links unresolved", () => {
    const unresolved = codeGraph.diagnostics.filter((d) => d.kind === "unresolved").map((d) => d.path);
    expect(unresolved).toEqual(["src/reach-out.ts", "src/reach-out.ts", "src/uses-all.ts"]);
    const imports = codeGraph.graph.outEdges("src/reach-out.ts").filter((e) => codeGraph.graph.getEdgeAttribute(e, "kind") === "import");
    expect(imports).toEqual([]);
  });

  it("never names the outside target nor reads it (JSON, DOT and diagnostics)", () => {
    const json = renderGraphJson(codeGraph, ".");
    const dot = renderGraphDot(codeGraph);
    for (const text of [json, dot]) {
      expect(text).not.toContain(outside);
      expect(text).not.toContain(base);
      expect(text).not.toContain(SECRET);
    }
    expect(JSON.parse(json).nodes.length).toBeGreaterThan(0);
  });

  it("quotes an awkward file name in DOT", () => {
    expect(renderGraphDot(codeGraph)).toContain('"src/quote\\"d name.ts" -> "src/good.ts"');
  });

  it("through the CLI: exit 0, JSON on stdout, one warning line per diagnostic (unresolved summed up)", async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(["graph", "--root", root, "--max-file-bytes", String(MAX_FILE_BYTES)], {
      stdout: (t) => out.push(t),
      stderr: (t) => err.push(t),
      cwd: base,
      isStderrTty: false,
    });
    expect(code).toBe(0);
    expect(JSON.parse(out.join("")).stats.skippedFiles).toBe(6);
    const lines = err.join("").split("\n").filter(Boolean);
    expect(lines.every((line) => line.startsWith("warning: "))).toBe(true);
    expect(lines.filter((line) => line.includes("skipped:"))).toHaveLength(6);
    expect(lines.filter((line) => line.includes("parse-error"))).toHaveLength(2);
    expect(lines.filter((line) => line.includes("did not resolve"))).toEqual([expect.stringContaining("3 import specifier(s)")]);
    expect(lines).toHaveLength(9);
    expect(err.join("")).not.toContain(outside);
  });
});
