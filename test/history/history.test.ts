/**
 * The history stage on throwaway git repositories built here, commit by
 * commit, with known co-changes and words.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EVIDENCE_FILE, evidenceKey, readEvidence } from "../../src/history/evidence-store.js";
import { currentPaths, evidenceNumbers, fileHistory, vocabularyOf } from "../../src/history/file-history.js";
import { parseGitLog } from "../../src/history/git-history.js";
import { HISTORY_FILE, numberedPaths, refreshHistory } from "../../src/history/history-index.js";
import { messageTerms } from "../../src/history/message-terms.js";
import { cochangeEdges, createRetriever, retrieve, type GraphJson } from "../../src/index.js";
import { GIT_ENV, git } from "../support/git.js";
import { runCliInProcess } from "../support/run-cli.js";

const scratch: string[] = [];
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
});


/** A repository; each commit writes the given files (path → text) with the message, a day apart. */
function makeRepo(commits: Array<{ message: string; files: Record<string, string>; rename?: [string, string] }>): string {
  const root = mkdtempSync(join(tmpdir(), "gr-history-"));
  scratch.push(root);
  git(root, "init", "-q", "-b", "main");
  commits.forEach((commit, i) => {
    if (commit.rename) git(root, "mv", commit.rename[0], commit.rename[1]);
    for (const [path, text] of Object.entries(commit.files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
      git(root, "add", path);
    }
    const date = `${1700000000 + i * 86400} +0000`;
    execFileSync("git", ["commit", "-q", "-m", commit.message], { cwd: root, env: { ...GIT_ENV, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } });
  });
  return root;
}

const exportOf = (name: string) => `export function ${name}(): number {\n  return 1;\n}\n`;

/** router.ts and history.ts change together twice ("hydration" both times); store.ts changes alone. */
function routerRepo(): string {
  return makeRepo([
    { message: "initial", files: { "src/router.ts": exportOf("route"), "src/history.ts": exportOf("push"), "src/store.ts": exportOf("get") } },
    { message: "fix hydration mismatch in the router", files: { "src/router.ts": exportOf("route2"), "src/history.ts": exportOf("push2") } },
    { message: "store: keep values", files: { "src/store.ts": exportOf("get2") } },
    { message: "hydration: restore scroll", files: { "src/router.ts": exportOf("route3"), "src/history.ts": exportOf("push3") } },
  ]);
}

describe("reading the history", () => {
  it("parses git's log: hashes, times, messages, changed paths and renames", () => {
    const text = "\u0001" + "a".repeat(40) + "\u00021700000000\u0002fix: a\n\nbody\u0003\0\nM\0src/a.ts\0R100\0src/old.ts\0src/new.ts\0";
    const [commit] = parseGitLog(text, true);
    expect(commit).toEqual({ hash: "a".repeat(40), time: 1700000000, message: "fix: a\n\nbody", paths: ["src/a.ts", "src/new.ts"], renames: [["src/old.ts", "src/new.ts"]] });
  });

  it("parses a log whose read was stopped: the commit cut short is dropped, the ones before it kept whole", () => {
    const a = "a".repeat(40);
    const b = "b".repeat(40);
    const text = `\u0001${a}\u00021700000100\u0002two\u0003\0\nC075\0src/x.ts\0src/y.ts\0D\0src/gone.ts\0\u0001${b}\u00021700000000\u0002one\u0003\0\nA\0src/x.ts\0A\0src/z.ts`;
    const older = { hash: b, time: 1700000000, message: "one", paths: ["src/x.ts", "src/z.ts"], renames: [] };
    const newer = { hash: a, time: 1700000100, message: "two", paths: ["src/y.ts", "src/gone.ts"], renames: [] };
    expect(parseGitLog(text, true)).toEqual([newer, older]);
    // stopped: the last commit's list may be cut short (here after src/x.ts), so it is dropped
    expect(parseGitLog(text, false)).toEqual([newer]);
    expect(parseGitLog(text.slice(0, text.indexOf("\u0001", 1)), false)).toEqual([]);
  });

  it("keeps a message's code-aware terms and Chinese character pairs, not its trailers", () => {
    expect(messageTerms("fix hydrationMismatch\n\nCo-authored-by: A <a@b.c>")).toEqual(["fix", "hydration", "mismatch"]);
    expect(messageTerms("修复排序")).toEqual(["zh:修复", "zh:复排", "zh:排序"]);
  });

  it("weighs co-change and the vocabulary field from the commits", async () => {
    const root = routerRepo();
    const refreshed = (await refreshHistory(root))!;
    expect(refreshed.read).toMatchObject({ read: 4, how: "fresh" });
    expect(refreshed.history.commits.map((c) => c.terms[0])).toEqual(["hydration", "stor", "fix", "initial"]);
    const evidence = fileHistory(refreshed.history, () => true);
    // router and history changed together in three commits, store with them only in the first
    const router = evidence.cochange.get("src/router.ts")!;
    expect(router.get("src/history.ts")).toBeGreaterThan(router.get("src/store.ts") ?? 0);
    expect(evidence.changes.get("src/router.ts")).toBe(3);
    expect(evidence.daysSinceChange.get("src/router.ts")).toBe(0);
    expect(evidence.daysSinceChange.get("src/store.ts")).toBe(1);
    // the words of the commits that changed each file
    const hydration = vocabularyOf(evidence, ["hydration"]).weights.get("hydration")!;
    expect(hydration.get("src/router.ts")).toBeGreaterThan(0);
    expect(hydration.has("src/store.ts")).toBe(false);
    expect(cochangeEdges(evidence).map((e) => `${e.source}~${e.target}`)).toContain("src/history.ts~src/router.ts");
  });

  it("follows a rename: the file's history before it counts under its new name", async () => {
    const root = makeRepo([
      { message: "add the token check", files: { "src/tokens.ts": exportOf("check"), "src/auth.ts": exportOf("login") } },
      { message: "expiry of the token", files: { "src/tokens.ts": exportOf("check2"), "src/auth.ts": exportOf("login2") } },
      { message: "rename the tokens module", files: {}, rename: ["src/tokens.ts", "src/access-tokens.ts"] },
    ]);
    const { history } = (await refreshHistory(root))!;
    expect(currentPaths(history).at(-1)).toEqual(expect.arrayContaining(["src/access-tokens.ts", "src/auth.ts"]));
    const evidence = fileHistory(history, (p) => p !== "src/tokens.ts");
    expect(evidence.changes.get("src/access-tokens.ts")).toBe(3);
    expect(vocabularyOf(evidence, ["expir"]).weights.get("expir")?.get("src/access-tokens.ts")).toBeGreaterThan(0);
    expect(evidence.cochange.get("src/access-tokens.ts")?.get("src/auth.ts")).toBeGreaterThan(0);
  });

  it("keeps the history in history.json as it was read (each path and term once), and reads a damaged file afresh", async () => {
    const root = makeRepo([
      { message: "add the token check", files: { "src/tokens.ts": exportOf("check"), "src/auth.ts": exportOf("login") } },
      { message: "expiry of the token", files: { "src/tokens.ts": exportOf("check2") } },
      { message: "rename the tokens module", files: {}, rename: ["src/tokens.ts", "src/access-tokens.ts"] },
    ]);
    const cacheDir = join(root, "..", `${root.split("/").pop()}-cache`);
    scratch.push(cacheDir);
    const read = (await refreshHistory(root, { cacheDir }))!;
    const stored = JSON.parse(readFileSync(join(cacheDir, HISTORY_FILE), "utf8")) as { history: { strings: string[] } };
    // "src/tokens.ts" is named by all three commits, once in the file
    expect(stored.history.strings.filter((s) => s === "src/tokens.ts")).toHaveLength(1);
    const kept = (await refreshHistory(root, { cacheDir }))!;
    expect(kept.read.how).toBe("kept");
    expect(kept.history).toEqual(read.history);
    expect(kept.history.commits[0]!.renames).toEqual([["src/tokens.ts", "src/access-tokens.ts"]]);
    // the evidence of the history as stored (its paths numbered by the file's string table) is the evidence of the one git gave
    const evidenceOf = (history: typeof read.history) => {
      const e = fileHistory(history, (p) => p !== "src/tokens.ts");
      return { changes: [...e.changes], cochange: [...e.cochange].map(([p, row]) => [p, [...row]]), files: e.commitFiles, vocabulary: vocabularyOf(e, ["token", "expir"]).weights };
    };
    expect(evidenceOf(kept.history)).toEqual(evidenceOf(read.history));
    expect(evidenceOf(kept.history).changes).toEqual([["src/access-tokens.ts", 3], ["src/auth.ts", 1]]);
    // the commit vocabulary's index, asked term by term: which commits (newest first) say it, and how many
    for (const history of [kept.history, read.history]) {
      const e = fileHistory(history, (p) => p !== "src/tokens.ts");
      expect([e.termCommits.get("token"), e.commitFrequency.get("token")]).toEqual([[0, 1, 2], 3]);
      expect([e.termCommits.get("expir"), e.commitFrequency.get("expir")]).toEqual([[1], 1]);
      expect([e.termCommits.get("src/auth.ts"), e.commitFrequency.get("hydration")]).toEqual([undefined, undefined]);
    }
    // a number that names no string: read from git again, not trusted
    writeFileSync(join(cacheDir, HISTORY_FILE), readFileSync(join(cacheDir, HISTORY_FILE), "utf8").replace(/\[(\d+),(\d+)\]\]/, "[$1,99999]]"));
    expect((await refreshHistory(root, { cacheDir }))!.read.how).toBe("fresh");
  });

  it("writes history.json in ASCII, and a message and a path past ASCII read back as they were", async () => {
    const root = makeRepo([
      { message: "修复令牌的过期检查 token expiry", files: { "src/令牌.ts": exportOf("check") } },
      { message: "café: accents in a message", files: { "src/auth.ts": exportOf("login") } },
    ]);
    const cacheDir = join(root, "..", `${root.split("/").pop()}-cache`);
    scratch.push(cacheDir);
    const read = (await refreshHistory(root, { cacheDir }))!;
    expect(read.history.commits.map((c) => c.paths)).toEqual([["src/auth.ts"], ["src/令牌.ts"]]);
    const bytes = readFileSync(join(cacheDir, HISTORY_FILE));
    expect(bytes.every((byte) => byte < 0x80)).toBe(true);
    const kept = (await refreshHistory(root, { cacheDir }))!;
    expect(kept.read.how).toBe("kept");
    expect(kept.history).toEqual(read.history);
    expect(kept.history.commits[1]!.terms.some((term) => /[\u4e00-\u9fff]/.test(term))).toBe(true);
    // one written before, in raw UTF-8, reads back the same
    writeFileSync(join(cacheDir, HISTORY_FILE), JSON.stringify(JSON.parse(bytes.toString("latin1"))));
    expect(readFileSync(join(cacheDir, HISTORY_FILE)).some((byte) => byte >= 0x80)).toBe(true);
    const again = (await refreshHistory(root, { cacheDir }))!;
    expect(again.read.how).toBe("kept");
    expect(again.history).toEqual(read.history);
  });

  it("adds only the new commits when HEAD moved forward, and reads afresh after a rewrite", async () => {
    const root = routerRepo();
    const cacheDir = join(root, "..", `${root.split("/").pop()}-cache`);
    scratch.push(cacheDir);
    expect((await refreshHistory(root, { cacheDir }))!.read).toMatchObject({ read: 4, how: "fresh" });
    expect(readFileSync(join(cacheDir, HISTORY_FILE), "utf8").startsWith('{"header":{"format":"graph-retrieve-index"')).toBe(true);
    expect((await refreshHistory(root, { cacheDir }))!.read).toMatchObject({ read: 0, how: "kept" });
    writeFileSync(join(root, "src", "store.ts"), exportOf("get3"));
    git(root, "commit", "-q", "-am", "store: evict old values");
    const added = (await refreshHistory(root, { cacheDir }))!;
    expect(added.read).toMatchObject({ read: 1, how: "added" });
    expect(added.history.commits).toHaveLength(5);
    // rewrite: the last two commits replaced by another
    git(root, "reset", "-q", "--hard", "HEAD~2");
    writeFileSync(join(root, "src", "store.ts"), exportOf("get4"));
    git(root, "commit", "-q", "-am", "store: a different past");
    const rewritten = (await refreshHistory(root, { cacheDir }))!;
    expect(rewritten.read.how).toBe("fresh");
    expect(rewritten.history.commits.map((c) => c.terms.slice(0, 2).join(" "))).toEqual(["stor different", "stor keep", "fix hydration", "initial"]);
  });

  it("a clone missing a blob reads exact renames only, and a history brought up to date is the one a fresh read gives", async () => {
    // notes.txt's blob is missing, as a partial clone lacks some: a read whose range holds a commit that removes it and
    // adds another file (a rename candidate: git must compare their contents) cannot find inexact renames
    const root = makeRepo([
      { message: "add the token check", files: { "notes.txt": "x\n".repeat(300), "src/tokens.ts": exportOf("check"), "src/auth.ts": exportOf("login") } },
      { message: "expiry of the token", files: { "src/tokens.ts": exportOf("check2") } },
    ]);
    const blob = git(root, "rev-parse", "HEAD:notes.txt").trim();
    rmSync(join(root, ".git", "objects", blob.slice(0, 2), blob.slice(2)));
    const commit = (message: string, change: () => void) => {
      change();
      git(root, "add", "-A");
      git(root, "commit", "-q", "-m", message);
    };
    const freshRead = async () => (await refreshHistory(root))!.history;
    const cacheDir = join(root, "..", `${root.split("/").pop()}-cache`);
    scratch.push(cacheDir);

    // nothing in the range needs the blob yet: all renames
    expect((await refreshHistory(root, { cacheDir }))!.history.exactRenames).toBe(false);
    commit("drop the notes", () => {
      rmSync(join(root, "notes.txt"));
      writeFileSync(join(root, "docs.txt"), "y\n".repeat(300));
    });
    // the new commit needs it: the history is read again, exact renames only, as a fresh read from HEAD reads it
    const fellBack = (await refreshHistory(root, { cacheDir }))!;
    expect(fellBack.read.how).toBe("fresh");
    expect(fellBack.history.exactRenames).toBe(true);
    expect(fellBack.history).toEqual(await freshRead());

    // tokens.ts moved with an edit: git finds the rename in that commit alone, but a fresh read from HEAD cannot, and
    // neither does the history brought up to date
    commit("rename the tokens module", () => {
      git(root, "mv", "src/tokens.ts", "src/access-tokens.ts");
      writeFileSync(join(root, "src", "access-tokens.ts"), `${exportOf("check2")}export const extra = 1;\n`);
    });
    expect(git(root, "log", "-1", "-M", "--name-status", "--format=")).toMatch(/^R\d+\tsrc\/tokens\.ts\tsrc\/access-tokens\.ts/m);
    const added = (await refreshHistory(root, { cacheDir }))!;
    expect(added.read).toMatchObject({ how: "added", read: 1 });
    expect(added.history).toEqual(await freshRead());
    expect(added.history.commits[0]!.renames).toEqual([]);

    // once "drop the notes" leaves the window (the last 2 commits here), a fresh read finds all renames again; so does
    // the history brought up to date, read afresh as its oldest commits leave
    commit("auth becomes session", () => {
      git(root, "mv", "src/auth.ts", "src/session.ts");
      writeFileSync(join(root, "src", "session.ts"), `${exportOf("login")}export const kept = 2;\n`);
    });
    const windowed = (await refreshHistory(root, { cacheDir, maxCommits: 2 }))!;
    expect(windowed.read.how).toBe("fresh");
    expect(windowed.history).toEqual((await refreshHistory(root, { maxCommits: 2 }))!.history);
    expect(windowed.history.exactRenames).toBe(false);
    expect(windowed.history.commits.map((c) => c.renames)).toEqual([[["src/auth.ts", "src/session.ts"]], [["src/tokens.ts", "src/access-tokens.ts"]]]);
  });

  it("reads a shallow clone's history as far as it goes, and says so", async () => {
    const origin = routerRepo();
    const clone = mkdtempSync(join(tmpdir(), "gr-shallow-"));
    scratch.push(clone);
    git(tmpdir(), "clone", "-q", "--depth", "2", `file://${origin}`, clone);
    const { history } = (await refreshHistory(clone))!;
    expect(history.shallow).toBe(true);
    expect(history.commits.length).toBeLessThanOrEqual(2);
    const result = await retrieve("hydration in the router", { root: clone });
    expect(result.stats.history).toMatchObject({ shallow: true });
  });

  it("reads nothing without a git binary (PATH emptied), and fails nothing", async () => {
    const root = routerRepo();
    const path = process.env.PATH;
    process.env.PATH = "";
    try {
      expect(await refreshHistory(root)).toBeUndefined();
    } finally {
      process.env.PATH = path;
    }
  });

  it("reads no history through a .git file that points outside the root", async () => {
    const main = routerRepo();
    const worktree = join(mkdtempSync(join(tmpdir(), "gr-wt-")), "tree");
    scratch.push(dirname(worktree));
    git(main, "worktree", "add", "-q", worktree);
    expect(readFileSync(join(worktree, ".git"), "utf8")).toMatch(/^gitdir: /);
    expect(await refreshHistory(worktree)).toBeUndefined();
    const result = await retrieve("hydration in the router", { root: worktree });
    expect(result.stats.history).toBeUndefined();
  });
});

describe("reading beside the graph's build", () => {
  /** A promise and its settle, standing for a graph's build. */
  function build(): { graphBuilt: Promise<boolean>; settle: (built: boolean) => void } {
    let settle: (built: boolean) => void = () => undefined;
    const graphBuilt = new Promise<boolean>((resolve) => (settle = resolve));
    return { graphBuilt, settle };
  }

  it("writes the history only once the graph is built (whose index claims the folder first)", async () => {
    const root = routerRepo();
    const cacheDir = join(root, "..", `${root.split("/").pop()}-cache`);
    scratch.push(cacheDir);
    const { graphBuilt, settle } = build();
    const refreshing = refreshHistory(root, { cacheDir, graphBuilt });
    // git reads the 4 commits in milliseconds: the read is done, its write waits for the build
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(existsSync(join(cacheDir, HISTORY_FILE))).toBe(false);
    settle(true);
    const refreshed = (await refreshing)!;
    expect(refreshed.read).toMatchObject({ read: 4, how: "fresh" });
    expect(refreshed.history.truncated).toBe(false);
    expect(existsSync(join(cacheDir, HISTORY_FILE))).toBe(true);
    // the same history a read alone gives
    expect(refreshed.history).toEqual((await refreshHistory(root))!.history);
  });

  it("abandons the read when the build fails: no history, nothing written", async () => {
    const root = routerRepo();
    const cacheDir = join(root, "..", `${root.split("/").pop()}-cache`);
    scratch.push(cacheDir);
    const { graphBuilt, settle } = build();
    const refreshing = refreshHistory(root, { cacheDir, graphBuilt });
    settle(false);
    expect(await refreshing).toBeUndefined();
    expect(existsSync(cacheDir)).toBe(false);
  });

  it("index into a folder holding someone else's index.json writes no history there either (nor tags it)", () => {
    const root = routerRepo();
    const cacheDir = join(root, "..", `${root.split("/").pop()}-theirs`);
    scratch.push(cacheDir);
    mkdirSync(cacheDir);
    writeFileSync(join(cacheDir, "index.json"), '{"mine": true}\n');
    const cli = join(dirname(new URL(import.meta.url).pathname), "..", "..", "dist", "cli", "main.js");
    const run = spawnSync(process.execPath, [cli, "index", "--root", root, "--cache-dir", cacheDir, "-q"], { encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^graph-retrieve index: nothing was indexed: /);
    expect(readdirSync(cacheDir)).toEqual(["index.json"]);
    expect(readFileSync(join(cacheDir, "index.json"), "utf8")).toBe('{"mine": true}\n');
  });

  it("counts the time limit from the build's end: the time the read shared with the build is not cut", async () => {
    const root = routerRepo();
    // alone, a limit of 0 ms stops git before it says anything
    expect((await refreshHistory(root, { timeoutMs: 0 }))!.history).toMatchObject({ truncated: true });
    // beside a build that takes longer than git: the read was done before the clock started
    const { graphBuilt, settle } = build();
    const refreshing = refreshHistory(root, { timeoutMs: 0, graphBuilt });
    setTimeout(() => settle(true), 1500);
    const refreshed = (await refreshing)!;
    expect(refreshed.history).toMatchObject({ truncated: false });
    expect(refreshed.history.commits).toHaveLength(4);
  });
});

describe("history in a retrieval", () => {
  it("says what past changes to a file said, and reads no history with history: false", async () => {
    const root = routerRepo();
    const retriever = await createRetriever({ root });
    expect(retriever.history?.index.commits).toHaveLength(4);
    const result = await retriever.retrieve("hydration breaks");
    expect(result.stats.history).toEqual({ commits: 4, shallow: false, truncated: false });
    const router = result.files.find((f) => f.path === "src/router.ts")!;
    expect(router.reason).toContain("past changes to this file say: hydration");
    const without = await retrieve("hydration breaks", { root, history: false });
    expect(without.stats.history).toBeUndefined();
    expect(without.files.some((f) => f.reason.includes("past changes"))).toBe(false);
  });

  it("depends only on commits that are ancestors of the checked-out HEAD", async () => {
    const root = routerRepo();
    const before = await retrieve("restore scroll", { root, history: true });
    // a later commit on another branch, and HEAD back where it was: nothing of it may count
    git(root, "checkout", "-q", "-b", "later");
    writeFileSync(join(root, "src", "store.ts"), exportOf("scrollRestore"));
    git(root, "commit", "-q", "-am", "restore scroll in the store");
    git(root, "checkout", "-q", "main");
    const after = await retrieve("restore scroll", { root, history: true });
    expect(after.files.map((f) => [f.path, f.relevance])).toEqual(before.files.map((f) => [f.path, f.relevance]));
  });

  it("graph prints the co-change edges of the history read beside its build, none with --no-history", async () => {
    const root = routerRepo();
    const cacheDir = join(root, "..", `${root.split("/").pop()}-cache`);
    scratch.push(cacheDir);
    const graph = async (...args: string[]) => {
      const run = await runCliInProcess(["graph", "--root", root, "--cache-dir", cacheDir, "--format", "json", "-q", ...args]);
      expect(run.code).toBe(0);
      return (JSON.parse(run.stdout) as GraphJson).edges.filter((e) => e.kind === "cochange").map((e) => `${e.source}~${e.target}`);
    };
    expect(await graph()).toEqual(["src/history.ts~src/router.ts"]);
    // written beside the graph's index, and kept by the next run
    expect(existsSync(join(cacheDir, HISTORY_FILE))).toBe(true);
    expect(await graph()).toEqual(["src/history.ts~src/router.ts"]);
    expect(await graph("--no-history")).toEqual([]);
  });

  it("keeps the file evidence's numbers in the store for the history and file set they were made from, and makes them again when either changes or the file is damaged", async () => {
    const root = routerRepo();
    const cacheDir = join(root, "..", `${root.split("/").pop()}-cache`);
    scratch.push(cacheDir);
    const task = "hydration breaks";
    const answer = (result: Awaited<ReturnType<typeof retrieve>>) => result.files.map((f) => [f.path, f.relevance, f.reason]);
    const inMemory = answer(await retrieve(task, { root }));
    const first = await createRetriever({ root, cacheDir });
    const history = first.history!.index;
    const files = first.codeGraph.files;
    // what the first run stored is what the pass makes, under the key of this history and file set
    const key = evidenceKey(history, files.keys());
    const made = evidenceNumbers(history, (path) => files.has(path));
    expect(readEvidence(cacheDir, key, history)).toEqual(made);
    expect(made.fileIds.length).toBe(3);
    expect(answer(await first.retrieve(task))).toEqual(inMemory);
    // a second run reads them, and leaves the file as it was
    const path = join(cacheDir, EVIDENCE_FILE);
    const stored = readFileSync(path, "latin1");
    expect(answer(await retrieve(task, { root, cacheDir }))).toEqual(inMemory);
    expect(readFileSync(path, "latin1")).toBe(stored);
    // it reads them indeed: numbers that give store.ts router.ts's past (a valid checksum) make its reason say so
    const [head, body] = [stored.slice(0, stored.indexOf("\n")), stored.slice(stored.indexOf("\n") + 1)];
    const numbers = JSON.parse(body) as typeof made;
    const { names } = numberedPaths(history);
    const routerAt = made.fileIds.findIndex((id) => names[id] === "src/router.ts");
    const storeAt = made.fileIds.findIndex((id) => names[id] === "src/store.ts");
    [numbers.fileIds[routerAt], numbers.fileIds[storeAt]] = [made.fileIds[storeAt]!, made.fileIds[routerAt]!];
    const swapped = JSON.stringify(numbers);
    writeFileSync(path, `${head.replace(/"body":"[0-9a-f]+"/, `"body":"${createHash("sha1").update(swapped).digest("hex")}"`)}\n${swapped}`);
    const misled = await retrieve(task, { root, cacheDir });
    expect(misled.files.find((f) => f.path === "src/store.ts")?.reason).toContain("past changes to this file say: hydration");
    expect(inMemory.find(([p]) => p === "src/store.ts")?.[2]).not.toContain("past changes to this file say: hydration");
    // a damaged body fails its checksum: made again, the same answer, and the file written whole again
    writeFileSync(path, stored.replace(/"changes":\[(\d)/, (_, d: string) => `"changes":[${(Number(d) + 1) % 10}`));
    expect(readEvidence(cacheDir, key, history)).toBeUndefined();
    expect(answer(await retrieve(task, { root, cacheDir }))).toEqual(inMemory);
    expect(readFileSync(path, "latin1")).toBe(stored);
    // another file set (a file added): another key, numbers made again for it
    writeFileSync(join(root, "src", "scroll.ts"), exportOf("restoreScroll"));
    const second = await createRetriever({ root, cacheDir });
    const secondKey = evidenceKey(second.history!.index, second.codeGraph.files.keys());
    expect(secondKey).not.toBe(key);
    expect(readEvidence(cacheDir, key, history)).toBeUndefined();
    expect(readEvidence(cacheDir, secondKey, second.history!.index)).toEqual(evidenceNumbers(second.history!.index, (p) => second.codeGraph.files.has(p)));
    // another history (a commit): another key
    git(root, "add", "src/scroll.ts");
    git(root, "commit", "-q", "-m", "scroll: restore it");
    const third = await createRetriever({ root, cacheDir });
    expect(third.history!.index.commits).toHaveLength(5);
    expect(evidenceKey(third.history!.index, third.codeGraph.files.keys())).not.toBe(secondKey);
    expect(answer(await third.retrieve(task))).toEqual(answer(await retrieve(task, { root })));
  });

  it("--no-history on the command line reads none", () => {
    const root = routerRepo();
    const cli = join(dirname(new URL(import.meta.url).pathname), "..", "..", "dist", "cli", "main.js");
    const run = (...args: string[]) => JSON.parse(spawnSync(process.execPath, [cli, "hydration breaks", "--root", root, "--format", "json", "-q", "--no-cache", ...args], { encoding: "utf8" }).stdout) as { stats: { history?: unknown } };
    expect(run().stats.history).toEqual({ commits: 4, shallow: false, truncated: false });
    expect(run("--no-history").stats.history).toBeUndefined();
  });
});
