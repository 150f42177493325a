import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const SCRIPT = fileURLToPath(new URL("../../scripts/bench-history.mjs", import.meta.url));

describe("bench:history", () => {
  let work: string;
  let repo: string;
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", ...args], { encoding: "utf8" });
  const commit = (message: string, files: Record<string, string>) => {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(join(repo, name, ".."), { recursive: true });
      writeFileSync(join(repo, name), text);
    }
    git("add", "-A");
    git("commit", "-q", "-m", message);
  };

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), "gr-history-"));
    repo = join(work, "shop");
    mkdirSync(repo);
    git("init", "-q");
    commit("Start the shop", {
      "package.json": '{"name":"shop"}\n',
      "src/cart.ts": "export function cartTotal(prices: number[]): number {\n  return prices.reduce((a, b) => a + b, 0);\n}\n",
      "src/tax.ts": "export function taxOf(amount: number): number {\n  return amount * 0.2;\n}\n",
      "src/cart.test.ts": "import { cartTotal } from './cart';\ncartTotal([]);\n",
      "docs/notes.md": "notes\n",
    });
    commit("Round the cart total to cents", { "src/cart.ts": "export function cartTotal(prices: number[]): number {\n  return Math.round(prices.reduce((a, b) => a + b, 0) * 100) / 100;\n}\n" });
    commit("Test an empty cart", { "src/cart.test.ts": "import { cartTotal } from './cart';\ncartTotal([1]);\n" });
    commit("Add discounts", { "src/discount.ts": "export const discount = 0.1;\n" });
    commit("Docs only", { "docs/notes.md": "more notes\n" });
    commit("Tax is charged on the rounded cart total", {
      "src/cart.ts": "export function cartTotal(prices: number[]): number {\n  return Math.round(prices.reduce((a, b) => a + b, 0));\n}\n",
      "src/tax.ts": "export function taxOf(amount: number): number {\n  return Math.round(amount * 0.2);\n}\n",
    });
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("turns each commit that changed source files its parent had into a task, and ranks it", () => {
    const out = join(work, "out.json");
    const cache = join(work, "cache");
    const run = spawnSync(process.execPath, [SCRIPT, "--repo", repo, "--cache", cache, "--strategy", "graph,bm25", "--out", out], { encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    const results = JSON.parse(readFileSync(out, "utf8")) as Array<{ task: string; parent: string; answer: string[]; ranks: Record<string, Array<number | null>> }>;
    // newest first; a test-only commit, a commit adding a new file and a docs-only commit are no tasks
    expect(results.map((r) => [r.task, r.answer])).toEqual([
      ["Tax is charged on the rounded cart total", ["src/cart.ts", "src/tax.ts"]],
      ["Round the cart total to cents", ["src/cart.ts"]],
    ]);
    expect(results[1]!.ranks.graph![0]).toBe(1);
    expect(run.stdout).toMatch(/shop: 2 tasks from its history/);
    expect(run.stdout).toMatch(/^graph\s+2\s/m);
    expect(run.stdout).toMatch(/^bm25\s+2\s/m);
    // the parents' trees went to the cache folder, the repository is untouched
    expect(git("status", "--porcelain")).toBe("");
    expect(readFileSync(join(cache, "shop", results[1]!.parent.slice(0, 12), "src", "cart.ts"), "utf8")).not.toContain("Math.round");
  });

  it("says in one line what is wrong with its input", () => {
    for (const args of [["--repo", work], ["--strategy", "nope"], ["--max-files", "0"], ["--frobnicate"]]) {
      const run = spawnSync(process.execPath, [SCRIPT, ...args], { encoding: "utf8" });
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/^bench-history: /);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
