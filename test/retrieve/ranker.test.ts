import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BASE_FEATURES } from "../../src/retrieve/features/base-features.js";
import { RELATION_FEATURES } from "../../src/retrieve/features/relation-features.js";
import { calibrate, checkRankerModel, loadRanker, scoreRow, type RankerStage } from "../../src/retrieve/model/ranker.js";

const scratch = mkdtempSync(join(tmpdir(), "gr-ranker-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the shipped ranker", () => {
  it("loads, for exactly the features this version computes, with two calibrated stages", () => {
    const model = loadRanker();
    expect(model.features).toEqual([...BASE_FEATURES]);
    expect(model.relationFeatures).toEqual([...RELATION_FEATURES]);
    expect(model.stages).toHaveLength(2);
    for (const stage of model.stages) {
      expect(stage.trees.length).toBeGreaterThan(0);
      // the calibration map rises: a higher log-odds never means a lower chance
      for (let i = 1; i < stage.calibration.length; i++) expect(stage.calibration[i]![1]).toBeGreaterThanOrEqual(stage.calibration[i - 1]![1]);
    }
    expect(loadRanker()).toBe(model); // read once
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
  const stage: RankerStage = {
    base: 0.5,
    trees: [{ feature: [0, -1, -1], threshold: [0.5, 0, 0], left: [1, -1, -1], right: [2, -1, -1], value: [0, -1, 1] }],
    calibration: [[-1, 0.2], [1, 0.8]],
  };

  it("walks each tree to a leaf and adds the leaves to the base", () => {
    expect(scoreRow(stage, [0.2])).toBe(-0.5);
    expect(scoreRow(stage, [0.9])).toBe(1.5);
  });

  it("calibrates piecewise linearly between the knots and flat beyond them", () => {
    expect(calibrate(stage, 0)).toBeCloseTo(0.5);
    expect(calibrate(stage, -5)).toBe(0.2);
    expect(calibrate(stage, 5)).toBe(0.8);
  });
});

describe("a model file that does not fit", () => {
  it("is refused with what to do", () => {
    expect(() => checkRankerModel({ kind: "something else" }, "m.json")).toThrow(/m\.json is no graph-retrieve ranker model \(train one with npm run train\)/);
    const model = { ...loadRanker(), features: ["bm25f"] };
    expect(() => checkRankerModel(model, "old.json")).toThrow(/trained on other features than this version computes/);
  });

  it("names the file that cannot be read or parsed", () => {
    expect(() => loadRanker(join(scratch, "missing.json"))).toThrow(/cannot read the model .*missing\.json \(ENOENT/);
    const broken = join(scratch, "broken.json");
    writeFileSync(broken, "{ not json");
    expect(() => loadRanker(broken)).toThrow(/is not JSON/);
  });
});
