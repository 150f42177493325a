/**
 * The learned ranker: boosted decision trees over the feature vectors of
 * features/, trained by `npm run train` on thousands of real changes
 * (scripts/learn/train.mjs), and isotonic calibration maps that turn its
 * log-odds into the chance that a file is one the change needs. Stage 1
 * scores the first cycle; stage 2 scores later cycles, whose vectors add
 * the ties to what the cycle before found. The model is a data file
 * (data/ranker.json) read once; scoring is deterministic arithmetic.
 */
import { readFileSync } from "node:fs";
import { UsageError } from "../../errors.js";
import { BASE_FEATURES } from "../features/base-features.js";
import { RELATION_FEATURES } from "../features/relation-features.js";
import { RANKER_FILE } from "../query-data.js";

/** One tree as node arrays: an inner node sends x[feature] <= threshold left; a leaf has feature −1 and a value. */
export interface RankerTree {
  feature: number[];
  threshold: number[];
  left: number[];
  right: number[];
  value: number[];
}

export interface RankerStage {
  base: number;
  trees: RankerTree[];
  /** [log-odds, probability] knots, increasing: the calibration map (piecewise linear, flat beyond the ends). */
  calibration: Array<[number, number]>;
}

export interface RankerModel {
  kind: "graph-retrieve ranker";
  version: 1;
  note?: string;
  features: string[];
  relationFeatures: string[];
  stages: [RankerStage, RankerStage];
}

/** The shipped model: data/ranker.json. */
export const DEFAULT_MODEL_PATH = RANKER_FILE;

const loaded = new Map<string, RankerModel>();

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Check a parsed model's shape; a model for other features is the caller's mistake. */
export function checkRankerModel(model: unknown, source: string): RankerModel {
  const m = model as Partial<RankerModel> | null;
  if (!m || m.kind !== "graph-retrieve ranker" || m.version !== 1 || !Array.isArray(m.stages) || m.stages.length !== 2) {
    throw new UsageError(`ranker: ${source} is no graph-retrieve ranker model (train one with npm run train)`);
  }
  if (!sameList(m.features ?? [], BASE_FEATURES) || !sameList(m.relationFeatures ?? [], RELATION_FEATURES)) {
    throw new UsageError(`ranker: ${source} was trained on other features than this version computes (retrain it with npm run train)`);
  }
  return m as RankerModel;
}

/**
 * The model at `path` (default: the shipped one), read and checked once per process.
 *
 * @example
 * const model = loadRanker();
 * model.stages[0].trees.length; // 300
 */
export function loadRanker(path: string = DEFAULT_MODEL_PATH): RankerModel {
  let model = loaded.get(path);
  if (!model) {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      throw new UsageError(`ranker: cannot read the model ${path} (${(error as NodeJS.ErrnoException).code ?? "unreadable"}; give a model trained by npm run train)`, { cause: error });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new UsageError(`ranker: the model ${path} is not JSON (give a model trained by npm run train)`, { cause: error });
    }
    model = checkRankerModel(parsed, path);
    loaded.set(path, model);
  }
  return model;
}

/** The stage's log-odds for one feature vector. */
export function scoreRow(stage: RankerStage, row: readonly number[]): number {
  let margin = stage.base;
  for (const tree of stage.trees) {
    let node = 0;
    while (tree.feature[node]! >= 0) node = row[tree.feature[node]!]! <= tree.threshold[node]! ? tree.left[node]! : tree.right[node]!;
    margin += tree.value[node]!;
  }
  return margin;
}

/** The calibrated probability of a log-odds: piecewise linear through the knots, flat beyond them. */
export function calibrate(stage: RankerStage, margin: number): number {
  const knots = stage.calibration;
  if (knots.length === 0) return 1 / (1 + Math.exp(-margin));
  if (margin <= knots[0]![0]) return knots[0]![1];
  const last = knots[knots.length - 1]!;
  if (margin >= last[0]) return last[1];
  let lo = 0;
  let hi = knots.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (knots[mid]![0] <= margin) lo = mid;
    else hi = mid;
  }
  const [x0, y0] = knots[lo]!;
  const [x1, y1] = knots[hi]!;
  return x1 > x0 ? y0 + ((y1 - y0) * (margin - x0)) / (x1 - x0) : y1;
}
