/**
 * The persistent index under faults that need real processes (the damaged,
 * truncated and other-version stores and two builds in one process are in
 * test/store/index-store.test.ts): two `graph-retrieve index` processes on
 * one root at once, and a run killed mid-build by SIGINT or SIGKILL. The
 * next run always works and the store is whole: index.json parses, or the
 * run rebuilds it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GraphJson } from "../../src/index.js";
import { isolateUserCache, makeTmp, removeTmp, spawnCli } from "./helpers.js";

let base: string;
let root: string;

let cacheHome: string;

beforeAll(() => {
  cacheHome = isolateUserCache();
  base = makeTmp("store-faults");
  root = join(base, "project");
  // 3,000 small files: large enough that a kill lands mid-build and that workers parse them
  for (let i = 0; i < 3000; i++) {
    const folder = join(root, `pkg${i % 30}`);
    if (i < 30) mkdirSync(folder, { recursive: true });
    const j = (i * 31) % 3000;
    writeFileSync(join(folder, `file${i}.ts`), `import { value${j} } from "../pkg${j % 30}/file${j}";\nexport const value${i} = value${j} + ${i};\n`);
  }
});

afterAll(() => {
  removeTmp(base);
  removeTmp(cacheHome);
});

/** index.json is whole JSON when present; no run leaves the store unreadable. */
function expectWholeStore(cacheDir: string): void {
  const index = join(cacheDir, "index.json");
  if (existsSync(index)) expect(() => JSON.parse(readFileSync(index, "utf8"))).not.toThrow();
}

async function graphJson(cacheDir: string): Promise<string> {
  const run = await spawnCli(["graph", "--root", root, "--cache-dir", cacheDir, "-q"], { killAfterMs: 60_000 });
  expect(run.code).toBe(0);
  return run.stdout;
}

describe("the index under faults", () => {
  let reference: GraphJson;
  beforeAll(async () => {
    const run = await spawnCli(["graph", "--root", root, "--no-cache", "-q"]);
    reference = JSON.parse(run.stdout) as GraphJson;
  });

  it("two processes indexing the same root at once: both exit 0, the store is whole, the next run reuses it", async () => {
    const cacheDir = join(base, "cache-two");
    const runs = await Promise.all([1, 2].map(() => spawnCli(["index", "--root", root, "--cache-dir", cacheDir])));
    for (const run of runs) {
      expect(run.code).toBe(0);
      expect(run.stderr).not.toMatch(/\n\s+at |unexpected failure/);
    }
    expectWholeStore(cacheDir);
    expect(JSON.parse(await graphJson(cacheDir))).toEqual(reference);
    const again = await spawnCli(["index", "--root", root, "--cache-dir", cacheDir, "--format", "json"]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/"parsed":\s*0/);
  });

  it.each([
    // a cold index of this tree takes ~2.4 s here, its store written at the end: kills while parsing and near the write
    ["SIGINT", 1800],
    ["SIGKILL", 600],
    ["SIGKILL", 1800],
    ["SIGKILL", 2300],
  ] as const)("killed by %s after %i ms: the next run works and gives the same graph as a fresh build", async (signal, afterMs) => {
    const cacheDir = join(base, `cache-${signal}-${afterMs}`);
    // a cold build: the kill lands while files are parsed or the store is written
    const killed = await spawnCli(["index", "--root", root, "--cache-dir", cacheDir], {
      onSpawn: (child) => void setTimeout(() => child.kill(signal), afterMs),
    });
    // it died by the signal (SIGINT: Node's default handler) or, when quicker than the kill, finished
    expect(killed.signal === signal || killed.code === 0).toBe(true);
    expectWholeStore(cacheDir);
    const next = await spawnCli(["graph", "--root", root, "--cache-dir", cacheDir]);
    expect(next.code).toBe(0);
    expect(next.stderr).not.toMatch(/\n\s+at |unexpected failure/);
    const fresh = await spawnCli(["graph", "--root", root, "--no-cache", "-q"]);
    expect(next.stdout).toBe(fresh.stdout);
    expectWholeStore(cacheDir);
  });
});
