/**
 * A later cycle's pool graph, grown from the last cycle's by the files it
 * adds, is the graph made over the whole pool at once: imports either way,
 * symbol uses, two hops (capped), folders and co-change, on a codebase with
 * a git history built here.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildGraph, createRetriever } from "../../src/index.js";
import { extendPool, extractTaskFeatures } from "../../src/retrieve/features/extract.js";
import { growPoolGraph, poolGraphOf } from "../../src/retrieve/features/relation-features.js";
import { createRetrievalContext, type RetrievalContext } from "../../src/retrieve/retrieval-context.js";
import { GIT_ENV, git } from "../support/git.js";

const MIDDLES = 5;
const PER_MIDDLE = 10;

/**
 * src/hub.ts imports five small modules (middles), each imported by ten
 * feature files that use its function: hub.ts is two hops from 50 files.
 * Three commits change hub.ts with some feature files (co-change).
 */
function writeCodebase(root: string): void {
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  const commit = (message: string, day: number) => {
    git(root, "add", "-A");
    const date = `${1700000000 + day * 86400} +0000`;
    execFileSync("git", ["commit", "-q", "-m", message], { cwd: root, env: { ...GIT_ENV, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } });
  };
  git(root, "init", "-q", "-b", "main");
  const middles = Array.from({ length: MIDDLES }, (_, i) => `middle${i}`);
  write("src/hub.ts", `${middles.map((m) => `import { ${m}Value } from "./middles/${m}";`).join("\n")}\nexport const total = ${middles.map((m) => `${m}Value()`).join(" + ")};\n`);
  middles.forEach((m) => {
    write(`src/middles/${m}.ts`, `export function ${m}Value(): number {\n  return 1;\n}\n`);
    for (let j = 0; j < PER_MIDDLE; j++) {
      write(`src/features/${m}/feature${j}.ts`, `import { ${m}Value } from "../../middles/${m}";\nexport const feature${j} = ${m}Value() + ${j};\n`);
    }
  });
  commit("initial layout", 0);
  for (let round = 1; round <= 3; round++) {
    write("src/hub.ts", `// round ${round}\n${middles.map((m) => `import { ${m}Value } from "./middles/${m}";`).join("\n")}\nexport const total = ${round} + ${middles.map((m) => `${m}Value()`).join(" + ")};\n`);
    for (let j = 0; j < round + 1; j++) write(`src/features/middle${round}/feature${j}.ts`, `// round ${round}\nexport const feature${j} = ${round};\n`);
    commit(`rework the hub, round ${round}`, round);
  }
}

let root: string;
let context: RetrievalContext;
let auth: RetrievalContext;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "gr-pool-graph-"));
  writeCodebase(root);
  const retriever = await createRetriever({ root });
  context = createRetrievalContext(retriever.codeGraph, retriever.history?.index);
  auth = createRetrievalContext(await buildGraph("fixtures/auth-service"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("a grown pool graph", () => {
  it("equals the graph made over the whole pool, wherever the pool is cut", () => {
    const paths = [...context.index.byPath.keys()].sort();
    const whole = poolGraphOf(context, paths);
    // the codebase exercises every list: the cap of two hops, uses, co-change
    const hub = paths.indexOf("src/hub.ts");
    expect(whole.twoHop[hub]!.length).toBe(40);
    expect(whole.uses[hub]!.length).toBe(MIDDLES);
    expect(whole.cochange[hub]!.length).toBeGreaterThan(3);
    for (const cut of [1, 2, 17, paths.indexOf("src/hub.ts"), paths.length - 1]) {
      const first = paths.slice(0, cut);
      expect(growPoolGraph(context, poolGraphOf(context, first), first, paths.slice(cut))).toEqual(whole);
    }
    // hub.ts last: every other file's lists gain it
    const hubLast = [...paths.filter((p) => p !== "src/hub.ts"), "src/hub.ts"];
    const before = hubLast.slice(0, -1);
    expect(growPoolGraph(context, poolGraphOf(context, before), before, ["src/hub.ts"])).toEqual(poolGraphOf(context, hubLast));
  });

  it("grown twice, as cycles 2 and 3 grow it, equals the graph of the whole pool", () => {
    const paths = [...context.index.byPath.keys()].sort().reverse();
    const a = paths.slice(0, 20);
    const b = paths.slice(20, 24);
    const c = paths.slice(24);
    const once = growPoolGraph(context, poolGraphOf(context, a), a, b);
    expect(growPoolGraph(context, once, [...a, ...b], c)).toEqual(poolGraphOf(context, paths));
  });

  it("a later cycle's pool carries the graph of its files", () => {
    const full = extractTaskFeatures(auth, "token expiry");
    const five = full.pool.slice(0, 5);
    const features = { ...full, pool: five, rows: full.rows.slice(0, 5), graph: poolGraphOf(auth, five.map((f) => f.path)) };
    const grown = extendPool(auth, features, full.pool.slice(5).map((f) => ({ path: f.path, via: five[0]!.path })));
    expect(grown.graph).toEqual(poolGraphOf(auth, grown.pool.map((f) => f.path)));
  });
});
