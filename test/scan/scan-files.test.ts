import { chmod, mkdir, mkdtemp, realpath, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RootError, UsageError } from "../../src/errors.js";
import { rescanFiles, scanFiles } from "../../src/scan/index.js";
import type { ScanResult } from "../../src/types.js";

const isRootUser = process.getuid?.() === 0;

let dir: string;
const made: string[] = [];
const locked: string[] = [];

/** chmod 000, undone before cleanup. */
async function lock(path: string): Promise<void> {
  locked.push(path);
  await chmod(path, 0o000);
}

/** A fresh folder under the OS temp dir, removed after the test. */
async function makeTempDir(prefix = "gr-scan-"): Promise<string> {
  const created = await realpath(await mkdtemp(join(tmpdir(), prefix)));
  made.push(created);
  return created;
}

/** Write files (path → content) under `base`, creating folders. */
async function writeTree(base: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(base, path)), { recursive: true });
    await writeFile(join(base, path), content);
  }
}

/** Create a symlink at `path` (under `base`) pointing to `target` as written. */
async function link(base: string, path: string, target: string): Promise<void> {
  await mkdir(dirname(join(base, path)), { recursive: true });
  await symlink(target, join(base, path));
}

const pathsOf = (result: ScanResult) => result.files.map((file) => file.path);
const diagnosticsOf = (result: ScanResult) => result.diagnostics.map((d) => [d.path, d.message]);

beforeEach(async () => {
  dir = await makeTempDir();
});

afterEach(async () => {
  for (const path of locked.splice(0)) await chmod(path, 0o755).catch(() => undefined);
  for (const path of made.splice(0)) await rm(path, { recursive: true, force: true });
});

describe("scanFiles: extensions and file facts", () => {
  it("keeps TypeScript and JavaScript sources, flags declaration files, and ignores the rest", async () => {
    await writeTree(dir, {
      "src/a.ts": "export const a = 1;\n",
      "src/b.tsx": "export const B = () => <div />;\n",
      "src/c.mts": "",
      "src/d.cts": "",
      "src/e.js": "",
      "src/f.jsx": "",
      "src/g.mjs": "",
      "src/h.cjs": "",
      "types/i.d.ts": "",
      "types/j.d.mts": "",
      "types/k.d.cts": "",
      "README.md": "# hi\n",
      "package.json": "{}",
      "src/style.css": "a{}",
      "src/UPPER.TS": "",
    });
    const result = await scanFiles(dir);
    expect(result.root).toBe(dir);
    expect(pathsOf(result)).toEqual([
      "src/UPPER.TS",
      "src/a.ts",
      "src/b.tsx",
      "src/c.mts",
      "src/d.cts",
      "src/e.js",
      "src/f.jsx",
      "src/g.mjs",
      "src/h.cjs",
      "types/i.d.ts",
      "types/j.d.mts",
      "types/k.d.cts",
    ]);
    expect(result.diagnostics).toEqual([]);
    const byPath = new Map(result.files.map((file) => [file.path, file]));
    expect(byPath.get("src/a.ts")).toMatchObject({
      absPath: join(dir, "src", "a.ts"),
      size: 20,
      language: "typescript",
      isDeclaration: false,
    });
    expect(byPath.get("src/a.ts")?.mtimeMs).toBeGreaterThan(0);
    expect(byPath.get("src/b.tsx")).toMatchObject({ language: "tsx", isDeclaration: false });
    expect(byPath.get("src/f.jsx")).toMatchObject({ language: "tsx" });
    expect(byPath.get("src/e.js")).toMatchObject({ language: "typescript" });
    for (const path of ["types/i.d.ts", "types/j.d.mts", "types/k.d.cts"]) {
      expect(byPath.get(path)).toMatchObject({ language: "typescript", isDeclaration: true });
    }
  });

  it("keeps empty files", async () => {
    await writeTree(dir, { "empty.ts": "" });
    const result = await scanFiles(dir);
    expect(result.files).toMatchObject([{ path: "empty.ts", size: 0 }]);
    expect(result.diagnostics).toEqual([]);
  });
});

describe("scanFiles: Python", () => {
  it("keeps .py and .pyi files (a stub as a declaration) and leaves out bytecode, virtual environments, tool caches and distribution metadata", async () => {
    await writeTree(dir, {
      "src/app/__init__.py": "",
      "src/app/models.py": "class User: ...\n",
      "src/app/models.pyi": "class User: ...\n",
      "src/app/__pycache__/models.cpython-312.py": "",
      "src/app.egg-info/top_level.py": "",
      ".venv/pyvenv.cfg": "home = /usr/bin\n",
      ".venv/lib/python3.12/site-packages/requests/api.py": "",
      "venv/pyvenv.cfg": "home = /usr/bin\n",
      "venv/bin/activate_this.py": "",
      "tools/.venv/conda-meta/history": "",
      "tools/.venv/bin/tool.py": "",
      // a package named venv (hatch's src/hatch/venv) is code, not an environment
      "src/app/venv/__init__.py": "",
      "src/app/venv/core.py": "",
      "tools/site-packages/six.py": "",
      ".tox/py312/lib/x.py": "",
      ".nox/tests/x.py": "",
      ".mypy_cache/3.12/app.py": "",
      ".pytest_cache/v/x.py": "",
      ".ruff_cache/x.py": "",
      "tests/test_models.py": "",
      "setup.py": "",
      "src/app/data.pyc": "",
    });
    const result = await scanFiles(dir);
    expect(pathsOf(result)).toEqual(["setup.py", "src/app/__init__.py", "src/app/models.py", "src/app/models.pyi", "src/app/venv/__init__.py", "src/app/venv/core.py", "tests/test_models.py"]);
    const byPath = new Map(result.files.map((file) => [file.path, file]));
    expect(byPath.get("src/app/models.py")).toMatchObject({ language: "python", isDeclaration: false });
    expect(byPath.get("src/app/models.pyi")).toMatchObject({ language: "python", isDeclaration: true });
  });

  it("reads a left-out Python folder an include glob names", async () => {
    await writeTree(dir, { "venv/tool.py": "", "app.py": "" });
    const result = await scanFiles(dir, { alsoInclude: ["venv/**"] });
    expect(pathsOf(result)).toEqual(["app.py", "venv/tool.py"]);
  });
});

describe("scanFiles: default excludes", () => {
  it("skips dependency, build, cache and VCS folders at any depth, but not other folders", async () => {
    await writeTree(dir, {
      "node_modules/lib/index.js": "",
      "packages/app/node_modules/lib/index.js": "",
      "dist/a.js": "",
      "build/a.js": "",
      "build/a.js.map": "",
      "packages/lib/build/index.js": "",
      "packages/lib/build/index.d.ts": "",
      "coverage/a.js": "",
      ".git/hooks/pre-commit.js": "",
      ".hg/a.js": "",
      ".svn/a.js": "",
      ".next/a.js": "",
      ".turbo/a.js": "",
      ".cache/a.js": "",
      "packages/app/dist/index.js": "",
      "out/a.js": "",
      "packages/app/src/index.ts": "",
      ".config/tool.ts": "",
    });
    const result = await scanFiles(dir);
    expect(pathsOf(result)).toEqual([".config/tool.ts", "out/a.js", "packages/app/src/index.ts"]);
    expect(result.diagnostics).toEqual([]);
  });

  it("reads a build folder of committed scripts, not one of output nor a gitignored one", async () => {
    await writeTree(dir, {
      "build/validate-exports.ts": "",
      "build/release.mjs": "",
      "web/build/index.html": "",
      "web/build/app.js": "",
      "ignored/.gitignore": "build/\n",
      "ignored/build/tool.ts": "",
      "src/index.ts": "",
    });
    const result = await scanFiles(dir);
    expect(pathsOf(result)).toEqual(["build/release.mjs", "build/validate-exports.ts", "src/index.ts"]);
    // an include glob naming it reads output too
    expect(pathsOf(await scanFiles(dir, { include: ["web/build/**"] }))).toEqual(["web/build/app.js"]);
  });

  it("leaves out a build folder that holds one build per target (build/legacy, build/modern), and reads one whose folders hold scripts", async () => {
    await writeTree(dir, {
      "pkg/build/legacy/query.js": "",
      "pkg/build/legacy/query.js.map": "",
      "pkg/build/legacy/query.d.ts": "",
      "pkg/build/modern/query.cjs": "",
      "pkg/build/modern/query.d.cts": "",
      "pkg/src/query.ts": "",
      "tools/build/release/publish.ts": "",
      "tools/build/release/notes.mjs": "",
      "mixed/build/legacy/a.js": "",
      "mixed/build/legacy/a.js.map": "",
      "mixed/build/scripts/check.ts": "",
    });
    const read: string[] = [];
    const result = await scanFiles(dir, {}, { onFolder: (path) => void read.push(path) });
    expect(pathsOf(result)).toEqual(["mixed/build/legacy/a.js", "mixed/build/scripts/check.ts", "pkg/src/query.ts", "tools/build/release/notes.mjs", "tools/build/release/publish.ts"]);
    // the folders read to decide are reported as read (a resident process watches them)
    expect(read).toEqual(expect.arrayContaining(["pkg/build", "pkg/build/legacy", "pkg/build/modern"]));
    // an include glob naming it reads it
    expect(pathsOf(await scanFiles(dir, { include: ["pkg/build/**"] }))).toEqual(["pkg/build/legacy/query.d.ts", "pkg/build/legacy/query.js", "pkg/build/modern/query.cjs", "pkg/build/modern/query.d.cts"]);
  });

  it("reads a left-out folder an include glob names (dist/**, packages/*/dist/**, **/build/**), never a VCS folder, and not for a glob that names no folder", async () => {
    await writeTree(dir, {
      "dist/a.js": "",
      "dist/node_modules/dep/index.js": "",
      "packages/app/dist/index.js": "",
      "packages/app/build/index.js": "",
      "packages/app/src/index.ts": "",
      "build/b.js": "",
      ".git/hooks/pre-commit.js": "",
    });
    expect(pathsOf(await scanFiles(dir, { include: ["dist/**"] }))).toEqual(["dist/a.js"]);
    expect(pathsOf(await scanFiles(dir, { include: ["dist"] }))).toEqual(["dist/a.js"]);
    expect(pathsOf(await scanFiles(dir, { include: ["./packages/*/dist/**"] }))).toEqual(["packages/app/dist/index.js"]);
    expect(pathsOf(await scanFiles(dir, { include: ["**/build/**"] }))).toEqual(["build/b.js", "packages/app/build/index.js"]);
    // the folder named, not its left-out subfolders
    expect(pathsOf(await scanFiles(dir, { include: ["dist/**/*.js"] }))).toEqual(["dist/a.js"]);
    // a glob that names no folder keeps the defaults (build folders without output in them are read anyway)
    expect(pathsOf(await scanFiles(dir, { include: ["**/*.js", "**/*.ts"] }))).toEqual(["build/b.js", "packages/app/build/index.js", "packages/app/src/index.ts"]);
    expect(pathsOf(await scanFiles(dir, { include: [".git/**"] }))).toEqual([]);
    // an exclude still wins
    expect(pathsOf(await scanFiles(dir, { include: ["dist/**"], exclude: ["dist/a.js"] }))).toEqual([]);
  });

  it("warns once when it finds no source file, naming what brings files in", async () => {
    await writeTree(dir, { "dist/index.js": "", "README.md": "" });
    const none = await scanFiles(dir);
    expect(none.files).toEqual([]);
    expect(none.diagnostics).toHaveLength(1);
    expect(none.diagnostics[0]?.kind).toBe("warning");
    expect(none.diagnostics[0]?.message).toMatch(/^no source file under the root \(.*--include 'dist\/\*\*'\)$/);
    const unmatched = await scanFiles(dir, { include: ["lib/**"] });
    expect(unmatched.diagnostics.map((d) => d.message)).toEqual([expect.stringMatching(/^no source file under the root matches the include globs/)]);
    // the hint works: the folder named, its file is found, and nothing is said
    const named = await scanFiles(dir, { include: ["dist/**"] });
    expect(pathsOf(named)).toEqual(["dist/index.js"]);
    expect(named.diagnostics).toEqual([]);
  });

  it("skips minified, bundled and generated-by-name files silently", async () => {
    await writeTree(dir, {
      "vendor/jquery.min.js": "",
      "vendor/lib.min.mjs": "",
      "vendor/lib-min.js": "",
      "public/app.bundle.js": "",
      "src/schema.generated.ts": "",
      "src/api.gen.ts": "",
      "src/minify.ts": "",
      "src/generator.ts": "",
    });
    const result = await scanFiles(dir);
    expect(pathsOf(result)).toEqual(["src/generator.ts", "src/minify.ts"]);
    expect(result.diagnostics).toEqual([]);
  });

  it("skips files whose first 512 bytes carry a generated-code marker, with a diagnostic each", async () => {
    await writeTree(dir, {
      "src/relay.ts": "/**\n * @generated SignedSource<<abc>>\n */\nexport {};\n",
      "src/proto.ts": "// This file is auto-generated by protoc-gen-ts.\nexport {};\n",
      "src/sqlc.ts": "// Code generated by sqlc. DO NOT EDIT.\nexport {};\n",
      "src/late.ts": `${"// plain comment line\n".repeat(30)}// @generated\n`,
      "src/hand.ts": "// Do not edit lightly: the retry policy is subtle.\nexport {};\n",
    });
    const result = await scanFiles(dir);
    expect(pathsOf(result)).toEqual(["src/hand.ts", "src/late.ts"]);
    expect(diagnosticsOf(result)).toEqual([
      ["src/proto.ts", 'skipped: generated file (its header says "auto-generated"; generated code is left out)'],
      ["src/relay.ts", 'skipped: generated file (its header says "@generated"; generated code is left out)'],
      ["src/sqlc.ts", 'skipped: generated file (its header says "DO NOT EDIT"; generated code is left out)'],
    ]);
    expect(result.diagnostics.every((d) => d.kind === "skipped")).toBe(true);
  });
});

describe("scanFiles: .gitignore", () => {
  it("applies the root .gitignore: names, folders, anchored paths and negations", async () => {
    await writeTree(dir, {
      ".gitignore": "# comment\nsecret.ts\ntmp/\n/anchored.ts\nlogs/*\n!logs/keep.ts\n",
      "secret.ts": "",
      "deep/secret.ts": "",
      "tmp/a.ts": "",
      "deep/tmp/a.ts": "",
      "anchored.ts": "",
      "deep/anchored.ts": "",
      "logs/drop.ts": "",
      "logs/keep.ts": "",
      "main.ts": "",
    });
    const result = await scanFiles(dir);
    expect(pathsOf(result)).toEqual(["deep/anchored.ts", "logs/keep.ts", "main.ts"]);
  });

  it("applies the repository's .git/info/exclude under the root .gitignore, which can re-include what it leaves out", async () => {
    await writeTree(dir, {
      ".git/info/exclude": "scratch/\nlocal-*.ts\n",
      ".gitignore": "!local-keep.ts\n",
      "scratch/a.ts": "",
      "local-notes.ts": "",
      "local-keep.ts": "",
      "main.ts": "",
    });
    expect(pathsOf(await scanFiles(dir))).toEqual(["local-keep.ts", "main.ts"]);
  });

  it("reads no .git/info/exclude through a .git file (a worktree's points outside the root) or a symlink", async () => {
    await writeTree(dir, { ".git": "gitdir: /elsewhere/.git/worktrees/x\n", "scratch/a.ts": "", "main.ts": "" });
    expect(pathsOf(await scanFiles(dir))).toEqual(["main.ts", "scratch/a.ts"]);
    const other = join(dir, "..", `${basename(dir)}-exclude`);
    await writeTree(other, { "exclude": "scratch/\n" });
    await rm(join(dir, ".git"));
    await writeTree(dir, { ".git/info/.keep": "" });
    await symlink(join(other, "exclude"), join(dir, ".git/info/exclude"));
    try {
      expect(pathsOf(await scanFiles(dir))).toEqual(["main.ts", "scratch/a.ts"]);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it("applies a nested .gitignore to its own subtree only, and lets it re-include what the root left out", async () => {
    await writeTree(dir, {
      ".gitignore": "*.tmp.ts\n",
      "a.tmp.ts": "",
      "pkg/.gitignore": "local.ts\n!important.tmp.ts\n/only-here.ts\n",
      "pkg/local.ts": "",
      "pkg/sub/local.ts": "",
      "pkg/only-here.ts": "",
      "pkg/sub/only-here.ts": "",
      "pkg/important.tmp.ts": "",
      "pkg/other.tmp.ts": "",
      "pkg/index.ts": "",
      "other/local.ts": "",
      "other/only-here.ts": "",
      "other/important.tmp.ts": "",
    });
    const result = await scanFiles(dir);
    expect(pathsOf(result)).toEqual([
      "other/local.ts",
      "other/only-here.ts",
      "pkg/important.tmp.ts",
      "pkg/index.ts",
      "pkg/sub/only-here.ts",
    ]);
  });

  it("never enters an ignored folder, even to honour a negation inside it (as git)", async () => {
    await writeTree(dir, {
      ".gitignore": "gen/\n!gen/keep.ts\n",
      "gen/keep.ts": "",
      "gen/drop.ts": "",
      "gen/.gitignore": "!*.ts\n",
      "main.ts": "",
    });
    expect(pathsOf(await scanFiles(dir))).toEqual(["main.ts"]);
  });

  it("matches case-sensitively, as git does on Linux", async () => {
    await writeTree(dir, { ".gitignore": "Secret.ts\n", "secret.ts": "", "Secret.ts": "" });
    expect(pathsOf(await scanFiles(dir))).toEqual(["secret.ts"]);
  });
});

describe("scanFiles: include and exclude globs", () => {
  beforeEach(async () => {
    await writeTree(dir, {
      "src/a.ts": "",
      "src/a.test.ts": "",
      "src/legacy/old.ts": "",
      "src/deep/b.tsx": "",
      "scripts/build.mjs": "",
      "lib/x/y.js": "",
      ".config/tool.ts": "",
    });
  });

  it("keeps only files an include glob matches; a glob matching a folder covers its subtree", async () => {
    const result = await scanFiles(dir, { include: ["src/**/*.ts", "lib"] });
    expect(pathsOf(result)).toEqual(["lib/x/y.js", "src/a.test.ts", "src/a.ts", "src/legacy/old.ts"]);
  });

  it("leaves out files and folders an exclude glob matches, and exclude beats include", async () => {
    const result = await scanFiles(dir, {
      include: ["src/**", "scripts/build.mjs"],
      exclude: ["**/*.test.ts", "src/legacy", "./scripts/build.mjs"],
    });
    expect(pathsOf(result)).toEqual(["src/a.ts", "src/deep/b.tsx"]);
  });

  it("matches dotfiles and dot-folders", async () => {
    expect(pathsOf(await scanFiles(dir, { include: ["**/*.ts"], exclude: ["src/**"] }))).toEqual([".config/tool.ts"]);
    expect(pathsOf(await scanFiles(dir, { exclude: [".config/**"] }))).not.toContain(".config/tool.ts");
  });

  it("rejects an unusable pattern with a UsageError", async () => {
    await expect(scanFiles(dir, { exclude: [""] })).rejects.toThrow(UsageError);
    await expect(scanFiles(dir, { exclude: [""] })).rejects.toThrow(/^scan: exclude pattern "" is not a valid glob \(/);
  });
});

describe("scanFiles: binary and oversized files", () => {
  it("skips a file with a NUL byte in its first 8 KiB, keeps one whose NUL comes later", async () => {
    await writeTree(dir, {
      "data.ts": Buffer.from([0x65, 0x78, 0x00, 0x01, 0x02]),
      "late-nul.ts": Buffer.concat([Buffer.from("x".repeat(9000)), Buffer.from([0])]),
      "text.ts": "export {};\n",
    });
    const result = await scanFiles(dir);
    expect(pathsOf(result)).toEqual(["late-nul.ts", "text.ts"]);
    expect(result.diagnostics).toEqual([
      {
        kind: "skipped",
        path: "data.ts",
        message: "skipped: binary file (a NUL byte in its first 8 KiB; only text source is read)",
      },
    ]);
  });

  it("skips files over maxFileBytes with a diagnostic naming size and limit; a file at the limit is kept", async () => {
    await writeTree(dir, { "big.ts": "x".repeat(300), "edge.ts": "x".repeat(100), "small.ts": "x" });
    const result = await scanFiles(dir, { maxFileBytes: 100 });
    expect(pathsOf(result)).toEqual(["edge.ts", "small.ts"]);
    expect(result.diagnostics).toEqual([
      {
        kind: "skipped",
        path: "big.ts",
        message: "skipped: 300 bytes over the 100 bytes limit (raise --max-file-bytes to include it)",
      },
    ]);
  });

  it("uses a 1 MiB limit by default", async () => {
    await writeTree(dir, { "huge.js": Buffer.alloc(3 * 1048576, 0x61), "ok.js": Buffer.alloc(1048576, 0x61) });
    const result = await scanFiles(dir);
    expect(pathsOf(result)).toEqual(["ok.js"]);
    expect(diagnosticsOf(result)).toEqual([
      ["huge.js", "skipped: 3.0 MiB over the 1 MiB limit (raise --max-file-bytes to include it)"],
    ]);
  });

  it("rejects a limit that is not a positive number", async () => {
    await expect(scanFiles(dir, { maxFileBytes: 0 })).rejects.toThrow(UsageError);
    await expect(scanFiles(dir, { maxFileBytes: Number.NaN })).rejects.toThrow(/^scan: maxFileBytes must be/);
  });
});

describe("scanFiles: files the index knows", () => {
  it("takes a known file with the same size and mtime from a stat, and reads the head of any other", async () => {
    // NUL bytes: a head read would skip it as binary, so finding it shows the head was not read
    await writeTree(dir, { "a.ts": Buffer.from([0x61, 0x00, 0x62]), "b.ts": "export const b = 1;\n" });
    const a = await stat(join(dir, "a.ts"));
    const known = (size: number, mtimeMs: number) => (path: string) => (path === "a.ts" ? { size, mtimeMs } : undefined);
    const trusted = await scanFiles(dir, {}, { known: known(a.size, a.mtimeMs) });
    expect(pathsOf(trusted)).toEqual(["a.ts", "b.ts"]);
    expect(trusted.files[0]).toMatchObject({ size: 3, mtimeMs: a.mtimeMs, language: "typescript" });
    // another mtime or size: read again, and found binary
    for (const hint of [known(a.size, a.mtimeMs - 1000), known(a.size + 1, a.mtimeMs)]) {
      const read = await scanFiles(dir, {}, { known: hint });
      expect(pathsOf(read)).toEqual(["b.ts"]);
      expect(diagnosticsOf(read)).toEqual([["a.ts", expect.stringMatching(/^skipped: binary/)]]);
    }
    // known, but over the size limit now: reported as ever
    const small = await scanFiles(dir, { maxFileBytes: 2 }, { known: known(a.size, a.mtimeMs) });
    expect(pathsOf(small)).not.toContain("a.ts");
    expect(diagnosticsOf(small)).toContainEqual(["a.ts", "skipped: 3 bytes over the 2 bytes limit (raise --max-file-bytes to include it)"]);
  });
});

describe("scanFiles: the .gitignore rules the known files were scanned under", () => {
  it("takes known files and their folders without asking rules that are as before, and asks them when the rules changed", async () => {
    await writeTree(dir, {
      ".gitignore": "gen/\nsecret.ts\n",
      "b.ts": "export const b = 1;\n",
      "secret.ts": "export const s = 1;\n",
      "gen/a.ts": "export const a = 1;\n",
      "gen/sub/c.ts": "export const c = 1;\n",
      "gen/bin.ts": Buffer.from([0x61, 0x00, 0x62]),
    });
    let key = "";
    const plain = await scanFiles(dir, {}, { ignoreKey: { found: (k) => (key = k) } });
    expect(pathsOf(plain)).toEqual(["b.ts"]);
    expect(key).toMatch(/^[0-9a-f]{40}$/);
    // an index that knew these files under the same rules: they were not ignored then, so they are taken without
    // asking (the rules would leave them out: taking them shows they were not asked)
    const stats = new Map<string, { size: number; mtimeMs: number }>();
    for (const path of ["secret.ts", "gen/a.ts", "gen/sub/c.ts"]) {
      const info = await stat(join(dir, path));
      stats.set(path, { size: info.size, mtimeMs: info.mtimeMs });
    }
    const known = (path: string) => stats.get(path);
    const knownFolders = new Set(["gen", "gen/sub"]);
    let again = "";
    const trusted = await scanFiles(dir, {}, { known, ignoreKey: { known: key, knownFolders, found: (k) => (again = k) } });
    expect(again).toBe(key);
    expect(pathsOf(trusted)).toEqual(["b.ts", "gen/a.ts", "gen/sub/c.ts", "secret.ts"]);
    // rules other than those: asked after all, and what the walk met inside the folder they leave out is dropped
    const asked = await scanFiles(dir, {}, { known, ignoreKey: { known: "another key", knownFolders } });
    expect(asked).toEqual(plain);
    // the key is the rules' text: another text, another key
    await writeFile(join(dir, ".gitignore"), "gen/\n");
    let edited = "";
    const after = await scanFiles(dir, {}, { known, ignoreKey: { known: key, knownFolders, found: (k) => (edited = k) } });
    expect(edited).not.toBe(key);
    expect(pathsOf(after)).toEqual(["b.ts", "secret.ts"]);
    expect(after).toEqual(await scanFiles(dir));
  });
});

describe("scanFiles: candidates as the walk finds them", () => {
  it("tells the running count after each folder, before any head is read", async () => {
    await writeTree(dir, { "a.ts": "", "b.ts": "", "src/c.ts": "", "src/d.ts": Buffer.from([0]), "src/deep/e.ts": "", "README.md": "" });
    const counts: number[] = [];
    const result = await scanFiles(dir, {}, { onCandidates: (count) => counts.push(count) });
    expect(counts).toHaveLength(3); // root, src, src/deep
    expect([...counts].sort((a, b) => a - b)).toEqual(counts);
    // d.ts is a candidate until its head (a NUL byte) is read
    expect(counts.at(-1)).toBe(5);
    expect(pathsOf(result)).toEqual(["a.ts", "b.ts", "src/c.ts", "src/deep/e.ts"]);
  });
});

describe("scanFiles: symlinks", () => {
  it("ends on symlink cycles and lists each real file once", async () => {
    await writeTree(dir, { "src/a.ts": "", "src/deep/b.ts": "" });
    await link(dir, "src/loop", "..");
    await link(dir, "src/deep/up", "../..");
    await link(dir, "src/self", "self");
    await link(dir, "ping.ts", "pong.ts");
    await link(dir, "pong.ts", "ping.ts");
    const result = await scanFiles(dir);
    expect(pathsOf(result)).toEqual(["src/a.ts", "src/deep/b.ts"]);
    expect(diagnosticsOf(result)).toEqual([
      ["ping.ts", "skipped: broken symlink (ELOOP: it points back to itself)"],
      ["pong.ts", "skipped: broken symlink (ELOOP: it points back to itself)"],
      ["src/self", "skipped: broken symlink (ELOOP: it points back to itself)"],
    ]);
  });

  it("never follows a symlink out of the root and never names its target", async () => {
    const outside = await makeTempDir("gr-scan-outside-");
    await writeTree(outside, { "secret-token.ts": "export const token = 1;\n", "lib/outside-only.ts": "" });
    await writeTree(dir, { "src/a.ts": "" });
    await link(dir, "src/leak.ts", join(outside, "secret-token.ts"));
    await link(dir, "vendor", join(outside, "lib"));
    await link(dir, "up", "..");
    const result = await scanFiles(dir);
    expect(pathsOf(result)).toEqual(["src/a.ts"]);
    expect(diagnosticsOf(result)).toEqual([
      ["src/leak.ts", "skipped: symlink points outside the root (only files under the root are read)"],
      ["up", "skipped: symlink points outside the root (only files under the root are read)"],
      ["vendor", "skipped: symlink points outside the root (only files under the root are read)"],
    ]);
    const everything = JSON.stringify(result);
    expect(everything).not.toContain(outside);
    expect(everything).not.toContain("secret-token");
    expect(everything).not.toContain("outside-only");
    expect(result.files.every((file) => file.absPath.startsWith(`${dir}/`))).toBe(true);
  });

  it("keeps a symlinked file only when its real target is not scanned already, preferring the plain path", async () => {
    await writeTree(dir, {
      ".gitignore": "hidden/\n",
      "src/a.ts": "export const a = 1;\n",
      "hidden/h.ts": "export const h = 1;\n",
      "hidden/i.ts": "",
    });
    await link(dir, "alias.ts", "src/a.ts"); // duplicate of a scanned file: dropped
    await link(dir, "z-link.ts", "hidden/h.ts"); // target ignored: kept under a link path…
    await link(dir, "y-link.ts", "hidden/h.ts"); // …the first in path order
    await link(dir, "mirror", "src"); // a linked folder already walked: nothing new
    const result = await scanFiles(dir);
    expect(pathsOf(result)).toEqual(["src/a.ts", "y-link.ts"]);
    const yLink = result.files.find((file) => file.path === "y-link.ts");
    expect(yLink).toMatchObject({ absPath: join(dir, "hidden", "h.ts"), size: 20 });
    expect(result.diagnostics).toEqual([]);
  });

  it("walks a linked folder whose target was not walked, under the link path, once", async () => {
    await writeTree(dir, { ".gitignore": "hidden/\n", "hidden/h.ts": "", "hidden/sub/i.ts": "" });
    await link(dir, "exposed", "hidden");
    await link(dir, "sub-again", "hidden/sub"); // inside a folder "exposed" walks first (path order): nothing new
    await link(dir, "hidden-file.ts", "hidden/h.ts"); // a link to a file that "exposed/h.ts" already holds
    const result = await scanFiles(dir);
    expect(pathsOf(result)).toEqual(["exposed/h.ts", "exposed/sub/i.ts"]);
    expect(result.files[1]?.absPath).toBe(join(dir, "hidden", "sub", "i.ts"));
  });

  it("prefers the plain path even when a link to the same file sorts first", async () => {
    await writeTree(dir, { "z/real.ts": "" });
    await link(dir, "a-link.ts", "z/real.ts");
    await link(dir, "a-dir", "z");
    expect(pathsOf(await scanFiles(dir))).toEqual(["z/real.ts"]);
  });

  it("reports a broken symlink", async () => {
    await link(dir, "gone.ts", "missing.ts");
    await writeTree(dir, { "ok.ts": "" });
    const result = await scanFiles(dir);
    expect(pathsOf(result)).toEqual(["ok.ts"]);
    expect(diagnosticsOf(result)).toEqual([["gone.ts", "skipped: broken symlink (ENOENT: its target does not exist)"]]);
  });
});

describe("scanFiles: root errors", () => {
  it("throws RootError for a missing root", async () => {
    const missing = join(dir, "nope");
    await expect(scanFiles(missing)).rejects.toThrow(RootError);
    await expect(scanFiles(missing)).rejects.toThrow(
      `scan: root "${missing}" does not exist (pass --root with an existing folder)`,
    );
  });

  it("throws RootError when the root is a file", async () => {
    await writeTree(dir, { "file.ts": "" });
    const file = join(dir, "file.ts");
    const error = await scanFiles(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RootError);
    expect(error).toMatchObject({ code: "root", message: `scan: root "${file}" is a file, not a folder (pass --root with the project folder)` });
  });

  it.skipIf(isRootUser)("throws RootError when the root cannot be read", async () => {
    await lock(dir);
    await expect(scanFiles(dir)).rejects.toThrow(RootError);
  });
});

describe.skipIf(isRootUser)("scanFiles: unreadable entries", () => {
  it("reports an unreadable file, folder or .gitignore and goes on", async () => {
    await writeTree(dir, { "locked.ts": "", "closed/x.ts": "", "open.ts": "", "pkg/.gitignore": "a.ts\n", "pkg/a.ts": "" });
    await lock(join(dir, "locked.ts"));
    await lock(join(dir, "closed"));
    await lock(join(dir, "pkg", ".gitignore"));
    const result = await scanFiles(dir);
    expect(pathsOf(result)).toEqual(["open.ts", "pkg/a.ts"]);
    expect(result.diagnostics).toEqual([
      { kind: "skipped", path: "closed", message: "skipped: folder cannot be read (EACCES; check its permissions)" },
      { kind: "skipped", path: "locked.ts", message: "skipped: file cannot be read (EACCES; check its permissions)" },
      {
        kind: "warning",
        path: "pkg/.gitignore",
        message: "ignore rules not applied: .gitignore cannot be read (EACCES; check its permissions)",
      },
    ]);
  });
});

describe("scanFiles: determinism and scale", () => {
  it("returns the same result run after run, sorted by plain string order", async () => {
    await writeTree(dir, {
      "b.ts": "",
      "B.ts": "",
      "a/z.ts": "",
      "a-b.ts": "",
      "a.b/c.ts": "",
      "_x.ts": "",
      "big.ts": "x".repeat(50),
      "bin.ts": Buffer.from([0]),
    });
    await link(dir, "l1", "a");
    await link(dir, "l2.ts", "b.ts");
    const first = await scanFiles(dir, { maxFileBytes: 10 });
    const second = await scanFiles(dir, { maxFileBytes: 10 });
    expect(second).toEqual(first);
    expect(pathsOf(first)).toEqual(["B.ts", "_x.ts", "a-b.ts", "a.b/c.ts", "a/z.ts", "b.ts"]);
    expect(first.diagnostics.map((d) => d.path)).toEqual(["big.ts", "bin.ts"]);
  });

  it("scans a few thousand files across many folders", async () => {
    const files: Record<string, string> = {};
    for (let d = 0; d < 50; d++) for (let f = 0; f < 60; f++) files[`pkg${d}/src/file${f}.ts`] = `export const v${f} = ${d};\n`;
    await writeTree(dir, files);
    const result = await scanFiles(dir);
    expect(result.files).toHaveLength(3000);
    expect(pathsOf(result)).toEqual(Object.keys(files).sort());
  });
});

describe("rescanFiles: a scan again, when a watch says which files changed", () => {
  it("looks at the named files again and takes the others as they were, without reading a folder", async () => {
    await writeTree(dir, { "src/a.ts": "export const a = 1;\n", "src/b.ts": "export const b = 1;\n" });
    const first = await scanFiles(dir);
    await writeFile(join(dir, "src/a.ts"), "export const a = 1;\nexport const more = 2;\n");
    await writeTree(dir, { "src/unseen.ts": "" }); // not named: a rescan does not look for it
    const again = rescanFiles(first, ["src/a.ts"]);
    expect(pathsOf(again as ScanResult)).toEqual(["src/a.ts", "src/b.ts"]);
    expect(again?.files[0]?.size).toBe((await stat(join(dir, "src/a.ts"))).size);
    expect(again?.files[1]).toBe(first.files[1]);
    expect(pathsOf(await scanFiles(dir))).toEqual(["src/a.ts", "src/b.ts", "src/unseen.ts"]);
  });

  it("gives up (a full scan can tell) on a path that is no file of the scan, a removed file or one now skipped", async () => {
    await writeTree(dir, { "src/a.ts": "export const a = 1;\n", "src/b.ts": "", "tsconfig.json": "{}" });
    const first = await scanFiles(dir);
    expect(rescanFiles(first, ["src/new.ts"])).toBeUndefined();
    expect(rescanFiles(first, ["src"])).toBeUndefined();
    expect(rescanFiles(first, ["tsconfig.json"])).toBeUndefined();
    await rm(join(dir, "src/b.ts"));
    expect(rescanFiles(first, ["src/b.ts"])).toBeUndefined();
    await writeFile(join(dir, "src/a.ts"), "// @generated\nexport const a = 1;\n");
    expect(rescanFiles(first, ["src/a.ts"])).toBeUndefined();
    await writeFile(join(dir, "src/a.ts"), "x".repeat(2000));
    expect(rescanFiles(first, ["src/a.ts"], { maxFileBytes: 1000 })).toBeUndefined();
  });
});
