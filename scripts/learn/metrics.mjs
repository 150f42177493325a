// The benchmark harness's metrics (../shared/bench/run.mjs), computed from
// a ranking of each task's pool: acc@k (every gold file in the first k),
// R@k, MRR, and the context's precision, recall and F1 (the context given,
// as the retrieval decides it, else the files at 0.7 or more), an empty
// context counting precision 0. Gold files outside the pool are
// never ranked. Plus calibration: the reliability of the relevances of
// the ranked files (the first `shown` of each task).

export const KS = [1, 5, 10];
export const CONTEXT = 0.7;

/**
 * ranked: [{ path, relevance }] best first; gold: paths; context: the paths
 * handed over (default: those at 0.7 or more).
 */
export function scoreRanking(ranked, gold, context = ranked.filter((f) => f.relevance >= CONTEXT).map((f) => f.path)) {
  const g = new Set(gold);
  const rank = new Map();
  ranked.forEach((f, i) => {
    if (g.has(f.path) && !rank.has(f.path)) rank.set(f.path, i + 1);
  });
  const m = {};
  for (const k of KS) {
    const hit = gold.filter((p) => (rank.get(p) ?? Infinity) <= k).length;
    m[`acc${k}`] = gold.length && hit === gold.length ? 1 : 0;
    m[`r${k}`] = gold.length ? hit / gold.length : 0;
  }
  const first = Math.min(...rank.values());
  m.mrr = Number.isFinite(first) ? 1 / first : 0;
  const inter = context.filter((p) => g.has(p)).length;
  m.cP = context.length ? inter / context.length : 0;
  m.cR = gold.length ? inter / gold.length : 0;
  m.cF1 = m.cP + m.cR ? (2 * m.cP * m.cR) / (m.cP + m.cR) : 0;
  m.ctxFiles = context.length;
  m.ctxEmpty = context.length === 0 ? 1 : 0;
  // the context is not empty when the first file is needed (the share of such tasks whose context holds something)
  m.topNeeded = ranked.length > 0 && g.has(ranked[0].path) ? 1 : 0;
  m.ctxWhenTopNeeded = m.topNeeded && context.length > 0 ? 1 : 0;
  return m;
}

/** Mean of each metric over tasks. */
export function averageMetrics(list) {
  const out = { n: list.length };
  if (!list.length) return out;
  for (const key of Object.keys(list[0])) out[key] = list.reduce((s, m) => s + m[key], 0) / list.length;
  const sizes = list.map((m) => m.ctxFiles).sort((a, b) => a - b);
  out.ctxMedian = sizes[Math.floor((sizes.length - 1) / 2)];
  return out;
}

/**
 * Reliability: ranked files binned by relevance (tenths), each bin's mean
 * relevance against its rate of gold files; ECE is the bins' gaps weighted
 * by their share of files.
 */
export function reliability(pairs) {
  const bins = Array.from({ length: 10 }, (_, b) => ({ lo: b / 10, hi: (b + 1) / 10, n: 0, sum: 0, gold: 0 }));
  for (const [relevance, isGold] of pairs) {
    const b = Math.min(9, Math.max(0, Math.floor(relevance * 10)));
    bins[b].n++;
    bins[b].sum += relevance;
    bins[b].gold += isGold ? 1 : 0;
  }
  let ece = 0;
  const total = pairs.length || 1;
  for (const bin of bins) {
    bin.mean = bin.n ? bin.sum / bin.n : 0;
    bin.rate = bin.n ? bin.gold / bin.n : 0;
    ece += (bin.n / total) * Math.abs(bin.mean - bin.rate);
  }
  return { bins, ece };
}

export function formatMetrics(m) {
  const f = (v) => (v == null ? "-" : v.toFixed(3));
  const notEmpty = m.topNeeded ? m.ctxWhenTopNeeded / m.topNeeded : 0;
  return `n ${m.n}  acc@1 ${f(m.acc1)}  acc@5 ${f(m.acc5)}  acc@10 ${f(m.acc10)}  R@5 ${f(m.r5)}  MRR ${f(m.mrr)}  ctxP ${f(m.cP)}  ctxR ${f(m.cR)}  ctxF1 ${f(m.cF1)}  ctx# ${f(m.ctxFiles)} (median ${m.ctxMedian})  not empty when top needed ${f(notEmpty)}`;
}
