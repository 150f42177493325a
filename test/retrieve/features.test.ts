import { beforeAll, describe, expect, it } from "vitest";
import { buildGraph } from "../../src/index.js";
import { BASE_FEATURES, baseFeatures } from "../../src/retrieve/features/base-features.js";
import { collectPool, neighboursOf } from "../../src/retrieve/features/candidate-pool.js";
import { extendPool, extractTaskFeatures } from "../../src/retrieve/features/extract.js";
import { lexicalEvidence, prepareTerms } from "../../src/retrieve/features/lexical-features.js";
import { poolGraphOf, relationFeatures, RELATION_FEATURES, type PoolGraph } from "../../src/retrieve/features/relation-features.js";
import { nameEvidence, nameKey, pathsNamed, stemOf, taskNamesOf } from "../../src/retrieve/features/task-names.js";
import { searchTask } from "../../src/retrieve/features/task-query.js";
import { parseTask } from "../../src/retrieve/query.js";
import { createRetrievalContext, type RetrievalContext } from "../../src/retrieve/retrieval-context.js";
import { DEFAULT_BM25F } from "../../src/retrieve/signals/bm25f.js";

let auth: RetrievalContext;
let gateway: RetrievalContext;
beforeAll(async () => {
  auth = createRetrievalContext(await buildGraph("fixtures/auth-service"));
  gateway = createRetrievalContext(await buildGraph("fixtures/api-gateway"));
});

const column = (name: string) => BASE_FEATURES.indexOf(name as (typeof BASE_FEATURES)[number]);
const POOL_OPTIONS = { isAllowed: () => true, excludeTests: true, bm25f: DEFAULT_BM25F };

describe("the searched task", () => {
  it("searches the codebase's synonyms for a task word no code names", () => {
    const { query, synonyms } = searchTask(gateway.index, "Add rate limiting to the API endpoints");
    // the gateway's code says throttle, never rate
    expect(gateway.index.codeFrequency.has("rate")).toBe(false);
    expect(synonyms.some((s) => s.startsWith("throttl"))).toBe(true);
    const throttle = query.keywords.find((k) => k.term === "throttl");
    expect(throttle).toMatchObject({ source: "thesaurus", concept: "rate limit" });
  });

  it("adds no synonym where the code already uses the task's word", () => {
    const { synonyms } = searchTask(auth.index, "Fix the token expiry check");
    expect(synonyms).toEqual([]);
  });
});

describe("lexical evidence", () => {
  it("scores a file holding the task's rare words above one holding none, with its coverage", () => {
    const { query } = searchTask(auth.index, "token expiry");
    const terms = prepareTerms(auth.index, query);
    const tokens = lexicalEvidence(auth.index, auth.index.byPath.get("src/auth/tokens.ts")!, terms, DEFAULT_BM25F);
    const password = lexicalEvidence(auth.index, auth.index.byPath.get("src/utils/password.ts")!, terms, DEFAULT_BM25F);
    expect(tokens.bm25f).toBeGreaterThan(0);
    expect(tokens.coverage).toBe(1);
    expect(tokens.pathCoverage).toBeGreaterThan(0); // "tokens" in its name
    expect(tokens.field.name).toBeGreaterThan(0);
    expect(tokens.matches.map((m) => m.term).sort()).toEqual(["expir", "token"]);
    expect(password.matchedTerms).toBe(0);
    expect(password.bm25f).toBe(0);
  });
});

describe("what the task names", () => {
  it("keys words, code words and runs of words alike", () => {
    expect(nameKey("useController")).toBe("usecontroller");
    const names = taskNamesOf(parseTask("Fix the session manager in `jwt-utils.ts` for useSessionStore"));
    expect(names.keys.has("sessionmanager")).toBe(true);
    expect(names.paths).toEqual(["jwt-utils.ts"]);
    expect(names.identifiers).toEqual(["usesessionstore"]);
  });

  it("finds a file by its stem written as words, by its path, and by an identifier it defines", () => {
    const session = auth.index.byPath.get("src/auth/session-manager.ts")!;
    const jwt = auth.index.byPath.get("src/auth/jwt-utils.ts")!;
    const tokens = auth.index.byPath.get("src/auth/tokens.ts")!;
    const names = taskNamesOf(parseTask("The session manager drops `jwt-utils.ts` claims from issueAccessToken"));
    expect(nameEvidence(session, names).stemNamed).toBe(1);
    expect(nameEvidence(jwt, names).pathNamed).toBe(1);
    expect(nameEvidence(tokens, names).definesIdentifier).toBe(1);
    expect(nameEvidence(tokens, names).stemNamed).toBe(0);
  });

  it("maps a stack frame's file under a build folder back to the source file it was compiled from", () => {
    const tokens = auth.index.byPath.get("src/auth/tokens.ts")!;
    const jwt = auth.index.byPath.get("src/auth/jwt-utils.ts")!;
    const trace = "Login fails after an hour\n\n```\nTypeError: Cannot read properties of undefined (reading 'exp')\n    at verify (/srv/app/node_modules/auth-service/dist/esm/auth/tokens.js:40:11)\n```";
    const names = taskNamesOf(parseTask(trace));
    expect(names.paths).toEqual(expect.arrayContaining(["dist/esm/auth/tokens.js", "auth/tokens.js"]));
    expect(nameEvidence(tokens, names).pathNamed).toBe(1);
    expect(nameEvidence(jwt, names).pathNamed).toBe(0);
    // a source folder named lib/ is no build folder: its path is matched as written
    expect(pathsNamed(["lib/router.js", "src/build-info.ts"])).toEqual(["lib/router.js", "src/build-info.ts"]);
  });

  it("takes an index file's stem from its folder, and calls generic stems generic", () => {
    expect(stemOf("src/config/index.ts")).toEqual({ stem: "config", generic: true });
    expect(stemOf("src/auth/session-manager.ts")).toEqual({ stem: "sessionmanager", generic: false });
    expect(stemOf("src/utils.ts").generic).toBe(true);
    expect(stemOf("src/types.d.ts")).toEqual({ stem: "types", generic: true });
  });

  it("reads a Python file's name without its ending, and a package's __init__.py as its folder", async () => {
    const py = createRetrievalContext(await buildGraph("fixtures/auth-service-py"));
    const session = py.index.byPath.get("auth_service/auth/session_manager.py")!;
    const jwt = py.index.byPath.get("auth_service/auth/jwt_utils.py")!;
    expect(stemOf(session.path)).toEqual({ stem: "sessionmanager", generic: false });
    expect(stemOf("auth_service/auth/__init__.py")).toEqual({ stem: "auth", generic: true });
    expect(stemOf("__init__.py").generic).toBe(true);
    expect(session.definedNames.has("sessionmanager")).toBe(true);
    const names = taskNamesOf(parseTask("The session manager drops claims read in auth/jwt_utils"));
    expect(nameEvidence(session, names).stemNamed).toBe(1);
    expect(nameEvidence(jwt, names).pathNamed).toBe(1);
    expect(nameEvidence(session, names).pathNamed).toBe(0);
  });
});

describe("the pool", () => {
  it("holds the lexical matches, the files the task names and the graph neighbours of the best", () => {
    const searched = searchTask(auth.index, "token expiry");
    const pool = collectPool(auth, prepareTerms(auth.index, searched.query), taskNamesOf(searched.taskQuery), POOL_OPTIONS);
    const paths = pool.map((f) => f.path);
    expect(paths).toContain("src/auth/tokens.ts");
    // jwt-utils never says token or expiry, yet tokens.ts imports it: a neighbour
    const jwt = pool.find((f) => f.path === "src/auth/jwt-utils.ts");
    expect(jwt === undefined ? undefined : jwt.origin === "neighbour" || jwt.lexical.matchedTerms > 0).toBe(true);
    expect(neighboursOf(auth, "src/auth/tokens.ts").map((n) => n.path)).toContain("src/auth/jwt-utils.ts");
  });
});

describe("base features", () => {
  it("gives every pool file a vector of the listed length, with the best lexical file at 1 and ranked first", () => {
    const features = extractTaskFeatures(auth, "Fix the token expiry check");
    expect(features.rows.length).toBe(features.pool.length);
    for (const row of features.rows) {
      expect(row.length).toBe(BASE_FEATURES.length);
      for (const value of row) expect(Number.isFinite(value)).toBe(true);
    }
    const best = features.rows.findIndex((r) => r[column("bm25fRel")] === 1);
    expect(best).toBeGreaterThanOrEqual(0);
    expect(features.rows[best]![column("bm25fRank")]).toBe(1); // log2(2 + 0)
  });

  it("marks ties to the best lexical files, and the task's own traits", () => {
    const features = extractTaskFeatures(auth, "Fix the token expiry check");
    const at = (path: string) => features.rows[features.pool.findIndex((f) => f.path === path)]!;
    // tokens.ts imports jwt-utils.ts: jwt-utils is imported by a seed
    expect(at("src/auth/jwt-utils.ts")[column("importedBySeed")]).toBeGreaterThan(0);
    expect(at("src/auth/tokens.ts")[column("taskZh")]).toBe(0);
    const zh = extractTaskFeatures(auth, "修复令牌过期检查");
    expect(zh.rows[0]![column("taskZh")]).toBe(1);
    expect(zh.pool.map((f) => f.path)).toContain("src/auth/tokens.ts");
  });

  it("is the same vector on every run", () => {
    const a = extractTaskFeatures(gateway, "Add rate limiting to the API endpoints");
    const b = extractTaskFeatures(gateway, "Add rate limiting to the API endpoints");
    expect(b.pool.map((f) => f.path)).toEqual(a.pool.map((f) => f.path));
    expect(b.rows).toEqual(a.rows);
    expect(baseFeatures({ context: gateway, taskQuery: a.searched.taskQuery, pool: a.pool, matching: a.matching })).toEqual(a.rows);
  });

  it("a grown pool keeps its files and adds the new one with its own vector", () => {
    const full = extractTaskFeatures(auth, "token expiry");
    // the fixture is small enough for the pool to hold every file: keep five, grow it by a sixth
    const features = { ...full, pool: full.pool.slice(0, 5), rows: full.rows.slice(0, 5) };
    const missing = full.pool[5]!.path;
    const grown = extendPool(auth, features, [{ path: missing, via: "src/auth/tokens.ts" }]);
    expect(grown.pool.length).toBe(features.pool.length + 1);
    expect(grown.pool.at(-1)).toMatchObject({ path: missing, origin: "expansion", via: "src/auth/tokens.ts" });
    expect(grown.rows.length).toBe(grown.pool.length);
    expect(extendPool(auth, grown, [{ path: missing, via: "src/auth/tokens.ts" }])).toBe(grown);
  });
});

describe("relation features", () => {
  // a → b (a imports b and uses 3 of its names), b → c, d beside a in the same folder
  const graph: PoolGraph = {
    out: [[1], [2], [], []],
    in: [[], [0], [1], []],
    uses: [[[1, 3]], [], [], []],
    twoHop: [[2], [], [0], []],
    folder: [0, 1, 1, 0],
    cochange: [[[3, 1], [1, 0.5]], [], [], [[0, 1]]],
  };
  const col = (name: string) => RELATION_FEATURES.indexOf(name as (typeof RELATION_FEATURES)[number]);

  it("lifts what a likely file imports and uses, two hops away and beside it", () => {
    const rows = relationFeatures(graph, [0.9, 0.1, 0.05, 0.02]);
    expect(rows[1]![col("usedByLikely")]).toBe(0.9);
    expect(rows[1]![col("fillsGapOf")]).toBeCloseTo(0.9);
    expect(rows[2]![col("twoHopLikely")]).toBe(0.9);
    expect(rows[3]![col("besideLikely")]).toBe(0.9);
    expect(rows[1]![col("mostUsedBy")]).toBeCloseTo(0.9); // the file a uses most
    expect(rows[0]![col("cochangeLikely")]).toBeCloseTo(0.02); // d changes with a
    // a, the best file, changes most with d, then with b
    expect(rows[3]![col("cochangeRankOfBest")]).toBe(1);
    expect(rows[1]![col("cochangeRankOfBest")]).toBe(0.5);
    expect(rows[2]![col("cochangeRankOfBest")]).toBe(0);
    expect(rows[3]![col("cochangeLikely")]).toBeCloseTo(0.9);
    expect(rows[0]![col("usesLikely")]).toBe(0.1);
    for (const row of rows) {
      expect(row[col("bestRelevance")]).toBe(0.9);
      expect(row[col("likelyFiles")]).toBe(1);
      expect(row.length).toBe(RELATION_FEATURES.length);
    }
  });

  it("reads the pool's graph from the code graph", () => {
    const paths = ["src/auth/tokens.ts", "src/auth/jwt-utils.ts", "src/utils/password.ts"];
    const g = poolGraphOf(auth, paths);
    expect(g.out[0]).toContain(1);
    expect(g.in[1]).toContain(0);
    expect(g.uses[0]!.some(([j]) => j === 1)).toBe(true);
    expect(g.folder[0]).toBe(g.folder[1]);
    expect(g.folder[2]).not.toBe(g.folder[0]);
  });
});
