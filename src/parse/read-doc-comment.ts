/**
 * Doc comments: the `/** … *\/` block or the run of `//` lines right above a
 * declaration, with the comment markers removed. Comments are looked up in
 * the sorted list of the file's comments, never by walking the tree.
 */

/** Longest doc kept, in characters: a summary, not a manual. */
export const MAX_DOC_CHARS = 2000;

/** True for a comment that is a directive rather than prose (`/// <reference …/>`, `//# sourceMappingURL`, `// @ts-ignore`, `#!`, lint switches). */
export function isDirectiveComment(raw: string): boolean {
  return /^(\/\/\/\s*<|\/\/[#@]|#!|\/\/\s*(eslint|prettier|istanbul|c8)\b|\/\*\s*(eslint|istanbul|c8)\b)/.test(raw);
}

/**
 * The text of comments without their markers: `/**`, `*\/`, leading `*` of
 * each line, `//`. Lines are trimmed, blank edges dropped.
 *
 * @example
 * stripCommentMarkers(["/** Parse a file.\n * @param path root-relative *\/"]) // "Parse a file.\n@param path root-relative"
 */
export function stripCommentMarkers(comments: readonly string[]): string {
  const lines: string[] = [];
  for (const raw of comments) {
    if (raw.startsWith("//")) {
      lines.push(raw.replace(/^\/\/+\s?/, "").trimEnd());
      continue;
    }
    const body = raw.replace(/^\/\*+/, "").replace(/\*+\/$/, "");
    for (const line of body.split("\n")) lines.push(line.replace(/^\s*\*?\s?/, "").trimEnd());
  }
  return lines.join("\n").trim().slice(0, MAX_DOC_CHARS);
}

/** The comments of a file as sorted [start, end) offsets. */
export interface CommentSpans {
  starts: number[];
  ends: number[];
}

/** Sort comment spans by start (query matches come nearly sorted). */
export function sortCommentSpans(spans: CommentSpans): CommentSpans {
  const order = spans.starts.map((_, i) => i).sort((a, b) => spans.starts[a]! - spans.starts[b]!);
  return { starts: order.map((i) => spans.starts[i]!), ends: order.map((i) => spans.ends[i]!) };
}

/** Index of the last comment ending at or before `offset`, or -1. */
function lastCommentBefore(spans: CommentSpans, offset: number): number {
  let lo = 0;
  let hi = spans.ends.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (spans.ends[mid]! <= offset) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** True when only spaces and at most one line break separate two offsets. */
function isAdjacent(text: string, from: number, to: number): boolean {
  return /^[ \t]*(\r?\n)?[ \t]*$/.test(text.slice(from, to));
}

/** True when a comment starts its line (it is not trailing code). */
function startsLine(text: string, start: number): boolean {
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  return /^[ \t]*$/.test(text.slice(lineStart, start));
}

/**
 * The leading doc comment of a declaration starting at `start`, or undefined:
 * a `/** *\/` block, or an unbroken run of `//` lines, ending on the line
 * above (or just before on the same line).
 */
export function docCommentBefore(spans: CommentSpans, text: string, start: number): string | undefined {
  let i = lastCommentBefore(spans, start);
  let next = start;
  const run: string[] = [];
  while (i >= 0 && isAdjacent(text, spans.ends[i]!, next)) {
    const raw = text.slice(spans.starts[i]!, spans.ends[i]!);
    if (isDirectiveComment(raw) || !startsLine(text, spans.starts[i]!)) break;
    if (raw.startsWith("/*")) {
      if (run.length === 0 && raw.startsWith("/**")) run.push(raw);
      break;
    }
    run.unshift(raw);
    next = spans.starts[i]!;
    i--;
  }
  if (run.length === 0) return undefined;
  return stripCommentMarkers(run) || undefined;
}
