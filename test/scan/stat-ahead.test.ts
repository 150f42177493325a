/**
 * Stats taken ahead by a worker (src/scan/stat-ahead.ts) and the list the
 * store writes for it (src/store/stat-list.ts), on a real tree of 2,000+
 * files and folders: the numbers are lstat's, a path they do not vouch for
 * is asked again, and a walk that takes them finds what a walk without
 * them finds, edits included.
 */
import { lstatSync, statSync } from "node:fs";
import { appendFile, mkdir, mkdtemp, readFile, realpath, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, type CliIo } from "../../src/cli/run-cli.js";
import { scanFiles, statAhead, statsAheadFor, STAT_AHEAD_MIN_PATHS, type FolderSnapshot } from "../../src/scan/index.js";
import { startStatsAheadEarly } from "../../src/scan/stat-ahead.js";
import { STAT_LIST_FILE } from "../../src/store/index.js";
import { saveStatList, statListOf } from "../../src/store/stat-list.js";

const made: string[] = [];
afterAll(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tempDir(prefix: string): Promise<string> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

/** 40 folders of 52 small modules each: 2,080 files and 41 folders, each file importing its neighbour. */
async function bigTree(): Promise<string> {
  const root = await tempDir("gr-ahead-");
  for (let f = 0; f < 40; f++) {
    await mkdir(join(root, `pkg${f}`));
    for (let i = 0; i < 52; i++) {
      const next = (i + 1) % 52;
      await writeFile(join(root, `pkg${f}`, `mod${i}.ts`), `import { value${next} } from "./mod${next}";\nexport const value${i} = ${i} + (value${next} ? 1 : 0);\n`);
    }
  }
  return root;
}

/** A walk of `root` with its folder snapshot, as an index keeps it. */
async function walked(root: string) {
  let snapshot: FolderSnapshot | undefined;
  const result = await scanFiles(root, {}, { folders: { found: (made) => void (snapshot = made.snapshot) } });
  const files = Object.fromEntries(result.files.map((file) => [file.path, { size: file.size, mtimeMs: file.mtimeMs }]));
  return { result, files, folders: { scanKey: "", snapshot: snapshot!, configNames: {} } };
}

let root: string;
let madeAt: number;
let cache: string;
let listFile: string;

beforeAll(async () => {
  root = await bigTree();
  madeAt = Date.now();
  cache = await tempDir("gr-ahead-cache-");
  listFile = join(cache, STAT_LIST_FILE);
  const { files, folders } = await walked(root);
  await saveStatList(cache, { files, folders });
}, 60_000);

describe("the list the store writes", () => {
  it("lists every folder the walk read (the root as '.') and every file, once there are enough of them", async () => {
    const lines = (await readFile(listFile, "utf8")).split("\n");
    expect(lines.length).toBe(41 + 2080);
    expect(lines).toContain(".");
    expect(lines).toContain("pkg7");
    expect(lines).toContain("pkg7/mod51.ts");
    expect(new Set(lines).size).toBe(lines.length);
  });

  it("lists each folder followed by the files its record names (the order a tree taken whole asks them), then the files no record names", () => {
    const folders = { scanKey: "", snapshot: { startedAt: 0, ignoreKey: "", folders: [["", 0, 0, 0, "a.ts"], ["src", 0, 0, 0, "b.ts", "c.ts"]] } as FolderSnapshot, configNames: {} };
    const files = Object.fromEntries(["a.ts", "src/b.ts", "src/c.ts", "linked/d.ts", ...Array.from({ length: STAT_AHEAD_MIN_PATHS }, (_, i) => `more/m${i}.ts`)].map((path) => [path, {}]));
    const lines = statListOf({ files, folders })!;
    expect(lines.slice(0, 6)).toEqual([".", "a.ts", "src", "src/b.ts", "src/c.ts", "linked/d.ts"]);
    expect(lines.length).toBe(5 + 1 + STAT_AHEAD_MIN_PATHS);
  });

  it("lists nothing for a small store, and removes the list a larger one left", async () => {
    const dir = await tempDir("gr-ahead-small-");
    await writeFile(join(dir, STAT_LIST_FILE), "a.ts\nb.ts");
    const small = { files: { "a.ts": {}, "b.ts": {} }, folders: { scanKey: "", snapshot: { startedAt: 0, ignoreKey: "", folders: [["", 0, 0, 0, "a.ts", "b.ts"]] } as FolderSnapshot, configNames: {} } };
    expect(statListOf(small)).toBeUndefined();
    await saveStatList(dir, small);
    await expect(readFile(join(dir, STAT_LIST_FILE), "utf8")).rejects.toThrow(/ENOENT/);
    expect(STAT_AHEAD_MIN_PATHS).toBeGreaterThan(2);
  });
});

describe("statAhead", () => {
  it("stats every listed path in the worker, with lstat's numbers", async () => {
    const run = statAhead(root, listFile)!;
    expect(run.paths).toBe(2121);
    // finish() not called yet: the worker takes every path
    expect(await run.worker).toBe(2121);
    const stats = run.finish()!;
    const file = lstatSync(join(root, "pkg3/mod9.ts"));
    expect(stats.file("pkg3/mod9.ts")).toEqual({ size: file.size, mtimeMs: file.mtimeMs });
    const folder = statSync(join(root, "pkg3"));
    expect(stats.folder("pkg3")).toEqual([folder.mtimeMs, folder.ctimeMs]);
    const top = statSync(root);
    expect(stats.folder("")).toEqual([top.mtimeMs, top.ctimeMs]);
    // a folder is no file, a file no folder
    expect(stats.file("pkg3")).toBeUndefined();
    expect(stats.folder("pkg3/mod9.ts")).toBeUndefined();
    expect(stats.file("not/listed.ts")).toBeUndefined();
    expect(stats.takenAt).toBeLessThanOrEqual(Date.now());
  });

  it("gives by line what it gives by path", async () => {
    const run = statAhead(root, listFile)!;
    const stats = run.finish();
    expect(stats.lines.length).toBe(2121);
    stats.lines.forEach((line, i) => {
      const path = line === "." ? "" : line;
      expect(stats.folderAt(i)).toEqual(stats.folder(path));
      expect(stats.fileAt(i)).toEqual(stats.file(path));
    });
    expect(stats.fileAt(2121)).toBeUndefined();
    expect(stats.folderAt(-1)).toBeUndefined();
  });

  it("gives the same numbers when this thread takes what the worker has not", async () => {
    const early = statAhead(root, listFile)!;
    const now = early.finish()!;
    const later = statAhead(root, listFile)!;
    await later.worker;
    const all = later.finish()!;
    for (const path of (await readFile(listFile, "utf8")).split("\n")) {
      const name = path === "." ? "" : path;
      expect(now.file(name)).toEqual(all.file(name));
      expect(now.folder(name)).toEqual(all.folder(name));
    }
    expect(await early.worker).toBeLessThanOrEqual(2121);
  });

  it("vouches for no link, no missing path and no path leaving the root", async () => {
    const dir = await tempDir("gr-ahead-odd-");
    await writeFile(join(dir, "real.ts"), "export const a = 1;\n");
    await symlink(join(dir, "real.ts"), join(dir, "link.ts"));
    await mkdir(join(dir, "sub"));
    await symlink(join(dir, "sub"), join(dir, "sublink"));
    const outside = await tempDir("gr-ahead-outside-");
    await writeFile(join(outside, "secret.ts"), "export const s = 1;\n");
    const list = join(dir, "list.txt");
    const filler = Array.from({ length: STAT_AHEAD_MIN_PATHS }, (_, i) => `missing${i}.ts`);
    await writeFile(list, ["real.ts", "link.ts", "sublink", `../${outside.split("/").pop()}/secret.ts`, `${outside}/secret.ts`, ...filler].join("\n"));
    const run = statAhead(dir, list)!;
    await run.worker;
    const stats = run.finish()!;
    expect(stats.file("real.ts")?.size).toBe(20);
    expect(stats.file("link.ts")).toBeUndefined();
    expect(stats.folder("sublink")).toBeUndefined();
    expect(stats.file(`../${outside.split("/").pop()}/secret.ts`)).toBeUndefined();
    expect(stats.file(`${outside}/secret.ts`)).toBeUndefined();
    expect(stats.file("missing0.ts")).toBeUndefined();
  });

  it("stats nothing under a folder since replaced by a link (it may lead out of the root)", async () => {
    const dir = await tempDir("gr-ahead-swap-");
    await mkdir(join(dir, "sub", "deep"), { recursive: true });
    await writeFile(join(dir, "sub", "deep", "x.ts"), "export const x = 1;\n");
    const outside = await tempDir("gr-ahead-away-");
    await mkdir(join(outside, "deep"));
    await writeFile(join(outside, "deep", "x.ts"), "export const elsewhere = 1;\n");
    const list = join(dir, "list.txt");
    const filler = Array.from({ length: STAT_AHEAD_MIN_PATHS }, (_, i) => `missing${i}.ts`);
    await writeFile(list, [".", "sub", "sub/deep", "sub/deep/x.ts", ...filler].join("\n"));
    const before = statAhead(dir, list)!;
    await before.worker;
    expect(before.finish().file("sub/deep/x.ts")?.size).toBe(20);
    await rm(join(dir, "sub"), { recursive: true });
    await symlink(outside, join(dir, "sub"));
    // both ways: the worker stats every path, or this thread does
    for (const waitForWorker of [true, false]) {
      const run = statAhead(dir, list)!;
      if (waitForWorker) await run.worker;
      const stats = run.finish();
      expect(stats.file("sub/deep/x.ts")).toBeUndefined();
      expect(stats.folder("sub/deep")).toBeUndefined();
      expect(stats.folder("sub")).toBeUndefined();
      expect(stats.folder("")).toBeDefined();
    }
  });

  it("hands a build the run started early for its root and index folder, once; another root or folder gets its own", async () => {
    const early = startStatsAheadEarly(root, cache);
    expect(early).toBeDefined();
    expect(statsAheadFor(root, join(cache, ".", STAT_LIST_FILE))).toBe(early);
    const again = statsAheadFor(root, listFile);
    expect(again).toBeDefined();
    expect(again).not.toBe(early);
    const unused = startStatsAheadEarly(root, cache);
    const elsewhere = statsAheadFor(root, join(cache, "none.txt"));
    expect(elsewhere).toBeUndefined();
    // the early one was let go: the next build of the right folder starts afresh
    expect(statsAheadFor(root, listFile)).not.toBe(early);
    await Promise.all([early!.worker, again!.worker, unused!.worker]);
  });

  it("starts nothing without a list, or with one too short to pay for a worker", async () => {
    expect(statAhead(root, join(cache, "none.txt"))).toBeUndefined();
    const short = join(cache, "short.txt");
    await writeFile(short, "pkg0\npkg0/mod0.ts");
    expect(statAhead(root, short)).toBeUndefined();
  });
});

describe("a walk that takes the stats", () => {
  it("finds what a walk without them finds, and an edit made before they were taken", async () => {
    const before = await walked(root);
    await appendFile(join(root, "pkg5/mod5.ts"), "export const added = 1;\n");
    const known = (path: string) => before.files[path];
    const plain = await scanFiles(root, {}, { known, folders: { last: before.folders.snapshot } });
    const stats = statAhead(root, listFile)!.finish()!;
    const ahead = await scanFiles(root, {}, { known, ahead: stats, folders: { last: before.folders.snapshot } });
    expect(ahead).toEqual(plain);
    const edited = ahead.files.find((file) => file.path === "pkg5/mod5.ts")!;
    expect(edited.size).toBe(before.files["pkg5/mod5.ts"]!.size + 24);
  });

  it("finds the same files with a list in another order (one written before), asking by path", async () => {
    // past the 2 s within which a folder's times are not trusted: every folder is taken, the tree whole
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, madeAt + 2100 - Date.now())));
    const before = await walked(root);
    const known = (path: string) => before.files[path];
    const plain = await scanFiles(root);
    const reversed = join(cache, "reversed.txt");
    await writeFile(reversed, (await readFile(listFile, "utf8")).split("\n").reverse().join("\n"));
    const stats = statAhead(root, reversed)!.finish()!;
    expect(stats.lines[0]).not.toBe(".");
    expect(await scanFiles(root, {}, { known, ahead: stats, folders: { last: before.folders.snapshot } })).toEqual(plain);
  });

  it("says it started when the stats were taken: a snapshot never newer than them", async () => {
    const stats = statAhead(root, listFile)!.finish()!;
    let snapshot: FolderSnapshot | undefined;
    await new Promise((resolve) => setTimeout(resolve, 20));
    await scanFiles(root, {}, { ahead: stats, folders: { found: (made) => void (snapshot = made.snapshot) } });
    expect(snapshot!.startedAt).toBe(stats.takenAt);
  });
});

describe("graph-retrieve index on 2,000+ files", () => {
  it("writes the list beside the index, and a refresh after an edit parses the edited file again", async () => {
    const cacheDir = await tempDir("gr-ahead-index-");
    let stdout = "";
    const io: CliIo = { stdout: (text) => void (stdout += text), stderr: () => undefined, cwd: root, isStderrTty: false, env: {} };
    expect(await runCli(["index", "--root", root, "--cache-dir", cacheDir, "--format", "json", "--no-history"], io)).toBe(0);
    expect((await readFile(join(cacheDir, STAT_LIST_FILE), "utf8")).split("\n")).toContain("pkg39/mod0.ts");
    await appendFile(join(root, "pkg9/mod1.ts"), "export const more = 2;\n");
    stdout = "";
    expect(await runCli(["index", "--root", root, "--cache-dir", cacheDir, "--format", "json", "--no-history"], io)).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ files: 2080, parsed: 1, reused: 2079 });
    // an index without its list (written before lists were) gets it from a run that changes nothing: the tree
    // made an hour old, so that no folder or file is too new to be trusted as it was, and indexed so
    const hourAgo = new Date(Date.now() - 3_600_000);
    for (let f = 0; f < 40; f++) {
      for (let i = 0; i < 52; i++) await utimes(join(root, `pkg${f}`, `mod${i}.ts`), hourAgo, hourAgo);
      await utimes(join(root, `pkg${f}`), hourAgo, hourAgo);
    }
    await utimes(root, hourAgo, hourAgo);
    expect(await runCli(["index", "--root", root, "--cache-dir", cacheDir, "--format", "json", "--no-history"], io)).toBe(0);
    const list = await readFile(join(cacheDir, STAT_LIST_FILE), "utf8");
    const indexed = await readFile(join(cacheDir, "index.json"));
    await rm(join(cacheDir, STAT_LIST_FILE));
    stdout = "";
    expect(await runCli(["index", "--root", root, "--cache-dir", cacheDir, "--format", "json", "--no-history"], io)).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ files: 2080, parsed: 0, reused: 2080 });
    // the index itself was not written again: nothing changed
    expect(await readFile(join(cacheDir, "index.json"))).toEqual(indexed);
    const sorted = (text: string) => text.split("\n").sort();
    expect(sorted(await readFile(join(cacheDir, STAT_LIST_FILE), "utf8"))).toEqual(sorted(list));
  }, 120_000);
});
