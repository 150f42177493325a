#!/usr/bin/env node
// Python imports against Python's own resolution (issue 47): for repositories of ../shared/bench/train-python,
// each at its corpora.json `git.ref`, graph-retrieve's import edges (`graph --format json --no-cache`) beside what
// Python's import system finds for the same files (scripts/python-imports/pyresolve.py: walks the checkout as
// importlib's PathFinder does, imports nothing of it; python3 3.10+ needed).
//
//   GR_BENCH_MIRRORS=/path/to/mirrors npm run bench:python-imports [-- --repo starlette,black] [--all-files]
//
// A pair is (importing file, the checkout's file Python imports); "same" is the share of pairs where ours has an
// import or re-export edge to that file. --all-files measures every .py of the checkout (tests and scripts: their
// own folder first on sys.path, as pytest or a script puts it), else the files of corpora.json's sourceDirs.
// Checkouts go to .bench-cache/python-imports/<name> (over the mirror's objects), reports beside them.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { mirrorGitDir, openTree } from "./learn/git-tree.mjs";

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CACHE = path.join(PROJECT_ROOT, ".bench-cache", "python-imports");
const BENCH = process.env.GR_BENCH_DIR ?? path.resolve(PROJECT_ROOT, "..", "shared", "bench");

/**
 * The measured repositories and the sys.path roots their checkouts import from (what an editable install puts
 * there): the measurement's own configuration, as bench:speed pins its packages; the product reads none of it.
 */
const REPOSITORIES = {
  starlette: ["."],
  black: ["src"],
  hatch: ["src", "backend/src"],
  tox: ["src"],
  poetry: ["src"],
};

function fail(message) {
  process.stderr.write(`bench-python-imports: ${message}\n`);
  process.exit(1);
}

function parseArgs(argv) {
  const options = { repos: Object.keys(REPOSITORIES), allFiles: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--repo") options.repos = (argv[++i] ?? "").split(",").filter(Boolean);
    else if (argv[i] === "--all-files") options.allFiles = true;
    else fail(`unknown argument ${argv[i]} (usage: npm run bench:python-imports -- [--repo ${Object.keys(REPOSITORIES).join(",")}] [--all-files])`);
  }
  for (const name of options.repos) if (!REPOSITORIES[name]) fail(`no repository "${name}" here (one of ${Object.keys(REPOSITORIES).join(", ")})`);
  return options;
}

const options = parseArgs(process.argv.slice(2));
const mirrors = process.env.GR_BENCH_MIRRORS;
if (!mirrors) fail("set GR_BENCH_MIRRORS to the folder of owner+name/repo mirrors (fetch the train-python repositories first)");
const cli = path.join(PROJECT_ROOT, "dist", "cli", "main.js");
if (!fs.existsSync(cli)) fail("no dist/cli/main.js: run npm run build first");
if (spawnSync("python3", ["--version"]).status !== 0) fail("python3 is needed (the reference resolution is Python's own)");
const corpora = JSON.parse(fs.readFileSync(path.join(BENCH, "train-python", "corpora.json"), "utf8"));

for (const name of options.repos) {
  const corpus = corpora.find((c) => c.name === name);
  if (!corpus) fail(`${name} is not in train-python/corpora.json`);
  const dir = path.join(CACHE, name);
  const tree = openTree(dir, mirrorGitDir(mirrors, corpus.git.repo));
  tree.moveTo(corpus.git.ref);
  const edges = path.join(CACHE, `${name}.edges.json`);
  const graph = spawnSync(process.execPath, [cli, "graph", "--root", dir, "--format", "json", "--no-history", "--no-cache", "-q"], { maxBuffer: 1 << 30 });
  if (graph.status !== 0) fail(`graph failed on ${name}: ${String(graph.stderr).trim().split("\n").pop()}`);
  fs.writeFileSync(edges, graph.stdout);
  const files = options.allFiles ? ["."] : corpus.sourceDirs;
  const args = [path.join(PROJECT_ROOT, "scripts", "python-imports", "pyresolve.py"), name, dir, edges, "--roots", ...REPOSITORIES[name], "--files", ...files];
  if (options.allFiles) args.push("--basedir");
  args.push("--out", path.join(CACHE, `${name}.report${options.allFiles ? "-all" : ""}.json`));
  const run = spawnSync("python3", args, { stdio: "inherit" });
  if (run.status !== 0) fail(`pyresolve failed on ${name}`);
}
