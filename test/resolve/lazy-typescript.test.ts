/**
 * TypeScript is loaded by the resolver only when a specifier or a config
 * needs it: relative specifiers naming scanned files and bare package names
 * without `paths` never do. (Module state is per test file, so this file
 * starts with TypeScript unloaded.)
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createResolver } from "../../src/resolve/index.js";
import { DEFAULT_OPTIONS } from "../../src/resolve/load-tsconfig.js";
import { isTypescriptLoaded, TS_ENUMS } from "../../src/resolve/typescript.js";
import { makeTempDir } from "../store/helpers.js";
import { writeTree } from "./helpers.js";

const temp = makeTempDir("gr-lazy-ts-");
afterAll(temp.cleanup);


describe("loading TypeScript on demand", () => {
  it("the enum values written without TypeScript are TypeScript's", () => {
    const { ts } = createRequire(import.meta.url)("ts-morph") as typeof import("ts-morph");
    expect(TS_ENUMS).toEqual({
      moduleKindEsNext: ts.ModuleKind.ESNext,
      moduleResolutionBundler: ts.ModuleResolutionKind.Bundler,
      jsxPreserve: ts.JsxEmit.Preserve,
    });
    expect(DEFAULT_OPTIONS).toMatchObject({ module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, jsx: ts.JsxEmit.Preserve });
  });

  it("relative specifiers naming scanned files or a missing folder, built-ins and bare package names resolve without it; one naming no file in a folder that exists loads it", () => {
    const plain = join(temp.dir, "plain");
    writeTree(plain, { "src/a.ts": "", "src/b.ts": "", "src/lib/index.ts": "" });
    const resolver = createResolver(plain, ["src/a.ts", "src/b.ts", "src/lib/index.ts"]);
    expect(resolver.resolve("src/a.ts", "./b.js", "static").target).toBe("src/b.ts");
    expect(resolver.resolve("src/a.ts", "./lib", "static").target).toBe("src/lib/index.ts");
    expect(resolver.resolve("src/a.ts", "node:fs", "static").target).toBe("pkg:node:fs");
    expect(resolver.resolve("src/a.ts", "fast-check", "static").target).toBe("pkg:fast-check");
    // into a folder that does not exist: nothing TypeScript could find either
    const missing = resolver.resolve("src/a.ts", "./test/vitest", "static");
    expect(missing.target).toBeUndefined();
    expect(resolver.diagnose(missing)?.message).toBe('cannot resolve "./test/vitest" (no such file (check the path and the extension))');
    expect(isTypescriptLoaded()).toBe(false);
    // a relative specifier naming no scanned file in a folder that exists: TypeScript looks further (a package.json, other endings)
    expect(resolver.resolve("src/a.ts", "./gone", "static").target).toBeUndefined();
    expect(isTypescriptLoaded()).toBe(true);
  });
});
