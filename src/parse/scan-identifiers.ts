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

const WORD = /(?<![\w$#])#?[A-Za-z_$][\w$]*/g;

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
    WORD.lastIndex = from;
    for (let m = WORD.exec(text); m !== null && m.index < to; m = WORD.exec(text)) {
      const name = m[0];
      // A word running into a skipped span stops at its start.
      const end = m.index + name.length;
      const word = end > to ? name.slice(0, to - m.index) : name;
      // "${" opens a template substitution; it is not the identifier "$".
      const opensSubstitution = word === "$" && text.charCodeAt(end) === 123;
      if (!keywords.has(word) && !opensSubstitution) visit(m.index, word, followsDot(text, m.index));
      if (end > to) break;
    }
  };
  for (let i = 0; i < skip.starts.length; i++) {
    const start = skip.starts[i]!;
    if (start > from) scanUpTo(start);
    from = Math.max(from, skip.ends[i]!);
  }
  scanUpTo(text.length);
}
