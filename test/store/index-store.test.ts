/**
 * The persistent index (buildGraph with cacheDir): hit, miss, one file
 * edited, deleted, renamed, damaged store, store from another version,
 * config change, concurrent writers; and a build without cacheDir writes
 * nothing. Every cached build must equal the same build without the index.
 */
import { appendFileSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildGraph } from "../../src/index.js";
import { CACHE_TAG_FILE, FACTS_FILE, GRAPH_FILE, INDEX_FILE } from "../../src/store/index.js";
import { ageTree, comparable, copyFixture, listTree, makeTempDir, uncached } from "./helpers.js";

let tmp: { dir: string; cleanup: () => void };
let root: string;
let cacheDir: string;

beforeEach(() => {
  tmp = makeTempDir("gr-store-");
  root = copyFixture("graph-basics", join(tmp.dir, "root"));
  cacheDir = join(tmp.dir, "cache");
});
afterEach(() => tmp.cleanup());

describe("persistent index", () => {
  it("miss: the first build parses everything and writes index.json, facts.bin, graph.json and the cache tag, nothing else", async () => {
    const cold = await buildGraph(root, { cacheDir });
    expect(cold.cache).toMatchObject({ found: false, parsed: cold.stats.files, reused: 0, resolved: cold.stats.files, graphReused: false, saved: true });
    expect(listTree(cacheDir)).toEqual([CACHE_TAG_FILE, FACTS_FILE, GRAPH_FILE, INDEX_FILE]);
    expect(comparable(cold)).toEqual(await uncached(root));
  });

  it("hit: an unchanged root parses, resolves and re-reads nothing, loads the graph, writes nothing", async () => {
    await buildGraph(root, { cacheDir });
    const before = readFileSync(join(cacheDir, INDEX_FILE), "utf8");
    const warm = await buildGraph(root, { cacheDir });
    expect(warm.cache).toMatchObject({ found: true, parsed: 0, rehashed: 0, resolved: 0, reused: warm.stats.files, graphReused: true, saved: false });
    expect(readFileSync(join(cacheDir, INDEX_FILE), "utf8")).toBe(before);
    expect(comparable(warm)).toEqual(await uncached(root));
  });

  it("keeps each folder's walk in index.json: a warm build of folders unchanged 2 s on takes them unread, and still sees a file added to one", async () => {
    await new Promise((resolve) => setTimeout(resolve, 2100));
    await buildGraph(root, { cacheDir });
    const stored = () => (JSON.parse(readFileSync(join(cacheDir, INDEX_FILE), "utf8")) as { folders?: { snapshot: { folders: Array<[string, ...unknown[]]> } } }).folders;
    expect(stored()?.snapshot.folders.map((record) => record[0])).toEqual(expect.arrayContaining(["", "src", "src/models"]));
    const warm = await buildGraph(root, { cacheDir });
    expect(warm.cache).toMatchObject({ parsed: 0, saved: false });
    writeFileSync(join(root, "src/models/added.ts"), "export const added = 1;\n");
    const next = await buildGraph(root, { cacheDir });
    expect(next.files.has("src/models/added.ts")).toBe(true);
    expect(comparable(next)).toEqual(await uncached(root));
  });

  it("one file edited: only it is parsed; the graph is rebuilt and equals a fresh build", async () => {
    await buildGraph(root, { cacheDir });
    appendFileSync(join(root, "src/models/money.ts"), "\nexport function addedLater(): number { return 1; }\n");
    const warm = await buildGraph(root, { cacheDir });
    expect(warm.cache).toMatchObject({ parsed: 1, reused: warm.stats.files - 1, graphReused: false, saved: true });
    // its specifiers did not change: its stored targets are kept
    expect(warm.cache?.resolved).toBe(0);
    expect(warm.graph.hasNode("src/models/money.ts#addedLater")).toBe(true);
    expect(comparable(warm)).toEqual(await uncached(root));
  });

  it("one file edited: the stored graph is updated in place (only the edited file and its readers recomputed), equal to a fresh build", async () => {
    const cold = await buildGraph(root, { cacheDir });
    appendFileSync(join(root, "src/models/money.ts"), "\nexport function addedLater(): number { return 1; }\n");
    const warm = await buildGraph(root, { cacheDir });
    expect(warm.cache?.graphUpdated).toBeGreaterThanOrEqual(1);
    expect(warm.cache?.graphUpdated).toBeLessThan(cold.stats.files);
    expect(comparable(warm)).toEqual(await uncached(root));
    // and again on top of the updated graph
    appendFileSync(join(root, "src/main.ts"), "\nexport const alsoLater = 2;\n");
    const next = await buildGraph(root, { cacheDir });
    expect(next.cache?.graphUpdated).toBeGreaterThanOrEqual(1);
    expect(comparable(next)).toEqual(await uncached(root));
  });

  /** Two barrels that star-export each other and a file each defining x: which user looks x up first decides what x is. */
  function writeRing(): void {
    mkdirSync(join(root, "src/ring"), { recursive: true });
    writeFileSync(join(root, "src/ring/c.ts"), "export const x = 1;\n");
    writeFileSync(join(root, "src/ring/d.ts"), "export const x = 2;\n");
    writeFileSync(join(root, "src/ring/ring-a.ts"), 'export * from "./ring-b";\nexport * from "./c";\n');
    writeFileSync(join(root, "src/ring/ring-b.ts"), 'export * from "./ring-a";\nexport * from "./d";\n');
    writeFileSync(join(root, "src/ring/a-user.ts"), 'import { x } from "./ring-a";\nexport const useA = x;\n');
    writeFileSync(join(root, "src/ring/b-user.ts"), 'import { x } from "./ring-b";\nexport const useB = x;\n');
  }
  const xOf = (built: Awaited<ReturnType<typeof buildGraph>>, user: string) =>
    built.graph.outNeighbors(user).filter((n) => n.endsWith("#x"));

  it("with a re-export cycle cut: an edit away from it is updated in place; one whose file read it is assembled in full; both equal a fresh build", async () => {
    writeRing();
    const cold = await buildGraph(root, { cacheDir });
    // a-user comes first in path order: its lookup cuts the cycle at ring-a and b-user's reads what it left
    expect(xOf(cold, "src/ring/b-user.ts")).toEqual(["src/ring/d.ts#x"]);
    appendFileSync(join(root, "src/models/money.ts"), "\nexport function addedLater(): number { return 1; }\n");
    const away = await buildGraph(root, { cacheDir });
    expect(away.cache?.graphUpdated).toBeGreaterThanOrEqual(1);
    expect(comparable(away)).toEqual(await uncached(root));
    // a-user no longer asks for x: b-user's lookup is now the first, and finds c's x; b-user did not change, so an
    // update in place would have kept d's
    writeFileSync(join(root, "src/ring/a-user.ts"), "export const useA = 0;\n");
    const near = await buildGraph(root, { cacheDir });
    expect(near.cache?.graphUpdated).toBeUndefined();
    expect(xOf(near, "src/ring/b-user.ts")).toEqual(["src/ring/c.ts#x"]);
    expect(comparable(near)).toEqual(await uncached(root));
    // the full assembly stored the cycle's files again: the next edit away from it is updated in place
    appendFileSync(join(root, "src/main.ts"), "\nexport const alsoLater = 2;\n");
    const next = await buildGraph(root, { cacheDir });
    expect(next.cache?.graphUpdated).toBeGreaterThanOrEqual(1);
    expect(comparable(next)).toEqual(await uncached(root));
  });

  it("a .gitignore that now leaves out indexed files: the warm build leaves them out too, and keeps the new rules' key", async () => {
    await buildGraph(root, { cacheDir });
    const key = () => (JSON.parse(readFileSync(join(cacheDir, INDEX_FILE), "utf8")) as { ignoreKey?: string }).ignoreKey;
    const before = key();
    expect(before).toMatch(/^[0-9a-f]{40}$/);
    writeFileSync(join(root, ".gitignore"), "src/models/\n");
    const warm = await buildGraph(root, { cacheDir });
    expect([...warm.files.keys()].some((path) => path.startsWith("src/models/"))).toBe(false);
    expect(comparable(warm)).toEqual(await uncached(root));
    expect(key()).not.toBe(before);
    // a rule that leaves nothing indexed out: nothing else changed, the new key is written all the same
    writeFileSync(join(root, ".gitignore"), "src/models/\n*.log\n");
    const next = await buildGraph(root, { cacheDir });
    expect(next.cache?.saved).toBe(true);
    expect(comparable(next)).toEqual(await uncached(root));
    const stable = key();
    expect((await buildGraph(root, { cacheDir })).cache?.saved).toBe(false);
    expect(key()).toBe(stable);
  });

  it("an edit that changes a file's imports re-resolves that file only", async () => {
    await buildGraph(root, { cacheDir });
    appendFileSync(join(root, "src/main.ts"), '\nimport { formatMoney as again } from "./models/money";\nvoid again;\n');
    const warm = await buildGraph(root, { cacheDir });
    expect(warm.cache).toMatchObject({ parsed: 1, resolved: 1 });
    expect(comparable(warm)).toEqual(await uncached(root));
  });

  it("keeps the import facts out of index.json, and reports an unresolved import on its line: as stored, and moved by an edit above it", async () => {
    await buildGraph(root, { cacheDir });
    const stored = JSON.parse(readFileSync(join(cacheDir, INDEX_FILE), "utf8")) as { files: Record<string, { parsed: object; unresolved?: unknown[][] }> };
    expect(Object.values(stored.files).some((entry) => "imports" in entry.parsed)).toBe(false);
    expect(stored.files["src/legacy/csv-import.ts"]?.unresolved?.map((note) => note[2])).toEqual([4]);
    const lineOf = (codeGraph: Awaited<ReturnType<typeof buildGraph>>) => codeGraph.diagnostics.find((d) => d.path === "src/legacy/csv-import.ts")?.message.match(/on line (\d+)$/)?.[1];
    const warm = await buildGraph(root, { cacheDir });
    expect(lineOf(warm)).toBe("4");
    const path = join(root, "src/legacy/csv-import.ts");
    writeFileSync(path, `// moved down a line\n${readFileSync(path, "utf8")}`);
    const edited = await buildGraph(root, { cacheDir });
    // the same specifiers: the stored targets are kept, the line is the new facts'
    expect(edited.cache).toMatchObject({ parsed: 1, resolved: 0 });
    expect(lineOf(edited)).toBe("5");
    expect(comparable(edited)).toEqual(await uncached(root));
    expect(lineOf(await buildGraph(root, { cacheDir }))).toBe("5");
  });

  it("text past ASCII (doc comments, names) is stored as \\u escapes and reads back the same; a store in raw UTF-8 still loads", async () => {
    writeFileSync(join(root, "src/unicode.ts"), "import \"./données\";\n/** Préfixe ┌─── 中文 😀 */\nexport const café = \"naïve ☕\";\n");
    await buildGraph(root, { cacheDir });
    const stored = readFileSync(join(cacheDir, INDEX_FILE));
    expect(stored.every((byte) => byte < 0x80)).toBe(true);
    // the file's heavy facts (its doc comment) in facts.bin, after the header line, where index.json says
    const facts = readFileSync(join(cacheDir, FACTS_FILE));
    const [at, length] = (JSON.parse(stored.toString("latin1")) as { files: Record<string, { facts: [number, number] }> }).files["src/unicode.ts"]!.facts;
    const heavy = facts.subarray(facts.indexOf(10) + 1).subarray(at, at + length);
    expect(heavy.toString("latin1")).toContain("Pr\\u00e9fixe");
    expect(heavy.every((byte) => byte < 0x80)).toBe(true);
    expect(readFileSync(join(cacheDir, GRAPH_FILE)).every((byte) => byte < 0x80)).toBe(true);
    const warm = await buildGraph(root, { cacheDir });
    expect(warm.cache).toMatchObject({ found: true, parsed: 0, graphReused: true });
    expect(warm.files.get("src/unicode.ts")?.definitions[0]).toMatchObject({ name: "café", doc: "Préfixe ┌─── 中文 😀" });
    expect(comparable(warm)).toEqual(await uncached(root));
    // an index written before, with the characters as UTF-8 bytes
    writeFileSync(join(cacheDir, INDEX_FILE), JSON.stringify(JSON.parse(stored.toString("latin1"))));
    expect(readFileSync(join(cacheDir, INDEX_FILE)).some((byte) => byte >= 0x80)).toBe(true);
    const again = await buildGraph(root, { cacheDir });
    expect(again.cache).toMatchObject({ found: true, parsed: 0 });
    expect(again.diagnostics.filter((d) => d.message.startsWith("store:"))).toEqual([]);
    expect(comparable(again)).toEqual(await uncached(root));
  });

  it("a touched file with the same bytes is re-hashed, not re-parsed", async () => {
    await buildGraph(root, { cacheDir });
    ageTree(join(root, "src/models"), 60); // another mtime, same content
    const warm = await buildGraph(root, { cacheDir });
    expect(warm.cache?.parsed).toBe(0);
    expect(warm.cache?.rehashed).toBeGreaterThan(0);
    expect(comparable(warm)).toEqual(await uncached(root));
  });

  it("file deleted: dropped from the facts and the graph; the others are reused and re-resolved", async () => {
    await buildGraph(root, { cacheDir });
    rmSync(join(root, "src/reports/summary.ts"));
    const warm = await buildGraph(root, { cacheDir });
    expect(warm.files.has("src/reports/summary.ts")).toBe(false);
    expect(warm.graph.hasNode("src/reports/summary.ts")).toBe(false);
    // the file set changed: resolution runs again, parsing does not
    expect(warm.cache).toMatchObject({ parsed: 0, resolved: warm.stats.files, saved: true });
    expect(comparable(warm)).toEqual(await uncached(root));
    const again = await buildGraph(root, { cacheDir });
    expect(again.cache).toMatchObject({ parsed: 0, resolved: 0, graphReused: true });
  });

  it("file renamed: its facts are reused under the new path (same bytes), the imports of the others follow", async () => {
    await buildGraph(root, { cacheDir });
    renameSync(join(root, "src/legacy/csv-import.ts"), join(root, "src/legacy/csv-reader.ts"));
    const warm = await buildGraph(root, { cacheDir });
    expect(warm.cache?.parsed).toBe(0);
    expect(warm.files.get("src/legacy/csv-reader.ts")?.path).toBe("src/legacy/csv-reader.ts");
    expect(warm.files.has("src/legacy/csv-import.ts")).toBe(false);
    expect(comparable(warm)).toEqual(await uncached(root));
  });

  it.each([
    ["garbage", "\u0000\u0001 not json at all"],
    ["truncated", (text: string) => text.slice(0, Math.floor(text.length / 2))],
    ["an empty file", ""],
    ["JSON of the wrong shape", JSON.stringify({ header: null, files: [] })],
  ])("damaged store (%s): one warning, rebuilt, and usable on the next run", async (_label, damage) => {
    await buildGraph(root, { cacheDir });
    const path = join(cacheDir, INDEX_FILE);
    writeFileSync(path, typeof damage === "string" ? damage : damage(readFileSync(path, "utf8")));
    const rebuilt = await buildGraph(root, { cacheDir });
    const warnings = rebuilt.diagnostics.filter((d) => d.message.startsWith("store:"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.kind).toBe("warning");
    expect(warnings[0]?.message).toContain(path);
    expect(rebuilt.cache).toMatchObject({ found: false, parsed: rebuilt.stats.files, saved: true });
    const { diagnostics: _d, ...rest } = comparable(rebuilt);
    const { diagnostics: _u, ...expected } = await uncached(root);
    expect(rest).toEqual(expected);
    const next = await buildGraph(root, { cacheDir });
    expect(next.cache).toMatchObject({ found: true, parsed: 0 });
    expect(next.diagnostics.filter((d) => d.message.startsWith("store:"))).toEqual([]);
  });

  it.each<[string, null | "other" | ((bytes: Buffer) => Buffer)]>([
    ["missing", null],
    ["cut short", (bytes) => bytes.subarray(0, bytes.length >> 1)],
    ["another build's", "other"],
  ])("facts.bin %s: one warning, rebuilt, and the same graph", async (_label, damage) => {
    await buildGraph(root, { cacheDir });
    const path = join(cacheDir, FACTS_FILE);
    if (damage === null) rmSync(path);
    else if (damage === "other") {
      // the facts of another state of the root: the key index.json names is not theirs
      const other = join(tmp.dir, "other-cache");
      appendFileSync(join(root, "src/models/user.ts"), "\nexport const added = 1;\n");
      await buildGraph(root, { cacheDir: other });
      writeFileSync(path, readFileSync(join(other, FACTS_FILE)));
    } else if (typeof damage === "function") writeFileSync(path, damage(readFileSync(path)));
    const rebuilt = await buildGraph(root, { cacheDir });
    const warnings = rebuilt.diagnostics.filter((d) => d.message.startsWith("store:"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.message).toContain(FACTS_FILE);
    expect(rebuilt.cache).toMatchObject({ found: false, saved: true });
    const { diagnostics: _d, ...rest } = comparable(rebuilt);
    const { diagnostics: _u, ...expected } = await uncached(root);
    expect(rest).toEqual(expected);
    expect((await buildGraph(root, { cacheDir })).cache).toMatchObject({ found: true, parsed: 0 });
  });

  it("a damaged graph.json alone is ignored silently: the graph is assembled again when read, and written with the next change", async () => {
    await buildGraph(root, { cacheDir });
    writeFileSync(join(cacheDir, GRAPH_FILE), "{");
    const warm = await buildGraph(root, { cacheDir });
    expect(warm.cache).toMatchObject({ parsed: 0, saved: false });
    expect(comparable(warm)).toEqual(await uncached(root));
    appendFileSync(join(root, "src/models/item.ts"), "\nexport const added = 1;\n");
    const edited = await buildGraph(root, { cacheDir });
    expect(edited.cache).toMatchObject({ parsed: 1, graphReused: false, saved: true });
    expect(() => JSON.parse(readFileSync(join(cacheDir, GRAPH_FILE), "utf8"))).not.toThrow();
    expect(comparable(edited)).toEqual(await uncached(root));
  });

  it.each([
    ["another package version", { version: "0.0.0-old" }],
    ["another store schema", { schema: 999 }],
    ["other grammar queries", { grammars: "0".repeat(40) }],
    ["another root", { root: "/somewhere/else" }],
  ])("store from %s: one warning and a full rebuild", async (_label, change) => {
    await buildGraph(root, { cacheDir });
    const path = join(cacheDir, INDEX_FILE);
    const store = JSON.parse(readFileSync(path, "utf8")) as { header: Record<string, unknown> };
    Object.assign(store.header, change);
    writeFileSync(path, JSON.stringify(store));
    const rebuilt = await buildGraph(root, { cacheDir });
    const warnings = rebuilt.diagnostics.filter((d) => d.message.startsWith("store:"));
    expect(warnings).toHaveLength(1);
    expect(rebuilt.cache).toMatchObject({ found: false, parsed: rebuilt.stats.files, resolved: rebuilt.stats.files });
  });

  it("store from other parse code (a build from the sources after one from dist/): rebuilt without a warning", async () => {
    await buildGraph(root, { cacheDir });
    const path = join(cacheDir, INDEX_FILE);
    const store = JSON.parse(readFileSync(path, "utf8")) as { header: Record<string, unknown> };
    store.header.parser = "0".repeat(40);
    writeFileSync(path, JSON.stringify(store));
    const rebuilt = await buildGraph(root, { cacheDir });
    expect(rebuilt.diagnostics.filter((d) => d.message.startsWith("store:"))).toEqual([]);
    expect(rebuilt.cache).toMatchObject({ found: false, parsed: rebuilt.stats.files, saved: true });
    expect(comparable(rebuilt)).toEqual(await uncached(root));
  });

  it("a tsconfig change re-resolves every file (paths aliases may now lead elsewhere)", async () => {
    await buildGraph(root, { cacheDir });
    // the config files' hashes kept with the resolution, each with the stat it had (a warm build reads one again only
    // when its stat moved)
    const stored = () => (JSON.parse(readFileSync(join(cacheDir, INDEX_FILE), "utf8")) as { resolution: { configs: Array<[string, number, number, string]> } }).resolution.configs;
    const before = stored().find((hash) => hash[0] === "tsconfig.json");
    expect(before?.[3]).toMatch(/^[0-9a-f]{40}$/);
    const path = join(root, "tsconfig.json");
    writeFileSync(path, `${readFileSync(path, "utf8")}\n `);
    const warm = await buildGraph(root, { cacheDir });
    expect(warm.cache).toMatchObject({ parsed: 0, resolved: warm.stats.files });
    expect(stored().find((hash) => hash[0] === "tsconfig.json")?.[3]).not.toBe(before?.[3]);
    expect((await buildGraph(root, { cacheDir })).cache).toMatchObject({ parsed: 0, resolved: 0 });
  });

  it("a tsconfig paths change with the same files redirects the edges (the stored entries are not changed in place)", async () => {
    const alias = join(tmp.dir, "alias");
    const files: Record<string, string> = {
      "tsconfig.json": JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "@x/*": ["src/a/*"] } } }),
      "src/a/m.ts": "export const one = 1;\n",
      "src/b/m.ts": "export const one = 2;\n",
      "src/main.ts": 'import { one } from "@x/m";\nexport const y = one;\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(alias, path)), { recursive: true });
      writeFileSync(join(alias, path), text);
    }
    // stats older than the racy window: the entries are taken from the store as they are
    ageTree(alias);
    const before = await buildGraph(alias, { cacheDir });
    expect(before.graph.hasEdge("src/main.ts", "src/a/m.ts")).toBe(true);
    writeFileSync(join(alias, "tsconfig.json"), JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "@x/*": ["src/b/*"] } } }));
    const warm = await buildGraph(alias, { cacheDir });
    expect(warm.graph.hasEdge("src/main.ts", "src/b/m.ts")).toBe(true);
    expect(warm.graph.hasEdge("src/main.ts", "src/a/m.ts")).toBe(false);
    expect(comparable(warm)).toEqual(await uncached(alias));
    // and the next run, which loads the stored graph, has the same edges
    expect(comparable(await buildGraph(alias, { cacheDir }))).toEqual(await uncached(alias));
  });

  it("a folder holding an index.json graph-retrieve did not write is never written to: one warning, the file untouched", async () => {
    mkdirSync(cacheDir, { recursive: true });
    const theirs = join(cacheDir, INDEX_FILE);
    writeFileSync(theirs, '{"mine": true}\n');
    const codeGraph = await buildGraph(root, { cacheDir });
    expect(codeGraph.cache?.saved).toBe(false);
    const warnings = codeGraph.diagnostics.filter((d) => d.message.startsWith("store:"));
    expect(warnings.map((d) => d.message)).toEqual([
      `store: not writing the index to ${cacheDir}: ${theirs} was not written by graph-retrieve (not overwritten; pass another --cache-dir, or --no-cache)`,
    ]);
    expect(readFileSync(theirs, "utf8")).toBe('{"mine": true}\n');
    expect(listTree(cacheDir)).toEqual([INDEX_FILE]);
    expect(comparable(codeGraph).graph).toEqual((await uncached(root)).graph);
  });

  it("a store written before cache tags is still the index's: used, written again, and tagged", async () => {
    await buildGraph(root, { cacheDir });
    rmSync(join(cacheDir, CACHE_TAG_FILE));
    appendFileSync(join(root, "src/models/money.ts"), "\nexport const later = 1;\n");
    const warm = await buildGraph(root, { cacheDir });
    expect(warm.cache).toMatchObject({ found: true, parsed: 1, saved: true });
    expect(listTree(cacheDir)).toEqual([CACHE_TAG_FILE, FACTS_FILE, GRAPH_FILE, INDEX_FILE]);
    expect(readFileSync(join(cacheDir, CACHE_TAG_FILE), "utf8")).toMatch(/^Signature: 8a477f597d28d172789f06886806bc55\n/);
  });

  it("two builds of the same root at once leave a whole, usable store", async () => {
    const both = await Promise.all([buildGraph(root, { cacheDir }), buildGraph(root, { cacheDir })]);
    expect(comparable(both[0])).toEqual(comparable(both[1]));
    JSON.parse(readFileSync(join(cacheDir, INDEX_FILE), "utf8"));
    expect(listTree(cacheDir)).toEqual([CACHE_TAG_FILE, FACTS_FILE, GRAPH_FILE, INDEX_FILE]); // no temp file left behind
    const next = await buildGraph(root, { cacheDir });
    expect(next.cache).toMatchObject({ found: true, parsed: 0, graphReused: true });
  });

  it("without cacheDir a build writes nothing and reports no index", async () => {
    const before = listTree(tmp.dir);
    const codeGraph = await buildGraph(root);
    expect(codeGraph.cache).toMatchObject({ dir: undefined, found: false, parsed: codeGraph.stats.files, saved: false });
    expect(listTree(tmp.dir)).toEqual(before);
  });

  it("an unwritable index folder is a warning, and the build still succeeds", async () => {
    writeFileSync(join(tmp.dir, "a-file"), "");
    const codeGraph = await buildGraph(root, { cacheDir: join(tmp.dir, "a-file", "cache") });
    expect(codeGraph.diagnostics.some((d) => d.kind === "warning" && d.message.startsWith("store: could not write"))).toBe(true);
    expect(comparable(codeGraph).files).toEqual((await uncached(root)).files);
  });
});
