#!/usr/bin/env node
// Feature extraction for training: every task of ../shared/bench/train (or
// the corpora named), each on its parent commit's tree, through the
// retriever's own first cycle (dist/retrieve/features/extract.js). Writes,
// per corpus, outside the project:
//   <out>/<corpus>.f32    the base feature rows, Float32, row after row
//   <out>/<corpus>.jsonl  one line a task: id, fold, lang, gold, where its
//                         rows start, the pool's paths, origins and graph
//   <out>/<corpus>.done   the feature list and the build that made them
// A corpus whose .done matches the current feature list is skipped, so a
// rerun only does what is missing or stale.
//
//   node scripts/learn/extract-features.mjs --mirrors DIR [--out DIR] [--corpus a,b] [--limit N] [--train DIR]
//
// The trees and their indexes go under <out>/trees and <out>/index. Nothing
// mined here may be committed: keep <out> outside the project.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { inHistoryOrder, mirrorGitDir, openTree } from "./git-tree.mjs";

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const DIST = path.join(PROJECT_ROOT, "dist");

function fail(message) {
  process.stderr.write(`extract-features: ${message}\n`);
  process.exit(1);
}

function parseArgs(argv) {
  const options = {
    mirrors: process.env.GR_BENCH_MIRRORS,
    out: process.env.GR_TRAIN_CACHE ?? path.join(os.tmpdir(), "gr-train-cache"),
    corpus: [],
    limit: Infinity,
    train: path.join(PROJECT_ROOT, "..", "shared", "bench", "train"),
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) fail(`missing value for ${arg}`);
      return argv[++i];
    };
    if (arg === "--mirrors") options.mirrors = value();
    else if (arg === "--out") options.out = value();
    else if (arg === "--corpus") options.corpus.push(...value().split(",").filter(Boolean));
    else if (arg === "--limit") options.limit = Number(value());
    else if (arg === "--train") options.train = value();
    else if (arg === "-h" || arg === "--help") {
      process.stdout.write("usage: node scripts/learn/extract-features.mjs --mirrors DIR [--out DIR] [--corpus a,b] [--limit N] [--train DIR]\n");
      process.exit(0);
    } else fail(`unknown argument ${arg}`);
  }
  if (!options.mirrors) fail("give --mirrors DIR (or set GR_BENCH_MIRRORS): DIR/<owner>+<name>/repo holds each training repository");
  return options;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(path.join(DIST, "index.js"))) fail("dist/ missing: run npm run build first");
  const { buildGraph, createIndexMemory } = await import(path.join(DIST, "index.js"));
  const { createRetrievalContext } = await import(path.join(DIST, "retrieve", "retrieval-context.js"));
  const { extractTaskFeatures } = await import(path.join(DIST, "retrieve", "features", "extract.js"));
  const { BASE_FEATURES } = await import(path.join(DIST, "retrieve", "features", "base-features.js"));
  const { refreshHistory } = await import(path.join(DIST, "history", "history-index.js"));
  const corpora = JSON.parse(fs.readFileSync(path.join(options.train, "corpora.json"), "utf8"));
  const tasks = fs.readFileSync(path.join(options.train, "tasks.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const chosen = options.corpus.length ? corpora.filter((c) => options.corpus.includes(c.name)) : corpora;
  if (options.corpus.length && chosen.length !== options.corpus.length) fail(`unknown corpus among ${options.corpus.join(", ")}`);
  fs.mkdirSync(options.out, { recursive: true });
  const signature = JSON.stringify({ features: BASE_FEATURES, limit: options.limit });

  for (const corpus of chosen) {
    const done = path.join(options.out, `${corpus.name}.done`);
    if (fs.existsSync(done) && fs.readFileSync(done, "utf8") === signature) {
      process.stderr.write(`${corpus.name}: up to date\n`);
      continue;
    }
    const mirror = mirrorGitDir(options.mirrors, corpus.git.repo);
    const own = inHistoryOrder(tasks.filter((t) => t.corpus === corpus.name), mirror).slice(0, options.limit);
    const tree = openTree(path.join(options.out, "trees", corpus.name), mirror);
    const cacheDir = path.join(options.out, "index", corpus.name);
    const memory = createIndexMemory();
    let history;
    const rowsFile = path.join(options.out, `${corpus.name}.f32`);
    const metaFile = path.join(options.out, `${corpus.name}.jsonl`);
    fs.rmSync(done, { force: true });
    fs.writeFileSync(rowsFile, "");
    fs.writeFileSync(metaFile, "");
    let rowsWritten = 0;
    const started = Date.now();
    for (const [k, task] of own.entries()) {
      const root = tree.moveTo(task.parent);
      const codeGraph = await buildGraph(root, { cacheDir, memory });
      // the history up to the parent (the tree's HEAD), brought forward from the last task's; a long first read is allowed
      const refreshed = await refreshHistory(root, { ...(history ? { previous: history } : {}), timeoutMs: 120_000 });
      history = refreshed?.history;
      const context = createRetrievalContext(codeGraph, history);
      const features = extractTaskFeatures(context, task.task);
      const paths = features.pool.map((f) => f.path);
      const at = new Map(paths.map((p, i) => [p, i]));
      const flat = new Float32Array(features.rows.length * BASE_FEATURES.length);
      features.rows.forEach((row, i) => flat.set(row, i * BASE_FEATURES.length));
      fs.appendFileSync(rowsFile, Buffer.from(flat.buffer));
      const meta = {
        id: task.id,
        corpus: corpus.name,
        fold: corpus.fold,
        lang: task.lang,
        gold: task.gold,
        goldAt: task.gold.map((g) => at.get(g) ?? -1),
        goldIndexed: task.gold.map((g) => codeGraph.files.has(g)),
        files: codeGraph.files.size,
        historyCommits: history?.commits.length ?? 0,
        historyRead: refreshed?.read ?? null,
        start: rowsWritten,
        rows: features.rows.length,
        paths,
        origin: features.pool.map((f) => f.origin),
        graph: features.graph,
      };
      fs.appendFileSync(metaFile, JSON.stringify(meta) + "\n");
      rowsWritten += features.rows.length;
      if ((k + 1) % 25 === 0 || k + 1 === own.length) {
        const s = ((Date.now() - started) / 1000).toFixed(0);
        process.stderr.write(`${corpus.name}: ${k + 1}/${own.length} tasks, ${rowsWritten} rows, ${s} s\n`);
      }
    }
    fs.writeFileSync(done, signature);
  }
}

main().catch((error) => fail(error?.stack ?? String(error)));
