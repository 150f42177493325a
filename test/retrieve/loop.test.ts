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

  it("stops early, as the pattern says, once 3 files reach 0.7 with no critical gap", async () => {
    // a judge sure of every candidate: three or more files at 0.9, nothing undecided
    const result = await retrieve("Fix the authentication token expiry bug", {
      root: AUTH,
      evaluator: async ({ candidates }) => candidates.map((c) => ({ path: c.path, relevance: 0.9 })),
    });
    expect(result.cycles).toHaveLength(1);
    expect(result.cycles[0]!.stop).toMatch(/^\d+ files at 0.7 or more and no critical gap$/);
    expect(result.stats.stoppedEarly).toBe(true);
  });

  it("goes on while the context is thin, and stops when a cycle changes nothing", async () => {
    const result = await retrieve("Fix the authentication token expiry bug", { root: AUTH });
    expect(result.cycles.length).toBeGreaterThan(1);
    const last = result.cycles.at(-1)!;
    expect(last.stop).toMatch(/nothing changed|cycle limit|no critical gap/);
    for (const cycle of result.cycles.slice(1)) expect(cycle.lifted).toBeDefined();
  });

  it("keeps the context inside the token budget: a file past it drops below 0.7 and says why", async () => {
    const sure = async ({ candidates }: { candidates: ReadonlyArray<{ path: string }> }) => candidates.map((c) => ({ path: c.path, relevance: 0.9 }));
    const result = await retrieve("Fix the authentication token expiry bug", { root: AUTH, budgetTokens: 1500, evaluator: sure });
    const context = result.files.filter((f) => f.relevance >= 0.7);
    expect(context.length).toBeGreaterThanOrEqual(1);
    expect(context.reduce((sum, f) => sum + f.tokens, 0)).toBeLessThanOrEqual(1500);
    expect(result.files.some((f) => f.relevance === 0.69 && f.reason.includes("over the 1500-token budget"))).toBe(true);
  });

  it("gives relevance as the ranker's calibrated chance: no file is pinned to 0.7", async () => {
    const result = await retrieve("Fix the authentication token expiry bug", { root: AUTH });
    expect(result.files.some((f) => f.reason.includes("kept as context"))).toBe(false);
    expect(result.stats.contextFiles).toBe(result.files.filter((f) => f.relevance >= 0.7).length);
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
      expect(three.cycles).toHaveLength(3);
      expect(three.cycles[2]!.expandedFrom).toEqual([]);
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
    expect(result.schemaVersion).toBe(1);
    expect(result.stats.strategy).toBe(strategy);
    expect(result.files.length).toBeGreaterThan(0);
    const paths = result.files.map((f) => f.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (let i = 1; i < result.files.length; i++) {
      expect(result.files[i - 1]!.relevance).toBeGreaterThanOrEqual(result.files[i]!.relevance);
    }
    expect(result.files.filter((f) => f.relevance >= 0.7).length).toBe(result.stats.contextFiles);
  });
});
