/**
 * The config file: graph-retrieve.config.json or package.json "graph-retrieve"
 * read from the root, flags on top, and one line naming the key for every
 * invalid value (exit 2). Runs the CLI in-process on a tmp copy of
 * fixtures/auth-service.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/fixtures.js";
import { runCliInProcess } from "../support/run-cli.js";
import { checkConfig, configToRetrieveOptions, loadConfig, type GraphJson, type RetrievalResult } from "../../src/index.js";

const FIXTURE = join(REPO_ROOT, "fixtures", "auth-service");
const TASK = "Fix the authentication token expiry bug";
const ALLOWED = "allowed: include, exclude, alsoInclude, maxCycles, budget, strategy, thesaurus, glossary, history";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A fresh copy of the auth-service fixture, with a config file and/or package.json key. */
function makeRoot(setup: { file?: unknown; fileText?: string; packageKey?: unknown; packageText?: string } = {}): string {
  const root = mkdtempSync(join(tmpdir(), "gr-config-"));
  roots.push(root);
  cpSync(FIXTURE, root, { recursive: true });
  if (setup.fileText !== undefined) writeFileSync(join(root, "graph-retrieve.config.json"), setup.fileText);
  else if (setup.file !== undefined) writeFileSync(join(root, "graph-retrieve.config.json"), JSON.stringify(setup.file));
  if (setup.packageText !== undefined) writeFileSync(join(root, "package.json"), setup.packageText);
  else if (setup.packageKey !== undefined) {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Record<string, unknown>;
    writeFileSync(join(root, "package.json"), JSON.stringify({ ...pkg, "graph-retrieve": setup.packageKey }, null, 2));
  }
  return root;
}

async function cli(...argv: string[]): Promise<{ code: number; stdout: string; errLines: string[] }> {
  const { code, stdout, stderr } = await runCliInProcess(argv);
  return { code, stdout, errLines: stderr.split("\n").filter((line) => line !== "") };
}

async function retrieveJson(root: string, ...flags: string[]): Promise<RetrievalResult> {
  const run = await cli(TASK, "--root", root, "--format", "json", "--quiet", ...flags);
  expect(run.errLines).toEqual([]);
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as RetrievalResult;
}

describe("a valid config", () => {
  it("graph-retrieve.config.json sets budget, strategy and cycles", async () => {
    const root = makeRoot({ file: { budget: 5000, strategy: "bm25", maxCycles: 1 } });
    const result = await retrieveJson(root);
    expect(result.stats.budgetTokens).toBe(5000);
    expect(result.stats.strategy).toBe("bm25");
  });

  it("maxCycles caps the loop", async () => {
    const result = await retrieveJson(makeRoot({ file: { maxCycles: 1 } }));
    expect(result.cycles).toHaveLength(1);
    expect(result.stats.strategy).toBe("graph");
  });

  it('package.json "graph-retrieve" works the same, for retrieval and for graph', async () => {
    const root = makeRoot({ packageKey: { exclude: ["src/db/**", "src/routes/**"], budget: 6000 } });
    const result = await retrieveJson(root);
    expect(result.stats.budgetTokens).toBe(6000);
    expect(result.files.length).toBeGreaterThan(0);
    expect(result.files.filter((f) => /^src\/(db|routes)\//.test(f.path))).toEqual([]);
    const graph = await cli("graph", "--root", root, "--format", "json", "--quiet");
    expect(graph.code).toBe(0);
    const files = (JSON.parse(graph.stdout) as GraphJson).nodes.filter((n) => n.kind === "file").map((n) => n.id);
    expect(files).toContain("src/auth/tokens.ts");
    expect(files.filter((f) => /^src\/(db|routes)\//.test(f))).toEqual([]);
  });

  it("flags override the config: --budget, --strategy, --include replace its values", async () => {
    const root = makeRoot({ file: { budget: 5000, strategy: "bm25", include: ["src/auth/**"] } });
    const configured = await retrieveJson(root);
    expect(configured.files.every((f) => f.path.startsWith("src/auth/"))).toBe(true);
    const overridden = await retrieveJson(root, "--budget", "7000", "--strategy", "graph", "--include", "src/routes/**");
    expect(overridden.stats.budgetTokens).toBe(7000);
    expect(overridden.stats.strategy).toBe("graph");
    expect(overridden.files.length).toBeGreaterThan(0);
    expect(overridden.files.every((f) => f.path.startsWith("src/routes/"))).toBe(true);
  });

  it("thesaurus additions reach refine: a made-up word finds the code through its group", async () => {
    const task = "Fix the wombat expiry bug";
    const plain = JSON.parse((await cli(task, "--root", makeRoot(), "--format", "json", "-q")).stdout) as RetrievalResult;
    expect(plain.cycles[0]?.vocabulary ?? []).not.toContain("refresh (thesaurus: wombat)");
    const root = makeRoot({ file: { thesaurus: { wombat: ["wombat", "refresh token"] } } });
    const run = await cli(task, "--root", root, "--format", "json", "-q");
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as RetrievalResult;
    expect(result.cycles[0]?.vocabulary).toEqual(expect.arrayContaining(["refresh (thesaurus: wombat)", "token (thesaurus: wombat)"]));
    expect(result.files.slice(0, 3).map((f) => f.path)).toContain("src/auth/tokens.ts");
  });

  it("glossary additions reach the task parser: a new Chinese word becomes its English keyword", async () => {
    const task = "修复袋熊过期";
    const plain = JSON.parse((await cli(task, "--root", makeRoot(), "--format", "json", "-q")).stdout) as RetrievalResult;
    expect(plain.cycles[0]?.keywords).not.toContain("session");
    const root = makeRoot({ packageKey: { glossary: { 袋熊: ["session"] } } });
    const result = JSON.parse((await cli(task, "--root", root, "--format", "json", "-q")).stdout) as RetrievalResult;
    expect(result.cycles[0]?.keywords).toContain("session");
    expect(result.files[0]?.path).toBe("src/auth/session-manager.ts");
  });

  it("loadConfig: none → undefined; a package.json that is not JSON is not ours to judge", async () => {
    expect(await loadConfig(makeRoot())).toBeUndefined();
    expect(await loadConfig(makeRoot({ packageText: "{ not json" }))).toBeUndefined();
    const loaded = await loadConfig(makeRoot({ file: { budget: 100 } }));
    expect(loaded).toMatchObject({ source: "graph-retrieve.config.json", config: { budget: 100 } });
    expect(configToRetrieveOptions(loaded?.config)).toEqual({ budgetTokens: 100 });
    expect(checkConfig({}, "x")).toEqual({});
  });
});

describe("an invalid config: one line naming the key and what it allows, exit 2", () => {
  const F = "graph-retrieve.config.json";
  const P = 'package.json "graph-retrieve"';
  const cases: Array<[string, Parameters<typeof makeRoot>[0], string]> = [
    ["unknown key", { file: { maxCycle: 2 } }, `${F}: unknown key "maxCycle" (${ALLOWED})`],
    ["maxCycles 0", { file: { maxCycles: 0 } }, `${F}: "maxCycles" must be a positive whole number, got 0`],
    ["maxCycles as a string", { file: { maxCycles: "3" } }, `${F}: "maxCycles" must be a positive whole number, got "3"`],
    ["budget fractional", { file: { budget: 1.5 } }, `${F}: "budget" must be a positive whole number of tokens, got 1.5`],
    ["strategy unknown", { file: { strategy: "fast" } }, `${F}: "strategy" must be one of "graph", "bm25", "pagerank", got "fast"`],
    ["include a string", { file: { include: "src/**" } }, `${F}: "include" must be an array of root-relative globs (e.g. ["src/**"]), got "src/**"`],
    ["exclude with a number", { file: { exclude: ["dist/**", 3] } }, `${F}: "exclude" must be an array of root-relative globs (e.g. ["src/**"]), got ["dist/**",3]`],
    [
      "thesaurus group of one",
      { file: { thesaurus: { wombat: ["wombat"] } } },
      `${F}: "thesaurus": group "wombat" must be an array of at least 2 synonyms (fix the entry; data/README.md describes the format)`,
    ],
    [
      "glossary key not Chinese",
      { file: { glossary: { token: ["token"] } } },
      `${F}: "glossary": key "token" must be Chinese characters only (fix the entry; data/README.md describes the format)`,
    ],
    ["not an object", { file: [] }, `${F}: must be a JSON object with keys include, exclude, alsoInclude, maxCycles, budget, strategy, thesaurus, glossary, history, got []`],
    ["not JSON", { fileText: "{ budget: 1 }" }, expect.stringMatching(/^graph-retrieve\.config\.json: not valid JSON: .+ \(fix the syntax\)$/) as unknown as string],
    ["in both places", { file: { budget: 1 }, packageKey: { budget: 2 } }, `${F}: package.json has a "graph-retrieve" key too (keep the config in one place)`],
    ["package.json key invalid", { packageKey: { maxCycles: -1 } }, `${P}: "maxCycles" must be a positive whole number, got -1`],
    ["package.json key unknown", { packageKey: { budgetTokens: 100 } }, `${P}: unknown key "budgetTokens" (${ALLOWED})`],
  ];

  it.each(cases)("%s", async (_, setup, message) => {
    const root = makeRoot(setup);
    const run = await cli(TASK, "--root", root);
    expect(run.errLines).toEqual([message]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
  });

  it("graph fails the same way on an invalid config", async () => {
    const run = await cli("graph", "--root", makeRoot({ file: { exclude: "x" } }));
    expect(run.code).toBe(2);
    expect(run.errLines).toHaveLength(1);
    expect(run.errLines[0]).toMatch(/^graph-retrieve\.config\.json: "exclude" must be an array/);
  });
});
