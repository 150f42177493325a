/**
 * The retrieval outputs through runCli: --format md|dot|svg, --dot FILE and
 * --svg FILE (never over an existing file without --force), --explain PATH.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/fixtures.js";
import { runCliInProcess, type CliRun } from "../support/run-cli.js";

const TASK = "Add rate limiting to the API endpoints";
const GATEWAY = ["--root", "fixtures/api-gateway", "-q"];

function cli(...argv: string[]): Promise<CliRun> {
  return runCliInProcess(argv);
}

const scratches: string[] = [];
afterAll(() => {
  for (const dir of scratches) rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), "graph-retrieve-cli-out-"));
  scratches.push(dir);
  return dir;
}

describe("retrieval output formats", () => {
  it("--format md prints the context pack within --budget", async () => {
    const run = await cli(TASK, ...GATEWAY, "--format", "md", "--budget", "3000");
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout.startsWith(`# Context pack: ${TASK}\n`)).toBe(true);
    expect(run.stdout).toMatch(/\n## 1\. src\/middleware\/(index|throttle)\.ts\n/);
    expect(countTokens(run.stdout, { disallowedSpecial: new Set() })).toBeLessThanOrEqual(3000);
  });

  it("--format dot prints the retrieved subgraph; --format svg the same picture as SVG", async () => {
    const dot = await cli(TASK, ...GATEWAY, "--format", "dot");
    expect(dot.code).toBe(0);
    expect(dot.stdout.startsWith('digraph "graph-retrieve retrieval" {\n')).toBe(true);
    expect(dot.stdout).toContain('"src/middleware/throttle.ts" -> "src/errors.ts"');
    const svg = await cli(TASK, ...GATEWAY, "--format", "svg");
    expect(svg.code).toBe(0);
    expect(svg.stdout).toContain("<svg");
    expect(svg.stdout).toContain("<title>src/middleware/throttle.ts</title>");
  });

  it("an unknown --format lists the formats (exit 2)", async () => {
    const run = await cli(TASK, ...GATEWAY, "--format", "html");
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('graph-retrieve: --format must be one of text, json, md, dot, svg, got "html"\n');
  });
});

describe("--dot FILE and --svg FILE", () => {
  it("write the picture beside the text report, and say so on stderr unless --quiet", async () => {
    const dir = scratch();
    const dotFile = join(dir, "retrieval.dot");
    const svgFile = join(dir, "retrieval.svg");
    const run = await cli(TASK, "--root", "fixtures/api-gateway", "--dot", dotFile, "--svg", svgFile);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("## Context retrieval: Add rate limiting");
    expect(readFileSync(dotFile, "utf8")).toBe((await cli(TASK, ...GATEWAY, "--format", "dot")).stdout);
    expect(readFileSync(svgFile, "utf8")).toContain("thick border: the context (the files to read)");
    expect(run.stderr).toContain(`graph-retrieve: wrote ${dotFile}\n`);
    expect(run.stderr).toContain(`graph-retrieve: wrote ${svgFile}\n`);
  });

  it("refuse to overwrite an existing file (exit 2, file untouched, nothing printed); --force replaces it", async () => {
    const dir = scratch();
    const file = join(dir, "mine.dot");
    writeFileSync(file, "my own notes\n");
    const refused = await cli(TASK, ...GATEWAY, "--format", "json", "--dot", file);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toBe(`graph-retrieve: --dot "${file}" exists; not overwriting it (remove it, pick another name, or add --force)\n`);
    expect(readFileSync(file, "utf8")).toBe("my own notes\n");
    const forced = await cli(TASK, ...GATEWAY, "--dot", file, "--force");
    expect(forced.code).toBe(0);
    expect(readFileSync(file, "utf8").startsWith("digraph ")).toBe(true);
  });

  it("a folder, a missing folder, or one file for both flags is refused", async () => {
    const dir = scratch();
    const folder = await cli(TASK, ...GATEWAY, "--svg", dir, "--force");
    expect(folder.code).toBe(2);
    expect(folder.stderr).toMatch(/^graph-retrieve: --svg ".*" is a folder \(name a file\)\n$/);
    const same = await cli(TASK, ...GATEWAY, "--dot", join(dir, "x"), "--svg", join(dir, "x"));
    expect(same.code).toBe(2);
    expect(same.stderr).toMatch(/--dot and --svg name the same file/);
    const missing = await cli(TASK, ...GATEWAY, "--dot", join(dir, "no", "such", "x.dot"));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^graph-retrieve: cannot write --dot ".*x\.dot": its folder does not exist \(check the path\)\n$/);
    expect(existsSync(join(dir, "x"))).toBe(false);
  });

  it("graph refuses them: they belong to a retrieval", async () => {
    const run = await cli("graph", "--root", "fixtures/graph-basics", "--dot", "x.dot");
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^graph-retrieve graph: --dot applies to a retrieval only/);
  });
});

describe("--explain PATH", () => {
  it("prints why the file got its score, root-relative or from the current folder", async () => {
    const run = await cli(TASK, ...GATEWAY, "--explain", "src/middleware/throttle.ts");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^src\/middleware\/throttle\.ts: rank \d+ of \d+, relevance 0\.\d{3}, \w+ band [[][0-9., ]+[)\]], /);
    expect(run.stdout).toContain("  Terms matched: ");
    expect(run.stdout).toMatch(/\n {2}Gaps(: none| \(what it uses that the context lacks\):)\n/);
    const fromCwd = await cli(TASK, ...GATEWAY, "--explain", "fixtures/api-gateway/src/middleware/throttle.ts");
    expect(fromCwd.stdout).toBe(run.stdout);
  });

  it("an unknown path is one line and exit 2; --explain with --format json too", async () => {
    const unknown = await cli(TASK, ...GATEWAY, "--explain", "src/nope.ts");
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe("");
    expect(unknown.stderr).toMatch(/^graph-retrieve: --explain "src\/nope\.ts" is not a source file under the root \([^\n]*\)\n$/);
    const json = await cli(TASK, ...GATEWAY, "--explain", "src/errors.ts", "--format", "json");
    expect(json.code).toBe(2);
    expect(json.stderr).toBe("graph-retrieve: --explain prints text; drop --format json (or use --dot FILE / --svg FILE beside it)\n");
  });
});
