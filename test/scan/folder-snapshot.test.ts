/**
 * A walk that takes the folders unchanged since the last walk from that
 * walk's snapshot instead of reading them: on real trees, each checked
 * against a walk without any snapshot. A folder's times are trusted only
 * 2 s after they were set, so each tree here is aged that long first.
 */
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, it } from "vitest";
import { scanFiles, type FolderSnapshot } from "../../src/scan/index.js";

const made: string[] = [];
afterAll(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** Past the 2 s within which a folder's times are not trusted (scan-files.ts RACY_MS). */
const AGE_MS = 2100;

async function treeOf(files: Record<string, string>): Promise<string> {
  const root = await realpath(await mkdtemp(join(tmpdir(), "gr-folders-")));
  made.push(root);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

const age = () => new Promise((resolve) => setTimeout(resolve, AGE_MS));

/** A walk given the last snapshot: the folders it read, those it took unread, its result and snapshot. */
async function walk(root: string, last?: FolderSnapshot) {
  const read: string[] = [];
  const taken: string[] = [];
  let found: { snapshot: FolderSnapshot; changed: boolean } | undefined;
  const result = await scanFiles(root, {}, { onFolder: (path, entries) => void (entries ? read : taken).push(path), folders: { ...(last ? { last } : {}), found: (m) => void (found = m) } });
  return { result, read: read.sort(), taken: taken.sort(), snapshot: found!.snapshot, changed: found!.changed };
}

/** TREE aged past 2 s, and a first walk of it (no snapshot before). */
async function walkedTree() {
  const root = await treeOf(TREE);
  await age();
  return { root, first: await walk(root) };
}

const TREE = {
  ".gitignore": "*.log\n",
  "src/index.ts": 'export * from "./util";\n',
  "src/util.ts": "export const one = 1;\n",
  "src/deep/inner.ts": "export const inner = 2;\n",
  "lib/old.js": "module.exports = 1;\n",
  "docs/readme.md": "# docs\n",
  "docs/example.ts": "export const example = 3;\n",
};

// concurrent: each test ages its own tree (2 s or more)
describe.concurrent("a walk that takes unchanged folders from the last walk", () => {
  it("takes every folder of an unchanged tree unread and finds the same files, its snapshot unchanged", async ({ expect }) => {
    const { root, first } = await walkedTree();
    expect(first.taken).toEqual([]);
    expect(first.changed).toBe(true);
    expect(first.read).toEqual(["", "docs", "lib", "src", "src/deep"]);
    const second = await walk(root, first.snapshot);
    expect(second.read).toEqual([]);
    expect(second.taken).toEqual(first.read);
    expect(second.result).toEqual(await scanFiles(root));
    expect(second.changed).toBe(false);
  });

  it("reads again only the folders where a file was added or removed, or a folder made, and then sees the change", async ({ expect }) => {
    const { root, first } = await walkedTree();
    await writeFile(join(root, "src/added.ts"), "export const added = 4;\n");
    await rm(join(root, "lib/old.js"));
    await mkdir(join(root, "docs/more"));
    await writeFile(join(root, "docs/more/new.ts"), "export const more = 5;\n");
    const second = await walk(root, first.snapshot);
    expect(second.read).toEqual(["docs", "docs/more", "lib", "src"]);
    expect(second.taken).toEqual(["", "src/deep"]);
    const paths = second.result.files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(["src/added.ts", "docs/more/new.ts"]));
    expect(paths).not.toContain("lib/old.js");
    expect(second.result).toEqual(await scanFiles(root));
    expect(second.changed).toBe(true);
  });

  it("takes an unchanged tree whole: a file edited in place is looked at again, and skipped files are reported again", async ({ expect }) => {
    const root = await treeOf({ ...TREE, "src/blob.ts": "\u0000\u0001binary", "src/made.ts": "// @generated\nexport const made = 7;\n" });
    await age();
    const first = await walk(root);
    // edited in place: the folder's times do not move, the file's size does
    await writeFile(join(root, "src/util.ts"), "export const one = 1;\nexport const two = 2;\n");
    const known = new Map(first.result.files.map((f) => [f.path, { size: f.size, mtimeMs: f.mtimeMs }]));
    const taken: string[] = [];
    const second = await scanFiles(root, {}, { known: (path) => known.get(path), onFolder: (path, entries) => void (entries ? undefined : taken.push(path)), folders: { last: first.snapshot } });
    expect(taken.sort()).toEqual(first.read);
    expect(second).toEqual(await scanFiles(root));
    expect(second.files.find((f) => f.path === "src/util.ts")?.size).toBeGreaterThan(known.get("src/util.ts")!.size);
    expect(second.diagnostics.map((d) => d.path)).toEqual(["src/blob.ts", "src/made.ts"]);
  });

  it("walks every folder again when a .gitignore changed in place (its folder's times do not move)", async ({ expect }) => {
    const { root, first } = await walkedTree();
    await writeFile(join(root, ".gitignore"), "*.log\nsrc/util.ts\n");
    const second = await walk(root, first.snapshot);
    expect(second.result.files.map((f) => f.path)).not.toContain("src/util.ts");
    expect(second.result).toEqual(await scanFiles(root));
    expect(second.read).toEqual(first.read);
  });

  it("reads a folder again while its times are within 2 s of the walk that saw them, then takes it once past", async ({ expect }) => {
    const root = await treeOf(TREE);
    await age();
    await writeFile(join(root, "src/fresh.ts"), "export const fresh = 6;\n");
    const first = await walk(root);
    const second = await walk(root, first.snapshot);
    expect(second.read).toEqual(["src"]);
    // nothing new to tell a later walk yet: the folder is still too close to this walk's start
    expect(second.changed).toBe(false);
    await age();
    const third = await walk(root, second.snapshot);
    expect(third.read).toEqual(["src"]);
    expect(third.changed).toBe(true);
    expect((await walk(root, third.snapshot)).read).toEqual([]);
  });

  it("always reads a folder holding a symlink (its target may change without the folder)", async ({ expect }) => {
    const root = await treeOf(TREE);
    await symlink(join(root, "src/util.ts"), join(root, "docs/linked.ts"));
    await age();
    const first = await walk(root);
    const second = await walk(root, first.snapshot);
    expect(second.read).toEqual(["docs"]);
    expect(second.result).toEqual(await scanFiles(root));
  });

  it("takes the rest of a tree whole around the folders it always reads (links, build output), and finds what a walk finds", async ({ expect }) => {
    const root = await treeOf({
      ...TREE,
      "pkg/build/index.js": "module.exports = 1;\n",
      "pkg/build/index.d.ts": "export {};\n",
      "pkg/src/main.ts": "export const main = 8;\n",
      "docs/deeper/.gitignore": "skip.ts\n",
      "docs/deeper/kept.ts": "export const kept = 9;\n",
      "docs/deeper/skip.ts": "export const skip = 10;\n",
    });
    await symlink(join(root, "src/util.ts"), join(root, "docs/linked.ts"));
    await symlink(join(root, "src"), join(root, "docs/src-again"));
    await mkdir(join(root, "links"));
    await symlink(join(root, "pkg/src"), join(root, "links/pkg"));
    await age();
    const first = await walk(root);
    const second = await walk(root, first.snapshot);
    // the folders holding a link and the build folder are read again; every other folder is taken
    expect(second.read).toEqual(["docs", "links", "pkg/build"]);
    expect(second.taken).toEqual(expect.arrayContaining(["", "pkg", "pkg/src", "src", "src/deep"]));
    expect(second.taken).toEqual(first.read.filter((path) => !second.read.includes(path)));
    expect(second.result).toEqual(await scanFiles(root));
    // a folder reached through a link and by its plain path is walked once, under the plain one
    expect(second.result.files.map((f) => f.path)).toEqual(expect.arrayContaining(["pkg/src/main.ts", "docs/deeper/kept.ts"]));
    expect(second.result.files.map((f) => f.path).filter((path) => path.startsWith("links/") || path.startsWith("docs/src-again/"))).toEqual([]);
    expect(second.changed).toBe(false);
    // a file added in a folder read each time, and a rule changed under it: seen as a walk sees them
    await writeFile(join(root, "docs/added.ts"), "export const added = 11;\n");
    await writeFile(join(root, "docs/deeper/.gitignore"), "kept.ts\n");
    const third = await walk(root, second.snapshot);
    expect(third.result).toEqual(await scanFiles(root));
    expect(third.result.files.map((f) => f.path)).toEqual(expect.arrayContaining(["docs/added.ts", "docs/deeper/skip.ts"]));
    expect(third.result.files.map((f) => f.path)).not.toContain("docs/deeper/kept.ts");
  });

  it("reads a root holding a link (CLAUDE.md -> AGENTS.md) and takes every folder under it, and sees a file added beside the link", async ({ expect }) => {
    const root = await treeOf({ ...TREE, "AGENTS.md": "# agents\n" });
    await symlink("AGENTS.md", join(root, "CLAUDE.md"));
    await age();
    const first = await walk(root);
    const second = await walk(root, first.snapshot);
    expect(second.read).toEqual([""]);
    expect(second.taken).toEqual(["docs", "lib", "src", "src/deep"]);
    expect(second.result).toEqual(await scanFiles(root));
    expect(second.changed).toBe(false);
    await writeFile(join(root, "top.ts"), "export const top = 12;\n");
    await writeFile(join(root, "src/deep/inner.ts"), "export const inner = 13;\n");
    const third = await walk(root, second.snapshot);
    expect(third.result).toEqual(await scanFiles(root));
    expect(third.result.files.map((f) => f.path)).toContain("top.ts");
  });

  it("reads a folder holding a link inside a folder taken inside a root read: its files found, its record kept for the next walk", async ({ expect }) => {
    const root = await treeOf({ ...TREE, "AGENTS.md": "# agents\n", "src/deep/more/extra.ts": "export const extra = 14;\n" });
    await symlink("AGENTS.md", join(root, "CLAUDE.md"));
    await symlink("../inner.ts", join(root, "src/deep/more/inner-again.ts"));
    await age();
    const first = await walk(root);
    let last = first;
    for (let run = 0; run < 2; run++) {
      const next = await walk(root, last.snapshot);
      expect(next.read).toEqual(["", "src/deep/more"]);
      expect(next.taken).toEqual(["docs", "lib", "src", "src/deep"]);
      expect(next.result).toEqual(await scanFiles(root));
      expect(next.result.files.map((f) => f.path)).toContain("src/deep/more/extra.ts");
      expect(next.snapshot.folders.map((record) => record[0])).toContain("src/deep/more");
      last = next;
    }
  });

  it("does not use a damaged snapshot", async ({ expect }) => {
    const { root, first } = await walkedTree();
    const damaged = JSON.parse(JSON.stringify(first.snapshot)) as FolderSnapshot;
    (damaged.folders[1] as unknown[])[1] = "yesterday";
    const second = await walk(root, damaged);
    expect(second.taken).toEqual([]);
    expect(second.result).toEqual(await scanFiles(root));
  });
});
