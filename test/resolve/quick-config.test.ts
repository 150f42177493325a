/**
 * The tsconfig read without TypeScript (quick-config.ts) must say what
 * TypeScript says wherever it says anything, and leave TypeScript unloaded
 * when every import takes a fast path. (Module state is per test file: the
 * first test runs before anything here loads TypeScript.)
 */
import { readdirSync, realpathSync } from "node:fs";
import { join, posix, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createResolver } from "../../src/resolve/index.js";
import { createConfigLoader, quickOf } from "../../src/resolve/load-tsconfig.js";
import { readQuickConfig } from "../../src/resolve/quick-config.js";
import { createRootHost } from "../../src/resolve/root-host.js";
import { isTypescriptLoaded } from "../../src/resolve/typescript.js";
import { makeTempDir } from "../store/helpers.js";
import { writeTree } from "./helpers.js";

const temp = makeTempDir("gr-quick-config-");
afterAll(temp.cleanup);

/** The tree written, by its real path (the resolver's root). */
function writeRoot(root: string, files: Record<string, string>): string {
  writeTree(root, files);
  return realpathSync(root);
}

/** readQuickConfig next to what TypeScript's parse gives, for one config of a root. */
function bothViews(root: string, configPath: string) {
  const host = createRootHost(root, new Map());
  const absPath = `${root}/${configPath}`;
  const quick = readQuickConfig(absPath, configPath, host);
  const full = quickOf(createConfigLoader(root, host).configAt(absPath));
  return { quick, full };
}

const ALIASED = {
  // comments and trailing commas, as TypeScript allows them
  "tsconfig.base.json": '{\n  // shared\n  "compilerOptions": { "paths": { "@lib/*": ["./lib/*"], "@root": ["./lib/index.ts"], }, },\n}\n',
  "tsconfig.json": '{ "extends": "./tsconfig.base", "compilerOptions": { "strict": true } }\n',
  "app/tsconfig.json": '{ "extends": ["../tsconfig.base.json"], "compilerOptions": { "baseUrl": "./src" } }\n',
  "lib/index.ts": 'export * from "./util";\n',
  "lib/util.ts": "export const u = 1;\n",
  "lib/deep/mod.ts": 'import { u } from "@lib/util";\nimport "@root";\nexport const m = u;\n',
  "src/main.ts": 'import { m } from "@lib/deep/mod";\nimport { u } from "../lib/util";\n',
};

describe("the tsconfig read without TypeScript", () => {
  it("resolves relative paths and paths aliases with TypeScript never loaded", () => {
    const root = writeRoot(join(temp.dir, "aliased"), ALIASED);
    const files = ["lib/index.ts", "lib/util.ts", "lib/deep/mod.ts", "src/main.ts"];
    const resolver = createResolver(root, files);
    expect(resolver.resolve("src/main.ts", "@lib/deep/mod", "static").target).toBe("lib/deep/mod.ts");
    expect(resolver.resolve("src/main.ts", "../lib/util", "static").target).toBe("lib/util.ts");
    expect(resolver.resolve("lib/deep/mod.ts", "@lib/util", "static").target).toBe("lib/util.ts");
    expect(resolver.resolve("lib/deep/mod.ts", "@root", "static").target).toBe("lib/index.ts");
    expect(resolver.resolve("lib/index.ts", "./util", "static").target).toBe("lib/util.ts");
    expect(resolver.resolve("src/main.ts", "zod", "static").target).toBe("pkg:zod");
    expect(isTypescriptLoaded()).toBe(false);
    // an alias naming no file: TypeScript looks further, and says why it found nothing
    const missing = resolver.resolve("src/main.ts", "@lib/nothing", "static");
    expect(missing.target).toBeUndefined();
    expect(resolver.diagnose(missing)?.message).toContain('matches paths "@lib/*" of tsconfig.json');
    expect(isTypescriptLoaded()).toBe(true);
  });

  it("reads paths relative to the config that sets them, or to baseUrl, as TypeScript does", () => {
    const root = writeRoot(join(temp.dir, "aliased"), ALIASED);
    const leaf = bothViews(root, "tsconfig.json");
    expect(leaf.quick).toEqual(leaf.full);
    expect(leaf.quick?.pathsBase).toBe(root);
    const app = bothViews(root, "app/tsconfig.json");
    expect(app.quick).toEqual(app.full);
    expect(app.quick?.pathsBase).toBe(`${root}/app/src`);
    expect(app.quick?.hasBaseUrl).toBe(true);
  });

  it("agrees with TypeScript on every config of the fixtures", () => {
    const fixtures = join(import.meta.dirname, "..", "..", "fixtures");
    let compared = 0;
    for (const name of readdirSync(fixtures)) {
      const root = realpathSync(join(fixtures, name));
      const configs = readdirSync(root, { recursive: true, encoding: "utf8" }).filter(
        (path) => /(^|\/)(tsconfig|jsconfig)[^/]*\.json$/.test(path) && !path.includes("node_modules"),
      );
      for (const configPath of configs) {
        const { quick, full } = bothViews(root, posix.normalize(relative(root, join(root, configPath))));
        if (quick !== undefined) {
          expect(quick, `${name}/${configPath}`).toEqual(full);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(3);
  });

  it("leaves to TypeScript what only TypeScript can read", () => {
    const root = writeRoot(join(temp.dir, "hard"), {
      "package.json": "{}",
      "broken.json": '{ "compilerOptions": { "paths": { "@a/*": ["./a/*"] } ',
      "from-package.json": '{ "extends": "@tsconfig/node20/tsconfig.json" }',
      "config-dir.json": '{ "compilerOptions": { "paths": { "@a/*": ["${configDir}/a/*"] } } }',
      "odd-case.json": '{ "compilerOptions": { "BaseUrl": "." } }',
      "null-paths.json": '{ "compilerOptions": { "paths": null } }',
      "two-stars.json": '{ "compilerOptions": { "paths": { "@a/*/*": ["./a/*"] } } }',
      "out-of-root.json": '{ "extends": "../../elsewhere/tsconfig.json" }',
      "loop-a.json": '{ "extends": "./loop-b.json" }',
      "loop-b.json": '{ "extends": "./loop-a.json" }',
    });
    const host = createRootHost(root, new Map());
    for (const name of ["broken", "from-package", "config-dir", "odd-case", "null-paths", "two-stars", "out-of-root", "loop-a"]) {
      expect(readQuickConfig(`${root}/${name}.json`, `${name}.json`, host), name).toBeUndefined();
    }
  });
});
