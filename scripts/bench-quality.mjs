#!/usr/bin/env node
// Retrieval-quality benchmark, in two parts:
// 1. the leave-fold-out validation on ../shared/bench/train (commit
//    messages as tasks) and ../shared/bench/issues (GitHub issues as tasks,
//    every one of them): each fold's repositories, each task on its parent
//    commit, scored with the model trained without that fold (npm run train
//    writes them; it trains on both splits' other folds), beside the bm25
//    strategy and the reference BM25 (../shared/bench/baselines/bm25.mjs);
//    and on ../shared/bench/train-python (Python commits, sampled as the
//    commit split), scored by the same fold models (none of them trained
//    on a Python task), its reference BM25 over Python files
//    (BASELINE_LANG=python);
//    rows per language and per number of files changed, and the reliability
//    of the relevances (see bench-validation.mjs). Needs the training
//    repositories' mirrors (--mirrors DIR or GR_BENCH_MIRRORS) and the fold
//    models (GR_TRAIN_CACHE/models and models-also-without-history); skipped with a line saying so otherwise;
// 2. the npm dev split, once per strategy (graph, bm25, pagerank), side by
//    side, and the harness's comparison of graph against bm25.
//
//   npm run bench:quality [-- --jobs N] [--corpus NAME] [--limit N]
//                         [--strategy graph,bm25] [--timeout-s S] [--progress]
//                         [--keep-build] [--report]
//                         [--mirrors DIR] [--sample N] [--folds 0,1,2,3,4]
//                         [--retrievers graph,graph-no-history,bm25,reference]
//                         [--splits commits,issues,python] [--dev-only] [--validation-only]
//                         [--baseline DIR]
//
// --sample N: tasks per training repository (default 40; 0 = all 6204).
// --retrievers: the validation's retrievers to run (default all four); the
// tables also read the others' results on the same sample from an earlier
// run, and say so.
//
// --baseline DIR: an earlier run's .bench-cache folder (copied aside before
// a change, or another checkout's): graph's answers of this run are paired
// with its answers there on the same tasks, each split and the dev split:
// the mean difference of each metric with its standard error, and how many
// answers are the same.
//
// --keep-build reuses the build copy of the previous run (to rerun one
// strategy against the same code); --report only prints the tables from the
// results files already there.
//
// The harness is ../shared/bench (beside the project root) or $GR_BENCH_DIR.
// Corpora are unpacked under .bench-cache/quality (GR_BENCH_CACHE for the
// harness); results go to .bench-cache/quality/<strategy>.json and the
// harness's own output to <strategy>.log beside them.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describeTree, snapshotBuild } from "./snapshot-build.mjs";
import os from "node:os";
import { contextCeilingRows, deltaRows, NO_HISTORY_MODELS, pairedRows, readRecords, reliabilityRows, runValidation, validationRows, writeSample, RETRIEVERS } from "./bench-validation.mjs";

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CACHE_DIR = path.join(PROJECT_ROOT, ".bench-cache", "quality");
const CLI = path.join(PROJECT_ROOT, "dist", "cli", "main.js");
const DIST_INDEX = path.join(PROJECT_ROOT, "dist", "index.js");
/** The frozen copy of the build the retrievals run from (see snapshot-build.mjs). */
const BUILD_COPY = path.join(CACHE_DIR, "build");
const STRATEGIES = ["graph", "bm25", "pagerank"];
const COLUMNS = [
  // summary key, header, format
  ["acc1", "acc@1", "f"],
  ["acc5", "acc@5", "f"],
  ["acc10", "acc@10", "f"],
  ["mrr", "MRR", "f"],
  ["cP", "ctxP", "f"],
  ["cR", "ctxR", "f"],
  ["cF1", "ctxF1", "f"],
  ["ctxShare", "ctx%", "pct"],
  ["timeMedian", "med s", "s"],
];

function say(line) {
  process.stdout.write(line + "\n");
}

function fail(message) {
  process.stderr.write(`bench-quality: ${message}\n`);
  process.exit(1);
}

function parseArgs(argv) {
  const options = {
    jobs: "1", corpus: [], limit: null, timeoutS: null, strategies: STRATEGIES, progress: false, keepBuild: false, report: false,
    mirrors: process.env.GR_BENCH_MIRRORS ?? null, sample: 40, folds: [0, 1, 2, 3, 4], dev: true, validation: true, retrievers: RETRIEVERS, splits: ["commits", "issues", "python"],
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`missing value for ${arg}`);
      return argv[++i];
    };
    if (arg === "--jobs") options.jobs = value();
    else if (arg === "--corpus") options.corpus.push(value());
    else if (arg === "--limit") options.limit = value();
    else if (arg === "--timeout-s") options.timeoutS = value();
    else if (arg === "--strategy") options.strategies = value().split(",").filter(Boolean);
    else if (arg === "--progress") options.progress = true;
    else if (arg === "--keep-build") options.keepBuild = true;
    else if (arg === "--report") options.report = true;
    else if (arg === "--mirrors") options.mirrors = value();
    else if (arg === "--sample") options.sample = Number(value());
    else if (arg === "--folds") options.folds = value().split(",").map(Number);
    else if (arg === "--retrievers") options.retrievers = value().split(",").filter(Boolean);
    else if (arg === "--splits") options.splits = value().split(",").filter(Boolean);
    else if (arg === "--dev-only") options.validation = false;
    else if (arg === "--validation-only") options.dev = false;
    else if (arg === "--baseline") options.baseline = value();
    else if (arg === "-h" || arg === "--help") usage();
    else usage(`unknown argument ${arg}`);
  }
  for (const s of options.strategies) if (!STRATEGIES.includes(s)) usage(`unknown strategy ${s} (graph, bm25 or pagerank)`);
  for (const r of options.retrievers) if (!RETRIEVERS.includes(r)) usage(`unknown retriever ${r} (${RETRIEVERS.join(", ")})`);
  for (const k of options.folds) if (![0, 1, 2, 3, 4].includes(k)) usage(`unknown fold ${k} (0 to 4)`);
  for (const split of options.splits) if (!(split in SPLITS)) usage(`unknown split ${split} (commits, issues or python)`);
  if (!Number.isInteger(options.sample) || options.sample < 0) usage("--sample takes a whole number (0 = every task)");
  if (options.baseline !== undefined) {
    if (!fs.statSync(options.baseline, { throwIfNoEntry: false })?.isDirectory()) usage(`--baseline ${options.baseline}: no such folder (give a copy of an earlier run's .bench-cache)`);
    // this run writes its results over the ones there: they would be paired with themselves
    if (fs.realpathSync(options.baseline) === fs.realpathSync(path.join(PROJECT_ROOT, ".bench-cache"))) usage(`--baseline ${options.baseline}: this run writes there; copy it aside first (cp -r .bench-cache /tmp/before)`);
  }
  return options;
}

function usage(problem) {
  const text = "usage: node scripts/bench-quality.mjs [--jobs N] [--corpus NAME]… [--limit N] [--strategy graph,bm25,pagerank] [--timeout-s S] [--progress] [--keep-build] [--report] [--mirrors DIR] [--sample N] [--folds 0,1,2,3,4] [--retrievers graph,graph-no-history,bm25,reference] [--splits commits,issues,python] [--dev-only] [--validation-only] [--baseline DIR]";
  if (problem) {
    process.stderr.write(`bench-quality: ${problem}\n${text}\n`);
    process.exit(2);
  }
  say(text);
  process.exit(0);
}

/** The harness folder: $GR_BENCH_DIR, else ../shared/bench from the project root. */
function findHarness() {
  const dir = path.resolve(PROJECT_ROOT, process.env.GR_BENCH_DIR ?? path.join("..", "shared", "bench"));
  const files = { dir, run: path.join(dir, "run.mjs"), corpora: path.join(dir, "corpora.json"), tasks: path.join(dir, "tasks.jsonl") };
  const missing = [files.run, files.corpora, files.tasks].filter((f) => !fs.existsSync(f));
  if (missing.length) fail(`benchmark harness not found: ${dir} lacks ${missing.map((f) => path.basename(f)).join(", ")} (set GR_BENCH_DIR to the folder holding run.mjs)`);
  return files;
}

function ensureBuilt() {
  if (fs.existsSync(DIST_INDEX) && fs.existsSync(CLI)) return;
  say("dist/ missing: running npm run build");
  const build = spawnSync("npm", ["run", "build"], { cwd: PROJECT_ROOT, stdio: "inherit" });
  if (build.status !== 0 || !fs.existsSync(CLI)) fail("npm run build failed (fix the build, then rerun)");
}

function selectionArgs(options) {
  const args = [];
  for (const c of options.corpus) args.push("--corpus", c);
  if (options.limit) args.push("--limit", options.limit);
  return args;
}

function format(value, kind) {
  if (value == null || Number.isNaN(value)) return "-";
  if (kind === "pct") return (100 * value).toFixed(2) + "%";
  if (kind === "s") return value.toFixed(2);
  return value.toFixed(3);
}

function printRows(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const row of rows) say(row.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  "));
}

/** One row per corpus and strategy, ALL last. */
function printSideBySide(summaries) {
  const corpora = [...new Set([...summaries.values()].flatMap((s) => Object.keys(s.perCorpus)))].sort();
  const rows = [["corpus", "strategy", "n", "fail", ...COLUMNS.map((c) => c[1])]];
  for (const corpus of [...corpora, "ALL"]) {
    let first = true;
    for (const [strategy, summary] of summaries) {
      const s = corpus === "ALL" ? summary.all : summary.perCorpus[corpus];
      if (!s) continue;
      rows.push([first ? corpus : "", strategy, String(s.n), String(s.failures), ...COLUMNS.map(([key, , kind]) => format(s[key], kind))]);
      first = false;
    }
  }
  printRows(rows);
}

function runStrategy(harness, strategy, options, env, cli) {
  const out = path.join(CACHE_DIR, `${strategy}.json`);
  const logFile = path.join(CACHE_DIR, `${strategy}.log`);
  fs.rmSync(out, { force: true });
  const args = [
    harness.run,
    "--corpora", harness.corpora,
    "--tasks", harness.tasks,
    "--jobs", options.jobs,
    ...selectionArgs(options),
    ...(options.timeoutS ? ["--timeout-s", options.timeoutS] : []),
    ...(options.progress ? [] : ["--quiet"]),
    "--out", out,
    "--",
    process.execPath, path.relative(PROJECT_ROOT, cli), "{task}", "--root", "{root}", "--format", "json", "-q", "--strategy", strategy,
  ];
  const started = Date.now();
  const run = spawnSync(process.execPath, args, { cwd: PROJECT_ROOT, env, encoding: "utf8", stdio: ["ignore", "pipe", options.progress ? "inherit" : "pipe"], maxBuffer: 64 * 1024 * 1024 });
  fs.writeFileSync(logFile, (run.stdout ?? "") + (run.stderr ?? ""));
  const minutes = ((Date.now() - started) / 60000).toFixed(1);
  if (run.status !== 0 || !fs.existsSync(out)) {
    const last = String(run.stderr || run.stdout || run.error?.message || "").trim().split("\n").pop();
    say(`${strategy}: harness failed (exit ${run.status ?? run.signal}): ${last} (log: ${path.relative(PROJECT_ROOT, logFile)})`);
    return null;
  }
  const results = JSON.parse(fs.readFileSync(out, "utf8"));
  const failed = results.tasks.filter((t) => !t.ok);
  say(`${strategy}: ${results.tasks.length} tasks, ${failed.length} failed, ${minutes} min → ${path.relative(PROJECT_ROOT, out)}`);
  for (const t of failed.slice(0, 5)) say(`    ${t.id}: ${t.error}`);
  return results.summary;
}

/** The build copy to run: a fresh one, or with --keep-build the previous one when it still loads. */
async function prepareBuild(options) {
  const cli = path.join(BUILD_COPY, "dist", "cli", "main.js");
  if (options.keepBuild && spawnSync(process.execPath, [cli, "--version"]).status === 0) {
    say(`build: reusing ${path.relative(PROJECT_ROOT, BUILD_COPY)}`);
    return cli;
  }
  ensureBuilt();
  try {
    await snapshotBuild(PROJECT_ROOT, BUILD_COPY);
  } catch (error) {
    fail(error.message);
  }
  say(`build: dist/ of ${describeTree(PROJECT_ROOT)}, copied to ${path.relative(PROJECT_ROOT, BUILD_COPY)}`);
  return cli;
}

function readSummary(strategy) {
  try {
    return JSON.parse(fs.readFileSync(path.join(CACHE_DIR, `${strategy}.json`), "utf8")).summary;
  } catch {
    return null;
  }
}

/**
 * The leave-fold-out splits: the commit split (../shared/bench/train, the
 * ranker's training set, sampled) and the issue split
 * (../shared/bench/issues, GitHub issues as tasks, every task; its BM25
 * reference reads TS and JS together, as its README measures it).
 */
const SPLITS = {
  commits: { dir: "train", outDir: "validation", sampled: true, referenceEnv: {} },
  issues: { dir: "issues", outDir: "validation-issues", sampled: false, referenceEnv: { BASELINE_ALL_CODE: "1" } },
  python: { dir: "train-python", outDir: "validation-python", sampled: true, referenceEnv: { BASELINE_LANG: "python" } },
};

/** Part 1: the leave-fold-out validation on each split (see bench-validation.mjs). */
async function validate(options, harness, cli) {
  for (const split of options.splits) await validateSplit(options, harness, cli, split, SPLITS[split]);
}

async function validateSplit(options, harness, cli, name, split) {
  const trainDir = path.join(harness.dir, split.dir);
  const models = path.join(process.env.GR_TRAIN_CACHE ?? path.join(os.tmpdir(), "gr-train-cache"), "models");
  const outDir = path.join(PROJECT_ROOT, ".bench-cache", split.outDir);
  const tasksFile = path.join(outDir, "tasks.jsonl");
  const sample = split.sampled ? options.sample : 0;
  say(`${name} split (${path.relative(PROJECT_ROOT, trainDir)}):`);
  if (!fs.existsSync(path.join(trainDir, "tasks.jsonl"))) return say(`validation: skipped (no split at ${trainDir})`);
  const corporaFold = new Map(JSON.parse(fs.readFileSync(path.join(trainDir, "corpora.json"), "utf8")).map((c) => [c.name, c.fold]));
  let tasks;
  if (options.report) {
    if (!fs.existsSync(tasksFile)) return say(`validation: no earlier run in ${path.relative(PROJECT_ROOT, outDir)}`);
    tasks = fs.readFileSync(tasksFile, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
  } else {
    // the fold models the asked retrievers read: graph's, and graph-no-history's beside them
    const modelDirs = [...(options.retrievers.includes("graph") ? [models] : []), ...(options.retrievers.includes("graph-no-history") ? [`${models}${NO_HISTORY_MODELS}`] : [])];
    const missing = modelDirs.flatMap((dir) => options.folds.filter((k) => !fs.existsSync(path.join(dir, `fold-${k}.bin`))).map((k) => `fold ${k} in ${dir}`));
    if (!options.mirrors) return say(`validation: skipped (give --mirrors DIR or set GR_BENCH_MIRRORS: DIR/<owner>+<name>/repo for each repository of ${split.dir}/fetch-list.txt)`);
    if (missing.length) return say(`validation: skipped (no model for ${missing.join(", ")}: run npm run train (graph) and npm run train -- --also-without-history (graph-no-history), or set GR_TRAIN_CACHE)`);
    tasks = writeSample(trainDir, sample, tasksFile);
    say(`validation: ${tasks.length} tasks (${sample > 0 ? `${sample} a repository` : "all"}), folds ${options.folds.join(", ")}, each scored by the model trained without it`);
    const env = { ...process.env, GR_BENCH_CACHE: path.join(outDir, "trees"), ...split.referenceEnv };
    runValidation({
      harnessRun: harness.run, trainDir, tasksFile, mirrors: options.mirrors, models, cli,
      referenceBm25: path.join(harness.dir, "baselines", "bm25.mjs"), outDir, folds: options.folds, jobs: options.jobs, env, say,
      retrievers: options.retrievers, label: `${name}: `,
    });
  }
  // the tables read every retriever's results on this sample that are there, this run's and, for the others, an earlier run's
  const files = new Map(RETRIEVERS.map((r) => [r, new Map(options.folds.map((k) => [k, path.join(outDir, `fold-${k}-${r}.json`)]).filter(([, f]) => fs.existsSync(f)))]));
  const earlier = RETRIEVERS.filter((r) => files.get(r).size && (options.report || !options.retrievers.includes(r)));
  if (earlier.length) say(`validation: ${earlier.join(", ")} read from an earlier run on the same sample (${path.relative(PROJECT_ROOT, outDir)})`);
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const byRetriever = new Map(RETRIEVERS.filter((r) => files.get(r).size).map((r) => [r === "reference" ? "reference bm25" : r, readRecords(files.get(r), byId)]));
  if (!byRetriever.size) return say("validation: no retriever produced results");
  say("");
  printRows(validationRows(byRetriever, corporaFold));
  say("");
  printRows(deltaRows(byRetriever));
  say("");
  say("the context a ranking can give: an empty context counts precision 0, so no context's mean precision beats the chance that the first file is needed");
  printRows(contextCeilingRows(byRetriever));
  const graph = byRetriever.get("graph");
  if (graph) {
    const { rows, ece } = reliabilityRows(graph);
    say("");
    say(`reliability of graph's relevance over its ranked files (${name}): expected calibration error ${ece.toFixed(3)}`);
    printRows(rows);
  }
  if (graph && options.baseline) {
    const earlierDir = path.join(options.baseline, split.outDir);
    const earlier = new Map(options.folds.map((k) => [k, path.join(earlierDir, `fold-${k}-graph.json`)]).filter(([, f]) => fs.existsSync(f)));
    say("");
    if (earlier.size) sayPaired(pairedRows(graph, readRecords(earlier, byId)), `${name}: graph against the earlier run in ${earlierDir}`);
    else say(`${name}: no earlier graph results in ${earlierDir} to pair with`);
  }
  say("");
}

/** {@link pairedRows} as printed: the table, then how many answers are the same. */
function sayPaired({ rows, same, paired, unpaired }, title) {
  say(`${title}, paired on the ${paired} tasks both hold${unpaired ? ` (${unpaired} of this run's are not there)` : ""}:`);
  printRows(rows);
  say(`answers the same (ranked files, relevances and context): ${same} of ${paired}`);
}

/** Part 2: the npm dev split, per strategy. */
async function devSplit(options, harness, cli) {
  const summaries = new Map();
  if (options.report) {
    for (const strategy of options.strategies) {
      const summary = readSummary(strategy);
      if (summary) summaries.set(strategy, summary);
      else say(`${strategy}: no results in ${path.relative(PROJECT_ROOT, CACHE_DIR)}`);
    }
  } else {
    const env = { ...process.env, GR_BENCH_CACHE: CACHE_DIR };
    say(`preparing corpora in ${path.relative(PROJECT_ROOT, CACHE_DIR)}`);
    const prepare = spawnSync(process.execPath, [harness.run, "--corpora", harness.corpora, "--prepare", ...options.corpus.flatMap((c) => ["--corpus", c])], { cwd: PROJECT_ROOT, env, stdio: "inherit" });
    if (prepare.status !== 0) fail("corpus preparation failed (see above; the corpora come from the npm registry)");
    for (const strategy of options.strategies) {
      const summary = runStrategy(harness, strategy, options, env, cli);
      if (summary) summaries.set(strategy, summary);
    }
  }
  if (!summaries.size) fail("no strategy produced results");

  say("");
  say("npm dev split:");
  printSideBySide(summaries);

  const bm25 = path.join(CACHE_DIR, "bm25.json");
  const graph = path.join(CACHE_DIR, "graph.json");
  if (options.baseline && summaries.has("graph")) {
    const earlier = path.join(options.baseline, "quality", "graph.json");
    const tasksOf = (file) => JSON.parse(fs.readFileSync(file, "utf8")).tasks;
    say("");
    if (fs.existsSync(earlier)) sayPaired(pairedRows(tasksOf(graph), tasksOf(earlier)), `npm dev split: graph against the earlier run in ${earlier}`);
    else say(`npm dev split: no earlier graph results at ${earlier} to pair with`);
  }
  if (summaries.has("bm25") && summaries.has("graph")) {
    say("");
    say("graph (B) against bm25 (A):");
    spawnSync(process.execPath, [harness.run, "--compare", path.relative(PROJECT_ROOT, bm25), path.relative(PROJECT_ROOT, graph)], { cwd: PROJECT_ROOT, stdio: "inherit" });
  }
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const harness = findHarness();
  fs.mkdirSync(CACHE_DIR, { recursive: true });
  const cli = options.report ? null : await prepareBuild(options);
  if (options.validation) await validate(options, harness, cli);
  if (options.dev) await devSplit(options, harness, cli);
}

main().catch((error) => fail(error.stack ?? error.message));
