// A frozen copy of the built library for a benchmark run.
//
// dist/ is shared with whoever else works in the tree: a `npm run build`
// during a long run rewrites it file by file, and a retrieval that starts
// then fails to import ("does not provide an export named …") or runs a
// mix of two builds. The benchmarks therefore run from a copy of dist/,
// grammars/, data/ and package.json taken when dist/ has been quiet for a
// moment, and checked to load. The copy lives under .bench-cache/, so
// imports of dependencies still find the project's node_modules by walking
// up the folders.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const COPIED = ["dist", "grammars", "data", "package.json"];
const QUIET_MS = 3000;
const WAIT_LIMIT_MS = 120_000;
const ATTEMPTS = 3;

function newestChange(dir) {
  let newest = 0;
  const stack = [dir];
  while (stack.length) {
    const current = stack.pop();
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) stack.push(full);
      else newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  }
  return newest;
}

async function waitForQuiet(dist) {
  const started = Date.now();
  while (Date.now() - started < WAIT_LIMIT_MS) {
    if (Date.now() - newestChange(dist) >= QUIET_MS) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** The HEAD commit and whether the tree has changes: what the snapshot was built from, roughly. */
export function describeTree(projectRoot) {
  const run = spawnSync("git", ["describe", "--always", "--dirty"], { cwd: projectRoot, encoding: "utf8" });
  return run.status === 0 ? run.stdout.trim() : "unknown";
}

/**
 * Copy the build into `destination` (replacing it) and check that it loads.
 * Returns the snapshot root; throws when dist/ is missing or no copy loads.
 *
 * @example
 * const root = await snapshotBuild("/work/main", "/work/main/.bench-cache/quality/build");
 * // node <root>/dist/cli/main.js …
 */
export async function snapshotBuild(projectRoot, destination) {
  const dist = path.join(projectRoot, "dist");
  if (!fs.existsSync(path.join(dist, "index.js"))) throw new Error("dist/index.js missing (run npm run build)");
  let lastError = null;
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    await waitForQuiet(dist);
    fs.rmSync(destination, { recursive: true, force: true });
    fs.mkdirSync(destination, { recursive: true });
    for (const name of COPIED) {
      const from = path.join(projectRoot, name);
      if (fs.existsSync(from)) fs.cpSync(from, path.join(destination, name), { recursive: true });
    }
    const check = spawnSync(
      process.execPath,
      ["--input-type=module", "-e", `await import(${JSON.stringify(pathToFileURL(path.join(destination, "dist", "index.js")).href)})`],
      { encoding: "utf8" },
    );
    const cli = spawnSync(process.execPath, [path.join(destination, "dist", "cli", "main.js"), "--version"], { encoding: "utf8" });
    if (check.status === 0 && cli.status === 0) return destination;
    lastError = (check.stderr || cli.stderr || "").trim().split("\n").find((line) => /Error/.test(line)) ?? "does not load";
  }
  throw new Error(`the build copied from dist/ does not load: ${lastError} (is a build running? rerun when it is done)`);
}
