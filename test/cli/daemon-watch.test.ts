/**
 * The daemon's watch: which folders it watches, and that a change in one
 * of them is reported (the refresh itself is tested in daemon.test.ts).
 */
import { appendFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { foldersOf, watchFolders } from "../../src/cli/daemon-watch.js";

let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "gr-watch-")));
  mkdirSync(join(root, "src/a"), { recursive: true });
  writeFileSync(join(root, "src/a/one.ts"), "export const one = 1;\n");
  writeFileSync(join(root, "top.ts"), "export const top = 1;\n");
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((done) => setTimeout(done, 20));
};

describe("daemon watch", () => {
  it("foldersOf: the root and each folder holding a file, once, sorted", () => {
    expect(foldersOf(["src/a/one.ts", "top.ts", "src/b.ts", "src/a/two.ts"])).toEqual([".", "src", "src/a"]);
    expect(foldersOf([])).toEqual(["."]);
  });

  it("a change in a watched folder is reported; a folder no longer followed is not watched", async () => {
    let changes = 0;
    const lines: string[] = [];
    const watch = watchFolders(root, () => void changes++, (line) => lines.push(line));
    watch.follow(["src/a/one.ts", "top.ts"]);
    expect(watch.size).toBe(2);
    appendFileSync(join(root, "src/a/one.ts"), "export const two = 2;\n");
    await waitFor(() => changes > 0);
    expect(changes).toBeGreaterThan(0);
    watch.follow(["top.ts"]);
    expect(watch.size).toBe(1);
    const before = changes;
    appendFileSync(join(root, "src/a/one.ts"), "export const three = 3;\n");
    await new Promise((done) => setTimeout(done, 200));
    expect(changes).toBe(before);
    // a folder that is gone is left out without a word
    watch.follow(["gone/file.ts", "top.ts"]);
    expect(watch.size).toBe(1);
    expect(lines).toEqual([]);
    watch.close();
    expect(watch.size).toBe(0);
  });
});
