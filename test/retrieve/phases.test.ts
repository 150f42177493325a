import { beforeAll, describe, expect, it } from "vitest";
import { buildGraph } from "../../src/index.js";
import { bandOf, formatRelevance } from "../../src/retrieve/bands.js";
import { dispatch, dispatchAgain } from "../../src/retrieve/dispatch.js";
import { evaluate, missingContextOf } from "../../src/retrieve/evaluate.js";
import { loadRanker } from "../../src/retrieve/model/ranker.js";
import { refine } from "../../src/retrieve/refine.js";
import { createRetrievalContext, type RetrievalContext } from "../../src/retrieve/retrieval-context.js";

const ALL = { isAllowed: () => true };

let auth: RetrievalContext;
beforeAll(async () => {
  auth = createRetrievalContext(await buildGraph("fixtures/auth-service"));
});

describe("bands", () => {
  it("are the pattern's", () => {
    expect([0.95, 0.8, 0.79, 0.5, 0.49, 0.2, 0.19, 0].map(bandOf)).toEqual(["high", "high", "medium", "medium", "low", "low", "excluded", "excluded"]);
  });
});

describe("DISPATCH", () => {
  it("seeds where the task's words match, the file named for a word among the first, with a vector for each", () => {
    const features = dispatch(auth, "token expiry", ALL);
    const paths = features.pool.map((f) => f.path);
    expect(paths.slice(0, 3)).toContain("src/auth/tokens.ts");
    expect(features.rows).toHaveLength(paths.length);
    // nothing that neither says token or expiry nor is tied to a file that does
    const password = features.pool.find((f) => f.path === "src/utils/password.ts");
    expect(password === undefined || password.origin === "neighbour").toBe(true);
  });

  it("a later cycle adds the files REFINE reached, after the first cycle's", () => {
    const features = dispatch(auth, "token expiry", { isAllowed: (p) => p !== "src/db/pool.ts" });
    const again = dispatchAgain(auth, features, [{ path: "src/db/pool.ts", via: "src/auth/tokens.ts" }]);
    // a path the caller's filter leaves out never comes in
    expect(again).toBe(features);
  });
});

describe("EVALUATE", () => {
  it("scores every pool file in [0, 1], best first, each with a reason, the likely ones with their gaps", () => {
    const features = dispatch(auth, "Fix the authentication token expiry bug", ALL);
    const evaluations = evaluate(auth, features, loadRanker(), 1);
    expect(evaluations).toHaveLength(features.pool.length);
    for (let i = 1; i < evaluations.length; i++) expect(evaluations[i - 1]!.relevance).toBeGreaterThanOrEqual(evaluations[i]!.relevance);
    for (const e of evaluations) {
      expect(e.relevance).toBeGreaterThanOrEqual(0);
      expect(e.relevance).toBeLessThanOrEqual(1);
      expect(e.probability).toBeGreaterThan(0);
      expect(e.reason.length).toBeGreaterThan(0);
      if (e.relevance < 0.5) expect(e.missingContext).toEqual([]);
    }
    expect(evaluations.slice(0, 3).map((e) => e.path)).toContain("src/auth/tokens.ts");
    expect(evaluations.find((e) => e.path === "src/auth/tokens.ts")!.reason).toMatch(/matches token \(name\+/);
  });

  it("a later cycle reads the ties to what the cycle before found, and says so", () => {
    const features = dispatch(auth, "Fix the authentication token expiry bug", ALL);
    const model = loadRanker();
    const first = evaluate(auth, features, model, 1);
    const previous = { probability: new Map(first.map((e) => [e.path, e.probability])), relevance: new Map(first.map((e) => [e.path, e.relevance])) };
    const second = evaluate(auth, features, model, 2, previous);
    const best = first[0]!;
    const tied = second.filter((e) => e.tie?.endsWith(`${best.path} (${formatRelevance(best.relevance)})`));
    // a tie is said to a file of the previous cycle worth a look (from the low band on)
    expect(best.relevance).toBeGreaterThanOrEqual(0.2);
    expect(tied.length).toBeGreaterThan(0);
    // and to none below it
    const unlikely = first.filter((e) => e.relevance < 0.2).map((e) => `${e.path} (${formatRelevance(e.relevance)})`);
    expect(second.filter((e) => unlikely.some((u) => e.tie?.endsWith(u)))).toEqual([]);
    expect(second.every((e) => e.relevance >= 0 && e.relevance <= 1)).toBe(true);
  });

  it("names a file's gaps: what it uses from files outside the set", () => {
    const gaps = missingContextOf(auth, "src/auth/tokens.ts", new Set());
    expect(gaps.some((g) => g.endsWith("(src/auth/jwt-utils.ts)"))).toBe(true);
    expect(missingContextOf(auth, "src/auth/tokens.ts", new Set(["src/auth/jwt-utils.ts"])).some((g) => g.includes("jwt-utils"))).toBe(false);
  });
});

describe("REFINE", () => {
  const features = () => dispatch(auth, "Fix the authentication token expiry bug", ALL);

  it("excludes files below 0.2 unless tied to a likely file, expands from the high files toward their gaps, and names the context's unscored gaps critical", () => {
    const f = features();
    // a stand-in evaluation: tokens.ts high, config and session-manager.ts next (the best three), everything else low
    const standIn: Record<string, number> = { "src/auth/tokens.ts": 0.9, "src/config/index.ts": 0.3, "src/auth/session-manager.ts": 0.15 };
    const evaluations = f.pool.map((p) => ({
      path: p.path,
      relevance: standIn[p.path] ?? 0.1,
      probability: 0.1,
      score: 0,
      reason: "",
      missingContext: p.path === "src/auth/tokens.ts" ? missingContextOf(auth, p.path, new Set([p.path])) : [],
      matchedTerms: [],
      origin: p.origin,
    }));
    const smaller = { ...f, pool: f.pool.filter((p) => p.path !== "src/auth/jwt-utils.ts") };
    const refinement = refine(auth, smaller, evaluations.filter((e) => e.path !== "src/auth/jwt-utils.ts"), new Set(), () => true, ["src/auth/tokens.ts"]);
    // jwt-utils, which tokens.ts (the context) uses and no cycle has scored, is what the next cycle adds: a critical gap
    expect(refinement.expansions).toContainEqual({ path: "src/auth/jwt-utils.ts", via: "src/auth/tokens.ts" });
    expect(refinement.criticalGaps.some((g) => g.startsWith("src/auth/tokens.ts uses") && g.includes("jwt-utils"))).toBe(true);
    // a low file tied to tokens.ts stays; an untied one goes
    expect(refinement.excluded).not.toContain("src/auth/session-manager.ts");
    expect(refinement.excluded).toContain("src/utils/password.ts");
    expect(refinement.patterns).toEqual(["src/auth/"]);
  });
});
