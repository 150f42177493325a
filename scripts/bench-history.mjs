#!/usr/bin/env node
// Retrieval on a repository's own history: a check on tasks the ranking was
// never tuned on. Each commit that changed 1 to --max-files source files of
// its parent becomes a task: its subject line is the task, those files are
// the answer, and the codebase is the parent's tree. Every strategy ranks the
// files in process (build first: npm run build), and the table gives
// acc@1/5/10, R@5, MRR and the median time of the ranking per task.
//
//   npm run bench:history [-- --repo DIR] [--source src] [--max-files 4]
//                         [--limit N] [--strategy graph,bm25,pagerank]
//                         [--out FILE] [--cache DIR]
//
// --repo defaults to this project; --source to the folder(s) the answer is
// taken from (comma-separated, default src when the repository has one, else
// every file). Test files never count as answers. Each parent's tree (the
// source folders and the root's package.json and tsconfig files) is unpacked
// once under .bench-cache/history/<repository name>/<commit> (--cache DIR
// for another folder), and the ranking runs from a copy of the build taken
// into .bench-cache/history/.build (see snapshot-build.mjs); nothing is
// written elsewhere, and the repository is only read (git log, ls-tree,
// archive). --out writes the per-task ranks as JSON.

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describeTree, snapshotBuild } from "./snapshot-build.mjs";

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The frozen copy of the build the rankings run from; inside the project, so that its imports find node_modules. */
const BUILD_COPY = path.join(PROJECT_ROOT, ".bench-cache", "history", ".build");
const STRATEGIES = ["graph", "bm25", "pagerank"];
const SOURCE_FILE = /\.(?:[cm]?[jt]sx?)$/;
const TEST_FILE = /(^|\/)(__tests__|__mocks__|tests?|spec|e2e)\/|\.(test|spec|stories|bench)\.[cm]?[jt]sx?$/i;
const ROOT_CONFIGS = /^(package\.json|tsconfig(\.[\w-]+)?\.json|jsconfig\.json)$/;

function fail(message) {
  process.stderr.write(`bench-history: ${message}\n`);
  process.exit(1);
}

function usage(problem) {
  fail(`${problem}\nusage: npm run bench:history [-- --repo DIR] [--source src] [--max-files 4] [--limit N] [--strategy graph,bm25,pagerank] [--out FILE] [--cache DIR]`);
}

function parseArgs(argv) {
  const options = { repo: PROJECT_ROOT, source: null, maxFiles: 4, limit: Infinity, strategies: STRATEGIES, out: null, cache: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`missing value for ${arg}`);
      return argv[++i];
    };
    const count = (name) => {
      const n = Number(value());
      if (!Number.isInteger(n) || n < 1) usage(`${name} must be a positive whole number`);
      return n;
    };
    if (arg === "--repo") options.repo = path.resolve(value());
    else if (arg === "--source") options.source = value().split(",").map((s) => s.replace(/\/+$/, "")).filter(Boolean);
    else if (arg === "--max-files") options.maxFiles = count("--max-files");
    else if (arg === "--limit") options.limit = count("--limit");
    else if (arg === "--strategy") {
      options.strategies = value().split(",");
      const unknown = options.strategies.filter((s) => !STRATEGIES.includes(s));
      if (unknown.length > 0 || options.strategies.length === 0) usage(`--strategy takes ${STRATEGIES.join(", ")}`);
    } else if (arg === "--out") options.out = path.resolve(value());
    else if (arg === "--cache") options.cache = path.resolve(value());
    else if (arg === "--help" || arg === "-h") {
      const lines = fs.readFileSync(fileURLToPath(import.meta.url), "utf8").split("\n").slice(1);
      const header = lines.slice(0, lines.findIndex((l) => !l.startsWith("//")));
      process.stdout.write(header.map((l) => l.replace(/^\/\/ ?/, "")).join("\n") + "\n");
      process.exit(0);
    } else usage(`unknown option ${arg}`);
  }
  return options;
}

function git(repo, args, encoding = "utf8") {
  return execFileSync("git", ["-C", repo, ...args], { encoding, maxBuffer: 1 << 30, stdio: ["ignore", "pipe", "pipe"] });
}

/** Commits of the current branch, newest first, as tasks: subject, parent, answer files. */
function historyTasks(repo, sources, maxFiles) {
  const inSource = (file) => sources.length === 0 || sources.some((s) => file === s || file.startsWith(`${s}/`));
  const isAnswer = (file) => SOURCE_FILE.test(file) && !TEST_FILE.test(file) && inSource(file);
  const tasks = [];
  for (const line of git(repo, ["log", "--no-merges", "--format=%H%x09%P%x09%s"]).split("\n")) {
    const [commit, parents, subject] = line.split("\t");
    if (!commit || !parents || parents.includes(" ") || !subject?.trim()) continue;
    const changed = git(repo, ["diff-tree", "--no-commit-id", "--name-only", "-r", "--no-renames", commit]).split("\n").filter(isAnswer);
    if (changed.length === 0 || changed.length > maxFiles) continue;
    const before = new Set(git(repo, ["ls-tree", "-r", "--name-only", parents, ...(sources.length > 0 ? ["--", ...sources] : [])]).split("\n"));
    const answer = changed.filter((file) => before.has(file));
    if (answer.length > 0) tasks.push({ commit: commit.slice(0, 12), parent: parents, task: subject.trim(), answer });
  }
  return tasks;
}

/** The parent's source folders and root configs, unpacked once into the cache. */
function unpackTree(repo, parent, sources, cacheDir) {
  const dir = path.join(cacheDir, parent.slice(0, 12));
  if (fs.existsSync(path.join(dir, ".complete"))) return dir;
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const rootFiles = git(repo, ["ls-tree", "--name-only", parent]).split("\n").filter((f) => ROOT_CONFIGS.test(f));
  const paths = sources.length > 0 ? [...sources, ...rootFiles] : [];
  const archive = git(repo, ["archive", "--format=tar", parent, ...(paths.length > 0 ? ["--", ...paths] : [])], "buffer");
  execFileSync("tar", ["-x", "-C", dir], { input: archive, maxBuffer: 1 << 30 });
  fs.writeFileSync(path.join(dir, ".complete"), "");
  return dir;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.floor((sorted.length - 1) / 2)];
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  try {
    git(options.repo, ["rev-parse", "--git-dir"]);
  } catch {
    fail(`${options.repo} is no git repository`);
  }
  const sources = options.source ?? (fs.existsSync(path.join(options.repo, "src")) ? ["src"] : []);
  const tasks = historyTasks(options.repo, sources, options.maxFiles).slice(0, options.limit);
  if (tasks.length === 0) fail(`no commit of ${options.repo} changed 1 to ${options.maxFiles} source files${sources.length ? ` under ${sources.join(", ")}` : ""}`);
  const cacheRoot = options.cache ?? path.join(PROJECT_ROOT, ".bench-cache", "history");
  const cacheDir = path.join(cacheRoot, path.basename(options.repo));
  let build;
  try {
    build = await snapshotBuild(PROJECT_ROOT, BUILD_COPY);
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
  const { createRetriever } = await import(pathToFileURL(path.join(build, "dist", "index.js")).href);
  const results = [];
  for (const [i, task] of tasks.entries()) {
    if (process.stderr.isTTY) process.stderr.write(`\r${i + 1}/${tasks.length} tasks`);
    const root = unpackTree(options.repo, task.parent, sources, cacheDir);
    const retriever = await createRetriever({ root });
    const row = { ...task, ranks: {}, seconds: {} };
    for (const strategy of options.strategies) {
      const started = process.hrtime.bigint();
      const result = await retriever.retrieve(task.task, { strategy });
      row.seconds[strategy] = Number(process.hrtime.bigint() - started) / 1e9;
      const ranked = result.files.map((f) => f.path);
      row.ranks[strategy] = task.answer.map((file) => ranked.indexOf(file) + 1 || null);
    }
    results.push(row);
  }
  if (process.stderr.isTTY) process.stderr.write("\n");
  const repoName = path.basename(options.repo);
  process.stdout.write(`${repoName}: ${results.length} tasks from its history (1–${options.maxFiles} answer files${sources.length ? ` under ${sources.join(", ")}` : ""}), build ${describeTree(PROJECT_ROOT)}\n\n`);
  process.stdout.write(["strategy".padEnd(10), "n".padStart(4), "acc@1", "acc@5", "acc@10", "  R@5", "  MRR", "rank s"].join("  ") + "\n");
  for (const strategy of options.strategies) {
    const within = (ranks, k) => ranks.every((r) => r !== null && r <= k);
    const mean = (f) => (results.reduce((sum, row) => sum + f(row.ranks[strategy]), 0) / results.length).toFixed(3);
    const cells = [
      strategy.padEnd(10),
      String(results.length).padStart(4),
      mean((r) => (within(r, 1) ? 1 : 0)),
      mean((r) => (within(r, 5) ? 1 : 0)),
      mean((r) => (within(r, 10) ? 1 : 0)).padStart(6),
      mean((r) => r.filter((x) => x !== null && x <= 5).length / r.length),
      mean((r) => {
        const first = Math.min(...r.map((x) => x ?? Infinity));
        return first === Infinity ? 0 : 1 / first;
      }),
      median(results.map((row) => row.seconds[strategy])).toFixed(3).padStart(5),
    ];
    process.stdout.write(cells.join("  ") + "\n");
  }
  if (options.out) {
    fs.mkdirSync(path.dirname(options.out), { recursive: true });
    fs.writeFileSync(options.out, JSON.stringify(results, null, 1) + "\n");
  }
}

main().catch((error) => fail(error instanceof Error ? error.message : String(error)));
