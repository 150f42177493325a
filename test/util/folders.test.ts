/**
 * Folder helpers over root-relative paths: whether a folder holds a file
 * of a sorted list (a binary search) must agree with the folders derived
 * from every path, on this project's own files and on names that sort
 * between a folder and its files ("src/a-b" < "src/a/").
 */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { scanFiles } from "../../src/scan/index.js";
import { foldersOf, holdsPathIn } from "../../src/util/folders.js";
import { byCodeUnit, isSortedByCodeUnit } from "../../src/util/sort.js";

const PROJECT = fileURLToPath(new URL("../..", import.meta.url));

/** Every folder of the paths, and names beside them that hold nothing: each with a suffix that sorts before "/". */
function candidates(paths: readonly string[]): string[] {
  const folders = foldersOf(paths);
  return [...folders, ...folders.flatMap((f) => (f === "" ? [] : [`${f}-x`, `${f}.d`, `${f} `, `${f}/none`])), "nowhere"];
}

describe("holdsPathIn", () => {
  it("agrees with the folders derived from every path, on this project's files", async () => {
    const scan = await scanFiles(PROJECT, { include: ["src/**", "test/**", "scripts/**"] });
    const paths = scan.files.map((f) => f.path);
    expect(paths.length).toBeGreaterThan(100);
    expect(isSortedByCodeUnit(paths)).toBe(true);
    const folders = new Set(foldersOf(paths));
    for (const folder of candidates(paths)) expect(holdsPathIn(paths, folder), folder).toBe(folders.has(folder));
  });

  it("a folder whose name is a prefix of a sibling's, files that sort between them, and an empty list", () => {
    const paths = ["src/a-b/c.ts", "src/a.ts", "src/a/b.ts", "src/ab.ts", "src/b/x/y.ts"].sort(byCodeUnit);
    const folders = new Set(foldersOf(paths));
    for (const folder of candidates(paths)) expect(holdsPathIn(paths, folder), folder).toBe(folders.has(folder));
    expect(holdsPathIn(paths, "src/a")).toBe(true);
    expect(holdsPathIn(paths, "src/b")).toBe(true);
    expect(holdsPathIn(paths, "src/a.ts")).toBe(false);
    expect(holdsPathIn([], "")).toBe(false);
    expect(holdsPathIn([], "src")).toBe(false);
    expect(isSortedByCodeUnit(["b", "a"])).toBe(false);
  });
});
