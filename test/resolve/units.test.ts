import { describe, expect, it } from "vitest";
import { builtinNameOf, isRelativeSpecifier, packageNameOf } from "../../src/resolve/index.js";
import { packageNameOfNodeModulesPath } from "../../src/resolve/package-name.js";
import { findSourceForBuildOutput, findSourceTwin } from "../../src/resolve/source-twins.js";
import { resolveWorkspaceEntry, type PackageManifest } from "../../src/resolve/workspace-packages.js";

describe("specifier text", () => {
  it.each([
    ["lodash", "lodash"],
    ["lodash/fp", "lodash"],
    ["@scope/pkg", "@scope/pkg"],
    ["@scope/pkg/deep/path.js", "@scope/pkg"],
    ["./x", undefined],
    ["../x", undefined],
    ["/abs/x", undefined],
    ["~/x", undefined],
    ["#internal", undefined],
    ["@/components", undefined],
    ["@scope", undefined],
  ])("packageNameOf(%s) = %s", (specifier, name) => {
    expect(packageNameOf(specifier)).toBe(name);
  });

  it.each([
    ["fs", "fs"],
    ["node:fs", "fs"],
    ["fs/promises", "fs"],
    ["node:test", "test"],
    ["node:sqlite", "sqlite"],
    ["path/posix", "path"],
    ["lodash", undefined],
    ["fs-extra", undefined],
    ["./fs", undefined],
  ])("builtinNameOf(%s) = %s", (specifier, name) => {
    expect(builtinNameOf(specifier)).toBe(name);
  });

  it("tells relative specifiers and finds packages in node_modules paths", () => {
    expect([".", "..", "./a", "../a", "/a"].every(isRelativeSpecifier)).toBe(true);
    expect(["a", "@a/b", "~/a", "#a"].some(isRelativeSpecifier)).toBe(false);
    expect(packageNameOfNodeModulesPath("node_modules/@types/node/fs.d.ts")).toBe("@types/node");
    expect(packageNameOfNodeModulesPath("node_modules/.pnpm/zod@3.23.8/node_modules/zod/lib/index.d.ts")).toBe("zod");
    expect(packageNameOfNodeModulesPath("src/zod.ts")).toBeUndefined();
  });
});

describe("source twins", () => {
  const scanned = new Set(["src/a.ts", "src/b.d.ts", "src/c.js", "lib/index.tsx", "pkg/src/x/index.ts", "pkg/src/y.mts"]);
  it.each([
    ["src/a.js", "src/a.ts"],
    ["src/a.d.ts", "src/a.ts"],
    ["src/b.js", "src/b.d.ts"],
    ["src/c.d.ts", "src/c.js"],
    ["src/d.js", undefined],
  ])("%s → %s", (path, twin) => {
    expect(findSourceTwin(path, scanned)).toBe(twin);
  });
  it("maps build outputs to sources", () => {
    expect(findSourceForBuildOutput("pkg", "./dist/esm/x/index.js", scanned)).toBe("pkg/src/x/index.ts");
    expect(findSourceForBuildOutput("pkg", "./dist/x", scanned)).toBe("pkg/src/x/index.ts");
    expect(findSourceForBuildOutput("pkg", "./lib/y.mjs", scanned)).toBe("pkg/src/y.mts");
    expect(findSourceForBuildOutput("", "./lib/index.js", scanned)).toBe("lib/index.tsx");
    expect(findSourceForBuildOutput("pkg", "../elsewhere/index.js", scanned)).toBeUndefined();
  });
});

describe("workspace entries", () => {
  const scanned = new Set(["p/src/index.ts", "p/src/feature/a.ts", "p/src/node.ts", "p/src/browser.ts", "q/index.js"]);
  const entry = (manifest: PackageManifest, subpath: string, dir = "p") => resolveWorkspaceEntry({ name: "@w/p", dir, manifest }, subpath, scanned);

  it("follows exports: conditions, nested conditions, patterns", () => {
    expect(entry({ exports: "./dist/index.js" }, ".")).toEqual({ target: "p/src/index.ts" });
    expect(entry({ exports: { import: { types: "./dist/index.d.ts", default: "./dist/index.mjs" } } }, ".")).toEqual({ target: "p/src/index.ts" });
    expect(entry({ exports: { "./features/*": { import: "./dist/feature/*.js" } } }, "./features/a")).toEqual({ target: "p/src/feature/a.ts" });
    expect(entry({ exports: { ".": { browser: "./src/browser.ts", node: "./src/node.ts" } } }, ".")).toEqual({ target: "p/src/node.ts" });
  });

  it("keeps unexported subpaths unresolved, as Node does", () => {
    expect(entry({ exports: { ".": "./dist/index.js" } }, "./feature/a")).toEqual({
      reason: '"./feature/a" is not exported by @w/p (add it to the exports of p/package.json)',
    });
  });

  it("falls back to main/types, then to src/index and index", () => {
    expect(entry({ main: "build/index.js" }, ".")).toEqual({ target: "p/src/index.ts" });
    expect(entry({}, ".")).toEqual({ target: "p/src/index.ts" });
    expect(entry({}, ".", "q")).toEqual({ target: "q/index.js" });
    expect(entry({}, "./feature/a")).toEqual({ target: "p/src/feature/a.ts" });
    expect(entry({}, "./missing")).toEqual({ reason: 'workspace package @w/p (p) has no scanned source for "./missing" (check its package.json exports/main)' });
  });
});
