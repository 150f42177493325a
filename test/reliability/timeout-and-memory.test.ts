/**
 * --timeout bounds the whole run (in-process and as the built bin), and a
 * 20k-file tree builds under a 512 MB heap.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import type { GraphJson } from "../../src/index.js";
import { cli, expectOrderly, isolateUserCache, makeTmp, removeTmp, spawnCli } from "./helpers.js";

const TIMEOUT_LINE = /^graph-retrieve: timed out after 1 s \(raise --timeout/;

let slowRoot: string;
let pooledRoot: string;

let cacheHome: string;

beforeAll(() => {
  cacheHome = isolateUserCache();
  // 20 files of 4,000-deep object literals: tree-sitter's query time grows with the square of the depth (~0.3 s a file, several seconds in all)
  slowRoot = makeTmp("slow");
  mkdirSync(join(slowRoot, "src"));
  for (let i = 0; i < 20; i++) {
    writeFileSync(join(slowRoot, "src", `deep${i}.ts`), `export const deep${i} = ${"{ a: ".repeat(4000)}1${" }".repeat(4000)};\n`);
  }
});

beforeAll(() => {
  // over 200 files, so parse workers run: 240 files of 1,500-deep literals, several seconds of parsing in all
  pooledRoot = makeTmp("pooled");
  mkdirSync(join(pooledRoot, "src"));
  for (let i = 0; i < 240; i++) {
    writeFileSync(join(pooledRoot, "src", `nested${i}.ts`), `export const nested${i} = ${"{ a: ".repeat(1500)}${i}${" }".repeat(1500)};\n`);
  }
});

afterAll(() => {
  removeTmp(pooledRoot);
  removeTmp(slowRoot);
  removeTmp(cacheHome);
});

describe("--timeout SECONDS", () => {
  it("in-process: one line, exit 1, and io.exit called once so the abandoned work cannot keep the process alive", async () => {
    const run = await cli(["graph", "--root", slowRoot, "--timeout", "1"]);
    expect(run.code).toBe(1);
    expectOrderly(run);
    expect(run.errLines).toEqual([expect.stringMatching(TIMEOUT_LINE)]);
    expect(run.exits).toEqual([1]);
    expect(run.millis).toBeLessThan(5_000);
  });

  it("the built bin: a retrieval that would take several seconds ends after about 1 s with exit 1 and one line", async () => {
    const run = await spawnCli(["find the deep objects", "--root", slowRoot, "--timeout", "1"], { killAfterMs: 20_000 });
    expect(run.signal).toBeNull();
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.errLines).toEqual([expect.stringMatching(TIMEOUT_LINE)]);
    expect(run.millis).toBeLessThan(8_000);
  });

  it("the built bin, parse workers busy: the workers are stopped between files, so the process exits 1 with one line, never aborted, and writes no index", async () => {
    const scratch = makeTmp("pooled-cache");
    onTestFinished(() => removeTmp(scratch));
    const cacheDir = join(scratch, "index");
    const run = await spawnCli(["index", "--root", pooledRoot, "--cache-dir", cacheDir, "--timeout", "1"], { killAfterMs: 60_000 });
    expect(run.signal).toBeNull();
    expect(run.stderr).not.toMatch(/terminate called|Napi::Error|Aborted/);
    expect(run.code).toBe(1);
    expect(run.errLines).toEqual([expect.stringMatching(TIMEOUT_LINE)]);
    expect(existsSync(cacheDir)).toBe(false);
  });

  it("a run that finishes in time is unchanged, and the process does not wait for the timer", async () => {
    const run = await spawnCli(["graph", "--root", "fixtures/graph-basics", "--timeout", "600", "-q"]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect((JSON.parse(run.stdout) as GraphJson).nodes.length).toBeGreaterThan(0);
    expect(run.millis).toBeLessThan(30_000);
  });

  it.each([["0"], ["-1"], ["1.5"], ["soon"]])("--timeout %s is a usage error (exit 2, one line)", async (value) => {
    const run = await cli(["graph", "--root", "fixtures/graph-basics", `--timeout=${value}`]);
    expect(run.code).toBe(2);
    expect(run.errLines).toEqual([expect.stringMatching(/--timeout must be a positive whole number/)]);
    expect(run.exits).toEqual([]);
  });
});

describe("memory", () => {
  let bigRoot: string;
  beforeAll(() => {
    // 20,000 small files in 1,000 folders, each importing another: a real graph, not 20k islands
    bigRoot = makeTmp("big");
    for (let i = 0; i < 20_000; i++) {
      const folder = join(bigRoot, `pkg${i % 50}`, `mod${Math.floor(i / 50) % 20}`);
      if (i < 1000) mkdirSync(folder, { recursive: true });
      const j = (i * 7919) % 20_000;
      writeFileSync(
        join(folder, `file${i}.ts`),
        `import { value${j} } from "../../pkg${j % 50}/mod${Math.floor(j / 50) % 20}/file${j}";\n` +
          `/** Value ${i}. */\nexport const value${i} = value${j} + ${i};\n` +
          `export function compute${i}(input: number): number {\n  return input * value${i};\n}\n`,
      );
    }
  });
  afterAll(() => removeTmp(bigRoot));

  it("a 20k-file tree builds its graph within a 512 MB heap (node --max-old-space-size=512)", async () => {
    const run = await spawnCli(["graph", "--root", bigRoot, "--format", "json", "-q", "--timeout", "90"], {
      nodeArgs: ["--max-old-space-size=512"],
      keepStdout: false,
      killAfterMs: 120_000,
    });
    expect(run.stderr).toBe("");
    expect(run.signal).toBeNull();
    expect(run.code).toBe(0);
  }, 150_000);
});
