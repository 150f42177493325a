import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { GraphRetrieveError } from "../../src/errors.js";
import {
  createGlossary,
  createThesaurus,
  expandWithThesaurus,
  loadGlossary,
  loadStopwords,
  loadThesaurus,
  parseTask,
  readGlossary,
  readStopwords,
  readThesaurus,
  type TaskQuery,
} from "../../src/retrieve/query.js";
import { normaliseTerm, termsOf } from "../../src/util/terms.js";

const n = normaliseTerm;
const termsIn = (query: TaskQuery) => query.terms.map((t) => t.term);
const weightOf = (query: TaskQuery, word: string) => query.terms.find((t) => t.term === n(word))?.weight;

describe("parseTask: English commit subjects", () => {
  it("keeps identifiers whole, splits them into terms and drops boilerplate", () => {
    const q = parseTask("useQueries: Prevent infinite render loops when useSuspenseQueries has duplicate queryKeys");
    expect(q.identifiers).toEqual(["useQueries", "useSuspenseQueries", "queryKeys"]);
    const terms = termsIn(q);
    for (const word of [...termsOf("render loop suspense query duplicate infinite"), ...termsOf("queryKeys")]) {
      expect(terms).toContain(word);
    }
    for (const gone of ["prevent", "when", "has"]) expect(terms).not.toContain(n(gone));
    // verbatim (identifier) terms weigh 2, prose words 1
    expect(weightOf(q, "suspense")).toBe(2);
    expect(weightOf(q, "query")).toBe(2);
    expect(weightOf(q, "render")).toBe(1);
    expect(q.terms.find((t) => t.term === n("suspense"))).toMatchObject({ source: "verbatim", original: "useSuspenseQueries" });
  });

  it("finds the auth, token and expiry terms of a bug report", () => {
    const q = parseTask("Fix the authentication token expiry bug");
    expect(termsIn(q)).toEqual(termsOf("authentication token expiry"));
    expect(q.terms.every((t) => t.source === "task" && t.weight === 1)).toBe(true);
  });

  it("folds inflections into one term and keeps the highest weight, in first-seen order", () => {
    const q = parseTask("tokens expired; refresh the token when `tokenExpiry` passes");
    const terms = termsIn(q);
    expect(terms.filter((t) => t === n("token"))).toHaveLength(1);
    expect(terms.filter((t) => t === n("expire"))).toHaveLength(1);
    expect(terms.indexOf(n("token"))).toBe(0);
    expect(weightOf(q, "token")).toBe(2);
    expect(q.terms[0]).toMatchObject({ source: "verbatim", original: "tokenExpiry" });
  });

  it("recognises snake_case, SCREAMING_CASE, dotted names, calls and acronym plurals", () => {
    const q = parseTask("Handle MAX_RETRY_COUNT in Foo.bar and call posAtCoords() with snake_case_name for URLs, e.g. and/or etc.");
    expect(q.identifiers).toEqual(["MAX_RETRY_COUNT", "Foo.bar", "posAtCoords", "snake_case_name"]);
    const terms = termsIn(q);
    expect(terms).toEqual(expect.arrayContaining(["max", n("retry"), "count", "foo", "bar", "pos", n("coords"), n("snake"), "url"]));
    expect(terms).not.toContain("at"); // function word inside an identifier
    expect(terms).not.toContain("eg");
    expect(q.paths).toEqual([]);
  });

  it("keeps paths whole and takes their words, without the extension", () => {
    const q = parseTask("Update src/auth/session-manager.ts and config.json (see packages/core)");
    expect(q.paths).toEqual(["src/auth/session-manager.ts", "config.json", "packages/core"]);
    const terms = termsIn(q);
    expect(terms).toEqual(expect.arrayContaining(["src", "auth", n("session"), n("manager"), n("config"), n("packages"), "core"]));
    expect(terms).not.toContain("ts");
    expect(terms).not.toContain("json");
  });

  it("keeps quoted phrases and backticked code verbatim and weighs them up", () => {
    const q = parseTask('Show "Cannot read property" error from `JSON.parse` when `npm run build` fails in “lazy routes”');
    expect(q.phrases).toEqual(["npm run build", "Cannot read property", "lazy routes"]);
    expect(q.identifiers).toEqual(["JSON.parse"]);
    expect(weightOf(q, "property")).toBe(2);
    expect(weightOf(q, "cannot")).toBe(2);
    expect(weightOf(q, "parse")).toBe(2);
    expect(weightOf(q, "route")).toBe(2);
    expect(weightOf(q, "error")).toBe(1);
    expect(weightOf(q, "show")).toBe(1);
  });

  it("treats a conventional-commit scope as a code word and drops the type", () => {
    const feat = parseTask("feat(router): support lazy routes");
    expect(feat.identifiers).toEqual(["router"]);
    expect(termsIn(feat)).toEqual([n("router"), "lazy"]);
    expect(weightOf(feat, "router")).toBe(2);
    expect(termsIn(parseTask("fix: crash on empty input"))).toEqual([n("crash"), n("empty"), n("input")]);
    expect(parseTask("[auth] token refresh").identifiers).toEqual(["auth"]);
    expect(parseTask("core/graph: cycle detection").paths).toEqual(["core/graph"]);
  });

  it("keeps the scope as written, for the files named for it", () => {
    expect(parseTask("feat(router): support lazy routes").scopes).toEqual(["router"]);
    expect(parseTask("useQueries: prevent infinite render loops").scopes).toEqual(["useQueries"]);
    expect(parseTask("[auth, session] token refresh").scopes).toEqual(["auth", "session"]);
    expect(parseTask("fix: crash on empty input").scopes).toEqual([]);
    expect(parseTask("Fix the token expiry bug").scopes).toEqual([]);
  });

  it("keeps words that name code: error, test, type, export", () => {
    const q = parseTask("Add missing type export and error test");
    expect(termsIn(q)).toEqual(expect.arrayContaining(["type", n("export"), n("error"), "test"]));
    expect(termsIn(q)).not.toContain("add");
  });

  it("gives an empty query for an empty or all-boilerplate task", () => {
    expect(parseTask("")).toEqual({ task: "", terms: [], identifiers: [], paths: [], phrases: [], scopes: [] });
    expect(termsIn(parseTask("Fix bug: should properly handle it correctly"))).toEqual([]);
  });
});

describe("parseTask: Chinese and mixed tasks", () => {
  it("修复身份验证令牌过期 bug → authentication, auth, token, expire", () => {
    const q = parseTask("修复身份验证令牌过期 bug");
    expect(termsIn(q)).toEqual([n("authentication"), "auth", "token", n("expire")]);
    expect(q.terms[0]).toMatchObject({ source: "glossary", original: "身份验证", weight: 1 });
  });

  it("为 API 端点添加速率限制 → api, endpoint, route, rate, limit, throttle", () => {
    const terms = termsIn(parseTask("为 API 端点添加速率限制"));
    expect(terms).toEqual(["api", n("endpoint"), n("route"), n("rate"), n("limit"), n("throttle")]);
  });

  it("修复 login 页面的缓存问题 keeps the English word and drops 修复, 的, 问题", () => {
    const q = parseTask("修复 login 页面的缓存问题");
    expect(termsIn(q)).toEqual(["login", n("page"), n("view"), n("cache")]);
    expect(q.terms[0]?.source).toBe("task");
  });

  it("segments by longest match and skips unknown characters", () => {
    // 数据库 wins over 数据; 咖啡 is not in the glossary
    expect(termsIn(parseTask("咖啡数据库连接池超时"))).toEqual([n("database"), "db", n("connection"), "pool", n("timeout")]);
    // Chinese glued to English, full-width letters and punctuation
    expect(termsIn(parseTask("修复ｌｏｇｉｎ接口，中间件报错"))).toEqual(["login", "api", n("endpoint"), n("interface"), n("middleware"), n("error")]);
  });

  it("uses a custom glossary when given one", () => {
    const glossary = createGlossary({ 令牌桶: ["token bucket"] });
    expect(termsIn(parseTask("令牌桶", { glossary }))).toEqual(["token", n("bucket")]);
    expect(termsIn(parseTask("缓存", { glossary }))).toEqual([]);
  });
});

describe("parseTask options", () => {
  it("adds refine keywords after the task's terms", () => {
    const q = parseTask("Fix the authentication token expiry bug", { keywords: ["jwtUtils", "refresh"] });
    expect(termsIn(q)).toEqual([...termsOf("authentication token expiry"), "jwt", n("utils"), n("refresh")]);
    expect(q.terms.at(-1)).toMatchObject({ source: "keyword", weight: 1, original: "refresh" });
  });

  it("adds thesaurus synonyms at a low weight only when asked", () => {
    const thesaurus = loadThesaurus();
    expect(termsIn(parseTask("rate limit the API"))).not.toContain(n("throttle"));
    const q = parseTask("rate limit the API", { thesaurus });
    const throttle = q.terms.find((t) => t.term === n("throttle"));
    expect(throttle).toMatchObject({ source: "thesaurus", weight: 0.5, original: "throttle" });
    // a synonym never lowers a task word, and boilerplate synonyms (make, new, add) stay out
    expect(weightOf(q, "rate")).toBe(1);
    for (const word of ["make", "new", "add"]) expect(termsIn(parseTask("create user", { thesaurus }))).not.toContain(word);
  });
});

describe("expandWithThesaurus", () => {
  it("maps a term to the other members of its groups, normalised", () => {
    const map = expandWithThesaurus([n("throttle")]);
    expect(map.get(n("throttle"))).toEqual(expect.arrayContaining(["rate", "limit", "ratelimit", "quota"]));
    const auth = expandWithThesaurus(["auth"]).get("auth") ?? [];
    expect(auth).toEqual(expect.arrayContaining([n("authentication"), "login", n("session"), "jwt", "token", n("credential")]));
    expect(auth).not.toContain("auth");
  });

  it("lets a phrase answer for its words only when all are asked", () => {
    expect(expandWithThesaurus(["rate", "limit"]).get("rate")).toEqual(expect.arrayContaining([n("throttle"), "quota"]));
    expect(expandWithThesaurus(["rate"]).has("rate")).toBe(false);
    expect(expandWithThesaurus(["ratelimit"]).get("ratelimit")).toContain(n("throttle"));
  });

  it("normalises the terms it is given and leaves out terms without synonyms", () => {
    const map = expandWithThesaurus(["Deleted", "zebra"]);
    expect([...map.keys()]).toEqual([n("delete")]);
    expect(map.get(n("delete"))).toEqual(expect.arrayContaining([n("remove"), n("destroy"), "drop"]));
  });

  it("takes a custom thesaurus", () => {
    const thesaurus = createThesaurus({ widget: ["widget", "gadget"] });
    expect(expandWithThesaurus(["gadget", "auth"], thesaurus)).toEqual(new Map([[n("gadget"), [n("widget")]]]));
  });
});

describe("data files", () => {
  it("ship a glossary of at least 300 entries and a thesaurus of at least 80 groups", () => {
    const glossary = loadGlossary();
    expect(glossary.entries.size).toBeGreaterThanOrEqual(300);
    expect(loadThesaurus().groups.length).toBeGreaterThanOrEqual(80);
    for (const word of ["身份验证", "认证", "鉴权", "令牌", "过期", "速率限制", "限流", "端点", "接口", "中间件", "缓存", "数据库", "配置", "路由", "权限", "日志", "测试", "会话", "用户", "请求", "响应", "错误", "异常", "解析", "渲染", "组件", "状态", "查询", "订阅", "事件", "队列", "重试", "超时", "分页", "上传", "下载", "加密", "解密", "哈希", "签名", "校验", "验证", "序列化"]) {
      expect(glossary.entries.has(word), word).toBe(true);
    }
    expect(loadGlossary()).toBe(glossary); // read once
  });

  it("keep glossary keys and Chinese stopwords apart", () => {
    const glossary = loadGlossary();
    const clash = [...loadStopwords().chinese].filter((w) => glossary.entries.has(w));
    expect(clash).toEqual([]);
  });

  it("are read relative to the package and match the built-in loaders", () => {
    const root = new URL("../../data/", import.meta.url);
    expect(readGlossary(new URL("glossary-zh.json", root).pathname).entries.size).toBe(loadGlossary().entries.size);
    expect(readThesaurus(new URL("thesaurus.json", root).pathname).groups.length).toBe(loadThesaurus().groups.length);
  });

  describe("a malformed file fails with one line naming the file and the key", () => {
    const dir = mkdtempSync(join(tmpdir(), "graph-retrieve-query-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const write = (name: string, text: string) => {
      const file = join(dir, name);
      writeFileSync(file, text);
      return file;
    };
    const failure = (run: () => unknown): GraphRetrieveError => {
      try {
        run();
      } catch (error) {
        expect(error).toBeInstanceOf(GraphRetrieveError);
        return error as GraphRetrieveError;
      }
      throw new Error("expected a failure");
    };

    it("names a glossary key whose value is not a keyword list", () => {
      const file = write("glossary-zh.json", JSON.stringify({ 令牌: ["token"], 过期: "expire" }));
      const error = failure(() => readGlossary(file));
      expect(error.code).toBe("config");
      expect(error.message).toContain(file);
      expect(error.message).toContain('key "过期"');
      expect(error.message).not.toContain("\n");
    });

    it("names a glossary key that is not Chinese, and a bad keyword", () => {
      expect(failure(() => createGlossary({ token: ["token"] }, "g.json")).message).toMatch(/^g\.json: key "token"/);
      expect(failure(() => createGlossary({ 令牌: ["token", 3] }, "g.json")).message).toMatch(/^g\.json: key "令牌" has 3/);
    });

    it("names a thesaurus group that is too small or holds a non-word", () => {
      const file = write("thesaurus.json", JSON.stringify({ auth: ["auth", "login"], drop: ["drop"] }));
      expect(failure(() => readThesaurus(file)).message).toContain('group "drop" must be an array of at least 2');
      expect(failure(() => createThesaurus({ x: ["rate limit", "--"] }, "t.json")).message).toMatch(/^t\.json: group "x" has "--"/);
    });

    it("names a stopword list that is missing", () => {
      const file = write("stopwords.json", JSON.stringify({ english: ["the"], chinese: ["的"] }));
      expect(failure(() => readStopwords(file)).message).toContain('key "boilerplate"');
    });

    it("reports invalid JSON and a missing file", () => {
      const file = write("broken.json", "{ \"令牌\": [\"token\" ");
      const syntax = failure(() => readGlossary(file));
      expect(syntax.message).toMatch(/broken\.json: not valid JSON/);
      expect(syntax.cause).toBeInstanceOf(SyntaxError);
      expect(failure(() => readThesaurus(join(dir, "nope.json"))).code).toBe("io");
    });
  });

  it("are valid JSON with no duplicate keys", () => {
    for (const name of ["glossary-zh.json", "thesaurus.json"]) {
      const text = readFileSync(new URL(`../../data/${name}`, import.meta.url), "utf8");
      const keys = [...text.matchAll(/^\s*("(?:[^"\\]|\\.)*")\s*:/gm)].map((m) => JSON.parse(m[1] ?? '""') as string);
      expect(new Set(keys).size, name).toBe(keys.length);
      expect(keys.length, name).toBe(Object.keys(JSON.parse(text) as object).length);
    }
  });
});

describe("determinism", () => {
  it("gives the same query for the same task, every time", () => {
    const tasks = [
      "useQueries: Prevent infinite render loops when useSuspenseQueries has duplicate queryKeys",
      "为 API 端点添加速率限制",
      'feat(auth): "refresh token" rotation in `src/auth/jwt.ts` for 会话',
    ];
    for (const task of tasks) {
      const first = JSON.stringify(parseTask(task, { thesaurus: loadThesaurus(), keywords: ["session"] }));
      for (let i = 0; i < 3; i++) {
        expect(JSON.stringify(parseTask(task, { thesaurus: loadThesaurus(), keywords: ["session"] }))).toBe(first);
      }
    }
  });

  it("returns fresh objects: mutating a query does not touch the next one", () => {
    const a = parseTask("token expiry");
    a.terms[0]!.weight = 99;
    a.identifiers.push("x");
    const b = parseTask("token expiry");
    expect(b.terms[0]?.weight).toBe(1);
    expect(b.identifiers).toEqual([]);
  });
});
