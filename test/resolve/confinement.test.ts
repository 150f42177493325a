import fs from "node:fs";
import { mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { createResolver } from "../../src/resolve/index.js";
import { createRootHost } from "../../src/resolve/root-host.js";
import { loadTypescript } from "../../src/resolve/typescript.js";
import { writeTree } from "./helpers.js";

/** fs functions TypeScript's sys and this stage could read or stat with. */
const FS_FUNCTIONS = ["readFileSync", "statSync", "lstatSync", "readlinkSync", "existsSync", "readdirSync", "realpathSync", "accessSync", "openSync"] as const;

/** Records every path handed to fs while `run` runs. */
function recordFsPaths(run: () => void): string[] {
  const seen: string[] = [];
  const record = (path: unknown) => {
    if (typeof path === "string") seen.push(path);
    else if (path instanceof URL) seen.push(path.pathname);
  };
  const spies = FS_FUNCTIONS.map((name) => {
    const original = fs[name] as (...args: unknown[]) => unknown;
    return vi.spyOn(fs, name).mockImplementation(((...args: unknown[]) => {
      record(args[0]);
      return original.apply(fs, args);
    }) as never);
  });
  const originalNative = fs.realpathSync.native;
  const nativeSpy = vi.spyOn(fs.realpathSync, "native").mockImplementation(((...args: Parameters<typeof originalNative>) => {
    record(args[0]);
    return originalNative(...args);
  }) as typeof originalNative);
  try {
    run();
  } finally {
    for (const spy of spies) spy.mockRestore();
    nativeSpy.mockRestore();
  }
  return seen;
}

describe("the root is a wall", () => {
  const sandbox = realpathSync(mkdtempSync(join(tmpdir(), "graph-retrieve-resolve-")));
  const root = join(sandbox, "work", "project");
  writeTree(sandbox, {
    // Sentinels outside the root: nothing may read or stat them.
    "work/outside.json": JSON.stringify({ compilerOptions: { paths: { "@secret/*": ["./secret/*"] } } }),
    "work/secret/key.ts": "export const key = 1;\n",
    "work/node_modules/leftpad/package.json": JSON.stringify({ name: "leftpad", types: "index.d.ts" }),
    "work/node_modules/leftpad/index.d.ts": "export declare function leftpad(s: string): string;\n",
    "node_modules/@types/outer/index.d.ts": "export {};\n",
    "work/project/tsconfig.json": JSON.stringify({
      extends: "../outside.json",
      compilerOptions: { paths: { "@app/*": ["./src/*"], "@out/*": ["../secret/*"] } },
    }),
    "work/project/src/main.ts": 'import { key } from "../../secret/key";\n',
    "work/project/src/util.ts": "export const util = 1;\n",
    "work/project/packages/lib/tsconfig.json": JSON.stringify({ extends: ["../../tsconfig.json", "/etc/tsconfig.json"] }),
    "work/project/packages/lib/index.ts": "export {};\n",
  });
  // Links inside the root: one leading out (never followed), one leading to a sibling folder (followed).
  symlinkSync("../../secret", join(root, "src", "linked-out"));
  symlinkSync(join(sandbox, "work", "secret", "key.ts"), join(root, "src", "key-link.ts"));
  symlinkSync("../src", join(root, "packages", "linked-in"));
  afterAll(() => rmSync(sandbox, { recursive: true, force: true }));
  afterEach(() => vi.restoreAllMocks());

  const files = ["packages/lib/index.ts", "src/main.ts", "src/util.ts"];

  it("never reads or stats a path outside the root", () => {
    // TypeScript's own code is read from node_modules when the resolver first needs it: not a read of the codebase
    loadTypescript();
    let results: unknown[] = [];
    let diagnostics: unknown[] = [];
    const seen = recordFsPaths(() => {
      const resolver = createResolver(root, files);
      results = [
        resolver.resolve("src/main.ts", "../../secret/key", "static"),
        resolver.resolve("src/main.ts", "../outside.json", "static"),
        resolver.resolve("src/main.ts", "@out/key", "static"),
        resolver.resolve("src/main.ts", "@secret/key", "static"),
        resolver.resolve("src/main.ts", "leftpad", "static"),
        resolver.resolve("src/main.ts", "@app/util", "static"),
        resolver.resolve("src/main.ts", "outer", "reference"),
        resolver.resolve("src/main.ts", "../../outside.json", "reference"),
        resolver.resolve("packages/lib/index.ts", "../../src/util", "static"),
        resolver.resolve("src/main.ts", "./linked-out/key", "static"),
        resolver.resolve("src/main.ts", "./key-link", "static"),
        resolver.resolve("src/main.ts", "@app/linked-out/key", "static"),
        resolver.resolve("packages/lib/index.ts", "../linked-in/util", "static"),
      ];
      diagnostics = [...resolver.diagnostics];
    });
    expect(seen.length).toBeGreaterThan(0);
    const outside = seen.filter((path) => !(path === root || path.startsWith(`${root}/`)));
    expect(outside).toEqual([]);
    expect(results).toEqual([
      { from: "src/main.ts", specifier: "../../secret/key", external: false },
      { from: "src/main.ts", specifier: "../outside.json", external: false },
      { from: "src/main.ts", specifier: "@out/key", external: false },
      // Not an alias (the extends that would define it was not read) and not found: a package name.
      { from: "src/main.ts", specifier: "@secret/key", target: "pkg:@secret/key", external: true },
      { from: "src/main.ts", specifier: "leftpad", target: "pkg:leftpad", external: true },
      { from: "src/main.ts", specifier: "@app/util", target: "src/util.ts", external: false },
      { from: "src/main.ts", specifier: "outer", target: "pkg:outer", external: true },
      { from: "src/main.ts", specifier: "../../outside.json", external: false },
      { from: "packages/lib/index.ts", specifier: "../../src/util", target: "src/util.ts", external: false },
      { from: "src/main.ts", specifier: "./linked-out/key", external: false },
      { from: "src/main.ts", specifier: "./key-link", external: false },
      { from: "src/main.ts", specifier: "@app/linked-out/key", external: false },
      { from: "packages/lib/index.ts", specifier: "../linked-in/util", target: "src/util.ts", external: false },
    ]);
    expect(diagnostics).toEqual([
      {
        kind: "warning",
        path: "packages/lib/tsconfig.json",
        message: 'tsconfig extends "/etc/tsconfig.json", which is outside the root (not read; its options are ignored — widen the root or copy them in)',
      },
      {
        kind: "warning",
        path: "packages/lib/tsconfig.json",
        message: "tsconfig extends (through another config) ../outside.json, which is outside the root (not read; its options are ignored — widen the root or copy them in)",
      },
      {
        kind: "warning",
        path: "tsconfig.json",
        message: 'tsconfig extends "../outside.json", which is outside the root (not read; its options are ignored — widen the root or copy them in)',
      },
    ]);
  });

  it("answers 'absent' for outside paths without touching the disk", () => {
    const host = createRootHost(root, new Map());
    const seen = recordFsPaths(() => {
      expect(host.fileExists(join(sandbox, "work/outside.json"))).toBe(false);
      expect(host.readFile(join(sandbox, "work/outside.json"))).toBeUndefined();
      expect(host.directoryExists(join(sandbox, "work/secret"))).toBe(false);
      expect(host.getDirectories(sandbox)).toEqual([]);
      expect(host.realpath(join(sandbox, "work/secret/key.ts"))).toBe(join(sandbox, "work/secret/key.ts"));
      expect(host.fileExists(`${root}/../outside.json`)).toBe(false);
      expect(host.fileExists(`${root}-sibling/x.ts`)).toBe(false);
    });
    expect(seen).toEqual([]);
    expect(host.fileExists(join(root, "src/main.ts"))).toBe(true);
    expect(host.isInsideRoot(root)).toBe(true);
  });
});
