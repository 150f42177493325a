import { beforeAll, describe, expect, it } from "vitest";
import { buildGraph } from "../../src/index.js";
import { createInitialQuery, coverageOf } from "../../src/retrieve/concepts.js";
import { dispatch, isRecalled } from "../../src/retrieve/dispatch.js";
import { bandOf, evaluate, relevanceOfRatio } from "../../src/retrieve/evaluate.js";
import { expandWithThesaurus, parseTask, thesaurusPhrasesIn } from "../../src/retrieve/query.js";
import { refine } from "../../src/retrieve/refine.js";
import { createRetrievalContext, type RetrievalContext } from "../../src/retrieve/retrieval-context.js";
import { personalizedPageRank } from "../../src/retrieve/signals/personalized-pagerank.js";

const synonyms = (terms: string[]) => expandWithThesaurus(terms);
const phrases = (terms: string[]) => thesaurusPhrasesIn(terms);
const DISPATCH = { maxCandidates: 40, excludeTests: true, isAllowed: () => true };

let auth: RetrievalContext;
let gateway: RetrievalContext;
beforeAll(async () => {
  auth = createRetrievalContext(await buildGraph("fixtures/auth-service"));
  gateway = createRetrievalContext(await buildGraph("fixtures/api-gateway"));
});

function queryFor(context: RetrievalContext, task: string) {
  return createInitialQuery(context.index, parseTask(task), synonyms, phrases);
}

describe("the first query", () => {
  it("adds the abbreviations this codebase uses, as the same concept", () => {
    const query = queryFor(auth, "Fix the authentication token expiry bug");
    const auth_ = query.keywords.find((k) => k.term === "auth");
    expect(auth_).toMatchObject({ source: "abbreviation", concept: "authentic" });
    expect([...query.concepts.keys()].sort()).toEqual(["authentic", "expir", "token"]);
  });

  it("makes the words of a known phrase one concept", () => {
    const query = queryFor(gateway, "Add rate limiting to the API endpoints");
    expect(query.keywords.find((k) => k.term === "rate")?.concept).toBe("rate limit");
    expect(query.keywords.find((k) => k.term === "limit")?.concept).toBe("rate limit");
  });
});

describe("DISPATCH", () => {
  it("seeds where the task's words name symbols, the file named for a word first", () => {
    const query = queryFor(auth, "token expiry");
    const candidates = dispatch(auth, query, DISPATCH);
    expect(candidates[0]!.path).toBe("src/auth/tokens.ts");
    expect(candidates.every((c) => c.lexical.score > 0)).toBe(true);
    // nothing that never says token or expiry
    expect(candidates.map((c) => c.path)).not.toContain("src/utils/password.ts");
  });

  it("finds a file that defines an identifier the task names exactly", () => {
    const query = queryFor(auth, "secondsUntilExpiry returns a negative number");
    const tokens = dispatch(auth, query, DISPATCH).find((c) => c.path === "src/auth/tokens.ts");
    expect(tokens?.definesIdentifiers).toEqual(["secondsuntilexpiry"]);
  });

  it("leaves out excluded files unless a new term names them", () => {
    const query = queryFor(auth, "token expiry");
    query.excluded.add("src/auth/tokens.ts");
    expect(dispatch(auth, query, DISPATCH).map((c) => c.path)).not.toContain("src/auth/tokens.ts");
    const file = auth.index.byPath.get("src/auth/tokens.ts")!;
    expect(isRecalled(file, new Set(["token"]))).toBe(true);
    expect(isRecalled(file, new Set(["password"]))).toBe(false);
  });
});

describe("EVALUATE", () => {
  it("scores in [0, 1] with the pattern's bands, best first, with reasons", () => {
    const query = queryFor(auth, "Fix the authentication token expiry bug");
    const evaluations = evaluate(auth, dispatch(auth, query, DISPATCH), query);
    expect(evaluations[0]!.relevance).toBeGreaterThanOrEqual(0.8);
    for (let i = 1; i < evaluations.length; i++) expect(evaluations[i - 1]!.relevance).toBeGreaterThanOrEqual(evaluations[i]!.relevance);
    for (const e of evaluations) {
      expect(e.relevance).toBeGreaterThanOrEqual(0);
      expect(e.relevance).toBeLessThanOrEqual(1);
      expect(e.reason).toMatch(/covers \d+\/3 task concepts/);
    }
    const user = evaluations.find((e) => e.path === "src/models/user.ts");
    expect(user === undefined || user.relevance < 0.5).toBe(true);
  });

  it("names the gaps: what a file uses from files outside the context", () => {
    const query = queryFor(auth, "Fix the authentication token expiry bug");
    const evaluations = evaluate(auth, dispatch(auth, query, DISPATCH), query);
    const authFile = evaluations.find((e) => e.path === "src/auth/auth.ts")!;
    expect(authFile.missingContext).toContain("userRepository (src/db/user-repository.ts)");
    // what is in the context is no gap
    expect(authFile.missingContext.some((g) => g.includes("src/auth/tokens.ts"))).toBe(false);
  });

  it("maps score ratios onto the bands", () => {
    expect(relevanceOfRatio(1, 0.9)).toBe(0.95);
    expect(relevanceOfRatio(0.9, 0.9)).toBe(0.7);
    expect(relevanceOfRatio(0, 0.9)).toBe(0);
    expect([bandOf(0.95), bandOf(0.6), bandOf(0.3), bandOf(0.1)]).toEqual(["high", "medium", "low", "excluded"]);
  });

  it("measures coverage by concept, synonyms and abbreviations included", () => {
    const query = queryFor(auth, "Fix the authentication token expiry bug");
    expect(coverageOf(query, new Set(["auth", "token", "expir"])).coverage).toBeCloseTo(1);
    expect(coverageOf(query, new Set(["token"])).coverage).toBeLessThan(0.5);
  });
});

describe("REFINE", () => {
  it("replaces a word the code never uses by the synonym it does", () => {
    const query = queryFor(gateway, "Add rate limiting to the API endpoints");
    const evaluations = evaluate(gateway, dispatch(gateway, query, DISPATCH), query);
    const next = refine(gateway, evaluations, query, synonyms);
    const throttle = next.query.keywords.find((k) => k.term === "throttl");
    expect(throttle).toMatchObject({ source: "thesaurus", concept: "rate limit" });
    expect(next.criticalGaps.some((g) => g.includes('"rate"'))).toBe(true);
    // "limit" alone would mean pagination; the phrase decides
    expect(next.query.keywords.map((k) => k.term)).not.toContain("pagin");
  });

  it("learns words that sit beside task terms in high files, at a low weight", () => {
    const query = queryFor(auth, "Fix the authentication token expiry bug");
    const evaluations = evaluate(auth, dispatch(auth, query, DISPATCH), query);
    const next = refine(auth, evaluations, query, synonyms);
    const learned = next.query.keywords.filter((k) => k.source === "vocabulary");
    expect(learned.length).toBeGreaterThan(0);
    expect(learned.every((k) => k.weight < 1 && k.concept === undefined)).toBe(true);
  });

  it("excludes what scored under 0.2 and keeps folders of high files as patterns", () => {
    const query = queryFor(auth, "Fix the authentication token expiry bug");
    const evaluations = evaluate(auth, dispatch(auth, query, DISPATCH), query);
    const next = refine(auth, evaluations, query, synonyms);
    const low = evaluations.filter((e) => e.relevance < 0.2).map((e) => e.path);
    expect(low.length).toBeGreaterThan(0);
    expect(next.excluded.sort()).toEqual(low.sort());
    expect(next.patterns).toContain("src/auth/");
  });

  it("excludes nothing while no file is high: low means nothing yet", () => {
    const query = queryFor(gateway, "Add rate limiting to the API endpoints");
    const evaluations = evaluate(gateway, dispatch(gateway, query, DISPATCH), query);
    expect(evaluations.filter((e) => e.relevance >= 0.7)).toEqual([]);
    expect(refine(gateway, evaluations, query, synonyms).excluded).toEqual([]);
  });
});

describe("personalized PageRank", () => {
  it("concentrates on the seeds and what they link to, and sums to 1", () => {
    const links = {
      out: new Map([
        ["a", new Map([["b", 1]])],
        ["b", new Map([["c", 1]])],
      ]),
      in: new Map([
        ["b", new Map([["a", 1]])],
        ["c", new Map([["b", 1]])],
      ]),
    };
    const forward = { damping: 0.7, maxIterations: 100, tolerance: 1e-10, reverseWeight: 0 };
    const ranks = personalizedPageRank(["a", "b", "c", "d"], links, new Map([["a", 1]]), forward);
    const total = [...ranks.values()].reduce((s, v) => s + v, 0);
    expect(total).toBeCloseTo(1, 6);
    expect(ranks.get("a")!).toBeGreaterThan(ranks.get("b")!);
    expect(ranks.get("b")!).toBeGreaterThan(ranks.get("c")!);
    expect(ranks.get("d")).toBeCloseTo(0, 6);
  });

  it("walks against the links too when asked: importers of a seed gain", () => {
    const links = { out: new Map([["a", new Map([["b", 1]])]]), in: new Map([["b", new Map([["a", 1]])]]) };
    const options = { damping: 0.7, maxIterations: 100, tolerance: 1e-10 };
    const oneWay = personalizedPageRank(["a", "b"], links, new Map([["b", 1]]), { ...options, reverseWeight: 0 });
    const bothWays = personalizedPageRank(["a", "b"], links, new Map([["b", 1]]), { ...options, reverseWeight: 0.5 });
    expect(oneWay.get("a")).toBeCloseTo(0, 6);
    expect(bothWays.get("a")!).toBeGreaterThan(0.1);
  });
});
