/**
 * Plain identifiers found in the code text rather than captured one node at
 * a time: a capture per identifier is most of a query's cost. The scan reads
 * words outside comments, strings and regexes (spans the query marks
 * `@skip` / `@term.comment`), drops keywords, and tells property names
 * (after `.` or `?.`) from uses.
 */

/** Sorted, non-overlapping [start, end) offsets to skip. */
export interface SkipSpans {
  starts: number[];
  ends: number[];
}

/** One word of code: its start offset, text, and whether it follows a `.` (a property name). */
export type IdentifierVisitor = (start: number, name: string, isProperty: boolean) => void;

/** `[A-Za-z_$]`: a character that can start a word. */
function isWordStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36;
}

/** `[A-Za-z0-9_$]`: a character that can continue a word. */
function isWordChar(c: number): boolean {
  return isWordStart(c) || (c >= 48 && c <= 57);
}

/**
 * The end of the word starting at `i`, or -1 when none starts there. A word
 * is `#?[A-Za-z_$][A-Za-z0-9_$]*` not preceded by `[A-Za-z0-9_$#]` (as the
 * regex /(?<![\w$#])#?[A-Za-z_$][\w$]*\/ reads it, without a match object).
 */
function wordEndAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  const head = c === 35 ? i + 1 : i; // "#"
  if (!isWordStart(text.charCodeAt(head))) return -1;
  if (i > 0) {
    const before = text.charCodeAt(i - 1);
    if (before === 35 || isWordChar(before)) return -1;
  }
  let end = head + 1;
  while (end < text.length && isWordChar(text.charCodeAt(end))) end++;
  return end;
}

/** Sort spans by start and merge the nested or overlapping ones. */
export function normaliseSpans(starts: number[], ends: number[]): SkipSpans {
  const order = starts.map((_, i) => i).sort((a, b) => starts[a]! - starts[b]! || ends[b]! - ends[a]!);
  const out: SkipSpans = { starts: [], ends: [] };
  for (const i of order) {
    const start = starts[i]!;
    const end = ends[i]!;
    const last = out.ends.length - 1;
    if (last >= 0 && start < out.ends[last]!) {
      if (end > out.ends[last]!) out.ends[last] = end;
    } else {
      out.starts.push(start);
      out.ends.push(end);
    }
  }
  return out;
}

/** True when the code before `start` (spaces skipped) ends with `.` — so the word is a property name. */
function followsDot(text: string, start: number): boolean {
  let i = start - 1;
  while (i >= 0) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13) i--;
    else return c === 46 && text.charCodeAt(i - 1) !== 46; // "." but not "..." (spread)
  }
  return false;
}

/**
 * Visit every non-keyword word of the code outside the skip spans.
 *
 * @example
 * scanIdentifiers("a.b(c) // d", { starts: [7], ends: [11] }, new Set(), (s, n, p) => …) // a, b (property), c
 */
export function scanIdentifiers(text: string, skip: SkipSpans, keywords: ReadonlySet<string>, visit: IdentifierVisitor): void {
  let from = 0;
  const scanUpTo = (to: number): void => {
    for (let start = from; start < to; start++) {
      const end = wordEndAt(text, start);
      if (end === -1) continue;
      // A word running into a skipped span stops at its start.
      const word = text.slice(start, Math.min(end, to));
      // "${" opens a template substitution; it is not the identifier "$".
      const opensSubstitution = word === "$" && text.charCodeAt(end) === 123;
      if (!keywords.has(word) && !opensSubstitution) visit(start, word, followsDot(text, start));
      if (end > to) break;
      start = end - 1;
    }
  };
  for (let i = 0; i < skip.starts.length; i++) {
    const start = skip.starts[i]!;
    if (start > from) scanUpTo(start);
    from = Math.max(from, skip.ends[i]!);
  }
  scanUpTo(text.length);
}
