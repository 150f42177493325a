// Gradient-boosted decision trees for binary labels (Friedman, "Greedy
// function approximation: a gradient boosting machine", 2001), with the
// histogram split search of LightGBM (Ke et al., NeurIPS 2017): features
// binned once into at most MAX_BINS quantile bins, each node's gradient
// histogram built over its rows, the larger child's histogram taken as the
// parent's minus the smaller's. Logistic loss, so the model's output is a
// log-odds; Newton leaf values with L2 regularisation. Deterministic: row
// subsampling uses a seeded generator.
//
// The trained model is plain data: { base, trees: [{ feature, threshold,
// left, right, value }] } with node arrays; src/retrieve/model/ranker.ts
// evaluates it (x[feature] <= threshold goes left).

const MAX_BINS = 64;

/** A small seeded generator (mulberry32): the same seed, the same rows. */
export function createRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Cut points of each feature: midpoints between the distinct values of a
 * sample at its quantiles. x <= cuts[b] is bin b or lower.
 */
export function binCuts(X, n, F, sampleSize = 50000, seed = 7) {
  const random = createRandom(seed);
  const rows = n <= sampleSize ? Array.from({ length: n }, (_, i) => i) : Array.from({ length: sampleSize }, () => Math.floor(random() * n));
  const cuts = [];
  for (let f = 0; f < F; f++) {
    const values = Float64Array.from(rows, (i) => X[i * F + f]).sort();
    const distinct = [];
    for (let i = 0; i < values.length; i++) if (i === 0 || values[i] !== values[i - 1]) distinct.push(values[i]);
    const c = [];
    if (distinct.length <= MAX_BINS) {
      for (let i = 0; i + 1 < distinct.length; i++) c.push((distinct[i] + distinct[i + 1]) / 2);
    } else {
      let last = -Infinity;
      for (let b = 1; b < MAX_BINS; b++) {
        const v = values[Math.floor((b * values.length) / MAX_BINS)];
        // the midpoint between v and the next distinct value below it
        let lo = 0;
        let hi = distinct.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (distinct[mid] < v) lo = mid + 1;
          else hi = mid;
        }
        const k = lo;
        if (k <= 0) continue;
        const cut = (distinct[k - 1] + distinct[k]) / 2;
        if (cut > last) c.push(cut);
        last = cut;
      }
    }
    cuts.push(Float64Array.from(c));
  }
  return cuts;
}

/** Bin index of every value, feature-major: bins[f * n + i]. */
export function binRows(X, n, F, cuts) {
  const bins = new Uint8Array(n * F);
  for (let f = 0; f < F; f++) {
    const c = cuts[f];
    for (let i = 0; i < n; i++) {
      const x = X[i * F + f];
      let lo = 0;
      let hi = c.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (x <= c[mid]) hi = mid;
        else lo = mid + 1;
      }
      bins[f * n + i] = lo;
    }
  }
  return bins;
}

function histogram(bins, n, F, rows, g, h, allowed) {
  const G = new Float64Array(F * MAX_BINS);
  const H = new Float64Array(F * MAX_BINS);
  const C = new Float64Array(F * MAX_BINS);
  const m = rows.length;
  for (let f = 0; f < F; f++) {
    if (!allowed[f]) continue;
    const column = bins.subarray(f * n, (f + 1) * n);
    const o = f * MAX_BINS;
    for (let k = 0; k < m; k++) {
      const i = rows[k];
      const b = o + column[i];
      G[b] += g[i];
      H[b] += h[i];
      C[b]++;
    }
  }
  return { G, H, C };
}

function bestSplit(hist, F, cuts, sumG, sumH, count, params, allowed) {
  const { lambda, minChildWeight, minChildRows } = params;
  const parent = (sumG * sumG) / (sumH + lambda);
  let best = null;
  for (let f = 0; f < F; f++) {
    if (!allowed[f]) continue;
    const nb = cuts[f].length + 1;
    let gl = 0;
    let hl = 0;
    let cl = 0;
    const o = f * MAX_BINS;
    for (let b = 0; b < nb - 1; b++) {
      gl += hist.G[o + b];
      hl += hist.H[o + b];
      cl += hist.C[o + b];
      const gr = sumG - gl;
      const hr = sumH - hl;
      const cr = count - cl;
      if (hl < minChildWeight || hr < minChildWeight || cl < minChildRows || cr < minChildRows) continue;
      const gain = (gl * gl) / (hl + lambda) + (gr * gr) / (hr + lambda) - parent;
      if (!best || gain > best.gain + 1e-12) best = { gain, feature: f, bin: b, threshold: cuts[f][b] };
    }
  }
  return best;
}

/**
 * Train. X: Float32Array of n rows × F features (row-major); y: 0/1 labels;
 * w: row weights. Returns { base, trees }.
 */
export function trainGbdt(X, y, w, n, F, params = {}) {
  const p = {
    trees: 300, depth: 6, learningRate: 0.05, lambda: 1, minChildWeight: 1, minChildRows: 20,
    rowSample: 0.7, featureSample: 0.8, minGain: 1e-6, seed: 1, log: null, ...params,
  };
  const cuts = binCuts(X, n, F);
  const bins = binRows(X, n, F, cuts);
  let pos = 0;
  let tot = 0;
  for (let i = 0; i < n; i++) {
    pos += w[i] * y[i];
    tot += w[i];
  }
  const prior = Math.min(1 - 1e-6, Math.max(1e-6, pos / tot));
  const base = Math.log(prior / (1 - prior));
  const margin = new Float64Array(n).fill(base);
  const g = new Float64Array(n);
  const h = new Float64Array(n);
  const random = createRandom(p.seed);
  const trees = [];
  for (let t = 0; t < p.trees; t++) {
    if (p.groups) lambdaGradients(p.groups, margin, y, g, h, p.truncation ?? 10);
    else {
      for (let i = 0; i < n; i++) {
        const q = 1 / (1 + Math.exp(-margin[i]));
        g[i] = w[i] * (q - y[i]);
        h[i] = w[i] * Math.max(1e-6, q * (1 - q));
      }
    }
    const sampled = [];
    for (let i = 0; i < n; i++) if (random() < p.rowSample) sampled.push(i);
    const rows = Int32Array.from(sampled);
    const allowed = Array.from({ length: F }, () => random() < p.featureSample);
    if (!allowed.some(Boolean)) allowed[Math.floor(random() * F)] = true;
    const tree = { feature: [], threshold: [], left: [], right: [], value: [] };
    const grow = (nodeRows, depth, hist) => {
      const id = tree.feature.length;
      tree.feature.push(-1);
      tree.threshold.push(0);
      tree.left.push(-1);
      tree.right.push(-1);
      tree.value.push(0);
      let sumG = 0;
      let sumH = 0;
      for (let k = 0; k < nodeRows.length; k++) {
        sumG += g[nodeRows[k]];
        sumH += h[nodeRows[k]];
      }
      const leaf = () => {
        tree.value[id] = (-sumG / (sumH + p.lambda)) * p.learningRate;
        return id;
      };
      if (depth >= p.depth || nodeRows.length < 2 * p.minChildRows) return leaf();
      hist ??= histogram(bins, n, F, nodeRows, g, h, allowed);
      const split = bestSplit(hist, F, cuts, sumG, sumH, nodeRows.length, p, allowed);
      if (!split || split.gain < p.minGain) return leaf();
      const column = bins.subarray(split.feature * n, (split.feature + 1) * n);
      let nl = 0;
      for (let k = 0; k < nodeRows.length; k++) if (column[nodeRows[k]] <= split.bin) nl++;
      const leftRows = new Int32Array(nl);
      const rightRows = new Int32Array(nodeRows.length - nl);
      let a = 0;
      let b = 0;
      for (let k = 0; k < nodeRows.length; k++) {
        const i = nodeRows[k];
        if (column[i] <= split.bin) leftRows[a++] = i;
        else rightRows[b++] = i;
      }
      const smallIsLeft = leftRows.length <= rightRows.length;
      const small = histogram(bins, n, F, smallIsLeft ? leftRows : rightRows, g, h, allowed);
      const large = { G: hist.G.slice(), H: hist.H.slice(), C: hist.C.slice() };
      for (let k = 0; k < large.G.length; k++) {
        large.G[k] -= small.G[k];
        large.H[k] -= small.H[k];
        large.C[k] -= small.C[k];
      }
      tree.feature[id] = split.feature;
      tree.threshold[id] = split.threshold;
      tree.left[id] = grow(leftRows, depth + 1, smallIsLeft ? small : large);
      tree.right[id] = grow(rightRows, depth + 1, smallIsLeft ? large : small);
      return id;
    };
    grow(rows, 0, null);
    // every row, sampled or not, moves by its leaf's value
    for (let i = 0; i < n; i++) margin[i] += leafValue(tree, X, i * F);
    trees.push(tree);
    if (p.log && (t + 1) % 50 === 0) p.log(`tree ${t + 1}/${p.trees}`);
  }
  return { base, trees };
}

/**
 * LambdaRank gradients (Burges, "From RankNet to LambdaRank to LambdaMART",
 * 2010): for each task (a [start, end) group of rows), every gold row
 * against every other row, weighted by how much swapping the two would
 * change NDCG at `truncation`.
 */
function lambdaGradients(groups, margin, y, g, h, truncation) {
  g.fill(0);
  h.fill(1e-6);
  for (const [start, end] of groups) {
    const rows = [];
    for (let i = start; i < end; i++) rows.push(i);
    rows.sort((a, b) => margin[b] - margin[a] || a - b);
    const rank = new Map(rows.map((i, r) => [i, r]));
    let ideal = 0;
    let gold = 0;
    for (let i = start; i < end; i++) gold += y[i];
    for (let r = 0; r < gold; r++) ideal += 1 / Math.log2(r + 2);
    if (gold === 0 || ideal === 0) continue;
    const discount = (r) => (r < truncation ? 1 / Math.log2(r + 2) : 0);
    for (let i = start; i < end; i++) {
      if (y[i] !== 1) continue;
      for (let j = start; j < end; j++) {
        if (y[j] === 1) continue;
        const ri = rank.get(i);
        const rj = rank.get(j);
        const delta = Math.abs(discount(ri) - discount(rj)) / ideal;
        if (delta === 0) continue;
        const rho = 1 / (1 + Math.exp(margin[i] - margin[j]));
        g[i] -= rho * delta;
        g[j] += rho * delta;
        const hess = Math.max(1e-6, rho * (1 - rho) * delta);
        h[i] += hess;
        h[j] += hess;
      }
    }
  }
}

/** The leaf value of one row (its features at X[offset…]). */
export function leafValue(tree, X, offset) {
  let node = 0;
  while (tree.feature[node] >= 0) node = X[offset + tree.feature[node]] <= tree.threshold[node] ? tree.left[node] : tree.right[node];
  return tree.value[node];
}

/** The model's log-odds for every row. */
export function predictMargins(model, X, n, F) {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let m = model.base;
    for (const tree of model.trees) m += leafValue(tree, X, i * F);
    out[i] = m;
  }
  return out;
}

/**
 * Isotonic regression (pool adjacent violators) of labels on scores:
 * a non-decreasing step map from score to probability, as [score, p,
 * weight] knots (the weight of the rows a block pooled). Weighted by w.
 */
export function fitIsotonic(scores, labels, weights) {
  const order = Array.from(scores.keys()).sort((a, b) => scores[a] - scores[b]);
  const blocks = [];
  for (const i of order) {
    blocks.push({ lo: scores[i], hi: scores[i], sum: labels[i] * weights[i], weight: weights[i] });
    while (blocks.length > 1) {
      const b = blocks[blocks.length - 1];
      const a = blocks[blocks.length - 2];
      if (a.sum / a.weight < b.sum / b.weight) break;
      blocks.pop();
      a.hi = b.hi;
      a.sum += b.sum;
      a.weight += b.weight;
    }
  }
  // each knot: [score, rate, the weight behind it]
  return blocks.map((b) => [(b.lo + b.hi) / 2, b.sum / b.weight, b.weight]);
}
