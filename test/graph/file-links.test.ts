/**
 * The graph's relations (graph/file-links.ts): what a retrieval reads of
 * the graph. Stored with the facts they read back the same; a warm build
 * hands them out without reading graph.json, which is read (or, gone,
 * assembled again) only when something reads the graph itself.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildGraph, retrieve } from "../../src/index.js";
import { buildFileRelations, decodeFileRelations, encodeFileRelations, type FileLinks, type FileRelations } from "../../src/graph/file-links.js";
import { GRAPH_FILE } from "../../src/store/index.js";
import { comparable, copyFixture, makeTempDir, uncached } from "../store/helpers.js";

let tmp: { dir: string; cleanup: () => void };
let root: string;
let cacheDir: string;

beforeEach(() => {
  tmp = makeTempDir("gr-relations-");
  root = copyFixture("auth-service", join(tmp.dir, "root"));
  cacheDir = join(tmp.dir, "cache");
});
afterEach(() => tmp.cleanup());

/** Every file's links (as entries, in their order: the order is part of what must hold) and uses. */
function plain(relations: FileRelations, files: readonly string[]) {
  const rows = (map: FileLinks["out"]) => files.map((file) => [file, map.get(file) && [...map.get(file)!]]);
  return { out: rows(relations.links.out), in: rows(relations.links.in), uses: files.map((file) => [file, relations.uses.get(file)]) };
}

describe("file relations", () => {
  it("link files that import or use each other, weighted, and list each file's uses of other files' symbols", async () => {
    const { compact } = await buildGraph(root);
    const relations = buildFileRelations(compact);
    const tokens = "src/auth/tokens.ts";
    // tokens.ts imports the JWT helpers and uses what they define
    const helpers = [...(relations.links.out.get(tokens)?.keys() ?? [])];
    expect(helpers).toContain("src/auth/jwt-utils.ts");
    expect(relations.links.in.get("src/auth/jwt-utils.ts")?.get(tokens)).toBe(relations.links.out.get(tokens)?.get("src/auth/jwt-utils.ts"));
    expect(relations.uses.get(tokens)?.some((use) => use.file === "src/auth/jwt-utils.ts" && use.count >= 1)).toBe(true);
  });

  it("read back from their bytes are the same, in the same order; other bytes are refused", async () => {
    const { compact } = await buildGraph(root);
    const bytes = encodeFileRelations(compact);
    const framed = new Uint8Array(bytes.length + 5);
    framed.set(bytes, 5);
    const files = compact.nodes.filter((_id, i) => compact.attributes[i]!.kind === "file");
    expect(plain(decodeFileRelations(framed.subarray(5))!, files)).toEqual(plain(buildFileRelations(compact), files));
    expect(decodeFileRelations(bytes.subarray(0, bytes.length - 2))).toBeUndefined();
    expect(decodeFileRelations(new Uint8Array(40))).toBeUndefined();
  });

  it("a warm build reads them from the index, not graph.json; the graph itself is read, or made again, when asked for", async () => {
    const task = "Fix the authentication token expiry bug";
    const cold = await retrieve(task, { root, cacheDir });
    const stored = readFileSync(join(cacheDir, GRAPH_FILE));
    // graph.json damaged after the index was written: a retrieval never notices
    writeFileSync(join(cacheDir, GRAPH_FILE), "{");
    const warm = await retrieve(task, { root, cacheDir });
    expect(warm.files).toEqual(cold.files);
    expect(warm.cycles).toEqual(cold.cycles);
    // reading the graph then assembles it from the facts: the same graph
    const built = await buildGraph(root, { cacheDir });
    expect(built.cache).toMatchObject({ parsed: 0, graphReused: true, saved: false });
    expect(comparable(built)).toEqual(await uncached(root));
    // and with graph.json whole, it is read from there
    writeFileSync(join(cacheDir, GRAPH_FILE), stored);
    const again = await buildGraph(root, { cacheDir });
    const files = [...again.files.keys()];
    expect(plain(again.relations, files)).toEqual(plain(buildFileRelations(again.compact), files));
    expect(comparable(again)).toEqual(await uncached(root));
  });
});
