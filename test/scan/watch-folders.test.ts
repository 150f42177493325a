/**
 * The watch of a resident process: which folders it watches, and that a
 * change in one of them is reported (the daemon's refresh on it is tested
 * in test/cli/daemon.test.ts, the MCP server's in test/mcp).
 */
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readWatchLimit, watchFolders, watchIsReliable, type WatchLimit } from "../../src/scan/watch-folders.js";
import { foldersOf } from "../../src/util/folders.js";

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
  it("a change in a watched folder is reported; a folder no longer followed is not watched", async () => {
    let changes = 0;
    const lines: string[] = [];
    const watch = watchFolders(root, () => void changes++, (line) => lines.push(line));
    watch.followFolders(foldersOf(["src/a/one.ts", "top.ts"]));
    expect(watch.size).toBe(3); // the root, src and src/a
    appendFileSync(join(root, "src/a/one.ts"), "export const two = 2;\n");
    await waitFor(() => changes > 0);
    expect(changes).toBeGreaterThan(0);
    watch.followFolders(foldersOf(["top.ts"]));
    expect(watch.size).toBe(1);
    const before = changes;
    appendFileSync(join(root, "src/a/one.ts"), "export const three = 3;\n");
    await new Promise((done) => setTimeout(done, 200));
    expect(changes).toBe(before);
    // a folder that is gone is left out without a word
    watch.followFolders(foldersOf(["gone/file.ts", "top.ts"]));
    expect(watch.size).toBe(1);
    expect(lines).toEqual([]);
    watch.close();
    expect(watch.size).toBe(0);
  });

  it("watches the folders it is given, says whether all are watched, and flush reports at once", async () => {
    mkdirSync(join(root, "docs"));
    const reports: Array<string[] | undefined> = [];
    const watch = watchFolders(root, (paths) => void reports.push(paths ? [...paths].sort() : undefined), () => undefined);
    // a folder with no indexed file (docs) is watched when the walk read it: a source file made there is seen
    expect(watch.followFolders(["", "docs", "src", "src/a"])).toEqual({ added: 4, complete: true });
    expect(watch.complete).toBe(true);
    writeFileSync(join(root, "docs", "new.ts"), "export const late = 1;\n");
    await waitFor(() => reports.flat().includes("docs/new.ts"));
    expect(reports.flat()).toContain("docs/new.ts");
    // the same folders again: none added
    expect(watch.followFolders(["", "docs", "src", "src/a"])).toEqual({ added: 0, complete: true });
    // a folder that cannot be watched leaves the watch incomplete
    expect(watch.followFolders(["", "gone"]).complete).toBe(false);
    expect(watch.complete).toBe(false);
    // flush: the events received so far are reported without waiting for the burst to settle
    watch.followFolders(["", "src/a"]);
    reports.length = 0;
    appendFileSync(join(root, "top.ts"), "export const flushed = 1;\n");
    await new Promise((done) => setImmediate(done));
    for (let i = 0; i < 50 && reports.length === 0; i++) {
      watch.flush();
      await new Promise((done) => setImmediate(done));
    }
    expect(reports.flat()).toContain("top.ts");
    watch.close();
    expect(watch.complete).toBe(false);
  });

  it("a burst of more events than inotify may queue is reported as anything changed", async () => {
    if (process.platform !== "linux") return;
    const limit = Number.parseInt(readFileSync("/proc/sys/fs/inotify/max_queued_events", "utf8"), 10);
    const reports: Array<string[] | undefined> = [];
    const watch = watchFolders(root, (paths) => void reports.push(paths ? [...paths] : undefined), () => undefined);
    watch.followFolders(["", "src", "src/a"]);
    // more than half the queue's events (create, then write: two each), faster than a settle
    const files = Math.ceil(limit / 4) + 100;
    for (let i = 0; i < files; i++) writeFileSync(join(root, "src", "a", `f${i}.ts`), "x\n");
    await waitFor(() => reports.includes(undefined));
    watch.close();
    expect(reports).toContain(undefined);
  });

  it("trusts a watch on Linux's local file systems, and on nothing else", () => {
    if (process.platform !== "linux") {
      expect(watchIsReliable(root)).toBe(false);
      return;
    }
    expect(watchIsReliable(root)).toBe(true); // the temporary folder: ext4, tmpfs or overlayfs
    expect(watchIsReliable("/proc")).toBe(false); // procfs changes raise no inotify event
    expect(watchIsReliable(join(root, "missing"))).toBe(false);
  });

  it("reports the root-relative paths a burst of events named", async () => {
    const reports: Array<string[] | undefined> = [];
    const watch = watchFolders(root, (paths) => void reports.push(paths ? [...paths].sort() : undefined), () => undefined);
    watch.followFolders(foldersOf(["src/a/one.ts", "top.ts"]));
    appendFileSync(join(root, "src/a/one.ts"), "export const two = 2;\n");
    appendFileSync(join(root, "top.ts"), "export const more = 2;\n");
    await waitFor(() => reports.flat().includes("top.ts") && reports.flat().includes("src/a/one.ts"));
    watch.close();
    expect(reports.every((paths) => paths !== undefined)).toBe(true);
    expect([...new Set(reports.flat())].sort()).toEqual(["src/a/one.ts", "top.ts"]);
  });

  it("a folder removed and made again under the same path (a branch switch) is watched again when followed: an edit in it, and in its subfolder, is seen", async () => {
    mkdirSync(join(root, "src/a/deep"));
    writeFileSync(join(root, "src/a/deep/two.ts"), "export const two = 2;\n");
    const reports: Array<string[] | undefined> = [];
    const watch = watchFolders(root, (paths) => void reports.push(paths ? [...paths].sort() : undefined), () => undefined);
    const folders = ["", "src", "src/a", "src/a/deep"];
    expect(watch.followFolders(folders)).toEqual({ added: 4, complete: true });
    // what git does to a folder a checkout changes wholly: removed with what it holds, then written anew
    rmSync(join(root, "src/a"), { recursive: true });
    mkdirSync(join(root, "src/a/deep"), { recursive: true });
    writeFileSync(join(root, "src/a/one.ts"), "export const one = 10;\n");
    writeFileSync(join(root, "src/a/deep/two.ts"), "export const two = 20;\n");
    await waitFor(() => reports.flat().includes("src/a"));
    expect(reports.flat()).toContain("src/a");
    // the walk that follows finds the same folders: the two made anew are watched again (the old watches see nothing now)
    expect(watch.followFolders(folders)).toEqual({ added: 2, complete: true });
    expect(watch.size).toBe(4);
    reports.length = 0;
    appendFileSync(join(root, "src/a/one.ts"), "export const three = 3;\n");
    appendFileSync(join(root, "src/a/deep/two.ts"), "export const four = 4;\n");
    await waitFor(() => reports.flat().includes("src/a/one.ts") && reports.flat().includes("src/a/deep/two.ts"));
    expect([...new Set(reports.flat())].sort()).toEqual(["src/a/deep/two.ts", "src/a/one.ts"]);
    // nothing changed since: the next follow adds nothing
    expect(watch.followFolders(folders)).toEqual({ added: 0, complete: true });
    watch.close();
    expect(watch.size).toBe(0);
  });

  it("a delete, a rename and a folder of 1,000 files moved are each named; the moved folder is watched at its new path once followed", async () => {
    mkdirSync(join(root, "src/big"));
    for (let i = 0; i < 1000; i++) writeFileSync(join(root, "src/big", `f${i}.ts`), `export const f${i} = ${i};\n`);
    const reports: Array<string[] | undefined> = [];
    const watch = watchFolders(root, (paths) => void reports.push(paths ? [...paths].sort() : undefined), () => undefined);
    expect(watch.followFolders(["", "src", "src/a", "src/big"])).toEqual({ added: 4, complete: true });
    rmSync(join(root, "top.ts"));
    renameSync(join(root, "src/a/one.ts"), join(root, "src/a/uno.ts"));
    renameSync(join(root, "src/big"), join(root, "src/moved"));
    const named = () => new Set(reports.flat());
    await waitFor(() => ["top.ts", "src/a/one.ts", "src/a/uno.ts", "src/big", "src/moved"].every((path) => named().has(path)));
    // (the moved folder's own watch names it too, as an entry of itself: "src/big/big", a path of no file)
    expect([...named()].filter((path) => path !== "src/big/big").sort()).toEqual(["src/a/one.ts", "src/a/uno.ts", "src/big", "src/moved", "top.ts"]);
    // the walk after it: src/big is gone, src/moved is new
    expect(watch.followFolders(["", "src", "src/a", "src/moved"])).toEqual({ added: 1, complete: true });
    expect(watch.size).toBe(4);
    reports.length = 0;
    appendFileSync(join(root, "src/moved/f500.ts"), "export const later = 1;\n");
    await waitFor(() => named().has("src/moved/f500.ts"));
    expect([...named()]).toEqual(["src/moved/f500.ts"]);
    watch.close();
  });

  it("watches no folder when the scan walks more than the limit leaves, and says why; within it, every one", () => {
    for (let i = 0; i < 12; i++) mkdirSync(join(root, "pkgs", `p${i}`), { recursive: true });
    const folders = ["", "pkgs", ...Array.from({ length: 12 }, (_, i) => `pkgs/p${i}`)];
    const low: WatchLimit = { max: 1100, held: 70, folders: 6, source: "fs.inotify.max_user_watches" };
    const lines: string[] = [];
    const watch = watchFolders(root, () => undefined, (line) => lines.push(line), { limit: low });
    expect(watch.followFolders(folders)).toEqual({ added: 0, complete: false });
    expect(watch.size).toBe(0);
    expect(watch.note).toBe(
      "the scan walks 14 folders, and the system's limit leaves 6 (fs.inotify.max_user_watches 1100, 70 held by running processes, 1024 left for them); raise it with sysctl fs.inotify.max_user_watches",
    );
    expect(lines).toEqual([`not watching the root: ${watch.note}; requests still see every edit, by checking each file`]);
    // fewer folders, within the limit: all watched, nothing to say
    expect(watch.followFolders(folders.slice(0, 5))).toEqual({ added: 5, complete: true });
    expect(watch.note).toBeUndefined();
    watch.close();
  });

  it.runIf(process.platform === "linux")("reads the system's limit and the watches processes hold; a closed watch holds none", () => {
    const max = Number.parseInt(readFileSync("/proc/sys/fs/inotify/max_user_watches", "utf8"), 10);
    for (let i = 0; i < 30; i++) mkdirSync(join(root, "many", `f${i}`), { recursive: true });
    const before = readWatchLimit();
    expect(before).toMatchObject({ max, source: "fs.inotify.max_user_watches" });
    expect(before.folders).toBe(Math.max(0, max - before.held - Math.max(1024, Math.floor(max / 8))));
    const watch = watchFolders(root, () => undefined, () => undefined);
    expect(watch.followFolders(["", "many", ...Array.from({ length: 30 }, (_, i) => `many/f${i}`)]).complete).toBe(true);
    // this process's 32 watches are counted (other processes may take or give back some meanwhile: vitest's own workers)
    expect(readWatchLimit().held).toBeGreaterThanOrEqual(32);
    watch.close();
    const after = readWatchLimit();
    expect(after.held).toBeLessThan(before.held + 32);
  });
});
