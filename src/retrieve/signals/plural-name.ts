/**
 * Plural name: a task's code word in the plural (`useQueries`, `getRoutes`)
 * names a collection, and a codebase often gives the collection its own
 * file (`queriesObserver.ts` beside `queryObserver.ts`). Terms are folded
 * to their stem (queries → query), so the lexical match cannot tell the
 * two files apart; the file name holding the plural as written can. The
 * share of the task's plural code-word parts a file's base name holds, in
 * [0, 1].
 */
import { splitIdentifier } from "../../util/terms.js";

/** A word part that reads as an English plural: `queries`, `routes`, `options`; not `status`, `alias`, `class`. */
const PLURAL = /(?:ies|[^isu]s)$/;

/** Parts shorter than this are left out: `ids`, `fns` and the like name no collection of their own. */
const MIN_PLURAL_LENGTH = 4;

/**
 * The plural parts of the task's code words, lower-cased as written, each once.
 *
 * @example
 * pluralPartsOf(["useQueries", "setData"]) // ["queries"]
 */
export function pluralPartsOf(codeWords: readonly string[]): string[] {
  const parts = codeWords.flatMap((word) => splitIdentifier(word)).filter((part) => part.length >= MIN_PLURAL_LENGTH && PLURAL.test(part));
  return [...new Set(parts)];
}

/**
 * @example
 * pluralNameShare("src/queriesObserver.ts", ["queries"]) // 1
 * pluralNameShare("src/queryObserver.ts", ["queries"])   // 0
 */
export function pluralNameShare(path: string, pluralParts: readonly string[]): number {
  if (pluralParts.length === 0) return 0;
  const base = (path.slice(path.lastIndexOf("/") + 1).split(".")[0] ?? "");
  const nameParts = new Set(splitIdentifier(base));
  return pluralParts.filter((part) => nameParts.has(part)).length / pluralParts.length;
}
