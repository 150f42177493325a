/**
 * Code-aware terms: the one place that decides how identifiers, paths and
 * prose become the terms that lexical matching compares. Parse (a file's
 * vocabulary) and retrieve (a task's keywords) both call it, so the two sides
 * always agree.
 *
 * @example
 * splitIdentifier("parseHTTPResponse_v2") // ["parse", "http", "response", "v2"]
 * normaliseTerm("expiration")              // "expir"
 * termsOf("Fix tokenExpiry in src/auth")   // ["fix", "token", "expir", "src", "auth"]
 */

/** Split one identifier or path segment on camelCase, PascalCase, acronyms, snake_case, kebab-case, dots and digits boundaries; lower-cased. */
export function splitIdentifier(identifier: string): string[] {
  const parts: string[] = [];
  for (const chunk of identifier.split(/[^A-Za-z0-9]+/)) {
    if (!chunk) continue;
    // HTTPServer → HTTP Server; parseJSON2 → parse JSON2; v2Api → v2 Api
    const words = chunk.match(/[A-Z]+[0-9]*(?![a-z])|[A-Z]?[a-z]+[0-9]*|[0-9]+[a-z]*|[A-Z]+/g);
    if (!words) continue;
    for (const w of words) parts.push(w.toLowerCase());
  }
  return parts;
}

const VOWEL = /[aeiouy]/;

/**
 * Light inflection folding, tuned for code words rather than prose:
 * token/tokens, expire/expiry/expired/expiration, query/queries,
 * route/router/routing all meet. Terms of 3 letters or fewer are kept as
 * they are.
 */
export function normaliseTerm(word: string): string {
  let w = word.toLowerCase();
  if (w.length <= 3 || !/^[a-z]+$/.test(w)) return w;
  // plurals
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (/(ches|shes|xes|zes)$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  // derivational and verbal suffixes, longest first; the stem must keep a vowel and 3+ letters
  for (const suffix of ["ations", "ation", "ition", "ating", "ated", "ate", "ments", "ment", "ings", "ing", "ers", "er", "ed"]) {
    if (!w.endsWith(suffix)) continue;
    const stem = w.slice(0, -suffix.length);
    // "-ate"/"-ation" only fold on long stems (authenticate, authentication → authentic; update, creation stay whole)
    const minimum = suffix.startsWith("at") ? 5 : 3;
    if (stem.length < minimum || !VOWEL.test(stem)) continue;
    w = stem;
    // doubled consonant: "mapped" → "mapp" → "map"
    if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
    break;
  }
  // final e / y: expire, expiry → expir
  if (w.length > 4 && /[ey]$/.test(w)) w = w.slice(0, -1);
  return w;
}

/** Identifier-ish tokens of free text: words, identifiers, dotted and slashed paths. */
export function wordsOf(text: string): string[] {
  return text.match(/[A-Za-z_$][A-Za-z0-9_$]*/g) ?? [];
}

/** Most words kept in the memo of {@link termsOfWord}; past it the memo starts over. */
const MAX_MEMO_WORDS = 200_000;
const wordMemo = new Map<string, readonly string[]>();

/** The terms of one identifier-like word, memoised: a codebase repeats its identifiers thousands of times. */
export function termsOfWord(word: string): readonly string[] {
  let terms = wordMemo.get(word);
  if (terms === undefined) {
    const out: string[] = [];
    for (const part of splitIdentifier(word)) {
      if (part.length < 2 || /^[0-9]+$/.test(part)) continue;
      out.push(normaliseTerm(part));
    }
    if (wordMemo.size >= MAX_MEMO_WORDS) wordMemo.clear();
    wordMemo.set(word, out);
    terms = out;
  }
  return terms;
}

/** Split and normalise every identifier of a text into terms (duplicates kept, order kept). */
export function termsOf(text: string): string[] {
  const out: string[] = [];
  for (const word of wordsOf(text)) out.push(...termsOfWord(word));
  return out;
}

/** A text that is one identifier-like word: {@link wordsOf} gives it whole. */
const ONE_WORD = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Add each of `terms` to a term → count record. */
function addTerms(into: Record<string, number>, terms: readonly string[], weight: number): void {
  for (const term of terms) {
    // own counts only: a term such as "constructor" finds a function on Object.prototype, never a number
    const count = into[term];
    into[term] = (typeof count === "number" ? count : 0) + weight;
  }
}

/** Add the terms of `text` to a term → count record (in {@link termsOf}'s order). */
export function countTerms(into: Record<string, number>, text: string, weight = 1): void {
  // most texts counted are one identifier: its terms come straight from the memo, without word lists
  if (ONE_WORD.test(text)) {
    addTerms(into, termsOfWord(text), weight);
    return;
  }
  for (const word of wordsOf(text)) addTerms(into, termsOfWord(word), weight);
}

const HAN_RUN = /\p{Script=Han}+/gu;

/**
 * The pairs of adjacent Chinese characters of a text, prefixed `zh:`: a
 * Chinese commit message and a Chinese task meet on them without a
 * dictionary (手动排序 → zh:手动, zh:动排, zh:排序). A lone character is its
 * own term.
 *
 * @example
 * hanPairs("修复排序 bug"); // ["zh:修复", "zh:复排", "zh:排序"]
 */
export function hanPairs(text: string): string[] {
  const out: string[] = [];
  for (const run of text.match(HAN_RUN) ?? []) {
    const chars = [...run];
    if (chars.length === 1) out.push(`zh:${chars[0]}`);
    for (let i = 0; i + 1 < chars.length; i++) out.push(`zh:${chars[i]}${chars[i + 1]}`);
  }
  return out;
}
