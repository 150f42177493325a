import { describe, expect, it } from "vitest";
import { createResolver } from "../../src/resolve/index.js";
import { fixtureRoot, listSourceFiles, readEdges } from "./helpers.js";

describe("graph-basics", () => {
  const root = fixtureRoot("graph-basics");
  const files = listSourceFiles(root);

  it("scans the files the edge table speaks of", () => {
    expect(files).toEqual([
      "src/config/defaults.cjs",
      "src/config/locale.cjs",
      "src/config/settings.ts",
      "src/legacy/csv-import.ts",
      "src/legacy/delimited.js",
      "src/main.ts",
      "src/models/category.ts",
      "src/models/index.ts",
      "src/models/item.ts",
      "src/models/money.ts",
      "src/reports/summary.ts",
      "src/store/events.ts",
      "src/store/inventory.ts",
      "src/types/globals.d.ts",
      "src/ui/ItemRow.tsx",
      "src/ui/ItemTable.tsx",
    ]);
  });

  it("resolves every specifier of EDGES.md to its exact target", () => {
    const resolver = createResolver(root, files);
    const edges = readEdges("graph-basics");
    expect(edges).toHaveLength(27);
    const actual = edges.map((edge) => resolver.resolve(edge.from, edge.specifier, edge.kind));
    expect(actual).toEqual(
      edges.map((edge) => ({
        from: edge.from,
        specifier: edge.specifier,
        ...(edge.to === undefined ? {} : { target: edge.to }),
        external: edge.to?.startsWith("pkg:") ?? false,
      })),
    );
    expect(resolver.diagnostics).toEqual([]);
  });

  it.each([
    ["relative, extensionless", "src/main.ts", "./store/inventory", "static", "src/store/inventory.ts"],
    ["relative .js written for a .ts file", "src/main.ts", "./reports/summary.js", "dynamic", "src/reports/summary.ts"],
    ["folder index", "src/store/inventory.ts", "../models", "static", "src/models/index.ts"],
    ["index written with .js", "src/reports/summary.ts", "../models/index.js", "static", "src/models/index.ts"],
    ["paths alias", "src/main.ts", "@app/config/settings", "static", "src/config/settings.ts"],
    ["paths alias to a folder index", "src/ui/ItemTable.tsx", "@app/models", "static", "src/models/index.ts"],
    ["baseUrl", "src/main.ts", "src/models/money", "static", "src/models/money.ts"],
    ["tsx from tsx", "src/ui/ItemTable.tsx", "./ItemRow", "static", "src/ui/ItemRow.tsx"],
    ["ts importing js", "src/legacy/csv-import.ts", "./delimited", "static", "src/legacy/delimited.js"],
    ["require of a .cjs", "src/config/defaults.cjs", "./locale.cjs", "require", "src/config/locale.cjs"],
    ["reference path", "src/main.ts", "./types/globals.d.ts", "reference", "src/types/globals.d.ts"],
    ["reference path without ./", "src/types/globals.d.ts", "../main.ts", "reference", "src/main.ts"],
    ["external package", "src/config/settings.ts", "zod", "static", "pkg:zod"],
    ["external subpath collapses", "src/main.ts", "lodash/fp", "static", "pkg:lodash"],
    ["scoped external subpath", "src/main.ts", "@tanstack/react-query/devtools", "static", "pkg:@tanstack/react-query"],
    ["builtin", "src/config/defaults.cjs", "os", "require", "pkg:node:os"],
    ["node: builtin", "src/main.ts", "node:fs", "static", "pkg:node:fs"],
    ["builtin subpath", "src/main.ts", "fs/promises", "static", "pkg:node:fs"],
    ["node: builtin subpath", "src/main.ts", "node:stream/web", "static", "pkg:node:stream"],
    ["reference types", "src/main.ts", "vite/client", "reference", "pkg:vite"],
  ] as const)("%s: %s imports %s", (_label, from, specifier, kind, target) => {
    const resolution = createResolver(root, files).resolve(from, specifier, kind);
    expect(resolution).toEqual({ from, specifier, target, external: target.startsWith("pkg:") });
  });

  it.each([
    ["src/legacy/csv-import.ts", "@app/legacy/barcode", 'cannot resolve "@app/legacy/barcode" (matches paths "@app/*" of tsconfig.json but no file was found (check the paths mapping))'],
    ["src/ui/ItemTable.tsx", "./item-table.css", 'cannot resolve "./item-table.css" (src/ui/item-table.css exists but is not a scanned source file)'],
    ["src/main.ts", "./store/warehouse", 'cannot resolve "./store/warehouse" (no such file (check the path and the extension))'],
    ["src/main.ts", "../../outside", 'cannot resolve "../../outside" (no such file (check the path and the extension))'],
    ["src/main.ts", "~/models", 'cannot resolve "~/models" (neither a relative path, a tsconfig paths alias nor a package name (check the alias configuration))'],
  ])("unresolved: %s imports %s", (from, specifier, message) => {
    const resolver = createResolver(root, files);
    const resolution = resolver.resolve(from, specifier, "static");
    expect(resolution).toEqual({ from, specifier, external: false });
    expect(resolver.diagnose(resolution)).toEqual({ kind: "unresolved", path: from, message });
  });

  it("gives no diagnostic for a resolved import", () => {
    const resolver = createResolver(root, files);
    expect(resolver.diagnose(resolver.resolve("src/main.ts", "./models", "static"))).toBeUndefined();
  });
});

describe("monorepo", () => {
  const root = fixtureRoot("monorepo");
  const files = listSourceFiles(root);

  it("finds the workspace packages from package.json files (not node_modules)", () => {
    expect(createResolver(root, files).stats().workspacePackages).toEqual({
      "@acme/app": "packages/app",
      "@acme/core": "packages/core",
      "@acme/shared": "packages/shared",
      acme: "",
    });
  });

  it("resolves every specifier of EDGES.md to its exact target", () => {
    const resolver = createResolver(root, files);
    const edges = readEdges("monorepo");
    expect(edges).toHaveLength(13);
    for (const edge of edges) {
      expect(resolver.resolve(edge.from, edge.specifier, edge.kind), `${edge.from} → ${edge.specifier}`).toEqual({
        from: edge.from,
        specifier: edge.specifier,
        ...(edge.to === undefined ? {} : { target: edge.to }),
        external: edge.to?.startsWith("pkg:") ?? false,
      });
    }
    expect(resolver.diagnostics).toEqual([]);
  });

  it.each([
    ["package exports (.)", "packages/app/src/main.ts", "@acme/core", "packages/core/src/index.ts"],
    ["package exports subpath", "packages/app/src/main.ts", "@acme/core/strings", "packages/core/src/strings.ts"],
    ["main in unbuilt dist/ → src/", "packages/core/src/logger.ts", "@acme/shared", "packages/shared/src/index.ts"],
    ["subpath without exports → src/", "packages/app/src/handlers/health.ts", "@acme/shared/time", "packages/shared/src/time.ts"],
    ["deep dist path → src/", "packages/app/src/main.ts", "@acme/shared/dist/time.js", "packages/shared/src/time.ts"],
    ["per-package paths alias (NodeNext, extensionless)", "packages/app/src/routes.ts", "~/handlers/health", "packages/app/src/handlers/health.ts"],
    ["alias of another package does not apply", "packages/core/src/index.ts", "~/handlers/health", undefined],
    ["NodeNext .js → .ts", "packages/core/src/index.ts", "./logger.js", "packages/core/src/logger.ts"],
    ["self-reference by package name", "packages/core/src/logger.ts", "@acme/core/strings", "packages/core/src/strings.ts"],
    ["unexported subpath of an exports map", "packages/app/src/main.ts", "@acme/core/logger", undefined],
  ] as const)("%s: %s imports %s", (_label, from, specifier, target) => {
    const resolver = createResolver(root, files);
    const resolution = resolver.resolve(from, specifier, "static");
    expect(resolution.target).toBe(target);
    expect(resolution.external).toBe(false);
    if (target === undefined) expect(resolver.diagnose(resolution)?.kind).toBe("unresolved");
  });
});
