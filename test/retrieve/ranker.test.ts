import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BASE_FEATURES } from "../../src/retrieve/features/base-features.js";
import { RELATION_FEATURES } from "../../src/retrieve/features/relation-features.js";
import { calibrate, checkRankerModel, DEFAULT_MODEL_PATH, loadRanker, NO_HISTORY_MODEL_PATH, scoreRow } from "../../src/retrieve/model/ranker.js";
import { decodeRanker, encodeRanker, packStage, type RankerModel } from "../../src/retrieve/model/ranker-file.js";

const scratch = mkdtempSync(join(tmpdir(), "gr-ranker-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the shipped ranker", () => {
  it("loads, for exactly the features this version computes, with two calibrated stages (both shipped models)", () => {
    for (const path of [DEFAULT_MODEL_PATH, NO_HISTORY_MODEL_PATH]) {
      const model = loadRanker(path);
      expect(model.features).toEqual([...BASE_FEATURES]);
      expect(model.relationFeatures).toEqual([...RELATION_FEATURES]);
      expect(model.stages).toHaveLength(2);
      for (const stage of model.stages) {
        expect(stage.roots.length - 1).toBeGreaterThan(0);
        // the calibration map rises: a higher log-odds never means a lower chance
        for (let i = 1; i < stage.calibration.length; i++) expect(stage.calibration[i]![1]).toBeGreaterThanOrEqual(stage.calibration[i - 1]![1]);
      }
      // the shipped history model was calibrated on tasks read as issues too: its map for them rises
      if (path === DEFAULT_MODEL_PATH) {
        for (const stage of model.stages) {
          const issue = stage.issueCalibration ?? [];
          expect(issue.length).toBeGreaterThan(1);
          for (let i = 1; i < issue.length; i++) expect(issue[i]![1]).toBeGreaterThanOrEqual(issue[i - 1]![1]);
        }
      }
      expect(loadRanker(path)).toBe(model); // read once
    }
    expect(loadRanker()).toBe(loadRanker(DEFAULT_MODEL_PATH));
    expect(loadRanker(NO_HISTORY_MODEL_PATH)).not.toBe(loadRanker());
  });

  it("gives the same output for the same input, a probability in [0, 1]", () => {
    const model = loadRanker();
    const row = BASE_FEATURES.map((_, i) => (i % 7) / 3);
    const a = scoreRow(model.stages[0], row);
    const b = scoreRow(model.stages[0], [...row]);
    expect(a).toBe(b);
    const p = calibrate(model.stages[0], a);
    expect(p).toBeGreaterThanOrEqual(0);
    expect(p).toBeLessThanOrEqual(1);
  });
});

describe("scoring", () => {
  // one stump: x[0] <= 0.5 → −1, else +1; calibration through (−1, 0.2) and (1, 0.8)
  const stage = packStage(0.5, [{ feature: [0, -1, -1], threshold: [0.5, 0, 0], left: [1, -1, -1], right: [2, -1, -1], value: [0, -1, 1] }], [[-1, 0.2], [1, 0.8]]);

  it("walks each tree to a leaf and adds the leaves to the base", () => {
    expect(scoreRow(stage, [0.2])).toBe(-0.5);
    expect(scoreRow(stage, [0.9])).toBe(1.5);
  });

  it("calibrates piecewise linearly between the knots and flat beyond them", () => {
    expect(calibrate(stage, 0)).toBeCloseTo(0.5);
    expect(calibrate(stage, -5)).toBe(0.2);
    expect(calibrate(stage, 5)).toBe(0.8);
  });

  it("calibrates a task read as an issue through the issue map, where the stage has one", () => {
    const withIssues = packStage(0.5, [{ feature: [-1], threshold: [0], left: [0], right: [0], value: [0] }], [[-1, 0.2], [1, 0.8]], [[-1, 0.1], [1, 0.5]]);
    expect(calibrate(withIssues, 1)).toBe(0.8);
    expect(calibrate(withIssues, 1, true)).toBe(0.5);
    expect(calibrate(withIssues, 0, true)).toBeCloseTo(0.3);
    // a stage without one: the same map for every task
    expect(calibrate(stage, 1, true)).toBe(0.8);
  });
});

describe("the model file", () => {
  // two trees: a stump on x[0], and a two-level tree on x[1] then x[2]
  const trees = [
    { feature: [0, -1, -1], threshold: [0.5, 0, 0], left: [1, -1, -1], right: [2, -1, -1], value: [0, -1, 1] },
    { feature: [1, 2, -1, -1, -1], threshold: [2, 0.25, 0, 0, 0], left: [1, 2, -1, -1, -1], right: [4, 3, -1, -1, -1], value: [0, 0, 0.125, -0.375, 3] },
  ];
  const small: RankerModel = {
    kind: "graph-retrieve ranker",
    version: 2,
    note: "two trees",
    features: ["a", "b", "c"],
    relationFeatures: [],
    stages: [packStage(0.25, trees, [[-1, 0.1], [2, 0.9]], [[-1, 0.05], [2, 0.6]]), packStage(-1, trees.slice(1), [])],
  };

  it("reads back what was written: the same scores, calibration and note", () => {
    const read = decodeRanker(encodeRanker(small), "small.bin");
    expect(read.note).toBe("two trees");
    expect(read.features).toEqual(["a", "b", "c"]);
    expect(read.stages[0].calibration).toEqual([[-1, 0.1], [2, 0.9]]);
    expect(read.stages[0].issueCalibration).toEqual([[-1, 0.05], [2, 0.6]]);
    expect(read.stages[1].issueCalibration).toBeUndefined();
    for (const row of [[0, 0, 0], [1, 0, 0.5], [0.5, 3, 0], [1, 2, 0.25], [1, 2, 0.3]]) {
      expect(scoreRow(read.stages[0], row)).toBe(scoreRow(small.stages[0], row));
      expect(scoreRow(read.stages[1], row)).toBe(scoreRow(small.stages[1], row));
    }
    // by hand: x = [1, 2, 0.3] → +1 (x0 > 0.5) and −0.375 (x1 <= 2, x2 > 0.25), on the base 0.25
    expect(scoreRow(read.stages[0], [1, 2, 0.3])).toBe(0.875);
  });

  it("is the same wherever its bytes sit in memory (an unaligned copy is read as well)", () => {
    const bytes = encodeRanker(small);
    const shifted = new Uint8Array(bytes.length + 3);
    shifted.set(bytes, 3);
    const read = decodeRanker(shifted.subarray(3), "shifted.bin");
    expect(scoreRow(read.stages[0], [1, 3, 0])).toBe(scoreRow(small.stages[0], [1, 3, 0]));
  });

  it("is refused, naming the file, when it is not a model, is cut short or has a broken tree", () => {
    expect(() => decodeRanker(new TextEncoder().encode('{"kind":"graph-retrieve ranker"}'), "old.json")).toThrow(/old\.json is a JSON model of an earlier version: retrain it with npm run train/);
    expect(() => decodeRanker(new TextEncoder().encode("hello, world, not a model"), "m.bin")).toThrow(/m\.bin is no graph-retrieve ranker model/);
    const bytes = encodeRanker(small);
    expect(() => decodeRanker(bytes.subarray(0, bytes.length - 8), "cut.bin")).toThrow(/cut\.bin is cut short or damaged/);
    // a child that points back at its parent would loop forever: refused when read
    const looping = packStage(0, [{ feature: [0, -1, -1], threshold: [0.5, 0, 0], left: [0, -1, -1], right: [2, -1, -1], value: [0, 1, 2] }], []);
    expect(() => decodeRanker(encodeRanker({ ...small, stages: [looping, looping] }), "loop.bin")).toThrow(/loop\.bin has a damaged tree/);
    // a split on a feature the rows do not have
    const wide = packStage(0, [{ feature: [7, -1, -1], threshold: [0.5, 0, 0], left: [1, -1, -1], right: [2, -1, -1], value: [0, 1, 2] }], []);
    expect(() => decodeRanker(encodeRanker({ ...small, stages: [wide, wide] }), "wide.bin")).toThrow(/wide\.bin has a damaged tree/);
  });

  it("is refused when trained on other features than this version computes", () => {
    const model = { ...loadRanker(), features: ["bm25f"] };
    expect(() => checkRankerModel(model, "old.bin")).toThrow(/trained on other features than this version computes/);
  });

  it("names the file that cannot be read, or is no model, with what to do", () => {
    expect(() => loadRanker(join(scratch, "missing.bin"))).toThrow(/cannot read the model .*missing\.bin \(ENOENT/);
    const broken = join(scratch, "broken.bin");
    writeFileSync(broken, "{ not json");
    expect(() => loadRanker(broken)).toThrow(/broken\.bin is a JSON model of an earlier version.*npm run train/);
  });
});
