// The extracted training data (see extract-features.mjs), loaded back: one
// row-major Float32Array of base features over all tasks, and per task its
// rows, labels, fold and pool graph.

import fs from "node:fs";
import path from "node:path";

/**
 * Load every corpus with a matching .done file under `dir`.
 * Returns { F, n, X, y, tasks: [{ id, corpus, fold, lang, gold, goldAt, start, rows, paths, origin, graph }] }.
 */
export function loadDataset(dir, features, { corpora } = {}) {
  const F = features.length;
  const names = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".done"))
    .map((f) => f.slice(0, -5))
    .filter((name) => !corpora || corpora.includes(name))
    .sort();
  const parts = [];
  const tasks = [];
  let n = 0;
  for (const name of names) {
    const signature = JSON.parse(fs.readFileSync(path.join(dir, `${name}.done`), "utf8"));
    if (JSON.stringify(signature.features) !== JSON.stringify(features)) {
      throw new Error(`${name}: extracted with another feature list (rerun extract-features.mjs)`);
    }
    const buffer = fs.readFileSync(path.join(dir, `${name}.f32`));
    const X = new Float32Array(buffer.buffer, buffer.byteOffset, buffer.byteLength / 4);
    for (const line of fs.readFileSync(path.join(dir, `${name}.jsonl`), "utf8").split("\n")) {
      if (!line) continue;
      const task = JSON.parse(line);
      task.start += n;
      tasks.push(task);
    }
    parts.push(X);
    n += X.length / F;
  }
  const X = new Float32Array(n * F);
  let offset = 0;
  for (const part of parts) {
    X.set(part, offset);
    offset += part.length;
  }
  const y = new Uint8Array(n);
  for (const task of tasks) for (const at of task.goldAt) if (at >= 0) y[task.start + at] = 1;
  return { F, n, X, y, tasks, corpora: names };
}

/** The rows of the given tasks, copied into one matrix: { X, y, n, index } where index maps back to dataset rows. */
export function selectRows(data, tasks, F = data.F, X = data.X) {
  let n = 0;
  for (const t of tasks) n += t.rows;
  const out = new Float32Array(n * F);
  const y = new Uint8Array(n);
  const index = new Int32Array(n);
  let k = 0;
  for (const t of tasks) {
    out.set(X.subarray(t.start * F, (t.start + t.rows) * F), k * F);
    for (let r = 0; r < t.rows; r++) {
      y[k + r] = data.y[t.start + r];
      index[k + r] = t.start + r;
    }
    k += t.rows;
  }
  return { X: out, y, n, index };
}

/**
 * The same data as a retrieval without history sees it: the rows only the
 * history brought into a pool dropped, the history features zeroed, no
 * co-change in the pool graphs. The model trained on it is the one
 * `--no-history` is measured with.
 */
export function withoutHistory(data, historyColumns) {
  const { F } = data;
  const tasks = [];
  const kept = [];
  let n = 0;
  for (const task of data.tasks) {
    const keep = [];
    for (let r = 0; r < task.rows; r++) if (task.origin[r] !== "history") keep.push(r);
    const newIndex = new Map(keep.map((r, i) => [r, i]));
    const remap = (list) => list.filter((j) => newIndex.has(j)).map((j) => newIndex.get(j));
    const remapPairs = (list) => list.filter(([j]) => newIndex.has(j)).map(([j, w]) => [newIndex.get(j), w]);
    const graph = {
      out: keep.map((r) => remap(task.graph.out[r])),
      in: keep.map((r) => remap(task.graph.in[r])),
      uses: keep.map((r) => remapPairs(task.graph.uses[r])),
      twoHop: keep.map((r) => remap(task.graph.twoHop[r])),
      folder: keep.map((r) => task.graph.folder[r]),
      cochange: keep.map(() => []),
    };
    tasks.push({
      ...task,
      start: n,
      rows: keep.length,
      paths: keep.map((r) => task.paths[r]),
      origin: keep.map((r) => task.origin[r]),
      goldAt: task.goldAt.map((a) => (a >= 0 && newIndex.has(a) ? newIndex.get(a) : -1)),
      graph,
    });
    for (const r of keep) kept.push(task.start + r);
    n += keep.length;
  }
  const X = new Float32Array(n * F);
  const y = new Uint8Array(n);
  kept.forEach((i, k) => {
    X.set(data.X.subarray(i * F, (i + 1) * F), k * F);
    for (const c of historyColumns) X[k * F + c] = 0;
    y[k] = data.y[i];
  });
  return { ...data, n, X, y, tasks };
}

/** The mark on the ids of withAndWithoutHistory's copies. */
export const NO_HISTORY_SUFFIX = " (no history)";

/**
 * Every task twice: as it is, and as a retrieval without history sees it
 * (withoutHistory), the second copy's ids marked NO_HISTORY_SUFFIX. A model
 * trained on both has seen a codebase without history (an npm tarball, a
 * folder that is no git work tree) as well as one with, instead of meeting
 * the history features' empty values only when it is used.
 */
export function withAndWithoutHistory(data, historyColumns) {
  const bare = withoutHistory(data, historyColumns);
  const X = new Float32Array((data.n + bare.n) * data.F);
  X.set(data.X, 0);
  X.set(bare.X, data.n * data.F);
  const y = new Uint8Array(data.n + bare.n);
  y.set(data.y, 0);
  y.set(bare.y, data.n);
  const copies = bare.tasks.map((t) => ({ ...t, id: t.id + NO_HISTORY_SUFFIX, start: t.start + data.n }));
  return { ...data, n: data.n + bare.n, X, y, tasks: [...data.tasks, ...copies] };
}

/**
 * A task's ranking as validation.json holds it (train.mjs and score-folds.mjs
 * write the same shape, so two generations of models compare task by task).
 */
export function rankingRecord(t, ranked) {
  return { id: t.id, corpus: t.corpus, fold: t.fold, lang: t.lang, gold: t.gold, ranked: ranked.map(({ path, relevance }) => ({ path, relevance })) };
}
