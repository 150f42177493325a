/**
 * Parsing on worker threads gives the same facts as parsing in this thread,
 * on every fixture file (and rxjs's sources, which are installed).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildGraph } from "../../src/index.js";
import { chooseParseWorkers } from "../../src/graph/parse-changed.js";
import {
  ParseStoppedError,
  parseFiles,
  parseWorkerUrl,
  prestartParseWorkers,
  releasePrestartedWorkers,
  stopParseWorkers,
  type ParseJob,
} from "../../src/parse/parse-files.js";
import { parseSource, TypescriptWanted } from "../../src/parse/index.js";
import { scanFiles } from "../../src/scan/index.js";
import { REPO_ROOT, comparable, makeTempDir } from "./helpers.js";

async function jobsOf(root: string, include?: string[]): Promise<ParseJob[]> {
  const scan = await scanFiles(root, { include });
  return scan.files.map((f) => ({ path: f.path, absPath: f.absPath, language: f.language, isDeclaration: f.isDeclaration }));
}

describe("parallel parsing", () => {
  it("finds the compiled worker script (run from the sources, it is the dist/ twin)", () => {
    expect(parseWorkerUrl()?.pathname).toMatch(/parse-worker\.js$/);
  });

  it.each(["graph-basics", "monorepo", "api-gateway", "auth-service"])("workers parse %s exactly like this thread", async (name) => {
    const jobs = await jobsOf(join(REPO_ROOT, "fixtures", name));
    expect(jobs.length).toBeGreaterThan(2);
    const inThread = await parseFiles(jobs, { workers: 0 });
    let reported = 0;
    const onWorkers = await parseFiles(jobs, { workers: 2, onParsed: () => reported++ });
    expect(reported).toBe(jobs.length);
    expect(onWorkers).toEqual(inThread);
  });

  it("a file whose facts need TypeScript is handed back to this thread, with and without its help, and parses exactly like this thread", async () => {
    const { dir, cleanup } = makeTempDir("ts-wanted");
    try {
      // a syntax error: tree-sitter's tree has errors, and TypeScript's parser says whether the file has them
      writeFileSync(join(dir, "broken.ts"), "export const a = ;\nexport function f(x: number) { return x; }\n");
      writeFileSync(join(dir, "gap.ts"), "export const g = <T,>(x: T) => x;\nexport class C { accessor v = 1; }\n");
      for (let i = 0; i < 6; i++) writeFileSync(join(dir, `clean${i}.ts`), `import { f } from "./broken";\nexport const c${i} = f(${i});\n`);
      const jobs = await jobsOf(dir);
      expect(() => parseSource("broken.ts", readFileSync(join(dir, "broken.ts"), "utf8"), "typescript", false, undefined, false)).toThrow(TypescriptWanted);
      const inThread = await parseFiles(jobs, { workers: 0 });
      expect(inThread.find((o) => o.path === "broken.ts")).toMatchObject({ parsed: { hasSyntaxErrors: true, definitions: [{ name: "a" }, { name: "f" }] } });
      for (const options of [{ workers: 1 }, { workers: 2 }, { workers: 1, helpInThread: true }]) {
        let reported = 0;
        expect(await parseFiles(jobs, { ...options, onParsed: () => reported++ })).toEqual(inThread);
        expect(reported).toBe(jobs.length);
      }
    } finally {
      cleanup();
    }
  });

  it("workers parse rxjs's 252 source files exactly like this thread, and the graph is the same", async () => {
    const root = join(REPO_ROOT, "node_modules", "rxjs");
    const jobs = await jobsOf(root, ["src/**"]);
    expect(jobs.length).toBeGreaterThan(200);
    expect(await parseFiles(jobs, { workers: 2 })).toEqual(await parseFiles(jobs, { workers: 0 }));
    const parallel = await buildGraph(root, { include: ["src/**"], workers: 2 });
    const serial = await buildGraph(root, { include: ["src/**"], workers: 0 });
    expect(parallel.cache?.workers).toBe(2);
    expect(serial.cache?.workers).toBe(0);
    expect(comparable(parallel)).toEqual(comparable(serial));
  });

  it("this thread helping one worker parses rxjs exactly like this thread alone, and the default build uses it", async () => {
    const root = join(REPO_ROOT, "node_modules", "rxjs");
    const jobs = await jobsOf(root, ["src/**"]);
    let reported = 0;
    const helped = await parseFiles(jobs, { workers: 1, helpInThread: true, onParsed: () => reported++ });
    expect(reported).toBe(jobs.length);
    expect(helped).toEqual(await parseFiles(jobs, { workers: 0 }));
    const byDefault = await buildGraph(root, { include: ["src/**"] });
    const threads = chooseParseWorkers(jobs.length, 0);
    expect(byDefault.cache?.workers).toBe(threads > 1 ? threads - 1 : threads); // one thread is this one
    expect(comparable(byDefault)).toEqual(comparable(await buildGraph(root, { include: ["src/**"], workers: 0 })));
  });

  it("a worker started before its jobs are known is taken by the next pool and parses like this thread; one no pool takes is ended", async () => {
    const jobs = await jobsOf(join(REPO_ROOT, "fixtures", "monorepo"));
    prestartParseWorkers(1);
    const onPrestarted = await parseFiles(jobs, { workers: 1 });
    expect(await releasePrestartedWorkers()).toBe(0); // the pool took it
    expect(onPrestarted).toEqual(await parseFiles(jobs, { workers: 0 }));
    prestartParseWorkers(1);
    prestartParseWorkers(1); // already one waiting: no second
    expect(await releasePrestartedWorkers()).toBe(1);
    expect(await releasePrestartedWorkers()).toBe(0);
  });

  it("a first build into an empty index folder starts its worker early and leaves none behind, large or small", async () => {
    const temp = makeTempDir("gr-prestart-");
    try {
      const rxjs = join(REPO_ROOT, "node_modules", "rxjs");
      const cold = await buildGraph(rxjs, { include: ["src/**"], cacheDir: join(temp.dir, "rxjs") });
      expect(await releasePrestartedWorkers()).toBe(0);
      const threads = chooseParseWorkers(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY);
      expect(cold.cache?.workers).toBe(threads - 1);
      expect(comparable(cold)).toEqual(comparable(await buildGraph(rxjs, { include: ["src/**"], workers: 0 })));
      // too few files for a worker: the one started is ended, not left running
      const small = await buildGraph(join(REPO_ROOT, "fixtures", "auth-service"), { cacheDir: join(temp.dir, "small") });
      expect(small.cache?.workers).toBe(0);
      expect(await releasePrestartedWorkers()).toBe(0);
    } finally {
      temp.cleanup();
    }
  });

  it("stopParseWorkers stops a running pool between files: its parseFiles rejects, no outcome comes after the stop, nothing runs on", async () => {
    const root = join(REPO_ROOT, "node_modules", "rxjs");
    const jobs = await jobsOf(root, ["src/**"]);
    let reported = 0;
    let stopped: Promise<void> | undefined;
    let afterStop = 0;
    const parsing = parseFiles(jobs, {
      workers: 2,
      onParsed: () => {
        if (stopped) afterStop++;
        if (++reported === 10) stopped = stopParseWorkers();
      },
    });
    await expect(parsing).rejects.toBeInstanceOf(ParseStoppedError);
    await stopped;
    expect(reported).toBe(10);
    expect(afterStop).toBe(0);
    // nothing is left to stop, and a new pool runs as usual
    await stopParseWorkers();
    expect(await parseFiles(jobs.slice(0, 4), { workers: 2 })).toEqual(await parseFiles(jobs.slice(0, 4), { workers: 0 }));
  });

  it("an unreadable file is an outcome with its error code, on workers too", async () => {
    const jobs: ParseJob[] = [
      { path: "gone.ts", absPath: join(REPO_ROOT, "fixtures", "no-such-file.ts"), language: "typescript", isDeclaration: false },
      { path: "gone2.ts", absPath: join(REPO_ROOT, "fixtures", "no-such-file2.ts"), language: "typescript", isDeclaration: false },
    ];
    expect(await parseFiles(jobs, { workers: 2 })).toEqual([
      { path: "gone.ts", errorCode: "ENOENT" },
      { path: "gone2.ts", errorCode: "ENOENT" },
    ]);
  });

  it("uses workers only when the work is large: > 200 files or > 4 MB", () => {
    expect(chooseParseWorkers(10, 1000)).toBe(0);
    expect(chooseParseWorkers(200, 4 * 1024 * 1024)).toBe(0);
    expect(chooseParseWorkers(201, 1000)).toBeGreaterThan(0);
    expect(chooseParseWorkers(5, 5 * 1024 * 1024)).toBeGreaterThan(0);
    expect(chooseParseWorkers(201, 1000)).toBeLessThanOrEqual(2);
    expect(chooseParseWorkers(5000, 1000, 0)).toBe(0);
    expect(chooseParseWorkers(1, 1, 3)).toBe(3);
  });
});
