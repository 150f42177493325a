/**
 * Property-based fuzzing (fast-check) of the parse, graph and retrieval
 * stages over mutated fixture sources and generated folder trees.
 *
 * Invariants: nothing throws (but a UsageError for a blank task), every
 * edge joins existing nodes, every file path is root-relative and names a
 * file of the tree, relevance is in [0, 1], and the same input twice gives
 * the same JSON.
 *
 * `npm test` runs a few hundred cases; `npm run fuzz` sets FUZZ_RUNS (10000
 * source cases, a tenth as many trees: each tree is written, built twice and
 * retrieved twice). FUZZ_SEED replays a failure (fast-check prints the seed
 * and path of the shrunk counterexample).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildGraph, createIndexMemory, createRetriever, renderGraphJson, renderJson, UsageError, type GraphJson } from "../../src/index.js";
import { parseSource } from "../../src/parse/index.js";
import { languageForPath } from "../../src/parse/languages.js";
import { expectRootRelative, expectValidRetrieval, makeTmp, removeTmp, REPO_ROOT } from "../reliability/helpers.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const TREE_RUNS = Math.max(20, Math.round(RUNS / 10));
/** Edit cases are cheap (~10 ms: three builds of four small files) and a wrong update hides in few of them. */
const EDIT_RUNS = Math.max(300, Math.round(RUNS / 10));
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
const params = (numRuns: number) => ({ numRuns, ...(SEED === undefined ? {} : { seed: SEED }) });
/** vitest's per-test limit, scaled to the runs (~4 ms a source, ~100 ms a tree here; ten times that as headroom). */
const limitMs = (runs: number, msEach: number) => Math.max(60_000, runs * msEach * 10);

/** Every .ts/.tsx/.js source under fixtures/: the seeds the mutations start from. */
function fixtureSources(): Array<{ path: string; text: string }> {
  const found: Array<{ path: string; text: string }> = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules") continue;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (languageForPath(entry.name)) found.push({ path: full.slice(REPO_ROOT.length + 1), text: readFileSync(full, "utf8") });
    }
  };
  walk(join(REPO_ROOT, "fixtures"));
  return found.sort((a, b) => (a.path < b.path ? -1 : 1));
}

const SOURCES = fixtureSources();

/** Characters and tokens that stress a parser: brackets, quotes, comment and template delimiters, odd unicode. */
const PIECES = [
  "(", ")", "{", "}", "[", "]", "<", ">", "'", '"', "`", "${", "/*", "*/", "//", "\\", "\n", "\r\n", ";", ",", "=>",
  "\u0000", "\u2028", "\u2029", "\ufeff", "\u202e", "\ud800", "\udc00", "🔥", "👩‍💻", "é", "中文", "\u0301",
  "import ", "export ", "export * from './x';", "export default ", "from \"../../../../etc/passwd\"", "require(\"/etc/passwd\")",
  "import(\"", "class ", "function ", "interface ", "type T = ", "enum ", "namespace ", "declare module \"m\" {",
  "<in out T>", "<out ", "export type * from './y';", "\n  <A>(", "\\`",
  "<div>", "</div>", "/>", "/// <reference path=\"../../../x\" />\n", "@decorator ", "async ", "await ", "yield ",
  "constructor", "__proto__", "prototype", "hasOwnProperty", "toString",
];

type Mutation =
  | { op: "delete"; at: number; length: number }
  | { op: "duplicate"; at: number; length: number }
  | { op: "insert"; at: number; piece: string }
  | { op: "truncate"; at: number }
  | { op: "repeat"; piece: string; times: number; at: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ op: fc.constant("delete" as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ op: fc.constant("duplicate" as const), at: fc.nat(), length: fc.integer({ min: 1, max: 200 }) }),
  fc.record({ op: fc.constant("insert" as const), at: fc.nat(), piece: fc.oneof(fc.constantFrom(...PIECES), fc.string({ unit: "binary", maxLength: 8 })) }),
  fc.record({ op: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({ op: fc.constant("repeat" as const), piece: fc.constantFrom("(", "[", "{", "<div>", "a.", "() => ", "/*"), times: fc.integer({ min: 10, max: 600 }), at: fc.nat() }),
);

function mutate(text: string, mutations: readonly Mutation[]): string {
  let out = text;
  for (const m of mutations) {
    const at = out.length === 0 ? 0 : m.at % (out.length + 1);
    if (m.op === "delete") out = out.slice(0, at) + out.slice(at + m.length);
    else if (m.op === "duplicate") out = out.slice(0, at + m.length) + out.slice(at, at + m.length) + out.slice(at + m.length);
    else if (m.op === "insert") out = out.slice(0, at) + m.piece + out.slice(at);
    else if (m.op === "truncate") out = out.slice(0, at);
    else out = out.slice(0, at) + m.piece.repeat(m.times) + out.slice(at);
  }
  return out;
}

const mutatedSource = fc.record({
  index: fc.nat({ max: SOURCES.length - 1 }),
  mutations: fc.array(mutation, { minLength: 0, maxLength: 8 }),
}).map(({ index, mutations }) => ({ seed: SOURCES[index]!, text: mutate(SOURCES[index]!.text, mutations) }));

describe("parseSource on mutated fixture sources", () => {
  it(`never throws, gives well-formed facts, and is deterministic (${RUNS} cases)`, () => {
    expect(SOURCES.length).toBeGreaterThan(20);
    fc.assert(
      fc.property(mutatedSource, fc.constantFrom("a.ts", "a.tsx", "a.js", "a.d.ts", "a.mjs"), ({ text }, path) => {
        const language = languageForPath(path)!;
        const parsed = parseSource(path, text, language, path.endsWith(".d.ts"));
        expect(parsed.path).toBe(path);
        expect(parsed.lines).toBeGreaterThanOrEqual(0);
        for (const d of parsed.definitions) {
          expect(d.name.length).toBeGreaterThan(0);
          expect(d.startLine).toBeGreaterThanOrEqual(1);
          expect(d.endLine).toBeGreaterThanOrEqual(d.startLine);
        }
        for (const i of parsed.imports) expect(typeof i.specifier).toBe("string");
        for (const r of parsed.references) expect(r.count).toBeGreaterThan(0);
        expect(JSON.stringify(parseSource(path, text, language, path.endsWith(".d.ts")))).toBe(JSON.stringify(parsed));
      }),
      params(RUNS),
    );
  }, limitMs(RUNS, 4));
});

// ---------------------------------------------------------------- trees

const SEGMENT = fc.constantFrom("src", "lib", "a", "b", "utils", "index", "deep", "ünï", "with space", "-dash", ".hidden", "node_modules", "dist");
const FILE_NAME = fc.constantFrom("index.ts", "a.ts", "b.tsx", "c.js", "d.mjs", "e.d.ts", "token.ts", "auth-service.ts", "x.min.js", "README.md", "🔥.ts");
const SPECIFIER = fc.constantFrom("./a", "./index", "../a", "../../..", "../../../../etc/passwd", "/etc/passwd", "react", "node:fs", "./b.js", "./utils", "..", ".", "");

interface TreeFile {
  path: string;
  text: string;
}

const tree: fc.Arbitrary<TreeFile[]> = fc
  .array(
    fc.record({
      dirs: fc.array(SEGMENT, { maxLength: 3 }),
      name: FILE_NAME,
      source: mutatedSource,
      imports: fc.array(SPECIFIER, { maxLength: 3 }),
    }),
    { minLength: 1, maxLength: 6 },
  )
  .map((entries) => {
    const byPath = new Map<string, TreeFile>();
    for (const e of entries) {
      const path = [...e.dirs, e.name].join("/");
      const head = e.imports.map((s, i) => `import * as i${i} from ${JSON.stringify(s)};\n`).join("");
      byPath.set(path, { path, text: head + e.source.text });
    }
    // a file and a folder cannot share a name: keep the first of each clash
    const kept: TreeFile[] = [];
    const taken = new Set<string>();
    for (const file of [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : 1))) {
      const parts = file.path.split("/");
      const prefixes = parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join("/"));
      if (taken.has(file.path) || prefixes.some((p) => taken.has(`file:${p}`))) continue;
      if ([...taken].some((t) => t.startsWith(`${file.path}/`))) continue;
      kept.push(file);
      taken.add(`file:${file.path}`);
      for (const p of prefixes) taken.add(p);
    }
    return kept;
  });

const TASK = fc.oneof(
  fc.constantFrom("fix the token expiry bug", "add rate limiting to the API", "refactor the auth service", "中文 任务", "🔥"),
  fc.string({ unit: "grapheme", maxLength: 60 }),
  fc.string({ unit: "binary", maxLength: 30 }),
);

describe("buildGraph and retrieval on generated trees", () => {
  let base: string;
  let counter = 0;
  beforeAll(() => {
    base = makeTmp("fuzz");
  });
  afterAll(() => removeTmp(base));

  it(`never throw, keep every edge and path inside the tree, bound relevance, and repeat exactly (${TREE_RUNS} trees)`, async () => {
    await fc.assert(
      fc.asyncProperty(tree, TASK, async (files, task) => {
        const root = join(base, `t${counter++}`);
        mkdirSync(root);
        for (const file of files) {
          mkdirSync(dirname(join(root, file.path)), { recursive: true });
          writeFileSync(join(root, file.path), file.text);
        }
        const written = new Set(files.map((f) => f.path));

        const first = await buildGraph(root);
        const json = renderGraphJson(first, ".");
        expect(renderGraphJson(await buildGraph(root), ".")).toBe(json);
        expect(json).not.toContain(base);
        const graph = JSON.parse(json) as GraphJson;
        const ids = new Set(graph.nodes.map((n) => n.id));
        for (const edge of graph.edges) {
          expect(ids.has(edge.source)).toBe(true);
          expect(ids.has(edge.target)).toBe(true);
        }
        const fileIds = graph.nodes.filter((n) => n.kind === "file").map((n) => n.id);
        for (const id of fileIds) {
          expectRootRelative(id);
          expect(written.has(id)).toBe(true);
        }
        for (const d of graph.diagnostics) if (d.path !== undefined) expectRootRelative(d.path);

        const retriever = await createRetriever({ root });
        if (task.trim() === "") {
          await expect(retriever.retrieve(task)).rejects.toBeInstanceOf(UsageError);
          return;
        }
        const result = await retriever.retrieve(task);
        expectValidRetrieval(result, new Set(fileIds));
        const again = await (await createRetriever({ root })).retrieve(task);
        expect(renderJson(again)).toBe(renderJson(result));
      }),
      params(TREE_RUNS),
    );
  }, limitMs(TREE_RUNS, 100));
});

// ---------------------------------------------------------------- edits

/** A statement of a module in a project whose files import, re-export and use each other's names. */
const NAME = fc.constantFrom("a", "b", "c");
const OTHER = fc.nat({ max: 3 }).map((k) => `./f${k}`);
const STATEMENT: fc.Arbitrary<string> = fc.oneof(
  NAME.map((n) => `export function ${n}() { return 1; }`),
  NAME.map((n) => `function ${n}() { return 2; }`),
  NAME.map((n) => `export const ${n} = 3;`),
  NAME.map((n) => `export default function ${n}() {}`),
  NAME.map((n) => `export class K { ${n}() { return 4; } }`),
  fc.tuple(NAME, NAME).map(([n, m]) => `export { ${n} as ${m} };`),
  NAME.map((n) => `export { ${n} };`),
  OTHER.map((f) => `export * from "${f}";`),
  fc.tuple(NAME, OTHER).map(([n, f]) => `export * as ns${n} from "${f}";`),
  fc.tuple(NAME, NAME, OTHER).map(([n, m, f]) => `export { ${n} as ${m} } from "${f}";`),
  fc.tuple(NAME, OTHER).map(([n, f]) => `import { ${n} as i${n} } from "${f}"; i${n}();`),
  fc.tuple(NAME, OTHER).map(([n, f]) => `import * as m${n} from "${f}"; m${n}.${n}(); m${n}.c();`),
  fc.tuple(NAME, OTHER).map(([n, f]) => `import d${n} from "${f}"; d${n}();`),
  NAME.map((n) => `${n}();`),
);
const MODULE = fc.array(STATEMENT, { maxLength: 7 });
/** An edit of a module: one statement added or removed (what most edits are), or the whole module rewritten. */
const EDIT = fc.oneof(
  fc.record({ add: STATEMENT, at: fc.nat() }).map(({ add, at }) => (statements: string[]) => statements.toSpliced(at % (statements.length + 1), 0, add)),
  fc.nat().map((at) => (statements: string[]) => statements.toSpliced(at % Math.max(1, statements.length), 1)),
  MODULE.map((rewritten) => () => rewritten),
);

describe("an edit updates the graph in place to the graph of a full build", () => {
  let base: string;
  let counter = 0;
  beforeAll(() => {
    base = makeTmp("fuzz-edit");
  });
  afterAll(() => removeTmp(base));

  it(`for random modules and a random edit of one of them (${EDIT_RUNS} cases)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(MODULE, { minLength: 4, maxLength: 4 }), fc.nat({ max: 3 }), EDIT, async (modules, edited, edit) => {
        const root = join(base, `e${counter++}`);
        const cacheDir = join(root, ".cache");
        mkdirSync(join(root, "src"), { recursive: true });
        const write = (k: number, statements: string[]) => writeFileSync(join(root, "src", `f${k}.ts`), statements.join("\n") + "\n");
        modules.forEach((statements, k) => write(k, statements));
        const memory = createIndexMemory();
        await buildGraph(root, { include: ["src/**"], cacheDir, memory });
        // the edit: other bytes, so the file is parsed again (a same-size edit within the second would be racy)
        write(edited, [...edit(modules[edited] ?? []), `// edit ${counter}`]);
        const updated = await buildGraph(root, { include: ["src/**"], cacheDir, memory });
        const full = await buildGraph(root, { include: ["src/**"] });
        expect(renderGraphJson(updated, ".")).toBe(renderGraphJson(full, "."));
        expect(JSON.stringify(updated.graph.export())).toBe(JSON.stringify(full.graph.export()));
      }),
      params(EDIT_RUNS),
    );
  }, limitMs(EDIT_RUNS, 30));
});
