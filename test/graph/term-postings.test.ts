/**
 * The term postings (graph/term-postings.ts): built from a real fixture's
 * facts they say what each file's vocabulary says; written by the index
 * and read back they are the same; a warm build reads them from the index
 * and reads no file's heavy facts to build the lexical index.
 */
import { appendFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildGraph } from "../../src/index.js";
import { buildTermPostings, decodeTermPostings, encodeTermPostings, FIELDS, pathTerms, updateTermPostings, type TermPostings } from "../../src/graph/term-postings.js";
import { createIndexMemory, flushIndexMemory } from "../../src/graph/index-memory.js";
import { buildLexicalIndex } from "../../src/retrieve/lexical-index.js";
import type { ParsedFile } from "../../src/types.js";
import { copyFixture, makeTempDir } from "../store/helpers.js";

let tmp: { dir: string; cleanup: () => void };
let root: string;

beforeEach(() => {
  tmp = makeTempDir("gr-postings-");
  root = copyFixture("auth-service", join(tmp.dir, "root"));
});
afterEach(() => tmp.cleanup());

/** What the postings say of every term and file, as plain data. */
function dump(postings: TermPostings) {
  const terms = [...postings.terms()].sort();
  return {
    paths: postings.paths,
    terms: terms.map((term) => ({
      term,
      files: Array.from(postings.postings(term) ?? []),
      counts: Array.from(postings.postings(term) ?? []).map((i) => Array.from(postings.countsIn(term, i) ?? [])),
      df: postings.documentFrequency.get(term),
      code: postings.codeFrequency.get(term),
    })),
    lengths: postings.paths.map((_p, i) => [...postings.lengths(i)]),
    totals: [...postings.lengthTotals()],
    barrels: postings.paths.map((_p, i) => postings.isBarrel(i)),
  };
}

/** A file's count of `term` in each field, from its facts. */
function countsFromFacts(file: ParsedFile, term: string): number[] {
  const { name, folder } = pathTerms(file.path);
  const of = ({ terms, counts }: { terms: string[]; counts: number[] }) => counts[terms.indexOf(term)] ?? 0;
  return [name.get(term) ?? 0, folder.get(term) ?? 0, of(file.vocabulary.definitions), of(file.vocabulary.identifiers), of(file.vocabulary.comments)];
}

describe("term postings", () => {
  it("take a file's name terms without its source ending, in Python as in TypeScript", async () => {
    const files = [...(await buildGraph("fixtures/auth-service-py")).files.keys()];
    expect(files).toContain("auth_service/auth/session_manager.py");
    for (const path of files) expect([...pathTerms(path).name.keys()]).not.toContain("py");
    expect([...pathTerms("auth_service/auth/session_manager.py").name.keys()].sort()).toEqual(["manag", "session"]);
    expect([...pathTerms("src/types.d.ts").name.keys()]).toEqual(["type"]);
  });

  it("say, for every term, the files whose facts hold it and how often in each field", async () => {
    const codeGraph = await buildGraph(root);
    const files = [...codeGraph.files.values()];
    const postings = buildTermPostings(files);
    expect(postings.paths).toEqual(files.map((f) => f.path).sort());
    const token = postings.postings("token");
    expect(token?.length).toBeGreaterThan(1);
    for (const [i, path] of postings.paths.entries()) {
      const file = codeGraph.files.get(path)!;
      for (const term of ["token", "session", "user", "expiry"]) {
        const expected = countsFromFacts(file, term);
        const held = expected.some((c) => c > 0);
        expect(Array.from(postings.postings(term) ?? []).includes(i)).toBe(held);
        expect(postings.countsIn(term, i) === undefined ? undefined : Array.from(postings.countsIn(term, i)!)).toEqual(held ? expected : undefined);
      }
      expect(postings.lengths(i)[FIELDS.indexOf("identifiers")]).toBe(file.vocabulary.identifiers.counts.reduce((a, b) => a + b, 0));
    }
    // a term only in comments counts for the document frequency, not in code
    const commentOnly = [...postings.terms()].find((t) => postings.codeFrequency.get(t) === undefined);
    expect(commentOnly).toBeDefined();
    expect(postings.documentFrequency.get(commentOnly!)).toBeGreaterThan(0);
  });

  it("read back from their bytes are the same; other bytes are refused", async () => {
    const codeGraph = await buildGraph(root);
    const postings = buildTermPostings(codeGraph.files.values());
    const bytes = encodeTermPostings(postings);
    // at an odd offset of a larger buffer, as the index hands them over
    const framed = new Uint8Array(bytes.length + 3);
    framed.set(bytes, 3);
    const decoded = decodeTermPostings(framed.subarray(3));
    expect(decoded).toBeDefined();
    expect(dump(decoded!)).toEqual(dump(postings));
    // each field's total is the sum of the files' lengths, and not all zero
    const sums = FIELDS.map((_f, k) => postings.paths.reduce((total, _p, i) => total + postings.lengths(i)[k]!, 0));
    expect(decoded!.lengthTotals()).toEqual(sums);
    expect(sums.every((total) => total > 0)).toBe(true);
    expect(decodeTermPostings(bytes.subarray(0, bytes.length - 1))).toBeUndefined();
    expect(decodeTermPostings(new Uint8Array(64))).toBeUndefined();
  });

  it("a warm build takes them from the index, and its lexical index reads no file's heavy facts", async () => {
    const cacheDir = join(tmp.dir, "cache");
    const cold = await buildGraph(root, { cacheDir });
    const warm = await buildGraph(root, { cacheDir });
    expect(warm.cache).toMatchObject({ found: true, parsed: 0, graphReused: true });
    expect(dump(warm.postings)).toEqual(dump(cold.postings));
    const read: string[] = [];
    for (const file of warm.files.values()) {
      const vocabulary = Object.getOwnPropertyDescriptor(file, "vocabulary");
      // a file loaded from the index reads its heavy facts on first use
      expect(vocabulary?.get).toBeTypeOf("function");
      Object.defineProperty(file, "vocabulary", { get: () => (read.push(file.path), vocabulary!.get!.call(file)), enumerable: true, configurable: true });
    }
    const index = buildLexicalIndex(warm);
    expect(index.files.map((f) => [f.path, f.isBarrel, f.lengths])).toEqual(buildLexicalIndex(cold).files.map((f) => [f.path, f.isBarrel, f.lengths]));
    expect(index.documentFrequency.get("token")).toBe(cold.postings.documentFrequency.get("token"));
    expect(read).toEqual([]);
    // a file's counts come from the postings, equal to its field maps (which read its facts)
    const tokens = index.files.find((f) => f.path.includes("token"))!;
    expect(Array.from(tokens.termCounts("token")!)).toEqual(FIELDS.map((field) => tokens.fields[field].get("token") ?? 0));
    expect([...new Set(read)]).toEqual([tokens.path]);
  });

  it("tell whether some file's folders hold every one of a few terms, as the files' paths say, without splitting them", async () => {
    const cacheDir = join(tmp.dir, "cache");
    await buildGraph(root, { cacheDir });
    const warm = await buildGraph(root, { cacheDir });
    const folders = [...warm.files.keys()].map((path) => pathTerms(path).folder);
    const byPaths = (terms: string[]) => terms.length > 0 && folders.some((folder) => terms.every((term) => folder.has(term)));
    const index = buildLexicalIndex(warm);
    // every folder term, each pair of them, and terms held elsewhere (a name, a definition) or nowhere
    const folderTerms = [...new Set(folders.flatMap((folder) => [...folder.keys()]))].sort();
    expect(folderTerms.length).toBeGreaterThan(2);
    const asked = [...folderTerms.map((term) => [term]), ...folderTerms.flatMap((a) => folderTerms.map((b) => [a, b])), ["token"], ["src", "token"], ["zzzunheld"], ["src", "zzzunheld"], []];
    const answers = asked.map((terms) => index.folderHoldsAll(terms));
    expect(answers).toEqual(asked.map(byPaths));
    expect(answers.filter(Boolean).length).toBeGreaterThan(folderTerms.length);
    expect(answers.some((held) => !held)).toBe(true);
  });

  /** Edit the fixture: words added to one file, one file gone (with a word no other file has), one new, one renamed. */
  function editFixture(): { fresh: Set<string>; gone: string } {
    appendFileSync(join(root, "src/auth/tokens.ts"), "\nexport function quarantineWobbleToken(): number { return 1; } // zanzibar\n");
    const gone = "src/cache/lru-cache.ts";
    rmSync(join(root, gone));
    writeFileSync(join(root, "src/auth/otp-codes.ts"), "export const otpLength = 6; // one-time codes\nexport function makeOtp(seed: number): string { return String(seed).padStart(otpLength, '0'); }\n");
    renameSync(join(root, "src/logger.ts"), join(root, "src/log-writer.ts"));
    return { fresh: new Set(["src/auth/tokens.ts", "src/auth/otp-codes.ts", "src/log-writer.ts"]), gone };
  }

  it("updated with the changed files' facts alone are the postings built from every file's facts", async () => {
    const before = await buildGraph(root);
    const stored = decodeTermPostings(encodeTermPostings(buildTermPostings(before.files.values())))!;
    expect(stored.postings("lru")?.length).toBeGreaterThan(0);
    const { fresh, gone } = editFixture();
    const after = await buildGraph(root);
    const files = [...after.files.values()];
    const built = buildTermPostings(files);
    expect(built.paths).not.toContain(gone);
    const read: string[] = [];
    for (const file of files) {
      const vocabulary = file.vocabulary;
      Object.defineProperty(file, "vocabulary", { get: () => (read.push(file.path), vocabulary), enumerable: true, configurable: true });
    }
    const updated = updateTermPostings(stored, files, (path) => fresh.has(path))!;
    // only the changed files' facts were read
    expect(new Set(read)).toEqual(fresh);
    expect(Buffer.from(encodeTermPostings(updated)).equals(Buffer.from(encodeTermPostings(built)))).toBe(true);
    expect(dump(updated)).toEqual(dump(built));
    expect(updated.postings("zanzibar")?.length).toBe(1);
    // from postings made in memory (not read back from bytes) too, and with every file taken as changed
    const inMemory = updateTermPostings(buildTermPostings(before.files.values()), files, (path) => fresh.has(path))!;
    expect(dump(inMemory)).toEqual(dump(built));
    expect(dump(updateTermPostings(stored, files, () => true)!)).toEqual(dump(built));
  });

  it("after an edit, the index's postings (on disk and in a resident process's memory) are those of a build from scratch", async () => {
    const cacheDir = join(tmp.dir, "cache");
    const memoryDir = join(tmp.dir, "memory-cache");
    const memory = createIndexMemory();
    await buildGraph(root, { cacheDir });
    await buildGraph(root, { cacheDir: memoryDir, memory });
    await flushIndexMemory(memory);
    editFixture();
    const fromScratch = dump((await buildGraph(root)).postings);
    const warm = await buildGraph(root, { cacheDir });
    // the renamed file keeps its facts: two parsed, three fresh for the postings
    expect(warm.cache?.parsed).toBe(2);
    expect(dump(warm.postings)).toEqual(fromScratch);
    const resident = await buildGraph(root, { cacheDir: memoryDir, memory });
    expect(dump(resident.postings)).toEqual(fromScratch);
    await flushIndexMemory(memory);
    // what each wrote is read back by the next build
    expect(dump((await buildGraph(root, { cacheDir })).postings)).toEqual(fromScratch);
    expect(dump((await buildGraph(root, { cacheDir: memoryDir })).postings)).toEqual(fromScratch);
    expect(readdirSync(cacheDir)).toContain("facts.bin");
  });
});
