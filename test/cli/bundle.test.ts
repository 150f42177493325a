/**
 * The bin is a bundle (scripts/bundle-cli.mjs, run by `npm run build`):
 * dist/cli/main.js and the parse threads' dist/cli/parse-worker.js. A worker
 * that cannot start is replaced by parsing in the main thread without a
 * word, so a broken worker bundle would only show as a slower index: here it
 * must answer jobs with the facts the library's own parse gives.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { parseFiles, type ParseJob, type WorkerReply } from "../../src/parse/parse-files.js";
import { scanFiles } from "../../src/scan/index.js";
import { REPO_ROOT, makeTempDir } from "../store/helpers.js";

const BIN_DIR = join(REPO_ROOT, "dist", "cli");

/** Each job sent to one worker on `script`, the replies in job order. */
async function parseOnWorker(script: string, jobs: readonly ParseJob[]): Promise<WorkerReply[]> {
  const worker = new Worker(script);
  try {
    return await new Promise((resolve, reject) => {
      const replies: WorkerReply[] = new Array(jobs.length);
      let left = jobs.length;
      worker.on("error", reject);
      worker.on("exit", (code) => reject(new Error(`the worker exited (${code}) with ${left} jobs unanswered`)));
      worker.on("message", (reply: WorkerReply) => {
        replies[reply.id] = reply;
        if (--left === 0) resolve(replies);
      });
      jobs.forEach((job, id) => worker.postMessage({ id, job }));
    });
  } finally {
    await worker.terminate();
  }
}

/** The bin's files these entries reach by static imports, and the packages and built-ins they import. */
function staticImports(entries: readonly string[]): { seen: Set<string>; packages: Set<string> } {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (chunk: string) => {
    if (seen.has(chunk)) return;
    seen.add(chunk);
    const text = readFileSync(join(BIN_DIR, chunk), "utf8");
    // static imports, with bindings or for their effects (never import(): a chunk loaded on demand)
    for (const [, from, bare] of text.matchAll(/^import\s[^;]*?\bfrom\s+"([^"]+)"|^import\s+"([^"]+)"/gm)) {
      const specifier = (from ?? bare)!;
      if (specifier.startsWith("./")) visit(specifier.slice(2));
      else packages.add(specifier);
    }
  };
  for (const entry of entries) visit(entry);
  return { seen, packages };
}

describe("the bundled bin", () => {
  it("starts with its shebang and loads no module of tsc's dist/cli output", () => {
    const main = readFileSync(join(BIN_DIR, "main.js"), "utf8");
    expect(main.startsWith("#!/usr/bin/env node\n")).toBe(true);
    // the bundle imports its own chunks and packages, not the per-module files it was made from
    const relative = [...main.matchAll(/from "(\.[^"]+)"/g)].map((m) => m[1]);
    expect(relative.length).toBeGreaterThan(0);
    for (const specifier of relative) expect(specifier).toMatch(/\.chunk\.js$/);
  });

  it("the daemon's client (main.js before it forwards) loads no hashing, V8 flags or OS module: a command with --cache-dir needs none", () => {
    const { packages } = staticImports(["main.js"]);
    expect(packages).toContain("node:fs");
    // node:crypto alone cost ~10 ms of a daemon query's ~0.2 s; each is required where it is first needed
    for (const name of ["node:crypto", "node:v8", "node:os", "node:net"]) expect(packages).not.toContain(name);
  });

  it("every command's static imports leave out the resolver, its config parser and TypeScript, which only a build that resolves imports loads", () => {
    // main.js and run-cli (what main.js loads for every command run here, not forwarded to a daemon); a warm query
    // resolves nothing, and loading the resolver's chunk and jsonc-parser cost it ~20 ms of ~0.4 s on effect
    const { seen, packages } = staticImports(["main.js", "run-cli.chunk.js"]);
    expect(seen.size).toBeGreaterThan(3);
    // the resolver's chunk is the one that defines createResolver; the scan's glob filter is reached statically
    const chunksDefining = (fn: string) =>
      readdirSync(BIN_DIR).filter((name) => name.endsWith(".chunk.js") && new RegExp(`\\bfunction ${fn}\\(`).test(readFileSync(join(BIN_DIR, name), "utf8")));
    const resolverChunks = chunksDefining("createResolver");
    expect(resolverChunks).toHaveLength(1);
    expect(chunksDefining("createPathFilter").every((chunk) => seen.has(chunk))).toBe(true);
    expect(packages).toContain("node:fs");
    expect(seen).not.toContain(resolverChunks[0]);
    // nor the CommonJS packages the scan requires on first use (an ES import scans their source for exports: ~4 ms)
    for (const name of ["jsonc-parser", "typescript", "ts-morph", "picomatch", "ignore"]) expect(packages).not.toContain(name);
    // nor the built-ins of git, the parse workers and the daemon's socket, which a warm query without them never uses
    for (const name of ["node:child_process", "node:worker_threads", "node:net"]) expect(packages).not.toContain(name);
  });

  it("its parse worker gives the facts the library gives, on every file of a fixture, and hands back one whose facts need TypeScript", async () => {
    const root = join(REPO_ROOT, "fixtures", "monorepo");
    const scan = await scanFiles(root, {});
    const jobs: ParseJob[] = scan.files.map((f) => ({ path: f.path, absPath: f.absPath, language: f.language, isDeclaration: f.isDeclaration }));
    expect(jobs.length).toBeGreaterThan(2);
    const { dir, cleanup } = makeTempDir("bundle-worker");
    try {
      writeFileSync(join(dir, "broken.ts"), "export const a = ;\n");
      const all = [...jobs, { path: "broken.ts", absPath: join(dir, "broken.ts"), language: "typescript" as const, isDeclaration: false }];
      const replies = await parseOnWorker(join(BIN_DIR, "parse-worker.js"), all);
      expect(replies.map((r) => r.inThread === true)).toEqual(all.map((job) => job.path === "broken.ts"));
      expect(replies.slice(0, jobs.length).map((r) => (r.inThread ? undefined : r.outcome))).toEqual(await parseFiles(jobs, { workers: 0 }));
    } finally {
      cleanup();
    }
  });
});
