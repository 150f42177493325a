// The leave-fold-out validation of bench:quality: each fold of
// ../shared/bench/train scored by the harness with the model trained
// without it (scripts/learn/train.mjs writes <train cache>/models/fold-K.bin),
// beside the project's bm25 strategy and the reference BM25
// (../shared/bench/baselines/bm25.mjs) on the same tasks. A sample of each
// repository's tasks (--sample N, the N with the smallest sha256 of their
// id: stable when tasks are added) keeps a run under an hour; --sample 0
// runs them all.

import crypto from "node:crypto";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * graph: the learned ranking with history (the fold models of `npm run
 * train`, as data/ranker.bin); graph-no-history: the same model family run
 * without it, as a codebase without history is ranked (the fold models of
 * `npm run train -- --also-without-history`, as data/ranker-no-history.bin).
 */
export const RETRIEVERS = ["graph", "graph-no-history", "bm25", "reference"];

/** The no-history fold models sit beside the history's: <train cache>/models-also-without-history. */
export const NO_HISTORY_MODELS = "-also-without-history";

const sha = (text) => crypto.createHash("sha256").update(text).digest("hex");

/** The sampled tasks of each corpus, written to `file`; returns them. */
export function writeSample(trainDir, sample, file) {
  const tasks = fs.readFileSync(path.join(trainDir, "tasks.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const byCorpus = new Map();
  for (const t of tasks) byCorpus.set(t.corpus, [...(byCorpus.get(t.corpus) ?? []), t]);
  const chosen = [];
  for (const list of byCorpus.values()) {
    const sorted = [...list].sort((a, b) => (sha(a.id) < sha(b.id) ? -1 : 1));
    chosen.push(...(sample > 0 ? sorted.slice(0, sample) : sorted));
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, chosen.map((t) => JSON.stringify(t)).join("\n") + "\n");
  return chosen;
}

/** The harness command line of one retriever for one fold: the task from its file (an issue can be longer than an argument may be). */
function retrieverArgs(retriever, { cli, models, fold, referenceBm25 }) {
  if (retriever === "reference") return [process.execPath, referenceBm25, "{root}", "{taskfile}"];
  const args = [process.execPath, cli, "--task-file", "{taskfile}", "--root", "{root}", "--format", "json", "-q"];
  if (retriever === "bm25") return [...args, "--strategy", "bm25"];
  if (retriever === "graph") return [...args, "--model", path.join(models, `fold-${fold}.bin`)];
  return [...args, "--no-history", "--model", path.join(`${models}${NO_HISTORY_MODELS}`, `fold-${fold}.bin`)];
}

/**
 * Run the harness for every fold and retriever; returns results files by retriever → fold.
 */
export function runValidation({ harnessRun, trainDir, tasksFile, mirrors, models, cli, referenceBm25, outDir, folds, jobs, env, say, retrievers = RETRIEVERS, label = "" }) {
  const corpora = JSON.parse(fs.readFileSync(path.join(trainDir, "corpora.json"), "utf8"));
  const files = new Map(retrievers.map((r) => [r, new Map()]));
  for (const fold of folds) {
    const names = corpora.filter((c) => c.fold === fold).map((c) => c.name);
    for (const retriever of retrievers) {
      const out = path.join(outDir, `fold-${fold}-${retriever}.json`);
      const started = Date.now();
      const run = spawnSync(
        process.execPath,
        [harnessRun, "--corpora", path.join(trainDir, "corpora.json"), "--tasks", tasksFile, "--mirrors", mirrors, "--corpus", names.join(","), "--jobs", String(jobs), "--quiet", "--out", out, "--", ...retrieverArgs(retriever, { cli, models, fold, referenceBm25 })],
        { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 256 * 1024 * 1024 },
      );
      fs.writeFileSync(out.replace(/\.json$/, ".log"), (run.stdout ?? "") + (run.stderr ?? ""));
      if (run.status !== 0 || !fs.existsSync(out)) {
        say(`${label}fold ${fold}, ${retriever}: harness failed (exit ${run.status}): ${String(run.stderr).trim().split("\n").pop()}`);
        continue;
      }
      say(`${label}fold ${fold}, ${retriever}: ${((Date.now() - started) / 60000).toFixed(1)} min`);
      files.get(retriever).set(fold, out);
    }
  }
  return files;
}

/** Per-task records of a retriever over all its folds, each with lang and gold count. */
export function readRecords(foldFiles, tasksById) {
  const records = [];
  for (const file of foldFiles.values()) {
    for (const rec of JSON.parse(fs.readFileSync(file, "utf8")).tasks) {
      const task = tasksById.get(rec.id);
      records.push({ ...rec, lang: task?.lang ?? "en", goldCount: rec.gold.length });
    }
  }
  return records;
}

const METRICS = [["acc1", "acc@1"], ["acc5", "acc@5"], ["acc10", "acc@10"], ["mrr", "MRR"], ["cP", "ctxP"], ["cR", "ctxR"], ["cF1", "ctxF1"], ["ctxShare", "ctx%"], ["ctxFiles", "ctx#"]];

function mean(records, key) {
  return records.length ? records.reduce((s, r) => s + (r.metrics?.[key] ?? 0), 0) / records.length : 0;
}

/** Rows of the validation table: ALL, per language, per number of gold files, per fold. */
export function validationRows(byRetriever, corporaFold) {
  const groups = [
    ["ALL", () => true],
    ["English", (r) => r.lang === "en"],
    ["Chinese", (r) => r.lang === "zh"],
    ["1 file", (r) => r.goldCount === 1],
    ["2 files", (r) => r.goldCount === 2],
    ["3+ files", (r) => r.goldCount >= 3],
    ["2+ files", (r) => r.goldCount >= 2],
    ...[0, 1, 2, 3, 4].map((k) => [`fold ${k}`, (r) => corporaFold.get(r.corpus) === k]),
  ];
  const rows = [["tasks", "retriever", "n", ...METRICS.map((m) => m[1]), "ctx# med"]];
  for (const [label, test] of groups) {
    let first = true;
    for (const [retriever, records] of byRetriever) {
      const chosen = records.filter(test);
      if (!chosen.length) continue;
      const sizes = chosen.map((r) => r.metrics?.ctxFiles ?? 0).sort((a, b) => a - b);
      rows.push([
        first ? label : "",
        retriever,
        String(chosen.length),
        ...METRICS.map(([key]) => (key === "ctxShare" ? `${(100 * mean(chosen, key)).toFixed(2)}%` : mean(chosen, key).toFixed(3))),
        String(sizes[Math.floor((sizes.length - 1) / 2)]),
      ]);
      first = false;
    }
  }
  return rows;
}

/** The differences the acceptance reads: graph against the reference BM25 and against itself without history. */
export function deltaRows(byRetriever) {
  const groups = [["ALL", () => true], ["Chinese", (r) => r.lang === "zh"], ["2+ files", (r) => r.goldCount >= 2]];
  const pairs = [["graph", "reference bm25"], ["graph", "graph-no-history"]];
  const rows = [["tasks", "B − A", "acc@1", "acc@5", "MRR"]];
  for (const [b, a] of pairs) {
    if (!byRetriever.has(a) || !byRetriever.has(b)) continue;
    for (const [label, test] of groups) {
      const A = byRetriever.get(a).filter(test);
      const B = byRetriever.get(b).filter(test);
      rows.push([label, `${b} − ${a}`, ...["acc1", "acc5", "mrr"].map((k) => (mean(B, k) - mean(A, k) >= 0 ? "+" : "") + (mean(B, k) - mean(A, k)).toFixed(3))]);
    }
  }
  return rows;
}

/**
 * What context a ranking can give, per retriever. The harness scores a task
 * with an empty context at precision 0, so no rule that picks a context
 * from a ranking (ordered by how likely each file is needed) has a mean
 * precision above, in expectation, the chance that its first file is
 * needed: the first file alone has exactly that precision, and each file
 * added is one the ranking holds less likely. The rows show that ceiling
 * ("top 1 needed"), the recall of the first file alone, and the context
 * the retriever returned: how often it is not empty, its precision when
 * not, and how often it is not empty when the first file is needed.
 */
export function contextCeilingRows(byRetriever) {
  const rows = [["retriever", "n", "top 1 needed", "top 1 alone ctxR", "ctxP", "ctxR", "ctx not empty", "ctxP when not empty", "not empty when top 1 needed"]];
  for (const [retriever, records] of byRetriever) {
    if (!records.length) continue;
    let top = 0;
    let topRecall = 0;
    let nonEmpty = 0;
    let nonEmptyPrecision = 0;
    let nonEmptyWhenTop = 0;
    for (const rec of records) {
      const gold = new Set(rec.gold);
      const first = rec.ranked?.[0]?.[0];
      const needed = first !== undefined && gold.has(first) ? 1 : 0;
      top += needed;
      topRecall += gold.size ? needed / gold.size : 0;
      if ((rec.metrics?.ctxFiles ?? 0) > 0) {
        nonEmpty++;
        nonEmptyPrecision += rec.metrics.cP ?? 0;
        nonEmptyWhenTop += needed;
      }
    }
    const n = records.length;
    rows.push([
      retriever, String(n), (top / n).toFixed(3), (topRecall / n).toFixed(3),
      mean(records, "cP").toFixed(3), mean(records, "cR").toFixed(3), (nonEmpty / n).toFixed(3), nonEmpty ? (nonEmptyPrecision / nonEmpty).toFixed(3) : "-",
      top ? (nonEmptyWhenTop / top).toFixed(3) : "-",
    ]);
  }
  return rows;
}

/** Reliability of the graph retriever's relevances over its ranked files: bins of 0.1, and the expected calibration error. */
export function reliabilityRows(records) {
  const bins = Array.from({ length: 10 }, (_, b) => ({ lo: b / 10, n: 0, sum: 0, gold: 0 }));
  let total = 0;
  for (const rec of records) {
    const gold = new Set(rec.gold);
    for (const [file, relevance] of rec.ranked ?? []) {
      const bin = bins[Math.min(9, Math.floor(relevance * 10))];
      bin.n++;
      bin.sum += relevance;
      bin.gold += gold.has(file) ? 1 : 0;
      total++;
    }
  }
  let ece = 0;
  const rows = [["relevance", "files", "mean relevance", "gold rate", "gap"]];
  for (const bin of bins) {
    if (!bin.n) continue;
    const m = bin.sum / bin.n;
    const rate = bin.gold / bin.n;
    ece += (bin.n / total) * Math.abs(m - rate);
    rows.push([`[${bin.lo.toFixed(1)}, ${(bin.lo + 0.1).toFixed(1)}${bin.lo >= 0.9 ? "]" : ")"}`, String(bin.n), m.toFixed(3), rate.toFixed(3), (rate - m).toFixed(3)]);
  }
  return { rows, ece };
}

/**
 * This run's records paired with an earlier run's (`baseline`) on the tasks
 * both hold: per metric, the mean difference (this − earlier) and its
 * standard error over those tasks, and how many answers are the same
 * (ranked files with their relevances, and the context). The same tasks
 * scored twice differ far less than two samples do, so a change of a few
 * hundredths is told from noise here that the tables' means cannot tell.
 */
export function pairedRows(records, baseline) {
  const earlier = new Map(baseline.map((r) => [r.id, r]));
  const pairs = records.filter((r) => earlier.has(r.id)).map((r) => [r, earlier.get(r.id)]);
  const rows = [["metric", "n", "this", "earlier", "this − earlier", "± s.e."]];
  for (const [key, label] of METRICS.filter(([key]) => key !== "ctxShare" && key !== "ctxFiles")) {
    const diffs = pairs.map(([now, then]) => (now.metrics?.[key] ?? 0) - (then.metrics?.[key] ?? 0));
    const n = diffs.length;
    const d = n ? diffs.reduce((s, x) => s + x, 0) / n : 0;
    const se = n > 1 ? Math.sqrt(diffs.reduce((s, x) => s + (x - d) ** 2, 0) / (n - 1) / n) : 0;
    const means = [0, 1].map((side) => (n ? pairs.reduce((s, pair) => s + (pair[side].metrics?.[key] ?? 0), 0) / n : 0));
    rows.push([label, String(n), means[0].toFixed(3), means[1].toFixed(3), `${d >= 0 ? "+" : ""}${d.toFixed(3)}`, se.toFixed(3)]);
  }
  const answer = (r) => JSON.stringify([r.ranked ?? [], r.context ?? []]);
  const same = pairs.filter(([now, then]) => answer(now) === answer(then)).length;
  return { rows, same, paired: pairs.length, unpaired: records.length - pairs.length };
}
