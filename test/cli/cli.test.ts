/**
 * The CLI in-process through runCli with a fake io (exit codes, stdout,
 * stderr), plus one run of the real bin built by test/global-setup.ts.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { GraphJson } from "../../src/index.js";
import { REPO_ROOT } from "../support/fixtures.js";
import { runCliInProcess } from "../support/run-cli.js";

const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** stderr split into lines, without the final empty one. */
  errLines: string[];
}

async function cli(...argv: string[]): Promise<Run> {
  const run = await runCliInProcess(argv);
  return { ...run, errLines: run.stderr.split("\n").filter((line) => line !== "") };
}

function hasDot(): boolean {
  return spawnSync("dot", ["-V"], { stdio: "ignore" }).status === 0;
}

describe("graph-retrieve graph", () => {
  it("--format json prints the graph: nodes and edges, files of kind file", async () => {
    const run = await cli("graph", "--root", "fixtures/graph-basics", "--format", "json");
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout) as GraphJson;
    expect(json.root).toBe(join(REPO_ROOT, "fixtures/graph-basics"));
    expect(Array.isArray(json.nodes) && Array.isArray(json.edges)).toBe(true);
    const files = json.nodes.filter((n) => n.kind === "file").map((n) => n.id);
    expect(files).toHaveLength(16);
    expect(files).toContain("src/models/index.ts");
    expect(json.edges).toContainEqual(
      expect.objectContaining({ source: "src/store/inventory.ts", target: "src/store/events.ts", kind: "import" }),
    );
    expect(run.stdout.endsWith("}\n")).toBe(true);
    // the warnings go to stderr, one line each: the parse error and the unresolved count
    expect(run.errLines).toEqual([
      expect.stringMatching(/^warning: src\/legacy\/csv-import\.ts: parse-error: /),
      "warning: 1 import specifier(s) of code did not resolve to a file under the root (graph --format json lists them; 1 asset import (.css, .woff2, .json…) is not code and not counted)",
    ]);
  });

  it("--quiet leaves stderr empty; json is the default format", async () => {
    const run = await cli("graph", "--root", "fixtures/graph-basics", "--quiet");
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect((JSON.parse(run.stdout) as GraphJson).schemaVersion).toBe(1);
  });

  it("--format dot prints DOT that Graphviz renders to SVG", async (ctx) => {
    const run = await cli("graph", "--root", "fixtures/graph-basics", "--format", "dot", "-q");
    expect(run.code).toBe(0);
    expect(run.stdout.startsWith('digraph "graph-retrieve" {\n')).toBe(true);
    expect(run.stdout).toContain('"src/store/inventory.ts" -> "src/store/events.ts"');
    if (!hasDot()) ctx.skip("Graphviz `dot` is not on PATH: the DOT text was checked, its rendering was not");
    const svg = spawnSync("dot", ["-Tsvg"], { input: run.stdout, encoding: "utf8" });
    expect(svg.stderr).toBe("");
    expect(svg.status).toBe(0);
    expect(svg.stdout).toContain("<svg");
    expect(svg.stdout).toContain("inventory.ts");
  });
});

describe("usage errors: exit 2, one line on stderr, nothing on stdout", () => {
  it.each([
    ["an unknown flag", ["graph", "--root", "fixtures/graph-basics", "--bogus"], /unknown option --bogus \(see graph-retrieve --help/],
    ["a bad --format for graph", ["graph", "--root", "fixtures/graph-basics", "--format", "svg"], /--format must be one of json, dot, got "svg"/],
    ["a bad --format for a retrieval", ["find the money code", "--root", "fixtures/graph-basics", "--format", "html"], /--format must be one of text, json, md, dot, svg, got "html"/],
    ["graph with an extra argument", ["graph", "extra", "--root", "fixtures/graph-basics"], /unexpected argument "extra"/],
    ["an empty task", ["", "--root", "fixtures/graph-basics"], /the task is empty/],
    ["a blank task", ["   ", "--root", "fixtures/graph-basics"], /the task is empty/],
    ["no task", ["--root", "fixtures/graph-basics"], /no task given/],
    ["two tasks", ["fix this", "and that", "--root", "fixtures/graph-basics"], /one task expected, got 2/],
    ["--max-cycles 0", ["fix the money formatting", "--root", "fixtures/graph-basics", "--max-cycles", "0"], /--max-cycles must be a positive whole number, got "0"/],
    ["--max-cycles that is not a number", ["fix it", "--root", "fixtures/graph-basics", "--max-cycles", "2.5"], /--max-cycles must be a positive whole number/],
    ["--budget=-1", ["fix it", "--root", "fixtures/graph-basics", "--budget=-1"], /--budget must be a positive whole number, got "-1"/],
    ["--budget -5 (a negative value as its own argument)", ["fix it", "--root", "fixtures/graph-basics", "--budget", "-5"], /--budget must be a positive whole number, got "-5"/],
    ["--max-cycles -1", ["fix it", "--root", "fixtures/graph-basics", "--max-cycles", "-1"], /--max-cycles must be a positive whole number, got "-1"/],
    ["a bad --strategy", ["fix it", "--root", "fixtures/graph-basics", "--strategy", "magic"], /--strategy must be one of graph, bm25, pagerank/],
    ["--max-file-bytes 0 for graph", ["graph", "--root", "fixtures/graph-basics", "--max-file-bytes", "0"], /--max-file-bytes must be a positive whole number/],
    ["a retrieval option given to graph", ["graph", "--root", "fixtures/graph-basics", "--max-cycles", "0"], /--max-cycles applies to a retrieval only/],
    ["a string option without its value", ["graph", "--root"], /--root/],
  ])("%s", async (_name, argv, message) => {
    const run = await cli(...argv);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.errLines).toHaveLength(1);
    expect(run.errLines[0]).toMatch(message);
    expect(run.errLines[0]).toMatch(/^graph-retrieve/);
  });

  it("fails a bad option before building anything (a missing root is not even looked at)", async () => {
    const run = await cli("fix it", "--root", "no/such/folder", "--max-cycles", "0");
    expect(run.code).toBe(2);
    expect(run.errLines).toEqual([expect.stringMatching(/--max-cycles/)]);
  });
});

describe("runtime failures: exit 1, one line, no stack trace", () => {
  it.each([
    ["graph", ["graph", "--root", "no/such/folder"]],
    ["retrieval", ["fix the token expiry bug", "--root", "no/such/folder"]],
    ["a file as root", ["graph", "--root", "package.json"]],
  ])("a missing or unusable root (%s)", async (_name, argv) => {
    const run = await cli(...argv);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.errLines).toHaveLength(1);
    expect(run.errLines[0]).toMatch(/root/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stderr).not.toMatch(/Error:/);
  });
});

describe("--help and --version", () => {
  it.each([["--help"], ["-h"], ["help"], ["graph", "--help"]])("%s prints the usage and exits 0", async (...argv) => {
    const run = await cli(...argv);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout).toContain("Usage:");
    expect(run.stdout).toContain("graph-retrieve graph [options]");
    expect(run.stdout).toContain("Exit codes (a failure ends with one line saying why):");
  });

  it.each([["--version"], ["-v"]])("%s prints the package version and exits 0", async (flag) => {
    const run = await cli(flag);
    expect(run).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: "" });
  });
});

describe("the built bin", () => {
  it("runs end to end through its shebang entry (node dist/cli/main.js)", () => {
    const main = join(REPO_ROOT, "dist", "cli", "main.js");
    expect(readFileSync(main, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
    const graph = spawnSync(process.execPath, [main, "graph", "--root", "fixtures/graph-basics", "--format", "dot"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    });
    expect(graph.status).toBe(0);
    expect(graph.stdout.startsWith('digraph "graph-retrieve" {')).toBe(true);
    expect(graph.stderr.split("\n").filter(Boolean)).toHaveLength(2);
    expect(execFileSync(process.execPath, [main, "--version"], { encoding: "utf8" })).toBe(`${VERSION}\n`);
    const usage = spawnSync(process.execPath, [main, "graph", "--format", "svg"], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(usage.status).toBe(2);
    expect(usage.stdout).toBe("");
    expect(usage.stderr.split("\n").filter(Boolean)).toHaveLength(1);
  });

  it.skipIf(process.platform === "win32")("writes all of an output larger than a pipe holds to a reader that starts late, then exits", () => {
    // the bin exits as soon as a one-shot command is done: only once what it wrote is out of the process. The
    // reader (a shell pipe, as `graph-retrieve … | jq`) reads nothing for a second: the pipe holds 64 KB, and the
    // rest of the 115 KB waits in the process until then
    const main = join(REPO_ROOT, "dist", "cli", "main.js");
    const command = `"${process.execPath}" "${main}" graph --root fixtures/token-expiry-renamed --format json -q --no-cache | (sleep 1; cat)`;
    const run = spawnSync("sh", ["-c", command], { cwd: REPO_ROOT, encoding: "utf8", maxBuffer: 1 << 24 });
    expect(run.status).toBe(0);
    expect(run.stdout.length).toBeGreaterThan(100_000);
    const graph = JSON.parse(run.stdout) as GraphJson;
    expect(graph.nodes.length).toBeGreaterThan(0);
  });

  it("the README's quick start: `npx graph-retrieve \"…\"` in the project runs the built bin itself (executable, shebang)", () => {
    const main = join(REPO_ROOT, "dist", "cli", "main.js");
    expect(statSync(main).mode & 0o111).toBe(0o111);
    const run = spawnSync("npx", ["--no-install", "graph-retrieve", "Fix the authentication token expiry bug", "--root", "fixtures/auth-service", "--format", "json", "-q", "--no-cache"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const result = JSON.parse(run.stdout) as { files: Array<{ path: string; relevance: number }> };
    expect(result.files.slice(0, 3).map((f) => f.path)).toContain("src/auth/auth.ts");
  });
});
