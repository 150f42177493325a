/**
 * The index kept in memory (buildGraph with `memory`): a resident process
 * builds from the previous build's entries and graph, without reading the
 * index back, and writes the index only when it flushes. Every build must
 * still equal the same build without any index, and what it writes must be
 * the index a build without memory would use.
 */
import { appendFileSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildGraph, createIndexMemory, flushIndexMemory, type IndexMemory } from "../../src/index.js";
import { prepareIndexMemory } from "../../src/faces.js";
import { CACHE_TAG_FILE, FACTS_FILE, GRAPH_FILE, INDEX_FILE } from "../../src/store/index.js";
import { comparable, copyFixture, listTree, makeTempDir, uncached } from "./helpers.js";

let tmp: { dir: string; cleanup: () => void };
let root: string;
let cacheDir: string;
let memory: IndexMemory;

beforeEach(() => {
  tmp = makeTempDir("gr-memory-");
  root = copyFixture("graph-basics", join(tmp.dir, "root"));
  cacheDir = join(tmp.dir, "cache");
  memory = createIndexMemory();
});
afterEach(() => tmp.cleanup());

describe("index kept in memory", () => {
  it("the index is written when flushed, not by the build, and a build without memory then uses it", async () => {
    const cold = await buildGraph(root, { cacheDir, memory });
    expect(cold.cache).toMatchObject({ found: false, parsed: cold.stats.files, saved: false });
    expect(listTree(cacheDir)).toEqual([]);
    expect(await flushIndexMemory(memory)).toBeUndefined();
    expect(listTree(cacheDir)).toEqual([CACHE_TAG_FILE, FACTS_FILE, GRAPH_FILE, INDEX_FILE]);
    const fromDisk = await buildGraph(root, { cacheDir });
    expect(fromDisk.cache).toMatchObject({ found: true, parsed: 0, graphReused: true, saved: false });
    expect(comparable(fromDisk)).toEqual(await uncached(root));
  });

  it("an unchanged root gives back the same graph object and leaves nothing to write", async () => {
    const first = await buildGraph(root, { cacheDir, memory });
    await flushIndexMemory(memory);
    const before = readFileSync(join(cacheDir, INDEX_FILE), "utf8");
    const again = await buildGraph(root, { cacheDir, memory });
    expect(again.cache).toMatchObject({ found: true, parsed: 0, rehashed: 0, resolved: 0, graphReused: true });
    expect(again.graph).toBe(first.graph);
    expect(memory.pendingWrite).toBeUndefined();
    expect(readFileSync(join(cacheDir, INDEX_FILE), "utf8")).toBe(before);
  });

  it("a first build with memory starts from the index on disk", async () => {
    await buildGraph(root, { cacheDir });
    const warm = await buildGraph(root, { cacheDir, memory });
    expect(warm.cache).toMatchObject({ found: true, parsed: 0, graphReused: true });
    expect(comparable(warm)).toEqual(await uncached(root));
  });

  it("one file edited: only it is parsed, the remembered graph is updated in place, and both it and the written index equal a fresh build", async () => {
    const first = await buildGraph(root, { cacheDir, memory });
    await flushIndexMemory(memory);
    prepareIndexMemory(memory); // as the daemon does while idle
    appendFileSync(join(root, "src/models/money.ts"), "\nexport function addedLater(): number { return 1; }\n");
    const edited = await buildGraph(root, { cacheDir, memory });
    expect(edited.cache).toMatchObject({ parsed: 1, resolved: 0, graphReused: false });
    expect(memory.trees.reused).toBe(1); // the edited file re-parsed from its kept tree
    expect(edited.cache?.graphUpdated).toBeGreaterThanOrEqual(1);
    expect(edited.cache?.graphUpdated).toBeLessThan(first.stats.files);
    expect(edited.graph).not.toBe(first.graph);
    expect(comparable(edited)).toEqual(await uncached(root));
    // the earlier build's graph is left as it was: the new one is a new object
    expect(first.graph.hasNode("src/models/money.ts#addedLater")).toBe(false);
    await flushIndexMemory(memory);
    const fromDisk = await buildGraph(root, { cacheDir });
    expect(fromDisk.cache).toMatchObject({ found: true, parsed: 0, graphReused: true });
    expect(comparable(fromDisk)).toEqual(await uncached(root));
  });

  it("with the files a watch says changed, the remembered scan is reused: those are looked at, a new file named too, an unnamed one left to the next full check", async () => {
    await buildGraph(root, { cacheDir, memory });
    appendFileSync(join(root, "src/models/money.ts"), "\nexport function addedLater(): number { return 1; }\n");
    writeFileSync(join(root, "src/unnamed.ts"), "export const unnamed = 1;\n");
    const told = await buildGraph(root, { cacheDir, memory, changedPaths: ["src/models/money.ts"] });
    expect(told.cache).toMatchObject({ parsed: 1 });
    expect(told.graph.hasNode("src/models/money.ts#addedLater")).toBe(true);
    expect(told.graph.hasNode("src/unnamed.ts")).toBe(false); // the watch did not name it: trusted
    // a path that is no file of the remembered scan: the root is scanned
    writeFileSync(join(root, "src/named.ts"), "export const named = 1;\n");
    const scanned = await buildGraph(root, { cacheDir, memory, changedPaths: ["src/named.ts"] });
    expect(scanned.graph.hasNode("src/named.ts")).toBe(true);
    expect(scanned.graph.hasNode("src/unnamed.ts")).toBe(true);
    expect(comparable(scanned)).toEqual(await uncached(root));
    // other scan options than the remembered scan's: the root is scanned
    appendFileSync(join(root, "src/models/money.ts"), "\nexport const alsoLater = 2;\n");
    const other = await buildGraph(root, { cacheDir, memory, exclude: ["src/named.ts"], changedPaths: ["src/models/money.ts"] });
    expect(other.graph.hasNode("src/named.ts")).toBe(false);
  });

  it("a file edited seconds ago is re-hashed by each check, but while its bytes are the same nothing is written; an edit of the same size is still seen", async () => {
    await buildGraph(root, { cacheDir, memory });
    await flushIndexMemory(memory);
    const path = join(root, "src/models/money.ts");
    appendFileSync(path, "\nexport const later = 1;\n");
    const edited = await buildGraph(root, { cacheDir, memory });
    expect(edited.cache).toMatchObject({ parsed: 1 });
    await flushIndexMemory(memory);
    const store = memory.latest?.store;
    // its mtime is too recent to trust (another write in the same tick would keep size and mtime): re-hashed
    const again = await buildGraph(root, { cacheDir, memory });
    expect(again.cache).toMatchObject({ parsed: 0, rehashed: 1 });
    expect(memory.latest?.store).toBe(store);
    expect(memory.pendingWrite).toBeUndefined();
    // the same size, other bytes: the hash tells
    writeFileSync(path, readFileSync(path, "utf8").replace("later = 1", "later = 2"));
    const changed = await buildGraph(root, { cacheDir, memory });
    expect(changed.cache).toMatchObject({ parsed: 1 });
    // once old enough, its mtime is stored: one more write
    const old = new Date(Date.now() - 60_000);
    utimesSync(path, old, old);
    await flushIndexMemory(memory);
    const settled = await buildGraph(root, { cacheDir, memory });
    expect(settled.cache).toMatchObject({ parsed: 0, rehashed: 1 });
    expect(memory.pendingWrite).toBeDefined();
    expect(comparable(settled)).toEqual(await uncached(root));
  });

  it("an export added that no reader asks for leaves the readers' edges as they were; one a reader asks for recomputes that reader", async () => {
    // summary.ts reaches money.ts through the barrel's `export * as money`, and will ask it for roundMoney
    const summary = join(root, "src/reports/summary.ts");
    writeFileSync(summary, readFileSync(summary, "utf8").replace("money.formatMoney(stockValue(item))", "money.formatMoney(money.roundMoney(stockValue(item)))"));
    await buildGraph(root, { cacheDir, memory });
    const money = join(root, "src/models/money.ts");
    appendFileSync(money, "\nexport function addedLater(): number { return 1; }\n");
    const unasked = await buildGraph(root, { cacheDir, memory });
    // item.ts, the barrel and summary.ts read money.ts, and none names addedLater
    expect(unasked.cache).toMatchObject({ parsed: 1, graphUpdated: 1 });
    expect(comparable(unasked)).toEqual(await uncached(root));
    appendFileSync(money, "\nexport function roundMoney(amount: Money): Money { return amount; }\n");
    const asked = await buildGraph(root, { cacheDir, memory });
    expect(asked.cache?.graphUpdated).toBe(2); // money.ts and summary.ts
    expect(asked.graph.hasEdge("references:src/reports/summary.ts->src/models/money.ts#roundMoney")).toBe(true);
    expect(comparable(asked)).toEqual(await uncached(root));
  });

  it("files deleted and renamed, and a tsconfig change, give the graph of a fresh build", async () => {
    await buildGraph(root, { cacheDir, memory });
    rmSync(join(root, "src/models/money.ts"));
    expect(comparable(await buildGraph(root, { cacheDir, memory }))).toEqual(await uncached(root));
    renameSync(join(root, "src/models/category.ts"), join(root, "src/models/kind.ts"));
    expect(comparable(await buildGraph(root, { cacheDir, memory }))).toEqual(await uncached(root));
    const tsconfig = join(root, "tsconfig.json");
    writeFileSync(tsconfig, `${readFileSync(tsconfig, "utf8")}\n `);
    const changed = await buildGraph(root, { cacheDir, memory });
    expect(changed.cache?.resolved).toBe(changed.stats.files);
    expect(comparable(changed)).toEqual(await uncached(root));
  });

  it("the memory of one index folder is not used for another", async () => {
    await buildGraph(root, { cacheDir, memory });
    const other = await buildGraph(root, { cacheDir: join(tmp.dir, "other"), memory });
    expect(other.cache).toMatchObject({ found: false, parsed: other.stats.files });
  });

  it("a folder that cannot be written is a warning from the flush; the memory stays warm", async () => {
    writeFileSync(join(tmp.dir, "a-file"), "");
    const unwritable = join(tmp.dir, "a-file", "cache");
    await buildGraph(root, { cacheDir: unwritable, memory });
    const warning = await flushIndexMemory(memory);
    expect(warning?.message).toMatch(/^store: could not write the index to .*a-file\/cache \(ENOTDIR; check the folder is writable, or pass --no-cache\)$/);
    const again = await buildGraph(root, { cacheDir: unwritable, memory });
    expect(again.cache).toMatchObject({ found: true, parsed: 0, graphReused: true });
  });
});
