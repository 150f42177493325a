/**
 * The diagnostics a retrieval hands over: the files it could not read,
 * those about the files of its answer, and one line counting the rest.
 *
 * The index's diagnostics are the repository's, not the task's: on
 * babel/babel (17,601 files) 2,957 of them (parse errors of test fixtures
 * written in proposal syntax, generated files skipped, unresolved imports),
 * 710 KB of every JSON answer and 2,184 lines of stderr on every query,
 * none about a file the answer names. An agent needs to know which files no
 * answer can hold (skipped: too large, binary, generated; few) and when a
 * file it is told to read parsed with errors or imports what is not there;
 * the rest are counted, and `graph --format json` lists them all.
 */
import type { Diagnostic } from "../types.js";

/** Kinds as the count line names them, in its order. */
const KIND_WORDS: ReadonlyArray<readonly [Diagnostic["kind"], string]> = [
  ["parse-error", "parse errors"],
  ["unresolved", "unresolved imports"],
  ["warning", "other warnings"],
];

/**
 * The diagnostics without a path, the skipped files and the diagnostics
 * about `answerPaths`, in their order, then one warning counting the
 * others by kind (none when there are none).
 *
 * @example
 * diagnosticsOfAnswer(graph.diagnostics, new Set(["src/a.ts"]));
 * // [{ kind: "parse-error", path: "src/a.ts", … }, { kind: "warning", message: "12 more diagnostics about files outside this answer (…)" }]
 */
export function diagnosticsOfAnswer(all: readonly Diagnostic[], answerPaths: ReadonlySet<string>): Diagnostic[] {
  const kept: Diagnostic[] = [];
  const elsewhere = new Map<Diagnostic["kind"], number>();
  for (const diagnostic of all) {
    if (diagnostic.path === undefined || diagnostic.kind === "skipped" || answerPaths.has(diagnostic.path)) kept.push(diagnostic);
    else elsewhere.set(diagnostic.kind, (elsewhere.get(diagnostic.kind) ?? 0) + 1);
  }
  if (elsewhere.size === 0) return kept;
  let count = 0;
  const parts: string[] = [];
  for (const [kind, words] of KIND_WORDS) {
    const n = elsewhere.get(kind) ?? 0;
    count += n;
    if (n > 0) parts.push(`${n} ${words}`);
  }
  const noun = count === 1 ? "diagnostic" : "diagnostics";
  kept.push({ kind: "warning", message: `${count} more ${noun} about files outside this answer (${parts.join(", ")}; graph --format json lists them)` });
  return kept;
}
