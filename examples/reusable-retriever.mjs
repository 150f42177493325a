// One retriever for many tasks: the graph is built once (scan, parse,
// resolve), then each task costs only the retrieval loop. An orchestrator
// that hands context to several sub-agents keeps one per codebase.
//
//   npm run build && node examples/reusable-retriever.mjs [root]
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRetriever } from "graph-retrieve";

const root = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "auth-service");

let started = performance.now();
const retriever = await createRetriever({ root, budgetTokens: 12_000 });
const buildMs = performance.now() - started;

const tasks = [
  "Fix the authentication token expiry bug",
  "Email verification links expire too early",
  "Cache user lookups for longer",
];
const answers = [];
for (const task of tasks) {
  started = performance.now();
  // per-call options override the retriever's (budget, cycles, strategy, evaluator…)
  const result = await retriever.retrieve(task, { maxCycles: 2 });
  answers.push({
    task,
    millis: Math.round(performance.now() - started),
    context: result.files.filter((f) => f.relevance >= 0.7).map((f) => f.path),
    best: result.files.slice(0, 3).map((f) => f.path),
  });
}
console.log(JSON.stringify({ files: retriever.codeGraph.files.size, buildMillis: Math.round(buildMs), answers }, null, 2));
