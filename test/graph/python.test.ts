/**
 * buildGraph on Python: fixtures/python-app against its EDGES.md (the
 * import edges, the re-exports of `__init__.py` followed to the defining
 * modules as barrels are, the names used through a module), and
 * fixtures/mixed-stack, a Python back end and a TypeScript front end in one
 * graph.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { buildGraph, retrieve, type CodeGraph } from "../../src/index.js";
import { edgesOf, fixtureRoot, readEdgeTable } from "./helpers.js";

describe("python-app", () => {
  const table = readEdgeTable("python-app");
  let codeGraph: CodeGraph;
  beforeAll(async () => {
    codeGraph = await buildGraph(fixtureRoot("python-app"));
  });

  it("has an edge for each file → target of the table's resolved rows; every other import edge is a barrel followed (`via`)", () => {
    const key = (kind: string, source: string, target: string) => `${kind} ${source} -> ${target}`;
    const expected = new Set(table.filter((row) => row.to !== undefined).map((row) => key(row.kind === "reexport" ? "reexport" : "import", row.from, row.to!)));
    const edges = edgesOf(codeGraph, ["import", "reexport"]);
    const found = new Set(edges.map((edge) => key(edge.kind, edge.source, edge.target)));
    for (const edge of expected) expect(found, edge).toContain(edge);
    for (const edge of edges) if (!expected.has(key(edge.kind, edge.source, edge.target))) expect(edge.via, key(edge.kind, edge.source, edge.target)).toBeDefined();
  });

  it("an edge is type-only when every import along it is under `if TYPE_CHECKING:`", () => {
    const typeOnly = edgesOf(codeGraph, ["import"]).filter((edge) => edge.typeOnly).map((edge) => `${edge.source} -> ${edge.target} ${edge.names?.join(",")}`);
    expect(typeOnly).toEqual(["src/shop/storage/db.py -> src/shop/models.py Order"]);
    // orders.py imports shop.models at run time and under TYPE_CHECKING: one edge, not type-only, with both names
    const models = edgesOf(codeGraph, ["import"]).find((edge) => edge.source === "src/shop/services/orders.py" && edge.target === "src/shop/models.py");
    expect(models).toMatchObject({ typeOnly: false, names: ["Customer", "Order"] });
  });

  it("follows a name imported through the package's __init__.py to the module that defines it", () => {
    const viaInit = edgesOf(codeGraph, ["import"])
      .filter((edge) => edge.source === "src/shop/cli.py" && edge.via !== undefined)
      .map((edge) => [edge.target, edge.names, edge.via]);
    expect(viaInit).toEqual([
      ["src/shop/models.py", ["Customer"], ["src/shop/__init__.py"]],
      ["src/shop/payments.py", ["*"], ["src/shop/__init__.py"]],
      ["src/shop/services/orders.py", ["place_order"], ["src/shop/__init__.py"]],
    ]);
  });

  it("links a use to the symbol it names: through __init__.py (renamed with `as`), a re-exported submodule, `import a.b.c`, `from . import m`", () => {
    const uses = edgesOf(codeGraph, ["references"]).map((edge) => `${edge.source} -> ${edge.target}`);
    expect(uses).toEqual(
      expect.arrayContaining([
        // `order(…)`: `from .services.orders import place_order as order` in __init__.py
        "src/shop/cli.py -> src/shop/services/orders.py#place_order",
        // `payments.PaymentError`: `from . import payments` in __init__.py
        "src/shop/cli.py -> src/shop/payments.py#PaymentError",
        // `shop.storage.db.save(…)` after `import shop.storage.db`, through a namespace package
        "src/shop/services/orders.py -> src/shop/storage/db.py#save",
        // `pricing.with_vat(…)` after `from . import pricing`
        "src/shop/services/orders.py -> src/shop/services/pricing.py#with_vat",
        // `db.save(…)` after `from shop.storage import db`
        "tests/test_orders.py -> src/shop/storage/db.py#save",
        "tests/test_orders.py -> tests/helpers.py#make_order",
      ]),
    );
    // a method and a module-level symbol are nodes of their own
    expect(codeGraph.graph.getNodeAttributes("src/shop/models.py#Order.total")).toMatchObject({ kind: "symbol", symbolKind: "method" });
  });

  it("the standard library and installed packages are package nodes; only the import the checkout lacks is unresolved", () => {
    const packages = codeGraph.graph.filterNodes((_id, attributes) => attributes.kind === "package").sort();
    expect(packages).toEqual(["pkg:dataclasses", "pkg:datetime", "pkg:logging", "pkg:pytest", "pkg:requests", "pkg:sqlite3", "pkg:sys", "pkg:typing"]);
    expect(codeGraph.diagnostics).toEqual([
      { kind: "unresolved", path: "tests/test_orders.py", message: expect.stringMatching(/^cannot resolve "shop\.missing" .* on line 6$/) },
    ]);
    // the quiet rows are not counted among the specifiers
    const quiet = table.filter((row) => row.quiet).length;
    const external = table.filter((row) => row.to?.startsWith("pkg:")).length;
    expect(codeGraph.stats).toMatchObject({ specifiers: table.length - quiet, unresolvedSpecifiers: 1, externalSpecifiers: external });
  });
});

describe("mixed-stack: a Python back end and a TypeScript front end, one graph", () => {
  let codeGraph: CodeGraph;
  beforeAll(async () => {
    codeGraph = await buildGraph(fixtureRoot("mixed-stack"));
  });

  it("holds every file of both, each with its language", () => {
    const files = codeGraph.graph.filterNodes((_id, attributes) => attributes.kind === "file").map((id) => [id, (codeGraph.graph.getNodeAttributes(id) as { language?: string }).language]);
    expect(files).toEqual([
      ["backend/notes_api/__init__.py", "python"],
      ["backend/notes_api/app.py", "python"],
      ["backend/notes_api/models.py", "python"],
      ["backend/notes_api/routes.py", "python"],
      ["backend/notes_api/store.py", "python"],
      ["backend/tests/test_routes.py", "python"],
      ["frontend/src/api/notes-client.ts", "typescript"],
      ["frontend/src/main.ts", "typescript"],
      ["frontend/src/models/note.ts", "typescript"],
    ]);
  });

  it("resolves each half by its own rules, and no import crosses from one language to the other", () => {
    const imports = edgesOf(codeGraph, ["import", "reexport"]).map((edge) => `${edge.kind} ${edge.source} -> ${edge.target}`);
    expect(imports).toEqual([
      "import backend/notes_api/app.py -> backend/notes_api/routes.py",
      "import backend/notes_api/app.py -> pkg:flask",
      "import backend/notes_api/models.py -> pkg:dataclasses",
      "import backend/notes_api/routes.py -> backend/notes_api/store.py",
      "import backend/notes_api/routes.py -> pkg:flask",
      "import backend/notes_api/store.py -> backend/notes_api/models.py",
      "import backend/tests/test_routes.py -> backend/notes_api/__init__.py",
      "import backend/tests/test_routes.py -> backend/notes_api/app.py",
      "import frontend/src/api/notes-client.ts -> frontend/src/models/note.ts",
      "import frontend/src/main.ts -> frontend/src/api/notes-client.ts",
      "reexport backend/notes_api/__init__.py -> backend/notes_api/app.py",
    ]);
    expect(codeGraph.diagnostics).toEqual([]);
  });

  it("a retrieval ranks the files of both languages", async () => {
    const result = await retrieve("delete a note: the NoteStore and the deleteNote client call", { root: fixtureRoot("mixed-stack") });
    const best = result.files.slice(0, 4).map((file) => file.path);
    expect(best).toContain("backend/notes_api/store.py");
    expect(best).toContain("frontend/src/api/notes-client.ts");
  });
});
