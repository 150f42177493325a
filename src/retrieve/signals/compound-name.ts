/**
 * Compound name: consecutive words of the task's prose that spell, in order,
 * a name the codebase exports ("some amounts of an invoice line" →
 * `InvoiceLine`, "the retry function" → `RetryFn`). English writes a
 * code entity as a noun compound, and the file that defines that entity is
 * the one the words are about, while the lexical match sees only two common
 * words that every hub holds. Each word is compared as a term (so plurals and
 * inflections fold: "invoice lines" → `InvoiceLine`), and "function" also as
 * `Fn`, the suffix TypeScript code often gives function types (`RetryFn`,
 * `CompareFn`). Runs of two or three words count; a stopword, punctuation, a
 * code word (camelCase, backticked) or a number breaks a run.
 */
import { normaliseTerm, termsOfWord } from "../../util/terms.js";

/** Written forms a codebase gives a prose word in names, besides the word itself. */
const NAME_FORMS: ReadonlyMap<string, readonly string[]> = new Map([["function", ["fn"]]]);

const MIN_WORDS = 2;
const MAX_WORDS = 3;

/** Runs of consecutive plain prose words, lower-cased; anything else ends a run. */
function proseRuns(task: string, isStopword: (word: string) => boolean): string[][] {
  const runs: string[][] = [];
  let run: string[] = [];
  const end = () => {
    if (run.length >= MIN_WORDS) runs.push(run);
    run = [];
  };
  for (const token of task.replace(/`[^`]*`/g, " . ").split(/\s+/)) {
    const word = token.replace(/^[("'[{]+|[)"'\]},.;:!?]+$/g, "");
    const plain = /^[A-Za-z]+$/.test(word) && !/[a-z][A-Z]/.test(word);
    // an opening quote or bracket starts a new clause, punctuation after a word ends one
    if (plain && /^[("'[{]/.test(token)) end();
    if (!plain || isStopword(word.toLowerCase())) end();
    else run.push(word.toLowerCase());
    if (plain && /[)"'\]},.;:!?]$/.test(token)) end();
  }
  end();
  return runs;
}

/**
 * The term sequences the task's runs of 2–3 prose words spell, each joined
 * with a space (the form {@link definedCompounds} compares).
 *
 * @example
 * compoundsOf("Type mismatch for retry function", (w) => w === "for");
 * // Set {"type mismatch", "retr function", "retr fn"}
 */
export function compoundsOf(task: string, isStopword: (word: string) => boolean): Set<string> {
  const out = new Set<string>();
  const forms = (word: string) => [normaliseTerm(word), ...(NAME_FORMS.get(word) ?? [])];
  for (const run of proseRuns(task, isStopword)) {
    for (let n = MIN_WORDS; n <= MAX_WORDS; n++) {
      for (let i = 0; i + n <= run.length; i++) {
        let spelled: string[][] = [[]];
        for (const word of run.slice(i, i + n)) spelled = spelled.flatMap((s) => forms(word).map((f) => [...s, f]));
        for (const terms of spelled) out.add(terms.join(" "));
      }
    }
  }
  return out;
}

/**
 * A test of whether a file whose definition and export names hold these
 * terms (the lexical index's `definitions` field) can export a name the
 * compounds spell: every term of one compound must be among them. A cheap
 * test that spares splitting the names of the files that cannot; the
 * compounds are split once, here.
 *
 * @example
 * const mayDefine = compoundFilter(compoundsOf("an invoice line", () => false));
 * mayDefine(new Map([["invoic", 2], ["line", 1]])); // true
 */
export function compoundFilter(compounds: ReadonlySet<string>): (definitionTerms: { has(term: string): boolean }) => boolean {
  const split = [...compounds].map((compound) => compound.split(" "));
  return (definitionTerms) => split.some((terms) => terms.every((term) => definitionTerms.has(term)));
}

/**
 * The names among `names` that the task's compounds spell, each once, in order.
 *
 * @example
 * definedCompounds(["InvoiceLine", "lineTotal"], compoundsOf("an invoice line", () => false)); // ["InvoiceLine"]
 */
export function definedCompounds(names: readonly string[], compounds: ReadonlySet<string>): string[] {
  if (compounds.size === 0) return [];
  return [...new Set(names.filter((name) => compounds.has(termsOfWord(name).join(" "))))];
}
