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

  it("on a generated tree of nested folders, links, build output and ignore files, finds what a walk without a snapshot finds, round after round of changes", async ({ expect }) => {
    // a fixed sequence (no randomness between runs): folders a0..a5, each with subfolders b0..b2, each with c0..c1
    const files: Record<string, string> = { ".gitignore": "*.log\n", "AGENTS.md": "# agents\n" };
    const folders: string[] = [];
    for (let a = 0; a < 6; a++) {
      for (let b = 0; b < 3; b++) {
        for (let c = 0; c < 2; c++) {
          const folder = `a${a}/b${b}/c${c}`;
          folders.push(folder);
          files[`${folder}/m${a}${b}${c}.ts`] = `export const m${a}${b}${c} = ${a + b + c};\n`;
        }
        files[`a${a}/b${b}/index.ts`] = `export * from "./c0/m${a}${b}0";\n`;
      }
    }
    files["a1/b1/.gitignore"] = "c1/\n";
    files["a2/build/index.js"] = "module.exports = 1;\n";
    files["a2/build/index.d.ts"] = "export {};\n";
    const root = await treeOf(files);
    await symlink("AGENTS.md", join(root, "CLAUDE.md"));
    await symlink("../c0/m300.ts", join(root, "a3/b0/c1/linked.ts"));
    await symlink(join(root, "a4/b2"), join(root, "a5/b1/c0/linked-folder"));
    await symlink(join(root, "a0"), join(root, "a4/b0/c1/outside-a0"));
    await age();
    const changes: Array<() => Promise<void>> = [
      async () => {
        await writeFile(join(root, "a0/b0/c0/added.ts"), "export const added = 1;\n");
        await rm(join(root, "a5/b2/c1/m521.ts"));
        await writeFile(join(root, "a3/b0/c0/m300.ts"), "export const m300 = 300;\nexport const more = 1;\n");
      },
      async () => {
        await writeFile(join(root, "a1/b1/.gitignore"), "c0/\n");
        await symlink("../c1/m401.ts", join(root, "a4/b0/c0/linked-again.ts"));
        await mkdir(join(root, "a2/b2/c1/new"));
        await writeFile(join(root, "a2/b2/c1/new/deep.ts"), "export const deep = 1;\n");
      },
      async () => {
        await rm(join(root, "a3/b0/c1/linked.ts"));
        await writeFile(join(root, "a2/build/extra.ts"), "export const extra = 1;\n");
        await writeFile(join(root, "top.ts"), "export const top = 1;\n");
      },
    ];
    let last = await walk(root);
    expect(last.result).toEqual(await scanFiles(root));
    for (const change of changes) {
      await change();
      await age();
      // the folders changed are read again; then, from the snapshot that walk made, the tree is taken whole (but the
      // folders holding a link and the build folder): each finds what a walk without a snapshot finds
      const next = await walk(root, last.snapshot);
      expect(next.result).toEqual(await scanFiles(root));
      const whole = await walk(root, next.snapshot);
      expect(whole.read).toEqual(expect.arrayContaining(["", "a2/build", "a5/b1/c0"]));
      expect(whole.taken).toEqual(expect.arrayContaining(["a0", "a3/b0", "a5/b1"]));
      expect(whole.result).toEqual(next.result);
      last = whole;
    }
    expect(last.result.files.map((f) => f.path)).toEqual(expect.arrayContaining(["a0/b0/c0/added.ts", "a2/b2/c1/new/deep.ts", "top.ts", "a1/b1/c1/m111.ts"]));
    expect(folders.length).toBe(36);
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
