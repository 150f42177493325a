#!/usr/bin/env node
// Feature extraction for training: every task of ../shared/bench/train (or
// the corpora named), each on its parent commit's tree, through the
// retriever's own first cycle (dist/retrieve/features/extract.js). Writes,
// per corpus, outside the project:
//   <out>/<corpus>.f32    the base feature rows, Float32, row after row
//   <out>/<corpus>.jsonl  one line a task: id, fold, lang, gold, where its
//                         rows start, the pool's paths, origins and graph
//   <out>/<corpus>.done   the feature list and the --limit it was made with
//   <out>/<corpus>.partial the feature list, while a corpus is being written
// A corpus whose .done matches the current feature list and --limit is
// skipped. One extracted with the same feature list and another --limit, or
// stopped part way (.partial), keeps the tasks it holds and goes on from the
// first it lacks, so a rerun with a higher --limit extends it; one holding
// more tasks than --limit asks is kept whole. A corpus extracted with
// another feature list is done again from its first task.
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

/**
 * The tasks a corpus already holds that a run may keep: those written with
 * this feature list (its .done, or its .partial when a run stopped part
 * way), when they are the corpus's first tasks in history order. Cuts the files to the
 * last whole task (a stopped run may have left rows without their line, or
 * half a line). None when the feature list differs or the order does not
 * match (the task list changed): the corpus is then done again.
 */
function heldTasks({ done, partial, rowsFile, metaFile, featureList, width, ordered }) {
  const none = { count: 0, rows: 0 };
  let features;
  try {
    const written = fs.existsSync(done) ? JSON.parse(fs.readFileSync(done, "utf8")).features : JSON.parse(fs.readFileSync(partial, "utf8"));
    features = JSON.stringify(written);
  } catch {
    return none;
  }
  if (features !== featureList || !fs.existsSync(rowsFile) || !fs.existsSync(metaFile)) return none;
  const text = fs.readFileSync(metaFile, "utf8");
  const lines = [];
  let rows = 0;
  for (const line of text.split("\n").slice(0, text.endsWith("\n") ? -1 : undefined)) {
    let meta;
    try {
      meta = JSON.parse(line);
    } catch {
      break;
    }
    if (meta.id !== ordered[lines.length]?.id) return none;
    if (meta.start !== rows) return none;
    lines.push(line);
    rows += meta.rows;
  }
  const bytes = rows * width * 4;
  if (fs.statSync(rowsFile).size < bytes) return none;
  fs.truncateSync(rowsFile, bytes);
  fs.writeFileSync(metaFile, lines.map((l) => l + "\n").join(""));
  return { count: lines.length, rows };
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
  const featureList = JSON.stringify(BASE_FEATURES);

  for (const corpus of chosen) {
    const done = path.join(options.out, `${corpus.name}.done`);
    const partial = path.join(options.out, `${corpus.name}.partial`);
    if (fs.existsSync(done) && fs.readFileSync(done, "utf8") === signature) {
      process.stderr.write(`${corpus.name}: up to date\n`);
      continue;
    }
    const mirror = mirrorGitDir(options.mirrors, corpus.git.repo);
    const ordered = inHistoryOrder(tasks.filter((t) => t.corpus === corpus.name), mirror);
    const own = ordered.slice(0, options.limit);
    const rowsFile = path.join(options.out, `${corpus.name}.f32`);
    const metaFile = path.join(options.out, `${corpus.name}.jsonl`);
    const held = heldTasks({ done, partial, rowsFile, metaFile, featureList, width: BASE_FEATURES.length, ordered });
    if (held.count >= own.length && held.count > 0) {
      fs.writeFileSync(done, JSON.stringify({ features: BASE_FEATURES, limit: held.count === own.length ? options.limit : held.count }));
      fs.rmSync(partial, { force: true });
      process.stderr.write(`${corpus.name}: holds ${held.count} tasks, --limit asks ${own.length}: kept\n`);
      continue;
    }
    const tree = openTree(path.join(options.out, "trees", corpus.name), mirror);
    const cacheDir = path.join(options.out, "index", corpus.name);
    const memory = createIndexMemory();
    // the history is read afresh at the first task done here: the same commits as brought forward (history-index.ts)
    let history;
    fs.writeFileSync(partial, featureList);
    fs.rmSync(done, { force: true });
    // the tasks held stay (heldTasks cut the files to the last whole one); the rest is written after them
    if (held.count === 0) {
      fs.writeFileSync(rowsFile, "");
      fs.writeFileSync(metaFile, "");
    }
    let rowsWritten = held.rows;
    const started = Date.now();
    if (held.count > 0) process.stderr.write(`${corpus.name}: holds ${held.count} tasks, going on to ${own.length}\n`);
    for (const [k, task] of own.entries()) {
      if (k < held.count) continue;
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
    fs.rmSync(partial, { force: true });
  }
}

main().catch((error) => fail(error?.stack ?? String(error)));
