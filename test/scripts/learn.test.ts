/**
 * The training and validation scripts' own arithmetic, on small inputs:
 * the boosted trees learn a rule they are shown, isotonic calibration is
 * monotone and fits the rates it sees, the harness's metrics are computed
 * as the harness does, and the validation tables say what they read.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
// @ts-expect-error: plain JavaScript scripts
import { createRandom, fitIsotonic, predictMargins, trainGbdt } from "../../scripts/learn/gbdt.mjs";
// @ts-expect-error: plain JavaScript scripts
import { NO_HISTORY_SUFFIX, withAndWithoutHistory, withoutHistory } from "../../scripts/learn/dataset.mjs";
// @ts-expect-error: plain JavaScript scripts
import { reliability, scoreRanking } from "../../scripts/learn/metrics.mjs";
// @ts-expect-error: plain JavaScript scripts
import { contextCeilingRows, deltaRows, pairedRows, reliabilityRows, validationRows, writeSample } from "../../scripts/bench-validation.mjs";

const scratch = mkdtempSync(join(tmpdir(), "gr-learn-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the boosted trees", () => {
  it("learn a rule of two features, the same model from the same seed", () => {
    const random = createRandom(3) as () => number;
    const n = 4000;
    const F = 3;
    const X = new Float32Array(n * F);
    const y = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      for (let f = 0; f < F; f++) X[i * F + f] = random();
      y[i] = X[i * F]! + 0.5 * X[i * F + 1]! > 0.9 ? 1 : 0;
    }
    const w = new Float64Array(n).fill(1);
    const model = trainGbdt(X, y, w, n, F, { trees: 60, depth: 3, minChildRows: 5, featureSample: 1 });
    const margins = predictMargins(model, X, n, F) as Float64Array;
    let right = 0;
    for (let i = 0; i < n; i++) if (margins[i]! > 0 === (y[i] === 1)) right++;
    expect(right / n).toBeGreaterThan(0.95);
    // the third feature is noise: no tree splits on it at the root
    expect(model.trees.every((t: { feature: number[] }) => t.feature[0] !== 2)).toBe(true);
    expect(trainGbdt(X, y, w, n, F, { trees: 60, depth: 3, minChildRows: 5, featureSample: 1 })).toEqual(model);
  });
});

describe("isotonic calibration", () => {
  it("rises with the score and fits the rate of each block", () => {
    const scores = [0, 1, 2, 3, 4, 5, 6, 7];
    const labels = [0, 0, 1, 0, 0, 1, 1, 1];
    const knots = fitIsotonic(scores, labels, scores.map(() => 1)) as Array<[number, number]>;
    for (let i = 1; i < knots.length; i++) expect(knots[i]![1]).toBeGreaterThanOrEqual(knots[i - 1]![1]);
    expect(knots[0]![1]).toBe(0);
    expect(knots.at(-1)![1]).toBe(1);
    // 1, 0, 0 pooled into one block of rate 1/3
    expect(knots.some(([, p]) => Math.abs(p - 1 / 3) < 1e-9)).toBe(true);
  });
});

describe("the metrics", () => {
  it("are the harness's: every gold in the first k, the first gold's rank, the context from 0.7", () => {
    const ranked = [
      { path: "a", relevance: 0.9 },
      { path: "b", relevance: 0.75 },
      { path: "c", relevance: 0.2 },
    ];
    const m = scoreRanking(ranked, ["b", "c"]);
    expect(m).toMatchObject({ acc1: 0, acc5: 1, r1: 0, r5: 1, mrr: 0.5, cP: 0.5, cR: 0.5, ctxFiles: 2 });
    expect(scoreRanking([{ path: "a", relevance: 0.1 }], ["a"])).toMatchObject({ acc1: 1, cP: 0, cR: 0 });
    const { bins, ece } = reliability([[0.85, true], [0.85, false], [0.05, false]]);
    expect(bins[8]).toMatchObject({ n: 2, rate: 0.5 });
    expect(ece).toBeCloseTo((2 / 3) * 0.35 + (1 / 3) * 0.05);
  });
});

describe("the validation tables", () => {
  it("sample the same tasks each time, and print the rows and differences the acceptance reads", () => {
    const dir = join(scratch, "train");
    const tasks = Array.from({ length: 6 }, (_, i) => ({ id: `t${i}`, corpus: i < 3 ? "x" : "y", task: "t", gold: ["a"], lang: i === 0 ? "zh" : "en" }));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "tasks.jsonl"), tasks.map((t) => JSON.stringify(t)).join("\n") + "\n");
    const a = writeSample(dir, 2, join(scratch, "a.jsonl")) as Array<{ id: string }>;
    const b = writeSample(dir, 2, join(scratch, "b.jsonl")) as Array<{ id: string }>;
    expect(a.map((t) => t.id)).toEqual(b.map((t) => t.id));
    expect(a).toHaveLength(4);
    expect(readFileSync(join(scratch, "a.jsonl"), "utf8").trim().split("\n")).toHaveLength(4);

    const record = (id: string, corpus: string, acc5: number, ranked: Array<[string, number]>, lang = "en", goldCount = 1) => ({
      id, corpus, lang, goldCount, gold: ["a"], ranked, metrics: { acc1: acc5, acc5, acc10: acc5, mrr: acc5, cP: 0, cR: 0, cF1: 0, ctxShare: 0, ctxFiles: 0 },
    });
    const byRetriever = new Map([
      ["graph", [record("1", "x", 1, [["a", 0.95]]), record("2", "y", 1, [["a", 0.85], ["b", 0.85]], "zh", 2)]],
      ["reference bm25", [record("1", "x", 0, [["b", 1]]), record("2", "y", 1, [["a", 1]], "zh", 2)]],
    ]);
    const rows = validationRows(byRetriever, new Map([["x", 0], ["y", 1]])) as string[][];
    expect(rows[0]).toContain("acc@5");
    expect(rows.find((r) => r[0] === "Chinese")).toBeDefined();
    expect(rows.find((r) => r[0] === "fold 1")).toBeDefined();
    const delta = deltaRows(byRetriever) as string[][];
    expect(delta.find((r) => r[0] === "ALL")).toEqual(["ALL", "graph − reference bm25", "+0.500", "+0.500", "+0.500"]);
    const { ece } = reliabilityRows(byRetriever.get("graph")) as { ece: number };
    // files at 0.95 (gold), 0.85 (gold), 0.85 (not): |0.95 − 1| and |0.85 − 0.5| weighted
    expect(ece).toBeCloseTo((1 / 3) * 0.05 + (2 / 3) * 0.35);
  });

  it("show the context a ranking can give: the first file alone, against the context returned", () => {
    const record = (gold: string[], ranked: Array<[string, number]>, cP: number, ctxFiles: number) => ({ id: "t", corpus: "x", lang: "en", goldCount: gold.length, gold, ranked, metrics: { cP, cR: 0, ctxFiles } });
    const byRetriever = new Map([
      // first file needed in tasks 1 and 2 (task 2 needs two files); task 3's first file is not needed, and its context is empty
      ["graph", [record(["a"], [["a", 0.9], ["b", 0.3]], 1, 1), record(["a", "c"], [["a", 0.6], ["c", 0.5]], 0, 0), record(["a"], [["b", 0.4], ["a", 0.3]], 0, 0)]],
    ]);
    const rows = contextCeilingRows(byRetriever) as string[][];
    expect(rows[0]).toEqual(["retriever", "n", "top 1 needed", "top 1 alone ctxR", "ctxP", "ctxR", "ctx not empty", "ctxP when not empty", "not empty when top 1 needed"]);
    // the first file is needed in tasks 1 and 2, and only task 1's context holds something
    expect(rows[1]).toEqual(["graph", "3", "0.667", "0.500", "0.333", "0.000", "0.333", "1.000", "0.500"]);
  });
});

describe("a run paired with an earlier one", () => {
  it("gives each metric's mean difference on the tasks both hold, its standard error, and how many answers are the same", () => {
    const record = (id: string, mrr: number, ranked: Array<[string, number]>, context: string[] = []) => ({ id, ranked, context, metrics: { acc1: mrr === 1 ? 1 : 0, acc5: 1, acc10: 1, mrr, cP: 0, cR: 0, cF1: 0, ctxShare: 0, ctxFiles: context.length } });
    const earlier = [record("1", 0.5, [["b", 0.6], ["a", 0.4]]), record("2", 1, [["a", 0.9]], ["a"]), record("3", 0.25, [["c", 0.3]]), record("gone", 1, [["a", 0.9]])];
    // task 1 moves its gold file up, task 2 answers the same, task 3 loses half its reciprocal rank; task 4 is new
    const now = [record("1", 1, [["a", 0.7], ["b", 0.5]]), record("2", 1, [["a", 0.9]], ["a"]), record("3", 0.125, [["d", 0.3]]), record("4", 1, [["a", 0.9]])];
    const { rows, same, paired, unpaired } = pairedRows(now, earlier) as { rows: string[][]; same: number; paired: number; unpaired: number };
    expect({ same, paired, unpaired }).toEqual({ same: 1, paired: 3, unpaired: 1 });
    expect(rows[0]).toEqual(["metric", "n", "this", "earlier", "this − earlier", "± s.e."]);
    // MRR differences +0.5, 0, −0.125: mean +0.125, sample s.d. 0.3307, s.e. 0.3307 / √3
    const mrr = rows.find((r) => r[0] === "MRR")!;
    expect(mrr.slice(0, 5)).toEqual(["MRR", "3", "0.708", "0.583", "+0.125"]);
    expect(Number(mrr[5])).toBeCloseTo(Math.sqrt(((0.5 - 0.125) ** 2 + 0.125 ** 2 + 0.25 ** 2) / 2 / 3), 3);
    // acc@1 rises on task 1 alone; acc@5 is the same everywhere, with no spread
    expect(rows.find((r) => r[0] === "acc@1")!.slice(4)).toEqual(["+0.333", "0.333"]);
    expect(rows.find((r) => r[0] === "acc@5")!.slice(4)).toEqual(["+0.000", "0.000"]);
  });
});

describe("the training data without history", () => {
  // two tasks of 3 and 2 rows, 2 features: the second is the history's; task a's row 1 only the history brought
  const graphOf = (rows: number) => ({
    out: Array.from({ length: rows }, (_, r) => (r + 1 < rows ? [r + 1] : [])),
    in: Array.from({ length: rows }, (_, r) => (r > 0 ? [r - 1] : [])),
    uses: Array.from({ length: rows }, () => []),
    twoHop: Array.from({ length: rows }, () => []),
    folder: Array.from({ length: rows }, () => 0),
    cochange: Array.from({ length: rows }, () => [[0, 1]]),
  });
  const data = {
    F: 2,
    n: 5,
    X: Float32Array.from([1, 10, 2, 20, 3, 30, 4, 40, 5, 50]),
    y: Uint8Array.from([0, 1, 1, 1, 0]),
    corpora: ["c"],
    tasks: [
      { id: "a", corpus: "c", fold: 0, lang: "en", gold: ["a1", "a2"], goldAt: [1, 2], start: 0, rows: 3, paths: ["a0", "a1", "a2"], origin: ["lexical", "history", "lexical"], graph: graphOf(3) },
      { id: "b", corpus: "c", fold: 1, lang: "zh", gold: ["b0"], goldAt: [0], start: 3, rows: 2, paths: ["b0", "b1"], origin: ["lexical", "named"], graph: graphOf(2) },
    ],
  };

  it("drops the rows only the history brought, zeroes its features and co-change, and keeps the labels with their rows", () => {
    const bare = withoutHistory(data, [1]);
    expect(bare.n).toBe(4);
    expect(Array.from(bare.X)).toEqual([1, 0, 3, 0, 4, 0, 5, 0]);
    expect(Array.from(bare.y)).toEqual([0, 1, 1, 0]);
    expect(bare.tasks[0].paths).toEqual(["a0", "a2"]);
    expect(bare.tasks[0].goldAt).toEqual([-1, 1]);
    // a0 -> a1 -> a2 without a1: no edge is left, and none points past the rows
    expect(bare.tasks[0].graph.out).toEqual([[], []]);
    expect(bare.tasks[0].graph.cochange).toEqual([[], []]);
    expect(bare.tasks[1].start).toBe(2);
  });

  it("holds every task twice, as it is and as without history, the copy marked and placed after the originals", () => {
    const both = withAndWithoutHistory(data, [1]);
    expect(both.n).toBe(9);
    expect(both.tasks.map((t: { id: string }) => t.id)).toEqual(["a", "b", `a${NO_HISTORY_SUFFIX}`, `b${NO_HISTORY_SUFFIX}`]);
    expect(both.tasks.map((t: { start: number }) => t.start)).toEqual([0, 3, 5, 7]);
    expect(Array.from(both.X.subarray(0, 10))).toEqual(Array.from(data.X));
    expect(Array.from(both.X.subarray(10))).toEqual([1, 0, 3, 0, 4, 0, 5, 0]);
    expect(Array.from(both.y)).toEqual([0, 1, 1, 1, 0, 0, 1, 1, 0]);
    // a copy keeps its task's fold, so leave-fold-out training never sees a held-out task in either form
    expect(both.tasks.map((t: { fold: number }) => t.fold)).toEqual([0, 1, 0, 1]);
    // every label sits on its task's gold rows
    for (const t of both.tasks) for (const at of t.goldAt) if (at >= 0) expect(both.y[t.start + at]).toBe(1);
  });

  it("is refused beside --no-history in one line", async () => {
    const { spawnSync } = await import("node:child_process");
    const run = spawnSync(process.execPath, ["scripts/learn/train.mjs", "--no-history", "--also-without-history", "--data", join(scratch, "none")], { encoding: "utf8" });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe("train: --also-without-history and --no-history exclude each other");
  });
});

describe("npm run train's options", () => {
  it("refuse a task share outside (0, 1] in one line, before reading any data", async () => {
    const { spawnSync } = await import("node:child_process");
    for (const share of ["0", "1.5", "half"]) {
      const run = spawnSync(process.execPath, ["scripts/learn/train.mjs", "--task-share", share, "--data", join(scratch, "none")], { encoding: "utf8" });
      expect(run.status).toBe(1);
      expect(run.stderr.trim()).toBe(`train: --task-share takes a share in (0, 1], not ${share}`);
    }
  });
});

describe("a model carried to today's features (scripts/learn/carry-model.mjs)", () => {
  it("scores every row as it did, reading each feature where today's list puts it", async () => {
    const { spawnSync } = await import("node:child_process");
    const { encodeRanker, decodeRanker, packStage } = await import("../../src/retrieve/model/ranker-file.js");
    const { BASE_FEATURES } = await import("../../src/retrieve/features/base-features.js");
    const { RELATION_FEATURES } = await import("../../src/retrieve/features/relation-features.js");
    const { scoreRow } = await import("../../src/retrieve/model/ranker.js");
    // an older model: today's features less three, in another order
    const old = [...BASE_FEATURES].filter((_, i) => i % 7 !== 3).reverse();
    const width = old.length + RELATION_FEATURES.length;
    const random = createRandom(7);
    const tree = () => ({
      feature: [Math.floor(random() * width), Math.floor(random() * width), Math.floor(random() * width), -1, -1, -1, -1],
      threshold: [0.5, 0.3, 0.7, 0, 0, 0, 0],
      left: [1, 3, 5, -1, -1, -1, -1],
      right: [2, 4, 6, -1, -1, -1, -1],
      value: [0, 0, 0, -1, 0.5, 1, -0.25],
    });
    const stage = () => packStage(0.1, Array.from({ length: 20 }, tree), [[-2, 0.1], [2, 0.9]]);
    const model = { kind: "graph-retrieve ranker" as const, version: 2 as const, features: old, relationFeatures: [...RELATION_FEATURES], stages: [stage(), stage()] as [ReturnType<typeof stage>, ReturnType<typeof stage>] };
    writeFileSync(join(scratch, "old.bin"), encodeRanker(model));
    const run = spawnSync(process.execPath, ["scripts/learn/carry-model.mjs", "--from", join(scratch, "old.bin"), "--out", join(scratch, "carried.bin")], { encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const carried = decodeRanker(readFileSync(join(scratch, "carried.bin")), "carried.bin");
    expect(carried.features).toEqual([...BASE_FEATURES]);
    for (let r = 0; r < 50; r++) {
      const row = Array.from({ length: BASE_FEATURES.length + RELATION_FEATURES.length }, () => random());
      const asBefore = [...old.map((name) => row[BASE_FEATURES.indexOf(name as (typeof BASE_FEATURES)[number])]!), ...row.slice(BASE_FEATURES.length)];
      for (const s of [0, 1] as const) expect(scoreRow(carried.stages[s], row)).toBeCloseTo(scoreRow(model.stages[s], asBefore), 12);
    }
  });

  it("stops in one line on a feature this version no longer computes", async () => {
    const { spawnSync } = await import("node:child_process");
    const { encodeRanker, packStage } = await import("../../src/retrieve/model/ranker-file.js");
    const { RELATION_FEATURES } = await import("../../src/retrieve/features/relation-features.js");
    const stage = () => packStage(0, [], []);
    writeFileSync(join(scratch, "gone.bin"), encodeRanker({ kind: "graph-retrieve ranker", version: 2, features: ["bm25f", "retiredFeature"], relationFeatures: [...RELATION_FEATURES], stages: [stage(), stage()] }));
    const run = spawnSync(process.execPath, ["scripts/learn/carry-model.mjs", "--from", join(scratch, "gone.bin"), "--out", join(scratch, "gone-carried.bin")], { encoding: "utf8" });
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toBe('carry-model: the model reads the base feature "retiredFeature", which this version no longer computes: retrain it (npm run train)');
  });
});
