/**
 * Minified build output committed beside its source (a language definition
 * and its `.min.js`, rebuilt with every change): the scan leaves the twin
 * out, the retrieval ranks it after its source by the share of the
 * source's commits that changed it too. Real repositories built here with
 * git; nothing names a benchmark's file.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { minifiedTwinsOf } from "../../src/scan/default-excludes.js";
import { renderJson, renderText, retrieve } from "../../src/index.js";
import { builtTwins } from "../../src/retrieve/built-twins.js";
import { GIT_ENV, git } from "../support/git.js";

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});

/** A repository; each commit writes the given files, a day apart. */
function makeRepo(commits: Array<Record<string, string>>): string {
  const root = mkdtempSync(join(tmpdir(), "gr-twins-"));
  scratch.push(root);
  git(root, "init", "-q", "-b", "main");
  commits.forEach((files, i) => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
      git(root, "add", path);
    }
    const date = `${1700000000 + i * 86400} +0000`;
    execFileSync("git", ["commit", "-q", "-m", `change ${i}`], { cwd: root, env: { ...GIT_ENV, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } });
  });
  return root;
}

const grammar = (n: number) => `export const sqlGrammar = { keyword: /\\b(select|from|where)\\b/i, version: ${n} };\nexport function highlightSql(text) {\n  return text.replace(sqlGrammar.keyword, (k) => k.toUpperCase());\n}\n`;
const minified = (n: number) => `export const sqlGrammar={keyword:/\\b(select|from|where)\\b/i,version:${n}};export function highlightSql(t){return t.replace(sqlGrammar.keyword,k=>k.toUpperCase())}\n`;
const other = (name: string, n: number) => `export function ${name}(value) {\n  return value + ${n};\n}\n`;

/** The SQL grammar and its minified twin change together three times, the grammar alone once; the YAML grammar's twin only at the start. */
function grammarRepo(): string {
  return makeRepo([
    { "components/sql.js": grammar(0), "components/sql.min.js": minified(0), "components/yaml.js": other("yamlKeyword", 0), "components/yaml.min.js": minified(9), "src/core.js": other("core", 0) },
    { "components/sql.js": grammar(1), "components/sql.min.js": minified(1) },
    { "components/sql.js": grammar(2), "components/sql.min.js": minified(2) },
    { "components/sql.js": grammar(3) },
    { "components/sql.js": grammar(4), "components/sql.min.js": minified(4), "src/core.js": other("core", 1) },
    { "components/yaml.js": other("yamlKeyword", 1) },
    { "components/yaml.js": other("yamlKeyword", 2) },
  ]);
}

describe("minifiedTwinsOf", () => {
  it("names the minified builds the scan leaves out, for plain scripts only", () => {
    expect(minifiedTwinsOf("components/prism-sql.js")).toEqual(["components/prism-sql.min.js", "components/prism-sql-min.js"]);
    expect(minifiedTwinsOf("lib/index.mjs")).toEqual(["lib/index.min.mjs", "lib/index-min.mjs"]);
    expect(minifiedTwinsOf("components/prism-sql.min.js")).toEqual([]);
    expect(minifiedTwinsOf("src/app.ts")).toEqual([]);
    expect(minifiedTwinsOf("app/models.py")).toEqual([]);
  });
});

describe("a minified twin committed beside its source", () => {
  const TASK = "highlight sql keywords in upper case";

  it("follows its source in the ranking at the source's relevance times its share of the source's commits, and stays out of the context", async () => {
    const root = grammarRepo();
    const result = await retrieve(TASK, { root });
    const paths = result.files.map((f) => f.path);
    const source = result.files.find((f) => f.path === "components/sql.js")!;
    const twin = result.files.find((f) => f.path === "components/sql.min.js");
    expect(source).toBeDefined();
    // 4 of the grammar's 5 commits changed the twin: 4 / (5 + 1)
    expect(twin).toMatchObject({ reason: "minified build of components/sql.js: changed with it in 4 of its 5 commits", tokens: 0 });
    expect(twin!.relevance).toBeCloseTo(Math.round(source.relevance * (4 / 6) * 1000) / 1000, 3);
    expect(paths.indexOf("components/sql.min.js")).toBeGreaterThan(paths.indexOf("components/sql.js"));
    expect(result.context).not.toContain("components/sql.min.js");
    // the renderers take a ranked file the graph does not hold
    expect(renderText(result)).toContain("components/sql.min.js");
    expect(JSON.parse(renderJson(result)).files.some((f: { path: string }) => f.path === "components/sql.min.js")).toBe(true);
  });

  it("is left out without history, when its source's commits never changed it since, or when it is a link", async () => {
    const root = grammarRepo();
    const without = await retrieve(TASK, { root, history: false });
    expect(without.files.map((f) => f.path)).not.toContain("components/sql.min.js");
    // the YAML twin changed with its grammar in the first of its 3 commits only (rebuilt once, then left): a quarter
    const yaml = await retrieve("yaml keyword", { root });
    const yamlTwin = yaml.files.find((f) => f.path === "components/yaml.min.js");
    const yamlSource = yaml.files.find((f) => f.path === "components/yaml.js")!;
    expect(yamlTwin?.reason).toBe("minified build of components/yaml.js: changed with it in 1 of its 3 commits");
    expect(yamlTwin!.relevance).toBeCloseTo(Math.round(yamlSource.relevance * 0.25 * 1000) / 1000, 3);
    // a link in the twin's place (it could lead anywhere): not a twin
    rmSync(join(root, "components", "sql.min.js"));
    symlinkSync("/etc/hostname", join(root, "components", "sql.min.js"));
    const linked = await retrieve(TASK, { root });
    expect(linked.files.map((f) => f.path)).not.toContain("components/sql.min.js");
  });
});

describe("builtTwins", () => {
  it("asks only about the twins of the best files that the index does not hold, and skips a twin its source never changed with", () => {
    const ranked = [
      { path: "a.js", relevance: 0.8, score: 2, reason: "", missingContext: [], matchedTerms: [] },
      { path: "b.js", relevance: 0.5, score: 1, reason: "", missingContext: [], matchedTerms: [] },
      { path: "c.ts", relevance: 0.4, score: 0.5, reason: "", missingContext: [], matchedTerms: [] },
    ];
    const asked: string[] = [];
    const twins = builtTwins(ranked, {
      isIndexed: (path) => path === "b.min.js",
      isFile: (path) => (asked.push(path), path.endsWith(".min.js")),
      commits: (source) => (source === "a.js" ? { changed: 9, together: 9 } : { changed: 3, together: 0 }),
    });
    expect(twins.map((t) => [t.path, t.relevance])).toEqual([["a.min.js", 0.72]]);
    // b.min.js is indexed: never stat'ed; c.ts has no twin
    expect(asked).toEqual(["a.min.js", "a-min.js", "b-min.js"]);
  });
});
