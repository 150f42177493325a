import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createResolver } from "../../src/resolve/index.js";
import { listSourceFiles, writeTree } from "./helpers.js";

const sandboxes: string[] = [];
afterAll(() => {
  for (const dir of sandboxes) rmSync(dir, { recursive: true, force: true });
});

/** A throwaway project: its real root and its scanned source files. */
function project(files: Record<string, string>): { root: string; files: string[] } {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "graph-retrieve-configs-")));
  sandboxes.push(root);
  writeTree(root, files);
  return { root, files: listSourceFiles(root) };
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

describe("compiler options", () => {
  it("without any tsconfig, resolves like a bundler: extensionless, .js → .ts, index, .jsx", () => {
    const { root, files } = project({
      "src/a.ts": "",
      "src/b.ts": "",
      "src/lib/index.js": "",
      "src/view.jsx": "",
    });
    const resolver = createResolver(root, files);
    expect(resolver.resolve("src/a.ts", "./b", "static").target).toBe("src/b.ts");
    expect(resolver.resolve("src/a.ts", "./b.js", "static").target).toBe("src/b.ts");
    expect(resolver.resolve("src/a.ts", "./lib", "static").target).toBe("src/lib/index.js");
    expect(resolver.resolve("src/a.ts", "./view", "static").target).toBe("src/view.jsx");
    expect(resolver.diagnostics).toEqual([]);
  });

  it("follows a chain of extends and takes paths from the nearest tsconfig", () => {
    const { root, files } = project({
      "tsconfig.base.json": json({ compilerOptions: { paths: { "#lib/*": ["./lib/*"] } } }),
      "config/tsconfig.strict.json": json({ extends: "../tsconfig.base.json", compilerOptions: { strict: true } }),
      "app/tsconfig.json": json({ extends: "../config/tsconfig.strict.json" }),
      "app/src/main.ts": "",
      "lib/clock.ts": "",
      "other/main.ts": "",
    });
    const resolver = createResolver(root, files);
    expect(resolver.resolve("app/src/main.ts", "#lib/clock", "static").target).toBe("lib/clock.ts");
    // No tsconfig governs other/: the alias does not apply there.
    expect(resolver.resolve("other/main.ts", "#lib/clock", "static").target).toBeUndefined();
    expect(resolver.diagnostics).toEqual([]);
  });

  it("reads jsconfig.json like a tsconfig", () => {
    const { root, files } = project({
      "jsconfig.json": json({ compilerOptions: { baseUrl: ".", paths: { "@/*": ["src/*"] } } }),
      "src/main.js": "",
      "src/components/button.jsx": "",
    });
    const resolver = createResolver(root, files);
    expect(resolver.resolve("src/main.js", "@/components/button", "static").target).toBe("src/components/button.jsx");
  });

  it("takes extends from a package inside the root's node_modules", () => {
    const { root, files } = project({
      "node_modules/@company/tsconfig/package.json": json({ name: "@company/tsconfig", version: "1.0.0" }),
      "node_modules/@company/tsconfig/base.json": json({ compilerOptions: { moduleResolution: "bundler", module: "esnext", allowJs: true } }),
      "tsconfig.json": json({ extends: "@company/tsconfig/base.json", compilerOptions: { paths: { "@app/*": ["./src/*"] } } }),
      "src/main.ts": "",
      "src/util.ts": "",
    });
    const resolver = createResolver(root, files);
    expect(resolver.resolve("src/main.ts", "@app/util", "static").target).toBe("src/util.ts");
    expect(resolver.diagnostics).toEqual([]);
  });

  it("reports a missing extends package and an unparsable tsconfig, and goes on", () => {
    const { root, files } = project({
      "tsconfig.json": json({ extends: "@company/missing/base.json" }),
      "broken/tsconfig.json": '{ "compilerOptions": { "paths": { "@x/*": ["./x/*"] }, }',
      "broken/a.ts": "",
      "broken/b.ts": "",
      "src/main.ts": "",
      "src/util.ts": "",
    });
    const resolver = createResolver(root, files);
    expect(resolver.resolve("src/main.ts", "./util", "static").target).toBe("src/util.ts");
    expect(resolver.resolve("broken/a.ts", "./b", "static").target).toBe("broken/b.ts");
    const diagnostics = resolver.diagnostics;
    expect(diagnostics.map((d) => [d.kind, d.path])).toEqual([
      ["warning", "broken/tsconfig.json"],
      ["warning", "tsconfig.json"],
    ]);
    expect(diagnostics[1]!.message).toMatch(/^tsconfig problem: .*@company\/missing\/base\.json.* \(fix the tsconfig;/);
  });

  it("uses the project references of a solution-style tsconfig", () => {
    const { root, files } = project({
      "tsconfig.json": json({ files: [], references: [{ path: "./tsconfig.app.json" }] }),
      "tsconfig.app.json": json({ compilerOptions: { paths: { "@/*": ["./src/*"] } }, include: ["src"] }),
      "src/main.tsx": "",
      "src/hooks/use-cart.ts": "",
    });
    const resolver = createResolver(root, files);
    expect(resolver.resolve("src/main.tsx", "@/hooks/use-cart", "static").target).toBe("src/hooks/use-cart.ts");
  });

  it("honours package.json imports (#internal) and the require condition", () => {
    const { root, files } = project({
      "package.json": json({
        name: "dual",
        type: "module",
        imports: { "#db": { require: "./src/db-sync.cts", default: "./src/db.ts" } },
      }),
      "tsconfig.json": json({ compilerOptions: { module: "nodenext" } }),
      "src/main.ts": "",
      "src/legacy.cts": "",
      "src/db.ts": "",
      "src/db-sync.cts": "",
    });
    const resolver = createResolver(root, files);
    expect(resolver.resolve("src/main.ts", "#db", "static").target).toBe("src/db.ts");
    expect(resolver.resolve("src/main.ts", "#db", "require").target).toBe("src/db-sync.cts");
    expect(resolver.resolve("src/legacy.cts", "#db", "static").target).toBe("src/db-sync.cts");
    expect(resolver.resolve("src/main.ts", "#nothing", "static")).toEqual({ from: "src/main.ts", specifier: "#nothing", external: false });
  });
});

describe("externals and declaration twins", () => {
  const { root, files } = project({
    "tsconfig.json": json({ compilerOptions: { paths: { "vendor-ui": ["./node_modules/@vendor/ui/index.d.ts"] } } }),
    "node_modules/react/package.json": json({ name: "react", main: "index.js" }),
    "node_modules/react/index.js": "",
    "node_modules/@types/react/package.json": json({ name: "@types/react", types: "index.d.ts" }),
    "node_modules/@types/react/index.d.ts": "",
    "node_modules/@types/react/jsx-runtime.d.ts": "",
    "node_modules/@vendor/ui/index.d.ts": "",
    "src/main.ts": "",
    "src/compiled.js": "",
    "src/compiled.d.ts": "",
    "src/theme.ts": "",
    "src/legacy/shim.d.ts": "",
  });
  // The scan kept theme.ts but not its emitted theme.js / theme.d.ts; legacy/shim.js was never scanned.
  const scanned = files.filter((file) => file !== "src/compiled.d.ts");
  const resolver = createResolver(root, scanned);

  it.each([
    ["react", "pkg:react"],
    ["react/jsx-runtime", "pkg:react"],
    ["vendor-ui", "pkg:@vendor/ui"],
    ["./compiled", "src/compiled.js"],
    ["./compiled.js", "src/compiled.js"],
    ["./theme.js", "src/theme.ts"],
    ["./legacy/shim", "src/legacy/shim.d.ts"],
    ["./legacy/shim.js", "src/legacy/shim.d.ts"],
  ])("%s → %s", (specifier, target) => {
    expect(resolver.resolve("src/main.ts", specifier, "static")).toEqual({
      from: "src/main.ts",
      specifier,
      target,
      external: target.startsWith("pkg:"),
    });
  });

  it("resolves /// <reference types> to a package, or to a workspace package's file", () => {
    const workspace = project({
      "package.json": json({ name: "mono", workspaces: ["types/*"] }),
      "types/env/package.json": json({ name: "@mono/env", types: "index.d.ts" }),
      "types/env/index.d.ts": "",
      "src/main.ts": "",
    });
    const refs = createResolver(workspace.root, workspace.files);
    expect(refs.resolve("src/main.ts", "@mono/env", "reference").target).toBe("types/env/index.d.ts");
    expect(refs.resolve("src/main.ts", "node", "reference")).toEqual({ from: "src/main.ts", specifier: "node", target: "pkg:node", external: true });
  });
});
