// A custom query expander: adjust the parsed task before the first cycle.
//
// Here a team's own jargon is spelled out: in this codebase people say
// "jti" and "refresh" for what a task calls a "logout loop". Terms are
// lower-case word stems (the library normalises the task the same way);
// plain words like "refresh", "token" and "session" are their own stems.
//
//   npm run build && node examples/query-expander.mjs [root]
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { retrieve } from "graph-retrieve";

const root = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "auth-service");
const task = "Users get stuck in a logout loop";

/** Team jargon: a task word → the code's words for it. */
const JARGON = { logout: ["session", "refresh", "token"] };

/** @type {import("graph-retrieve").QueryExpander} */
async function expandQuery(query) {
  const added = [];
  for (const { term } of query.terms) {
    for (const word of JARGON[term] ?? []) {
      if (!query.terms.some((t) => t.term === word)) added.push({ term: word, weight: 1, source: "keyword", original: `${word} (jargon: ${term})` });
    }
  }
  return { ...query, terms: [...query.terms, ...added] };
}

const plain = await retrieve(task, { root });
const expanded = await retrieve(task, { root, expandQuery });
// the best five files of each: the expansion's words move the session files up
const top = (result) => result.files.slice(0, 5).map((f) => f.path);
console.log(JSON.stringify({ task, keywords: expanded.cycles[0]?.keywords ?? [], without: top(plain), with: top(expanded) }, null, 2));
