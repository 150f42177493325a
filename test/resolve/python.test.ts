/**
 * Python's imports, resolved as Python finds them in a checkout: on
 * fixtures/python-app, every row of its EDGES.md (each import form: `import
 * a.b.c`, `import a as b`, `from a.b import c` with c a submodule or a name,
 * `from . import x`, `from ..a import b`, a namespace package, a re-exported
 * submodule, the standard library and an installed package as externals),
 * read from the files by the parser and resolved by the resolver; then the
 * layouts one at a time on small trees.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { afterAll, describe, expect, it } from "vitest";
import { parseSource } from "../../src/parse/index.js";
import { createResolver } from "../../src/resolve/index.js";
import { createPythonResolver } from "../../src/resolve/python-modules.js";
import { declaredPackageFolders, findPythonRoots } from "../../src/resolve/python-roots.js";
import { fixtureRoot, listSourceFiles, readEdges, writeTree } from "./helpers.js";

describe("python-app: the edge table", () => {
  const root = fixtureRoot("python-app");
  const files = listSourceFiles(root);
  const edges = readEdges("python-app");

  it("scans the files the edge table speaks of", () => {
    expect(files).toEqual([
      "src/shop/__init__.py",
      "src/shop/cli.py",
      "src/shop/models.py",
      "src/shop/payments.py",
      "src/shop/services/__init__.py",
      "src/shop/services/orders.py",
      "src/shop/services/pricing.py",
      "src/shop/storage/db.py",
      "tests/helpers.py",
      "tests/test_orders.py",
    ]);
  });

  it("the parser reads exactly the table's import facts, in file order", () => {
    const read = files.flatMap((path) =>
      parseSource(path, readFileSync(join(root, path), "utf8"), "python").imports.map((fact) => ({
        from: path,
        line: fact.line,
        specifier: fact.specifier,
        kind: fact.kind,
        typeOnly: fact.typeOnly,
      })),
    );
    expect(read).toEqual(edges.map(({ from, line, specifier, kind, typeOnly }) => ({ from, line, specifier, kind, typeOnly })));
  });

  it("resolves every fact to the table's target; `—` rows alone are diagnosed", () => {
    const resolver = createResolver(root, files);
    for (const edge of edges) {
      const resolution = resolver.resolve(edge.from, edge.specifier, edge.kind);
      const where = `${edge.from}:${edge.line} ${edge.specifier}`;
      expect(resolution.target, where).toBe(edge.to);
      expect(resolution.external, where).toBe(edge.to?.startsWith("pkg:") ?? false);
      const diagnostic = resolver.diagnose(resolution);
      if (edge.to === undefined && !edge.quiet) expect(diagnostic?.message, where).toMatch(/^cannot resolve "shop\.missing" \(shop is the checkout's own \(src\/shop\/__init__\.py\), but it has no module shop\.missing/);
      else expect(diagnostic, where).toBeUndefined();
    }
    expect(edges.filter((edge) => edge.to === undefined && !edge.quiet)).toHaveLength(1);
    expect(resolver.diagnostics).toEqual([]);
  });

  it("searches the folder pyproject.toml declares, then the root", () => {
    expect(createPythonResolver(root, files).roots).toEqual(["src", ""]);
  });
});

describe("python layouts", () => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "graph-retrieve-python-")));
  afterAll(() => rmSync(base, { recursive: true, force: true }));
  let count = 0;
  /** A fresh tree under the temporary folder; returns its root and its Python files. */
  function tree(files: Record<string, string>): { root: string; paths: string[] } {
    const root = join(base, `t${count++}`);
    writeTree(root, files);
    return { root, paths: Object.keys(files).filter((p) => p.endsWith(".py") || p.endsWith(".pyi")).sort() };
  }

  it("a flat package at the root, without any config", () => {
    const { root, paths } = tree({ "app/__init__.py": "", "app/db.py": "", "app/web/__init__.py": "", "app/web/views.py": "", "manage.py": "" });
    const python = createPythonResolver(root, paths);
    expect(python.roots).toEqual([""]);
    expect(python.resolve("manage.py", "app.web.views")).toEqual({ target: "app/web/views.py", external: false });
    expect(python.resolve("manage.py", "app.web")).toEqual({ target: "app/web/__init__.py", external: false });
    expect(python.resolve("app/web/views.py", "..db")).toEqual({ target: "app/db.py", external: false });
    expect(python.resolve("app/web/views.py", "...")).toEqual({ external: false, reason: "... climbs above the top-level package" });
    expect(python.resolve("app/db.py", "..web")).toEqual({ external: false, reason: "..web climbs above the top-level package" });
    expect(python.resolve("app/web/views.py", "json")).toEqual({ target: "pkg:json", external: true });
  });

  it("an undeclared src/ layout is searched before the root", () => {
    const { root, paths } = tree({ "src/lib/__init__.py": "", "src/lib/core.py": "", "lib/core.py": "", "tests/test_core.py": "" });
    const python = createPythonResolver(root, paths);
    expect(python.roots).toEqual(["src", ""]);
    expect(python.resolve("tests/test_core.py", "lib.core").target).toBe("src/lib/core.py");
  });

  it("a project in a subfolder, found by its setup.cfg, and a module beside a stub", () => {
    const { root, paths } = tree({
      "backend/setup.cfg": "[metadata]\nname = api\n\n[options]\npackage_dir =\n    =lib\n",
      "backend/lib/api/__init__.py": "",
      "backend/lib/api/routes.py": "",
      "backend/lib/api/routes.pyi": "",
      "backend/lib/api/types.pyi": "",
    });
    const python = createPythonResolver(root, paths);
    expect(python.roots).toEqual(["backend/lib", "backend", ""]);
    expect(python.resolve("backend/lib/api/__init__.py", "api.routes").target).toBe("backend/lib/api/routes.py");
    expect(python.resolve("backend/lib/api/__init__.py", ".types").target).toBe("backend/lib/api/types.pyi");
  });

  it("a script's own folder is searched last, as running it puts it on sys.path", () => {
    const { root, paths } = tree({ "scripts/release.py": "", "scripts/git_tools.py": "", "scripts/json.py": "" });
    const python = createPythonResolver(root, paths);
    expect(python.resolve("scripts/release.py", "git_tools").target).toBe("scripts/git_tools.py");
    expect(python.resolve("scripts/release.py", "json").target).toBe("scripts/json.py");
    expect(python.resolve("scripts/release.py", "yaml")).toEqual({ target: "pkg:yaml", external: true });
  });

  it("a module of a package root is imported as one: its own folder is not searched, the standard library is not shadowed", () => {
    const { root, paths } = tree({
      "pyproject.toml": '[tool.poetry]\npackages = [{ include = "poetry", from = "src" }]\n',
      // poetry's src/poetry has no __init__.py (a namespace package shared with poetry-core) and a package named json
      "src/poetry/json/__init__.py": "",
      "src/poetry/installation/__init__.py": "",
      "src/poetry/installation/chef.py": "",
      "tests/test_chef.py": "",
      "tests/json.py": "",
    });
    const python = createPythonResolver(root, paths);
    expect(python.resolve("src/poetry/installation/chef.py", "json")).toEqual({ target: "pkg:json", external: true });
    expect(python.resolve("src/poetry/installation/chef.py", "poetry.json").target).toBe("src/poetry/json/__init__.py");
    // a test is run by pytest, which puts its own folder first: there, json is the sibling
    expect(python.resolve("tests/test_chef.py", "json").target).toBe("tests/json.py");
  });

  it("a project kept as test data is no import root of the checkout", () => {
    const { root, paths } = tree({
      "pyproject.toml": '[project]\nname = "tool"\n',
      "src/tool/__init__.py": "",
      "src/tool/builder.py": "",
      "tests/fixtures/extended_project/pyproject.toml": '[project]\nname = "extended"\n',
      "tests/fixtures/extended_project/build.py": "",
      "tests/fixtures/extended_project/extended/__init__.py": "",
    });
    const python = createPythonResolver(root, paths);
    expect(python.roots).toEqual(["src", ""]);
    expect(python.resolve("src/tool/builder.py", "build")).toEqual({ target: "pkg:build", external: true });
  });

  it("a namespace package has no file: importing it leads nowhere, quietly; its modules are found", () => {
    const { root, paths } = tree({ "acme/plugins/auth.py": "", "acme/plugins/billing/__init__.py": "", "main.py": "" });
    const python = createPythonResolver(root, paths);
    expect(python.resolve("main.py", "acme.plugins")).toEqual({ external: false, quiet: true });
    expect(python.resolve("main.py", "acme.plugins:auth").target).toBe("acme/plugins/auth.py");
    expect(python.resolve("main.py", "acme.plugins.billing").target).toBe("acme/plugins/billing/__init__.py");
    expect(python.resolve("main.py", "acme.plugins.gone")).toMatchObject({ external: false, reason: expect.stringContaining("acme is the checkout's own (acme/)") });
  });

  it("`m:n` is the submodule or nothing, never the external package again", () => {
    const { root, paths } = tree({ "app/__init__.py": "", "app/util.py": "" });
    const python = createPythonResolver(root, paths);
    expect(python.resolve("app/util.py", "os:path")).toEqual({ external: false, quiet: true });
    expect(python.resolve("app/util.py", "app:util").target).toBe("app/util.py");
    expect(python.resolve("app/util.py", ".:util").target).toBe("app/util.py");
    expect(python.resolve("app/util.py", "app:VERSION")).toEqual({ external: false, quiet: true });
  });

  it("`from . import x` in a package's __init__.py names the package itself: no edge, no warning", () => {
    const { root, paths } = tree({ "app/__init__.py": "", "app/views.py": "" });
    const resolver = createResolver(root, paths);
    const self = resolver.resolve("app/__init__.py", ".", "reexport");
    expect(self).toEqual({ from: "app/__init__.py", specifier: ".", external: false });
    expect(resolver.diagnose(self)).toBeUndefined();
    expect(resolver.resolve("app/views.py", ".", "static").target).toBe("app/__init__.py");
  });

  it("TypeScript files beside Python ones keep TypeScript's resolution", () => {
    const { root, paths } = tree({ "api/__init__.py": "", "api/app.py": "", "web/main.ts": "", "web/api.ts": "" });
    const resolver = createResolver(root, [...paths, "web/api.ts", "web/main.ts"]);
    expect(resolver.resolve("web/main.ts", "./api", "static").target).toBe("web/api.ts");
    expect(resolver.resolve("web/main.ts", "api", "static")).toMatchObject({ target: "pkg:api", external: true });
    expect(resolver.resolve("api/app.py", "api", "static").target).toBe("api/__init__.py");
  });
});

describe("package folders a config declares", () => {
  it.each([
    ["pyproject.toml", '[tool.setuptools.packages.find]\nwhere = ["src"]\n', ["src"]],
    ["pyproject.toml", '[tool.setuptools]\npackage-dir = {"" = "lib"}\n', ["lib"]],
    ["pyproject.toml", '[tool.poetry]\npackages = [{ include = "app", from = "source" }]\n', ["source"]],
    ["pyproject.toml", '[tool.hatch.build.targets.wheel]\npackages = ["src/app"]\n', ["src"]],
    ["pyproject.toml", '[tool.maturin]\npython-source = "python"\n', ["python"]],
    ["pyproject.toml", '[project]\nname = "flat"\n', []],
    ["setup.cfg", "[options]\npackage_dir = =src\n", ["src"]],
    ["setup.cfg", "[options.packages.find]\nwhere = lib\n", ["lib"]],
    ["setup.py", 'setup(name="a", package_dir={"": "src"}, packages=find_packages("src"))\n', ["src"]],
    ["setup.py", 'setup(packages=find_namespace_packages(where="lib"))\n', ["lib"]],
    ["setup.py", 'setup(packages=find_packages(where="../elsewhere"))\n', []],
  ])("%s: %j", (name, text, folders) => {
    expect(declaredPackageFolders(name, text)).toEqual(folders);
  });

  it("a declared folder that holds no Python file is no root", () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "graph-retrieve-python-roots-")));
    try {
      writeTree(root, { "pyproject.toml": '[tool.setuptools.packages.find]\nwhere = ["src"]\n', "app/__init__.py": "" });
      expect(findPythonRoots(root, { files: new Set(["app/__init__.py"]), folders: new Set(["", "app"]) })).toEqual([""]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
