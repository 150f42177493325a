#!/usr/bin/env node
// Scores saved fold models (DIR/fold-K.bin, as npm run train writes them) on
// the extracted tasks, each task by the model of its own fold, the way
// train.mjs's validation scores them (stage 1, the ties to its raw
// probability, stage 2 calibrated; the first 50 files), beside the plain
// BM25 and BM25F orderings of the same pools. It compares two generations
// of models on the same tasks, e.g. before and after more tasks were
// extracted, where `npm run train` only scores the models it trains.
//
//   node scripts/learn/score-folds.mjs MODELS [--data DIR] [--no-history] [--ids FILE.json [--not]] [--out FILE.json]
//
// --ids keeps the tasks whose ids the JSON list holds (--not: the others).
// --out writes each task's ranking as train.mjs's validation.json does, so
// two generations can be compared task by task.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import os from "node:os";
import { loadDataset, rankingRecord, withoutHistory } from "./dataset.mjs";
import { averageMetrics, formatMetrics, reliability, scoreRanking } from "./metrics.mjs";

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const DIST = path.join(PROJECT_ROOT, "dist");
const { BASE_FEATURES, HISTORY_FEATURES } = await import(path.join(DIST, "retrieve", "features", "base-features.js"));
const { RELATION_FEATURES, relationFeatures } = await import(path.join(DIST, "retrieve", "features", "relation-features.js"));
const { decodeRanker } = await import(path.join(DIST, "retrieve", "model", "ranker-file.js"));
const { scoreRow, calibrate } = await import(path.join(DIST, "retrieve", "model", "ranker.js"));
const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const models = args[0];
if (!models || models.startsWith("--")) {
  process.stderr.write("usage: node scripts/learn/score-folds.mjs MODELS [--data DIR] [--no-history] [--ids FILE.json [--not]] [--out FILE.json]\n");
  process.exit(2);
}
const data = option("--data") ?? process.env.GR_TRAIN_CACHE ?? path.join(os.tmpdir(), "gr-train-cache");
const noHistory = args.includes("--no-history");
const ids = option("--ids") ? new Set(JSON.parse(fs.readFileSync(option("--ids"), "utf8"))) : null;
const loaded = loadDataset(data, [...BASE_FEATURES]);
const d = noHistory ? withoutHistory(loaded, HISTORY_FEATURES.map((f) => BASE_FEATURES.indexOf(f))) : loaded;
const { F, X } = d;
const invert = args.includes("--not");
const tasks = ids ? d.tasks.filter((t) => ids.has(t.id) !== invert) : d.tasks;
const fold = new Map([0, 1, 2, 3, 4].map((k) => [k, decodeRanker(fs.readFileSync(path.join(models, `fold-${k}.bin`)), `fold-${k}.bin`)]));
const sigmoid = (m) => 1 / (1 + Math.exp(-m));
const results = [];
const pairs = [];
for (const t of tasks) {
  const model = fold.get(t.fold);
  const [s1, s2] = model.stages;
  const m1 = [];
  for (let r = 0; r < t.rows; r++) m1.push(scoreRow(s1, X.subarray((t.start + r) * F, (t.start + r + 1) * F)));
  const rel = relationFeatures(t.graph, m1.map(sigmoid));
  const row = new Float32Array(F + RELATION_FEATURES.length);
  const ranked = [];
  for (let r = 0; r < t.rows; r++) {
    row.set(X.subarray((t.start + r) * F, (t.start + r + 1) * F), 0);
    row.set(rel[r], F);
    const m2 = scoreRow(s2, row);
    ranked.push({ path: t.paths[r], relevance: calibrate(s2, m2), margin: m2 });
  }
  ranked.sort((a, b) => b.relevance - a.relevance || b.margin - a.margin || (a.path < b.path ? -1 : 1));
  const top = ranked.slice(0, 50);
  for (const f of top) pairs.push([f.relevance, t.gold.includes(f.path)]);
  const lexical = (name) => {
    const c = BASE_FEATURES.indexOf(name);
    return Array.from({ length: t.rows }, (_, r) => ({ path: t.paths[r], relevance: X[(t.start + r) * F + c] }))
      .sort((a, b) => b.relevance - a.relevance || (a.path < b.path ? -1 : 1)).slice(0, 50);
  };
  results.push({ t, top, m: scoreRanking(top, t.gold), bm25f: scoreRanking(lexical("bm25fRel"), t.gold), plain: scoreRanking(lexical("plainRel"), t.gold) });
}
const short = (m) => `acc@1 ${m.acc1.toFixed(3)} acc@5 ${m.acc5.toFixed(3)} MRR ${m.mrr.toFixed(3)}`;
const say = (label, list) => {
  console.log(`${label}: ${formatMetrics(averageMetrics(list.map((x) => x.m)))}`);
  console.log(`   bm25 ${short(averageMetrics(list.map((x) => x.plain)))} | bm25f ${short(averageMetrics(list.map((x) => x.bm25f)))}`);
};
say("all", results);
say("en", results.filter((x) => x.t.lang === "en"));
say("zh", results.filter((x) => x.t.lang === "zh"));
say("1 file", results.filter((x) => x.t.gold.length === 1));
say("2+ files", results.filter((x) => x.t.gold.length >= 2));
for (const k of [0, 1, 2, 3, 4]) say(`fold ${k}`, results.filter((x) => x.t.fold === k));
console.log(`ECE ${reliability(pairs).ece.toFixed(3)}`);
const out = option("--out");
if (out) fs.writeFileSync(out, JSON.stringify(results.map(({ t, top }) => rankingRecord(t, top))));
