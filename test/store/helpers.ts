import { cpSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildGraph, type CodeGraph } from "../../src/index.js";

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** A fresh temp folder (real path); removed by the returned cleanup. */
export function makeTempDir(prefix: string): { dir: string; cleanup: () => void } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Copy a fixture into `dest` with every mtime an hour old (so a warm build can trust stats). */
export function copyFixture(name: string, dest: string): string {
  cpSync(join(REPO_ROOT, "fixtures", name), dest, { recursive: true });
  ageTree(dest);
  return dest;
}

/** Set every file's mtime an hour back (files written by a test are otherwise "racy": re-hashed on the next run). */
export function ageTree(dir: string, seconds = 3600): void {
  const past = Date.now() / 1000 - seconds;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) utimesSync(join(entry.parentPath, entry.name), past, past);
  }
}

/** Every file under a folder, relative, sorted (to prove what was or was not written). */
export function listTree(dir: string): string[] {
  try {
    statSync(dir);
  } catch {
    return [];
  }
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

/** What must not depend on the index: facts, graph (as plain JSON), diagnostics, counts. */
export function comparable(codeGraph: CodeGraph) {
  const { millis: _millis, ...stats } = codeGraph.stats;
  return {
    files: JSON.parse(JSON.stringify([...codeGraph.files.entries()])) as unknown,
    graph: JSON.parse(JSON.stringify(codeGraph.graph.export())) as unknown,
    diagnostics: codeGraph.diagnostics,
    stats,
  };
}

/** The same build without any index: the reference a cached build must equal. */
export async function uncached(root: string): Promise<ReturnType<typeof comparable>> {
  return comparable(await buildGraph(root));
}
