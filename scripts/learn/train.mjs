#!/usr/bin/env node
// Train the ranker: `npm run train [-- options]`.
//
// Reads the features extract-features.mjs stored (GR_TRAIN_CACHE or --data)
// and trains, for each of the 5 folds of ../shared/bench/train, a model on
// the other four (leave-repositories-out), then the shipped model on all:
//
//   stage 1  gradient-boosted trees on the first cycle's features
//   stage 2  the same on those plus the ties to what stage 1 found
//            (relation-features.ts), fed with out-of-fold stage-1 answers
//   calibration  isotonic maps from each stage's log-odds to the chance
//            that a file is one the change needed, fit on out-of-fold
//            answers only
//
// Prints each validation fold's figures (scored by the model that never
// saw it) and writes:
//   --out FILE (default data/ranker.bin, or data/ranker-no-history.bin
//     with --also-without-history)          the model trained on all folds
//   <data>/models/fold-K.bin               each fold's validation model
// (models in the layout of src/retrieve/model/ranker-file.ts)
//   <data>/models/validation.json          the per-task validation rankings
// With --no-history, the same without the history's features and rows (the
// model --no-history is compared with), into models-no-history/; no
// shipped model is written. With --also-without-history every model trains
// on each task twice, as seen with its history and as a retrieval without
// history sees it (withAndWithoutHistory), into
// models-also-without-history/, and the shipped model goes to
// data/ranker-no-history.bin: the model for a codebase without history (an
// npm tarball, a folder that is no work tree, --no-history). The model
// trained on the tasks as their history shows them (data/ranker.bin) meets
// empty history features there that it never saw in training, and is
// overconfident (docs/quality.md, session 23); the validation reports both
// halves.
//
// --models DIR writes the fold models elsewhere; --objective lambdarank
// trains on LambdaRank gradients instead of the logistic loss (the
// calibration maps are fit the same way). --task-share X trains each model
// on that share of its training tasks (chosen by a hash of the task id, so
// the same tasks each run) and validates on every task of the held-out
// fold: a learning curve, to see what more tasks would buy.
//
// Corpora of the issue split (../shared/bench/issues, --issues DIR) extracted
// into the same --data folder train beside the commit split, fold k with
// fold k; each issue task's rows weigh --issue-weight times a commit task's
// (there are 17 commit tasks to one issue; 2 by default: at 2 the issue
// split's context F1 was 0.020 ± 0.010 above 4 through the harness, its
// ranking the same, the commit split's the same; 8 lowered its MRR;
// docs/quality.md, sessions 34-36), and the validation is also
// reported for each kind alone. A task read as an issue (the taskIssue
// feature) gets its own calibration maps, fit on such tasks alone: the same
// log-odds means less on an issue than on a commit message (docs/quality.md,
// session 30). --calibrate-only fits those maps again from the fold models
// and the shipped model already written (their trees scored on the
// held-out folds), without training a tree.
//
//   options: --data DIR  --out FILE  --trees N  --depth N  --rate X  --negatives X  --task-share X  --folds 0,1  --no-history  --also-without-history  --no-final  --no-write  --quiet  --issues DIR  --issue-weight X  --calibrate-only

import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadDataset, NO_HISTORY_SUFFIX, rankingRecord, selectRows, withAndWithoutHistory, withoutHistory } from "./dataset.mjs";
import { createRandom, fitIsotonic, predictMargins, trainGbdt } from "./gbdt.mjs";
import { averageMetrics, formatMetrics, reliability, scoreRanking } from "./metrics.mjs";

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const DIST = path.join(PROJECT_ROOT, "dist");
const SHOWN = 50;
/** Fewer tasks read as issues than this in a map's training folds, and issues share the one map (367 of them in ../shared/bench/issues). */
const MIN_ISSUE_CALIBRATION_TASKS = 50;
/** The fewest rows a step of the issue map holds (see calibrate); the map of every task has thousands in each. */
const MIN_ISSUE_STEP_ROWS = 20;
const FOLDS = [0, 1, 2, 3, 4];

function fail(message) {
  process.stderr.write(`train: ${message}\n`);
  process.exit(1);
}

function parseArgs(argv) {
  const o = {
    data: process.env.GR_TRAIN_CACHE ?? path.join(os.tmpdir(), "gr-train-cache"),
    trees: 300,
    depth: 6,
    rate: 0.05,
    folds: FOLDS,
    negatives: 0.3,
    taskShare: 1,
    objective: "logistic",
    history: true,
    both: false,
    write: true,
    quiet: false,
    final: true,
    issues: path.join(PROJECT_ROOT, "..", "shared", "bench", "issues"),
    issueWeight: 2,
    calibrateOnly: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) fail(`missing value for ${arg}`);
      return argv[++i];
    };
    if (arg === "--data") o.data = value();
    else if (arg === "--out") o.out = value();
    else if (arg === "--trees") o.trees = Number(value());
    else if (arg === "--depth") o.depth = Number(value());
    else if (arg === "--rate") o.rate = Number(value());
    else if (arg === "--negatives") o.negatives = Number(value());
    else if (arg === "--task-share") {
      const text = value();
      o.taskShare = Number(text);
      if (!(o.taskShare > 0 && o.taskShare <= 1)) fail(`--task-share takes a share in (0, 1], not ${text}`);
    }
    else if (arg === "--objective") o.objective = value();
    else if (arg === "--models") o.models = path.resolve(value());
    else if (arg === "--folds") o.folds = value().split(",").map(Number);
    else if (arg === "--no-write") o.write = false;
    else if (arg === "--no-final") o.final = false;
    else if (arg === "--no-history") o.history = false;
    else if (arg === "--also-without-history") o.both = true;
    else if (arg === "--quiet") o.quiet = true;
    else if (arg === "--calibrate-only") o.calibrateOnly = true;
    else if (arg === "--issues") o.issues = path.resolve(value());
    else if (arg === "--issue-weight") {
      const text = value();
      o.issueWeight = Number(text);
      if (!(o.issueWeight > 0)) fail(`--issue-weight takes a positive number, not ${text}`);
    }
    else if (arg === "-h" || arg === "--help") {
      process.stdout.write("usage: npm run train [-- --data DIR] [--out FILE] [--trees N] [--depth N] [--rate X] [--negatives X] [--task-share X] [--folds 0,1] [--no-history | --also-without-history] [--objective logistic|lambdarank] [--models DIR] [--no-final] [--no-write] [--quiet] [--issues DIR] [--issue-weight X] [--calibrate-only]\n");
      process.exit(0);
    } else fail(`unknown argument ${arg}`);
  }
  if (o.both && !o.history) fail("--also-without-history and --no-history exclude each other");
  // the shipped model this run writes by default: the one for a codebase without history when every task is also seen without it
  o.out ??= path.join(PROJECT_ROOT, "data", o.both ? "ranker-no-history.bin" : "ranker.bin");
  if (!fs.existsSync(o.data)) fail(`no training features at ${o.data} (run scripts/learn/extract-features.mjs --mirrors DIR first, or give --data DIR)`);
  return o;
}

const sigmoid = (m) => 1 / (1 + Math.exp(-m));

/** Compress isotonic knots to at most `max` by merging neighbours with the least weight, keeping monotonicity. */
function compressKnots(knots, max = 64) {
  if (knots.length <= max) return knots;
  const step = knots.length / max;
  const out = [];
  for (let b = 0; b < max; b++) {
    const part = knots.slice(Math.floor(b * step), Math.floor((b + 1) * step));
    if (!part.length) continue;
    out.push([part.reduce((s, k) => s + k[0], 0) / part.length, part.reduce((s, k) => s + k[1], 0) / part.length]);
  }
  for (let i = 1; i < out.length; i++) out[i][1] = Math.max(out[i][1], out[i - 1][1]);
  return out;
}

/** Piecewise-linear map through the knots, flat beyond them. */
export function applyKnots(knots, x) {
  if (!knots.length) return sigmoid(x);
  if (x <= knots[0][0]) return knots[0][1];
  const last = knots[knots.length - 1];
  if (x >= last[0]) return last[1];
  let lo = 0;
  let hi = knots.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (knots[mid][0] <= x) lo = mid;
    else hi = mid;
  }
  const [x0, y0] = knots[lo];
  const [x1, y1] = knots[hi];
  return x1 > x0 ? y0 + ((y1 - y0) * (x - x0)) / (x1 - x0) : y1;
}

/** The rows of each task that a retrieval shows: its best SHOWN by margin. */
function shownRows(tasks, margins) {
  const rows = [];
  for (const t of tasks) {
    const order = Array.from({ length: t.rows }, (_, r) => r).sort((a, b) => margins[t.start + b] - margins[t.start + a] || a - b);
    for (const r of order.slice(0, SHOWN)) rows.push(t.start + r);
  }
  return rows;
}

/**
 * Isotonic calibration of the margins of the shown rows of `tasks`, each
 * step of the map holding at least `minRows` rows: a smaller step is pooled
 * with the one below it (with the one above, for the lowest). A map fit on
 * a few hundred issues ends otherwise in a step of two or three rows, all
 * needed by chance, that says 1.0.
 */
function calibrate(tasks, margins, y, minRows = 1) {
  const rows = shownRows(tasks, margins);
  const scores = rows.map((i) => margins[i]);
  const labels = rows.map((i) => y[i]);
  const steps = fitIsotonic(scores, labels, rows.map(() => 1)).map(([x, p, w]) => ({ lo: x, hi: x, sum: p * w, w }));
  for (let i = steps.length - 1; i > 0; i--) {
    if (steps[i].w >= minRows) continue;
    const [below, step] = [steps[i - 1], steps[i]];
    steps.splice(i - 1, 2, { lo: below.lo, hi: step.hi, sum: below.sum + step.sum, w: below.w + step.w });
  }
  if (steps.length > 1 && steps[0].w < minRows) steps.splice(0, 2, { lo: steps[0].lo, hi: steps[1].hi, sum: steps[0].sum + steps[1].sum, w: steps[0].w + steps[1].w });
  return compressKnots(steps.map((s) => [(s.lo + s.hi) / 2, s.sum / s.w]));
}

/** A task's ranking: by relevance, ties by the margin it came from (a calibration step holds many files). */
function rankTask(t, relevance, margins) {
  return Array.from({ length: t.rows }, (_, r) => ({ path: t.paths[r], relevance: relevance[t.start + r], margin: margins ? margins[t.start + r] : 0 }))
    .sort((a, b) => b.relevance - a.relevance || b.margin - a.margin || (a.path < b.path ? -1 : 1))
    .slice(0, SHOWN);
}

/** The context a retrieval would decide on a task's ranking (src/retrieve/decide-context.ts; tokens are not known here, so no budget binds). */
let contextOf = () => undefined;

function report(label, tasks, relevance, say, margins) {
  const metrics = tasks.map((t) => {
    const ranked = rankTask(t, relevance, margins);
    return scoreRanking(ranked, t.gold, contextOf(ranked));
  });
  const all = averageMetrics(metrics);
  say(`${label}: ${formatMetrics(all)}`);
  return all;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const say = o.quiet ? () => {} : (line) => process.stdout.write(line + "\n");
  const { BASE_FEATURES, HISTORY_FEATURES } = await import(path.join(DIST, "retrieve", "features", "base-features.js"));
  const { RELATION_FEATURES, relationFeatures } = await import(path.join(DIST, "retrieve", "features", "relation-features.js"));
  modelFile = await import(path.join(DIST, "retrieve", "model", "ranker-file.js"));
  const { scoreRow } = await import(path.join(DIST, "retrieve", "model", "ranker.js"));
  const { decideContext } = await import(path.join(DIST, "retrieve", "decide-context.js"));
  const { CONTEXT_MAX_FILES } = await import(path.join(DIST, "retrieve", "parameters.js"));
  contextOf = (ranked) => decideContext(ranked.map((f) => ({ path: f.path, chance: f.relevance, tokens: 0 })), { maxFiles: CONTEXT_MAX_FILES, budgetTokens: Infinity }).paths;
  const loaded = loadDataset(o.data, [...BASE_FEATURES]);
  const historyColumns = HISTORY_FEATURES.map((f) => BASE_FEATURES.indexOf(f));
  const data = !o.history ? withoutHistory(loaded, historyColumns) : o.both ? withAndWithoutHistory(loaded, historyColumns) : loaded;
  const models = o.models ?? path.join(o.data, !o.history ? "models-no-history" : o.both ? "models-also-without-history" : "models");
  const { F, n, X, y, tasks } = data;
  say(`data: ${tasks.length} tasks, ${n} rows, ${F} features, ${data.corpora.length} corpora${!o.history ? ", without history" : o.both ? ", each task with and without history" : ""}${o.taskShare < 1 ? `; each model trained on ${o.taskShare} of its training tasks` : ""}`);
  const params = { trees: o.trees, depth: o.depth, learningRate: o.rate, log: o.quiet ? null : (l) => process.stderr.write(`  ${l}\n`) };
  const F2 = F + RELATION_FEATURES.length;

  /** Stage-2 rows: base features and the relations to `previous` relevance. */
  const stage2Matrix = (previous) => {
    const X2 = new Float32Array(n * F2);
    for (const t of tasks) {
      const prev = Array.from({ length: t.rows }, (_, r) => previous[t.start + r]);
      const rel = relationFeatures(t.graph, prev);
      for (let r = 0; r < t.rows; r++) {
        const i = t.start + r;
        X2.set(X.subarray(i * F, (i + 1) * F), i * F2);
        X2.set(rel[r], i * F2 + F);
      }
    }
    return X2;
  };
  const tasksOf = (folds) => tasks.filter((t) => folds.includes(t.fold));
  // the issue split's corpora (their tasks are GitHub issues, the others commit messages)
  const issueCorpora = new Set(fs.existsSync(path.join(o.issues, "corpora.json")) ? JSON.parse(fs.readFileSync(path.join(o.issues, "corpora.json"), "utf8")).map((c) => c.name) : []);
  const isIssueTask = (t) => issueCorpora.has(t.corpus);
  const issueTasks = tasks.filter(isIssueTask).length;
  if (issueTasks > 0) say(`issues: ${issueTasks} of the tasks are the issue split's, each weighing ${o.issueWeight} commit tasks`);
  // --task-share: the training tasks kept, by a hash of the id (validation keeps every task)
  const inShare = (id) => createHash("sha256").update(id).digest().readUInt32BE(0) / 2 ** 32 < o.taskShare;
  const trainingTasks = (folds) => tasksOf(folds).filter((t) => o.taskShare === 1 || inShare(t.id));
  // every gold row, and a seeded share of the rest weighted up by its inverse: the same expected loss, a third of the rows
  const train = (X_, F_, chosen) => {
    const rows = selectRows(data, chosen, F_, X_);
    const random = createRandom(17);
    const kept = [];
    const keptWeight = [];
    const groups = [];
    let at = 0;
    for (const t of chosen) {
      const start = kept.length;
      const weight = isIssueTask(t) ? o.issueWeight : 1;
      for (let r = 0; r < t.rows; r++, at++) {
        if (rows.y[at] === 1 || random() < o.negatives) {
          kept.push(at);
          keptWeight.push(weight);
        }
      }
      groups.push([start, kept.length]);
    }
    const Xs = new Float32Array(kept.length * F_);
    const ys = new Uint8Array(kept.length);
    const ws = new Float64Array(kept.length);
    kept.forEach((i, k) => {
      Xs.set(rows.X.subarray(i * F_, (i + 1) * F_), k * F_);
      ys[k] = rows.y[i];
      ws[k] = (rows.y[i] === 1 ? 1 : 1 / o.negatives) * keptWeight[k];
    });
    return trainGbdt(Xs, ys, ws, kept.length, F_, o.objective === "lambdarank" ? { ...params, groups } : params);
  };
  const predictInto = (model, X_, F_, chosen, out) => {
    for (const t of chosen) {
      const part = predictMargins(model, X_.subarray(t.start * F_, (t.start + t.rows) * F_), t.rows, F_);
      out.set(part, t.start);
    }
  };

  // stage 1, out of fold
  const folds = FOLDS.filter((k) => tasks.some((t) => t.fold === k));
  const outOfFold = (X_, F_) => {
    const margins = new Float64Array(n);
    const models = new Map();
    for (const k of folds) {
      const started = Date.now();
      const model = train(X_, F_, trainingTasks(folds.filter((j) => j !== k)));
      predictInto(model, X_, F_, tasksOf([k]), margins);
      models.set(k, model);
      say(`  fold ${k}: trained in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    }
    return { margins, models };
  };
  // --calibrate-only: the fold models' trees as written, scored again on their held-out folds (their issue maps are fit anew)
  const written = o.calibrateOnly ? new Map(folds.map((k) => [k, readModel(path.join(models, `fold-${k}.bin`))])) : undefined;
  const scoredFrom = (stage, X_, F_) => {
    const margins = new Float64Array(n);
    const packed = new Map(folds.map((k) => [k, written.get(k).stages[stage]]));
    for (const t of tasks) for (let r = 0; r < t.rows; r++) margins[t.start + r] = scoreRow(packed.get(t.fold), X_.subarray((t.start + r) * F_, (t.start + r + 1) * F_));
    return { margins, packed };
  };
  say(o.calibrateOnly ? `stage 1 (the trees of ${path.relative(PROJECT_ROOT, models)}):` : "stage 1:");
  const first = o.calibrateOnly ? scoredFrom(0, X, F) : outOfFold(X, F);
  // stage 2 reads the first stage's answers as the loop hands them on: its raw probability
  say("stage 2:");
  const X2 = stage2Matrix(Float64Array.from(first.margins, sigmoid));
  const second = o.calibrateOnly ? scoredFrom(1, X2, F2) : outOfFold(X2, F2);
  const X3 = stage2Matrix(Float64Array.from(second.margins, sigmoid));
  // a task read as an issue (the taskIssue feature, as the retrieval reads it) goes through its own map, fit on such tasks alone
  const issueColumn = BASE_FEATURES.indexOf("taskIssue");
  const readsAsIssue = (t) => issueColumn >= 0 && X[t.start * F + issueColumn] === 1;
  const calibrateKinds = (chosen, margins) => {
    const issues = chosen.filter(readsAsIssue);
    const all = calibrate(chosen, margins, y);
    return { all, issue: issues.length >= MIN_ISSUE_CALIBRATION_TASKS ? calibrate(issues, margins, y, MIN_ISSUE_STEP_ROWS) : undefined };
  };
  const mapOf = (cal, t) => (cal.issue && readsAsIssue(t) ? cal.issue : cal.all);

  // per validation fold: calibration maps fit on the other folds' out-of-fold answers only
  const validation = { p1: new Float64Array(n), p2: new Float64Array(n), p3: new Float64Array(n), m1: first.margins, m2: second.margins, m3: new Float64Array(n) };
  const reportFolds = o.folds.filter((k) => folds.includes(k));
  for (const k of reportFolds) {
    const others = tasksOf(folds.filter((j) => j !== k));
    const mine = tasksOf([k]);
    const cal1 = calibrateKinds(others, first.margins);
    const cal2 = calibrateKinds(others, second.margins);
    if (o.calibrateOnly) for (const t of mine) for (let r = 0; r < t.rows; r++) validation.m3[t.start + r] = scoreRow(second.packed.get(k), X3.subarray((t.start + r) * F2, (t.start + r + 1) * F2));
    else predictInto(second.models.get(k), X3, F2, mine, validation.m3);
    for (const t of mine) {
      for (let r = 0; r < t.rows; r++) {
        const i = t.start + r;
        validation.p1[i] = applyKnots(mapOf(cal1, t), first.margins[i]);
        validation.p2[i] = applyKnots(mapOf(cal2, t), second.margins[i]);
        validation.p3[i] = applyKnots(mapOf(cal2, t), validation.m3[i]);
      }
    }
    if (o.write) {
      fs.mkdirSync(models, { recursive: true });
      const file = path.join(models, `fold-${k}.bin`);
      if (o.calibrateOnly) writeMaps(file, written.get(k), cal1, cal2);
      else writeModel(file, { BASE_FEATURES, RELATION_FEATURES, stage1: first.models.get(k), cal1, stage2: second.models.get(k), cal2, note: `validation model for fold ${k}: trained on folds ${folds.filter((j) => j !== k).join(", ")}` });
    }
  }

  const mine = tasksOf(reportFolds);
  const bm25f = Float64Array.from({ length: n }, (_, i) => X[i * F + BASE_FEATURES.indexOf("bm25fRel")]);
  const plain = Float64Array.from({ length: n }, (_, i) => X[i * F + BASE_FEATURES.indexOf("plainRel")]);
  say("");
  report("bm25f (pool order)", mine, bm25f, say);
  report("plain (pool order)", mine, plain, say);
  report("stage 1", mine, validation.p1, say, validation.m1);
  report("stage 2", mine, validation.p2, say, validation.m2);
  report("stage 2 again (cycle 3)", mine, validation.p3, say, validation.m3);
  for (const lang of ["en", "zh"]) report(`stage 2, ${lang}`, mine.filter((t) => t.lang === lang), validation.p2, say, validation.m2);
  for (const [label, test] of [["1 file", (t) => t.gold.length === 1], ["2+ files", (t) => t.gold.length >= 2]]) {
    report(`bm25f, ${label}`, mine.filter(test), bm25f, say);
    report(`stage 2, ${label}`, mine.filter(test), validation.p2, say, validation.m2);
  }
  if (o.both) {
    const bare = (t) => t.id.endsWith(NO_HISTORY_SUFFIX);
    report("stage 2, with history", mine.filter((t) => !bare(t)), validation.p2, say, validation.m2);
    report("stage 2, without history", mine.filter(bare), validation.p2, say, validation.m2);
    report("stage 2, with history, 2+ files", mine.filter((t) => !bare(t) && t.gold.length >= 2), validation.p2, say, validation.m2);
    report("stage 2, without history, 2+ files", mine.filter((t) => bare(t) && t.gold.length >= 2), validation.p2, say, validation.m2);
  }
  for (const k of reportFolds) report(`stage 2, fold ${k}`, tasksOf([k]), validation.p2, say, validation.m2);
  const kinds = issueTasks > 0 ? [["commits", (t) => !isIssueTask(t)], ["issues", isIssueTask]] : [];
  for (const [label, test] of kinds) {
    report(`bm25f, ${label}`, mine.filter(test), bm25f, say);
    report(`stage 2, ${label}`, mine.filter(test), validation.p2, say, validation.m2);
  }
  const calibration = (label, chosen) => {
    const pairs = [];
    for (const t of chosen) for (const f of rankTask(t, validation.p2, validation.m2)) pairs.push([f.relevance, t.gold.includes(f.path)]);
    const rel = reliability(pairs);
    say(`calibration (stage 2, ranked files${label}): ECE ${rel.ece.toFixed(3)}`);
    for (const b of rel.bins) if (b.n) say(`  [${b.lo.toFixed(1)}, ${b.hi.toFixed(1)}): ${String(b.n).padStart(7)} files, mean ${b.mean.toFixed(3)}, gold ${b.rate.toFixed(3)}`);
  };
  calibration("", mine);
  for (const [label, test] of kinds) calibration(`, ${label}`, mine.filter(test));
  if (o.write) {
    const out = mine.map((t) => rankingRecord(t, rankTask(t, validation.p2, validation.m2)));
    fs.writeFileSync(path.join(models, "validation.json"), JSON.stringify(out));
  }

  if (o.final && o.write && o.history && o.calibrateOnly) {
    // the shipped model's trees as written, its maps fit anew on the out-of-fold answers
    const all = tasksOf(folds);
    writeMaps(o.out, readModel(o.out), calibrateKinds(all, first.margins), calibrateKinds(all, second.margins));
    say(`model: ${path.relative(PROJECT_ROOT, o.out)} (its issue maps only)`);
  } else if (o.final && o.write && o.history) {
    // the shipped model: both stages on all folds, calibrated on the out-of-fold answers
    const all = tasksOf(folds);
    const trained = trainingTasks(folds);
    say("final model:");
    const final1 = train(X, F, trained);
    const final2 = train(X2, F2, trained);
    const cal1 = calibrateKinds(all, first.margins);
    const cal2 = calibrateKinds(all, second.margins);
    writeModel(o.out, { BASE_FEATURES, RELATION_FEATURES, stage1: final1, cal1, stage2: final2, cal2, note: `trained on folds ${folds.join(", ")} (${o.both ? `${trained.length / 2} tasks, each with and without history` : `${trained.length} tasks`})` });
    say(`model: ${path.relative(PROJECT_ROOT, o.out)}`);
  }
}

/** Round a number to 6 significant digits for a compact, stable file. */
const round = (v) => (Number.isFinite(v) ? Number(v.toPrecision(6)) : 0);

function compactTrees(model) {
  return model.trees.map((t) => ({ feature: t.feature, threshold: t.threshold.map(round), left: t.left, right: t.right, value: t.value.map(round) }));
}

/** The trained model's loader, from the build (set by main). */
let modelFile;

/** A calibration map as the file keeps it. */
const roundedKnots = (knots) => knots.map(([x, p]) => [round(x), round(p)]);

/** A model file's model (the trees the calibrate-only pass scores with). */
function readModel(file) {
  if (!fs.existsSync(file)) fail(`--calibrate-only: no model at ${file} (train it first)`);
  return modelFile.decodeRanker(new Uint8Array(fs.readFileSync(file)), file);
}

/**
 * Write a model with the same trees and its issue maps fit anew; the maps
 * for every other task are kept as they were, so no answer to a commit
 * message moves. Through a file beside it, so no retrieval reads it half
 * written.
 */
function writeMaps(file, model, cal1, cal2) {
  const withMaps = (stage, cal) => {
    const { issueCalibration: _old, ...rest } = stage;
    return { ...rest, ...(cal.issue ? { issueCalibration: roundedKnots(cal.issue) } : {}) };
  };
  const next = { ...model, stages: [withMaps(model.stages[0], cal1), withMaps(model.stages[1], cal2)] };
  fs.writeFileSync(`${file}.tmp`, modelFile.encodeRanker(next));
  fs.renameSync(`${file}.tmp`, file);
}

function writeModel(file, { BASE_FEATURES, RELATION_FEATURES, stage1, cal1, stage2, cal2, note }) {
  const stage = (trained, cal) => modelFile.packStage(round(trained.base), compactTrees(trained), roundedKnots(cal.all), cal.issue ? roundedKnots(cal.issue) : undefined);
  const model = {
    kind: "graph-retrieve ranker",
    version: 2,
    note,
    features: [...BASE_FEATURES],
    relationFeatures: [...RELATION_FEATURES],
    stages: [stage(stage1, cal1), stage(stage2, cal2)],
  };
  fs.writeFileSync(file, modelFile.encodeRanker(model));
}

main().catch((error) => fail(error?.stack ?? String(error)));
