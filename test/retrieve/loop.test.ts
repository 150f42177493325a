import { describe, expect, it } from "vitest";
import { renderJson, retrieve } from "../../src/index.js";

const AUTH = "fixtures/auth-service";
const GATEWAY = "fixtures/api-gateway";
describe("the loop", () => {
  it("gives byte-identical JSON for the same codebase and task", async () => {
    const a = renderJson(await retrieve("Add rate limiting to the API endpoints", { root: GATEWAY }));
    const b = renderJson(await retrieve("Add rate limiting to the API endpoints", { root: GATEWAY }));
    expect(a).toBe(b);
  });

  it("runs at most maxCycles cycles", async () => {
    const result = await retrieve("Add rate limiting to the API endpoints", { root: GATEWAY, maxCycles: 1 });
    expect(result.cycles).toHaveLength(1);
    expect(result.cycles[0]!.stop).toMatch(/cycle limit/);
  });

  it("stops early, as the pattern says, once 3 context files reach 0.7 with no critical gap", async () => {
    // a judge sure of every candidate: three or more files at 0.9, nothing unscored
    const result = await retrieve("Fix the authentication token expiry bug", {
      root: AUTH,
      evaluator: async ({ candidates }) => candidates.map((c) => ({ path: c.path, relevance: 0.9 })),
    });
    expect(result.cycles).toHaveLength(1);
    expect(result.cycles[0]!.stop).toMatch(/^\d+ context files at 0.7 or more and no critical gap \(the pattern's stop\)$/);
    expect(result.stats.stoppedEarly).toBe(true);
  });

  it("stops once another cycle has nothing to settle: the decision held and every file the context uses was scored", async () => {
    // a judge sure of two files only: the pattern's stop never fires, the decision holds from the second cycle
    const two = new Set(["src/auth/tokens.ts", "src/auth/session-manager.ts"]);
    const result = await retrieve("Fix the authentication token expiry bug", {
      root: AUTH,
      evaluator: async ({ candidates }) => candidates.map((c) => ({ path: c.path, relevance: two.has(c.path) ? 0.9 : 0.05 })),
    });
    expect(result.cycles).toHaveLength(2);
    expect(result.cycles[1]!.stop).toMatch(/^(the context and its supporting files are the cycle before's, and every file the context uses has been scored|nothing left to change)/);
    expect(new Set(result.cycles[1]!.context.map((c) => c.path))).toEqual(new Set(result.cycles[0]!.context.map((c) => c.path)));
    expect(result.stats.stoppedEarly).toBe(true);
  });

  it("goes on while the decision moves, and every cycle says what it decided and why it stopped", async () => {
    const result = await retrieve("Fix the authentication token expiry bug", { root: AUTH });
    expect(result.cycles.length).toBeGreaterThan(1);
    const last = result.cycles.at(-1)!;
    expect(last.stop).toMatch(/nothing left to change|cycle limit|no gap left/);
    for (const cycle of result.cycles.slice(1)) expect(cycle.lifted).toBeDefined();
    // the last cycle's decision is the result's
    expect(last.context.map((c) => c.path)).toEqual(result.context);
  });

  it("keeps the context inside the token budget: a file past it stays out of the context, keeps its relevance and says why", async () => {
    const sure = async ({ candidates }: { candidates: ReadonlyArray<{ path: string }> }) => candidates.map((c) => ({ path: c.path, relevance: 0.9 }));
    const result = await retrieve("Fix the authentication token expiry bug", { root: AUTH, budgetTokens: 1500, evaluator: sure });
    const context = result.files.filter((f) => result.context.includes(f.path));
    expect(context.length).toBeGreaterThanOrEqual(1);
    expect(context.reduce((sum, f) => sum + f.tokens, 0)).toBeLessThanOrEqual(1500);
    const left = result.files.filter((f) => f.reason.includes("over the 1500-token budget"));
    expect(left.length).toBeGreaterThan(0);
    for (const file of left) {
      expect(result.context).not.toContain(file.path);
      expect(file.relevance).toBe(0.9);
    }
    expect(result.decision).toMatch(/over the 1500-token budget/);
  });

  it("gives relevance as the ranker's calibrated chance: no file is pinned to 0.7, and the stats count the decided context", async () => {
    const result = await retrieve("Fix the authentication token expiry bug", { root: AUTH });
    expect(result.files.some((f) => f.reason.includes("kept as context"))).toBe(false);
    expect(result.stats.contextFiles).toBe(result.context.length);
    expect(result.stats.supportingFiles).toBe(result.supporting.length);
  });

  it("rejects an empty task and bad numbers as the caller's mistake", async () => {
    await expect(retrieve("   ", { root: AUTH })).rejects.toThrow(/task is empty/);
    await expect(retrieve("token", { root: AUTH, maxCycles: 0 })).rejects.toThrow(/maxCycles/);
  });

  it("honours include and exclude globs", async () => {
    const result = await retrieve("Fix the authentication token expiry bug", { root: AUTH, exclude: ["src/auth/tokens.ts"] });
    expect(result.files.map((f) => f.path)).not.toContain("src/auth/tokens.ts");
    const only = await retrieve("Fix the authentication token expiry bug", { root: AUTH, include: ["src/routes/**"] });
    expect(only.files.every((f) => f.path.startsWith("src/routes/"))).toBe(true);
  });
});

describe("later cycles", () => {
  it("feed stage 2 the first stage's answers, as it was trained: a cycle that adds no file ranks as the one before", async () => {
    for (const [root, task] of [
      [AUTH, "Fix the authentication token expiry bug"],
      ["fixtures/api-gateway", "Add rate limiting to the API endpoints"],
    ] as const) {
      const two = await retrieve(task, { root, maxCycles: 2 });
      const three = await retrieve(task, { root, maxCycles: 3 });
      if (three.cycles.length === 3) expect(three.cycles[2]!.expandedFrom).toEqual([]);
      // fed its own answers, stage 2 moved every file again in the third cycle
      expect(three.files.map((f) => [f.path, f.relevance])).toEqual(two.files.map((f) => [f.path, f.relevance]));
    }
  });
});

describe("plug points", () => {
  it("a custom evaluator rescores candidates", async () => {
    const seen: string[] = [];
    const result = await retrieve("Fix the authentication token expiry bug", {
      root: AUTH,
      maxCycles: 1,
      evaluator: async ({ candidates, readFile }) => {
        seen.push(...candidates.map((c) => c.path));
        // a deterministic judge: anything that mentions refresh tokens is essential
        const verdicts = [];
        for (const candidate of candidates) {
          const text = await readFile(candidate.path);
          verdicts.push({ path: candidate.path, relevance: /refresh/i.test(text) ? 0.99 : 0.1, reason: "judge" });
        }
        return verdicts;
      },
    });
    expect(seen.length).toBeGreaterThan(0);
    expect(result.files[0]!.relevance).toBe(0.99);
    expect(result.files[0]!.reason).toBe("judge");
    expect(result.files.filter((f) => f.relevance === 0.1).length).toBeGreaterThan(0);
  });

  it("a custom query expander adds the caller's words", async () => {
    const plain = await retrieve("Fix the expiry bug", { root: AUTH, maxCycles: 1 });
    const expanded = await retrieve("Fix the expiry bug", {
      root: AUTH,
      maxCycles: 1,
      expandQuery: async (query) => ({
        ...query,
        terms: [...query.terms, { term: "lru", weight: 2, source: "keyword", original: "lru" }],
      }),
    });
    expect(expanded.cycles[0]!.keywords).toContain("lru");
    expect(plain.cycles[0]!.keywords).not.toContain("lru");
    // the caller's word lifts the file that carries it, past files it ranked below without it
    const rankOf = (result: typeof plain) => result.files.findIndex((f) => f.path === "src/cache/lru-cache.ts");
    const relevanceOf = (result: typeof plain) => result.files[rankOf(result)]!.relevance;
    expect(rankOf(expanded)).toBeGreaterThanOrEqual(0);
    expect(rankOf(expanded)).toBeLessThan(rankOf(plain) === -1 ? Infinity : rankOf(plain));
    expect(rankOf(expanded)).toBeLessThanOrEqual(2);
    if (rankOf(plain) >= 0) expect(relevanceOf(expanded)).toBeGreaterThan(relevanceOf(plain));
  });
});

describe("every strategy keeps the contract", () => {
  it.each([["graph"], ["bm25"], ["pagerank"]] as const)("%s", async (strategy) => {
    const result = await retrieve("Fix the authentication token expiry bug", { root: AUTH, strategy });
    expect(result.schemaVersion).toBe(2);
    expect(result.stats.strategy).toBe(strategy);
    expect(result.files.length).toBeGreaterThan(0);
    const paths = result.files.map((f) => f.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (let i = 1; i < result.files.length; i++) {
      expect(result.files[i - 1]!.relevance).toBeGreaterThanOrEqual(result.files[i]!.relevance);
    }
    expect(result.context.length).toBe(result.stats.contextFiles);
    // the context is ranked files, best first
    const rank = result.context.map((p) => paths.indexOf(p));
    expect(rank.every((r) => r >= 0)).toBe(true);
    expect([...rank].sort((a, b) => a - b)).toEqual(rank);
    for (const supporting of result.supporting) {
      expect(result.context).not.toContain(supporting.path);
      for (const p of supporting.for) expect(result.context).toContain(p);
    }
  });
});
