/**
 * The pipeline's layering, as data (STYLE.md §1). Data flows one way:
 * scan → parse → resolve → graph (→ store), history (→ store) → retrieve → render; cli/ and
 * mcp/ are faces over src/index.ts (and src/faces.ts, what only they use) and nothing else. parse/languages.ts is
 * the extension table every stage may read. Checked by
 * test/layering.test.ts; by hand: `npx depcruise src --config .dependency-cruiser.cjs`.
 */
const LATER = {
  scan: ["resolve", "graph", "store", "history", "retrieve", "render", "cli", "mcp", "config"],
  parse: ["scan", "resolve", "graph", "store", "history", "retrieve", "render", "cli", "mcp", "config"],
  resolve: ["parse", "graph", "store", "history", "retrieve", "render", "cli", "mcp", "config"],
  graph: ["history", "retrieve", "render", "cli", "mcp", "config"],
  store: ["graph", "resolve", "history", "retrieve", "render", "cli", "mcp", "config"],
  history: ["scan", "parse", "resolve", "graph", "retrieve", "render", "cli", "mcp", "config"],
  retrieve: ["parse", "resolve", "store", "render", "cli", "mcp", "config"],
  render: ["scan", "parse", "resolve", "store", "cli", "mcp", "config"],
};

module.exports = {
  forbidden: [
    {
      name: "cli-to-main-only",
      comment:
        "cli/ touches argv, stdout and exit codes, and uses the library only through src/index.ts (and src/faces.ts, what the faces share); " +
        "but the daemon client finds the socket in the index folder (store/cache-dir.ts, pure) before any library code loads, " +
        "`graph-retrieve mcp` starts the MCP face through its own entry (mcp/serve-mcp.ts), " +
        "the worker that stats the index's paths starts before the library loads (scan/stat-ahead.ts: node's fs and a worker thread, no library code), " +
        "and the daemon's socket module loads on first use through util/builtins.ts (pure, no library code)",
      severity: "error",
      from: { path: "^src/cli/" },
      to: { path: "^src/", pathNot: ["^src/cli/", "^src/index\\.ts$", "^src/faces\\.ts$", "^src/mcp/serve-mcp\\.ts$", "^src/store/cache-dir\\.ts$", "^src/scan/stat-ahead\\.ts$", "^src/util/builtins\\.ts$"] },
    },
    {
      name: "mcp-to-main-only",
      comment: "mcp/ is a second face over src/index.ts (and src/faces.ts, what the faces share), like cli/",
      severity: "error",
      from: { path: "^src/mcp/" },
      to: { path: "^src/", pathNot: ["^src/mcp/", "^src/index\\.ts$", "^src/faces\\.ts$"] },
    },
    {
      name: "no-circular",
      comment: "no module reaches itself through its imports, type-only imports included: a cycle hides which module is the lower layer",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    ...Object.entries(LATER).map(([stage, later]) => ({
      name: `${stage}-flows-one-way`,
      comment: `${stage}/ hands plain data on; it never imports a later stage or a face`,
      severity: "error",
      from: { path: `^src/${stage}/` },
      // the language table (parse/languages.ts) is data every stage may read
      to: { path: `^src/(${later.join("|")})/`, pathNot: "^src/parse/languages\\.ts$" },
    })),
    {
      name: "parse-table-only",
      comment: "scan/ and store/ read the language table of parse/, not the parser",
      severity: "error",
      from: { path: "^src/(scan|store)/" },
      to: { path: "^src/parse/", pathNot: "^src/parse/languages\\.ts$" },
    },
    {
      name: "parsers-stay-in-parse-and-resolve",
      comment: "no tree-sitter node or ts-morph object leaves parse/ or resolve/",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/(parse|resolve)/" },
      to: { path: "node_modules/(tree-sitter|tree-sitter-typescript|tree-sitter-python|ts-morph|typescript)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
