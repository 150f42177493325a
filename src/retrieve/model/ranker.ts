/**
 * The learned ranker: boosted decision trees over the feature vectors of
 * features/, trained by `npm run train` on thousands of real changes
 * (scripts/learn/train.mjs), and isotonic calibration maps that turn its
 * log-odds into the chance that a file is one the change needs. Stage 1
 * scores the first cycle; stage 2 scores later cycles, whose vectors add
 * the ties to what the cycle before found. The model is a data file
 * (laid out in ranker-file.ts) read once; scoring is deterministic
 * arithmetic. Two are shipped: data/ranker.bin for a codebase with git
 * history, trained on the tasks as their history shows them, and
 * data/ranker-no-history.bin for one without (an npm tarball, a folder that
 * is no work tree, `--no-history`), trained on each task both with and
 * without its history. The first, used without history, meets history
 * features it never saw empty in training and is overconfident there
 * (docs/quality.md, session 23).
 */
import { readFileSync } from "node:fs";
import { UsageError } from "../../errors.js";
import { BASE_FEATURES } from "../features/base-features.js";
import { RELATION_FEATURES } from "../features/relation-features.js";
import { RANKER_FILE, RANKER_NO_HISTORY_FILE } from "../query-data.js";
import { decodeRanker, type RankerModel, type RankerStage } from "./ranker-file.js";

export type { RankerModel, RankerStage } from "./ranker-file.js";

/** The shipped model for a codebase with history: data/ranker.bin. */
export const DEFAULT_MODEL_PATH = RANKER_FILE;
/** The shipped model for a codebase without history: data/ranker-no-history.bin. */
export const NO_HISTORY_MODEL_PATH = RANKER_NO_HISTORY_FILE;

/**
 * The shipped model for a retrieval: the history's when it read commits,
 * else the one trained for a codebase without history.
 *
 * @example
 * shippedModelPath(0); // ".../data/ranker-no-history.bin"
 */
export function shippedModelPath(historyCommits: number): string {
  return historyCommits > 0 ? DEFAULT_MODEL_PATH : NO_HISTORY_MODEL_PATH;
}

const loaded = new Map<string, RankerModel>();

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** Check a decoded model's features; a model for other features is the caller's mistake. */
export function checkRankerModel(model: RankerModel, source: string): RankerModel {
  if (!sameList(model.features, BASE_FEATURES) || !sameList(model.relationFeatures, RELATION_FEATURES)) {
    throw new UsageError(`ranker: ${source} was trained on other features than this version computes (retrain it with npm run train)`);
  }
  return model;
}

/**
 * The model at `path` (default: the shipped one), read and checked once per process.
 *
 * @example
 * const model = loadRanker();
 * model.stages[0].roots.length - 1; // 300 trees
 */
export function loadRanker(path: string = DEFAULT_MODEL_PATH): RankerModel {
  let model = loaded.get(path);
  if (!model) {
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(path);
    } catch (error) {
      throw new UsageError(`ranker: cannot read the model ${path} (${(error as NodeJS.ErrnoException).code ?? "unreadable"}; give a model trained by npm run train)`, { cause: error });
    }
    model = checkRankerModel(decodeRanker(bytes, path), path);
    loaded.set(path, model);
  }
  return model;
}

/** The stage's log-odds for one feature vector. */
export function scoreRow(stage: RankerStage, row: ArrayLike<number>): number {
  const { roots, feature, split, left, right } = stage;
  let margin = stage.base;
  for (let t = 0, trees = roots.length - 1; t < trees; t++) {
    const root = roots[t]!;
    let node = root;
    let f = feature[node]!;
    while (f >= 0) {
      node = root + (row[f]! <= split[node]! ? left[node]! : right[node]!);
      f = feature[node]!;
    }
    margin += split[node]!;
  }
  return margin;
}

/**
 * The calibrated probability of a log-odds: piecewise linear through the
 * knots, flat beyond them; a task read as an issue goes through the
 * stage's map for issues, where the model has one (the same log-odds means
 * less on an issue's longer, vaguer text).
 */
export function calibrate(stage: RankerStage, margin: number, isIssue = false): number {
  const knots = isIssue && stage.issueCalibration?.length ? stage.issueCalibration : stage.calibration;
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
