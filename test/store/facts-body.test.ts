/**
 * facts.bin read as it is asked for: a loaded store's heavy facts are the
 * bytes of the build index.json named, even once another build replaced
 * the file; many ranges asked for (a store write) read the rest at once;
 * a file cut short says so in one line.
 */
import { readFileSync, realpathSync, renameSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildGraph } from "../../src/index.js";
import { openFactsFile } from "../../src/store/facts-body.js";
import { createStoreHeader, FACTS_FILE, loadIndexStore, saveIndexStore } from "../../src/store/index.js";
import { copyFixture, makeTempDir } from "./helpers.js";

let tmp: { dir: string; cleanup: () => void };
beforeEach(() => (tmp = makeTempDir("gr-facts-")));
afterEach(() => tmp.cleanup());

/** A facts file: a header line, then `count` records of different lengths, one after another. */
function writeRecords(path: string, count: number): Array<[number, string]> {
  const records: Array<[number, string]> = [];
  let at = 0;
  let body = "";
  for (let i = 0; i < count; i++) {
    const text = `{"record":${i},"pad":"${"x".repeat(100 + (i % 17))}"}`;
    records.push([at, text]);
    body += text;
    at += text.length;
  }
  writeFileSync(path, `{"header":"h"}\n${body}`, "latin1");
  return records;
}

describe("facts.bin read on demand", () => {
  it("gives each range's bytes, before and after it reads the rest at once, and keeps them when the file is replaced", () => {
    const path = join(tmp.dir, FACTS_FILE);
    const records = writeRecords(path, 600);
    const { head, body } = openFactsFile(path);
    expect(head).toBe('{"header":"h"}');
    // another build's file renamed over this one: the open file is still the one read
    const next = join(tmp.dir, "next.bin");
    writeFileSync(next, `{"header":"other"}\n${"y".repeat(50_000)}`, "latin1");
    renameSync(next, path);
    for (const [at, text] of records) expect(body.bytes(at, text.length).toString("latin1")).toBe(text);
    // read whole by now: the same bytes again, in any order
    for (const [at, text] of [...records].reverse()) expect(body.bytes(at, text.length).toString("latin1")).toBe(text);
  });

  it("a file cut short after it was opened fails in one line that says what to do", () => {
    const path = join(tmp.dir, FACTS_FILE);
    const records = writeRecords(path, 5000);
    const { body } = openFactsFile(path);
    truncateSync(path, 200);
    const [at, text] = records.at(-1)!;
    expect(() => body.bytes(at, text.length)).toThrow(/^store: .*facts\.bin ended early; delete the index folder to rebuild it, or pass --no-cache$/);
  });

  it("a file without a header line has no head (the store calls it damaged)", () => {
    const path = join(tmp.dir, FACTS_FILE);
    writeFileSync(path, "x".repeat(100_000), "latin1");
    expect(openFactsFile(path).head).toBeUndefined();
  });

  it("a store loaded before another build rewrote the index reads its own build's facts, and writes them back whole", async () => {
    const root = realpathSync(copyFixture("graph-basics", join(tmp.dir, "root")));
    const cacheDir = join(tmp.dir, "cache");
    await buildGraph(root, { cacheDir });
    const header = createStoreHeader(root);
    const expected = (await loadIndexStore(cacheDir, header)).store;
    const definitions = Object.fromEntries(Object.entries(expected.files).map(([path, entry]) => [path, entry.parsed.definitions]));
    const lazy = await loadIndexStore(cacheDir, header);
    // every file's facts change (a first line more moves every definition), and the index is written again
    for (const path of Object.keys(definitions)) writeFileSync(join(root, path), `// a line added by the test\n${readFileSync(join(root, path), "utf8")}`);
    const rebuilt = await buildGraph(root, { cacheDir });
    expect(rebuilt.cache?.parsed).toBe(Object.keys(definitions).length);
    for (const [path, entry] of Object.entries(lazy.store.files)) expect(entry.parsed.definitions).toEqual(definitions[path]);
    // written elsewhere from the lazily read store, and read back: the same facts
    const copy = join(tmp.dir, "copy");
    await saveIndexStore(copy, lazy.store);
    rmSync(cacheDir, { recursive: true });
    const again = await loadIndexStore(copy, header);
    expect(again.found).toBe(true);
    for (const [path, entry] of Object.entries(again.store.files)) expect(entry.parsed.definitions).toEqual(definitions[path]);
  });

  it("a file's definitions and exports read alone are those of its whole facts, and stay the same arrays once the rest is read", async () => {
    const root = realpathSync(copyFixture("auth-service", join(tmp.dir, "root")));
    const cacheDir = join(tmp.dir, "cache");
    const fresh = await buildGraph(root, { cacheDir });
    const header = createStoreHeader(root);
    const lazy = (await loadIndexStore(cacheDir, header)).store;
    const files = Object.entries(lazy.files);
    expect(files.filter(([, entry]) => entry.parsed.exports.length > 0).length).toBeGreaterThan(3);
    for (const [path, entry] of files) {
      const whole = fresh.files.get(path)!;
      // the names first, as a task naming an identifier reads them
      const definitions = entry.parsed.definitions;
      const exports = entry.parsed.exports;
      expect(definitions).toEqual(whole.definitions);
      expect(exports).toEqual(whole.exports);
      // then the rest: equal to the fresh facts, and the names are the arrays handed out before
      expect(entry.parsed.references).toEqual(whole.references);
      expect(entry.parsed.vocabulary).toEqual(whole.vocabulary);
      expect(entry.parsed.imports).toEqual(whole.imports);
      expect(entry.parsed.literals).toEqual(whole.literals);
      expect(entry.parsed.definitions).toBe(definitions);
      expect(entry.parsed.exports).toBe(exports);
    }
    // read in the other order (the rest first), the same facts
    const other = (await loadIndexStore(cacheDir, header)).store;
    for (const [path, entry] of Object.entries(other.files)) {
      expect(entry.parsed.references).toEqual(fresh.files.get(path)!.references);
      expect(entry.parsed.definitions).toEqual(fresh.files.get(path)!.definitions);
    }
  });
});
