/**
 * The index session (graph/index-session.ts): what a build may reuse of the
 * last one, from memory or from disk, and the commit of the new state. Each
 * test builds on a copy of a fixture and looks at what the session says and
 * what lands on disk.
 */
import { appendFileSync, existsSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildGraph, createIndexMemory, flushIndexMemory } from "../../src/index.js";
import { prepareIndexMemory } from "../../src/graph/index-memory.js";
import { keyOfGraph } from "../../src/graph/assemble-or-update.js";
import { openIndexSession } from "../../src/graph/index-session.js";
import { holdsTogether } from "../../src/graph/serialize-graph.js";
import { GRAPH_FILE, INDEX_FILE } from "../../src/store/index.js";
import { copyFixture, listTree, makeTempDir } from "../store/helpers.js";

let tmp: { dir: string; cleanup: () => void };
let root: string;
let cacheDir: string;

beforeEach(() => {
  tmp = makeTempDir("gr-session-");
  root = copyFixture("graph-basics", join(tmp.dir, "root"));
  cacheDir = join(tmp.dir, "cache");
});
afterEach(() => tmp.cleanup());

describe("index session", () => {
  it("without an index folder: nothing to reuse, the root walked, nothing written", async () => {
    const session = await openIndexSession(root, undefined);
    expect(session).toMatchObject({ keeps: false, found: false, previous: {} });
    const scan = await session.scan(root, {});
    expect(scan.result.files.length).toBeGreaterThan(5);
    expect(session.resolution(scan, scan.result.files.map((f) => f.path)).holds).toBe(false);
    expect(await session.previousGraph()).toBeUndefined();
    expect(listTree(tmp.dir).some((p) => p.startsWith("cache"))).toBe(false);
  });

  it("on disk: the last build's entries, resolution and graph are offered, and the graph holds together", async () => {
    expect((await openIndexSession(root, cacheDir)).found).toBe(false);
    const built = await buildGraph(root, { cacheDir });
    const session = await openIndexSession(root, cacheDir);
    expect(session.found).toBe(true);
    expect(Object.keys(session.previous).sort()).toEqual([...built.files.keys()].sort());
    const scan = await session.scan(root, {});
    const paths = scan.result.files.map((f) => f.path);
    expect(session.resolution(scan, paths).holds).toBe(true);
    // another file set is another resolution: a new file makes the stored one not hold
    writeFileSync(join(root, "src", "added.ts"), "export const added = 1;\n");
    const wider = await session.scan(root, {});
    expect(session.resolution(wider, wider.result.files.map((f) => f.path)).holds).toBe(false);
    const previous = await session.previousGraph();
    expect(previous && holdsTogether(previous.lazy.compact)).toBe(true);
    expect(session.graphKey).toBe(keyOfGraph([...built.files.values()], new Map(Object.entries(session.previous))));
  });

  it("a build that takes every file and target as stored keeps the stored graph key; one that parses a file keys its graph again", async () => {
    const keyOf = async () => (await openIndexSession(root, cacheDir)).graphKey;
    const recomputed = async (built: Awaited<ReturnType<typeof buildGraph>>) =>
      keyOfGraph([...built.files.values()], new Map(Object.entries((await openIndexSession(root, cacheDir)).previous)));
    const main = join(root, "src", "main.ts");
    const first = await buildGraph(root, { cacheDir });
    const key = await keyOf();
    expect(key).toBe(await recomputed(first));
    // touched, the same bytes: hashed again, taken as stored
    const later = new Date(Date.now() + 5_000);
    utimesSync(main, later, later);
    await buildGraph(root, { cacheDir });
    expect(await keyOf()).toBe(key);
    // the same length, another import: parsed and resolved again, another key
    writeFileSync(main, readFileSync(main, "utf8").replace('"./store/inventory"', '"./store/inventorx"'));
    const edited = await buildGraph(root, { cacheDir });
    expect(await keyOf()).not.toBe(key);
    expect(await keyOf()).toBe(await recomputed(edited));
    // a new file that imports nothing: parsed, and a key of its own
    appendFileSync(join(root, "src", "added.ts"), "export const added = 1;\n");
    const added = await buildGraph(root, { cacheDir });
    expect(await keyOf()).toBe(await recomputed(added));
  });

  it("commits only a change: an unchanged state leaves the files as they were, a changed one writes them", async () => {
    await buildGraph(root, { cacheDir });
    const index = join(cacheDir, INDEX_FILE);
    const before = statSync(index).mtimeMs;
    const session = await openIndexSession(root, cacheDir);
    await session.scan(root, {});
    const previous = await session.previousGraph();
    const state = { entries: new Map(Object.entries(session.previous)), resolution: { diagnostics: [] }, graph: previous!.lazy, previousGraph: previous! };
    expect(await session.commit({ ...state, changed: false })).toEqual({ saved: false });
    expect(statSync(index).mtimeMs).toBe(before);
    expect(await session.commit({ ...state, changed: true })).toEqual({ saved: true });
    expect(existsSync(join(cacheDir, GRAPH_FILE))).toBe(true);
  });

  it("with memory: the scan a watch names files for is the remembered one, and the commit waits for the flush", async () => {
    const memory = createIndexMemory();
    await buildGraph(root, { cacheDir, memory });
    expect(existsSync(join(cacheDir, INDEX_FILE))).toBe(false); // remembered, not written
    // a file the watch did not name is not looked for: the remembered scan, with the named files looked at again
    writeFileSync(join(root, "src", "unnamed.ts"), "export const unnamed = 1;\n");
    const session = await openIndexSession(root, cacheDir, memory);
    expect(session.found).toBe(true);
    const rescanned = await session.scan(root, { changedPaths: ["src/main.ts"] });
    expect(rescanned.result.files.map((f) => f.path)).not.toContain("src/unnamed.ts");
    // without the watch's word the root is walked and the new file found
    const walked = await session.scan(root, {});
    expect(walked.result.files.map((f) => f.path)).toContain("src/unnamed.ts");
    expect(await flushIndexMemory(memory)).toBeUndefined();
    expect(existsSync(join(cacheDir, INDEX_FILE))).toBe(true);
  });

  it("a memory that starts from the index on disk: once its graph is read, the first edit updates it in place", async () => {
    await buildGraph(root, { cacheDir }); // the index on disk
    const memory = createIndexMemory();
    const first = await buildGraph(root, { cacheDir, memory }); // from disk: the graph read when first asked
    expect(first.cache).toMatchObject({ parsed: 0, graphReused: true });
    prepareIndexMemory(memory); // what a resident process does while idle: reads the graph
    writeFileSync(join(root, "src", "main.ts"), "export const editedInPlace = 1;\n", { flag: "a" });
    const edited = await buildGraph(root, { cacheDir, memory });
    expect(edited.cache?.parsed).toBe(1);
    expect(edited.cache?.graphUpdated).toBeGreaterThan(0); // updated in place, not assembled whole
    expect(edited.graph.hasNode("src/main.ts#editedInPlace")).toBe(true);
    const whole = await buildGraph(root, {});
    expect(edited.graph.order).toBe(whole.graph.order);
    expect(edited.graph.size).toBe(whole.graph.size);
  });

  it("with a watch in memory: a build looks at what it names since the last build's mark, hands the last result back when it names nothing, and walks when it cannot say", async () => {
    const memory = createIndexMemory();
    // a watch that names what the test says, and remembers the marks it was asked from
    let word: string[] | undefined;
    const asked: Array<number | undefined> = [];
    let now = 0;
    memory.watch = {
      async changesSince(mark) {
        asked.push(mark);
        return { paths: word, mark: ++now };
      },
    };
    const first = await buildGraph(root, { cacheDir, memory });
    expect(asked).toEqual([undefined]); // no build before: no mark
    expect(memory.latest?.watchMark).toBe(1);
    const symbols = (g: typeof first) => [...g.files.get("src/main.ts")!.definitions.map((d) => d.name)].sort();

    // an edit the watch does not name is not seen: no file is stat'ed, the last result is handed back
    writeFileSync(join(root, "src", "main.ts"), "export const editedUnseen = 1;\n", { flag: "a" });
    word = [];
    const unchanged = await buildGraph(root, { cacheDir, memory });
    expect(asked.at(-1)).toBe(1);
    expect(unchanged.graph).toBe(first.graph);
    expect(symbols(unchanged)).toEqual(symbols(first));
    expect(unchanged.cache).toMatchObject({ parsed: 0, reused: first.stats.files, graphReused: true });
    expect(memory.latest?.watchMark).toBe(2);

    // named, it is looked at again
    word = ["src/main.ts"];
    const named = await buildGraph(root, { cacheDir, memory });
    expect(asked.at(-1)).toBe(2);
    expect(named.cache).toMatchObject({ parsed: 1 });
    expect(symbols(named)).toContain("editedUnseen");

    // a watch that cannot say: the root is walked, and a file it never named is found
    writeFileSync(join(root, "src", "added.ts"), "export const added = 1;\n");
    word = [];
    expect((await buildGraph(root, { cacheDir, memory })).files.has("src/added.ts")).toBe(false);
    word = undefined;
    expect((await buildGraph(root, { cacheDir, memory })).files.has("src/added.ts")).toBe(true);
    // the caller's own word goes first, and leaves the build without a mark: the next one walks
    word = [];
    await buildGraph(root, { cacheDir, memory, changedPaths: ["src/main.ts"] });
    expect(memory.latest?.watchMark).toBeUndefined();
    const afterCaller = asked.length;
    await buildGraph(root, { cacheDir, memory });
    expect(asked.length).toBe(afterCaller + 1);
    expect(asked.at(-1)).toBeUndefined();
  });
});
