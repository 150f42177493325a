// A custom evaluator: rescore each cycle's candidates with your own judge.
//
// In real use the judge is an LLM: show it the task and the file, ask for a
// relevance in [0, 1] and one line of why. Here a deterministic function
// stands in for it, so the example runs offline and gives the same answer
// every time.
//
//   npm run build && node examples/custom-evaluator.mjs [root]
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { retrieve } from "graph-retrieve";

const root = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "auth-service");
const task = "Fix the authentication token expiry bug";

/**
 * The stand-in judge: code that sets or reads a token's expiry is what this
 * task is about; settings and HTTP routes only pass values through. Replace
 * the body with a model call, e.g. `await llm.score({ task, path, text })`.
 */
async function judge({ path, text, relevance }) {
  if (path.startsWith("src/config/") || path.startsWith("src/routes/")) {
    return { relevance: Math.min(relevance, 0.4), reason: "judge: passes values through, decides no expiry" };
  }
  if (/\b(expiresAt|getExpiry|exp)\b/.test(text) && /token/i.test(text)) {
    return { relevance: Math.max(relevance, 0.9), reason: "judge: sets or checks a token's expiry" };
  }
  return undefined; // keep the default score
}

/** @type {import("graph-retrieve").Evaluator} */
async function evaluator({ cycle, candidates, readFile }) {
  const verdicts = [];
  // judge only the promising candidates: an LLM call per file costs time and tokens
  for (const candidate of candidates.slice(0, 10)) {
    const verdict = await judge({ path: candidate.path, text: await readFile(candidate.path), relevance: candidate.relevance });
    if (verdict) verdicts.push({ path: candidate.path, ...verdict, reason: `${verdict.reason} (cycle ${cycle})` });
  }
  return verdicts; // paths left out keep their default relevance
}

const result = await retrieve(task, { root, evaluator });
const context = result.files.filter((f) => result.context.includes(f.path));
const best = result.files.slice(0, 5).map(({ path, relevance }) => ({ path, relevance }));
console.log(JSON.stringify({ task, context: context.map(({ path, relevance, reason }) => ({ path, relevance, reason })), best }, null, 2));
