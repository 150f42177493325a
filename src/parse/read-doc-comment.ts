/**
 * Doc comments: the `/** … *\/` block or the run of `//` (or `#`) lines
 * right above a declaration, with the comment markers removed; and
 * docstrings, the string a Python definition's body opens with, without its
 * quotes. Comments are looked up in the sorted list of the file's comments,
 * never by walking the tree.
 */

/** Longest doc kept, in characters: a summary, not a manual. */
export const MAX_DOC_CHARS = 2000;

/** True for a comment that is a directive rather than prose (`/// <reference …/>`, `//# sourceMappingURL`, `// @ts-ignore`, `#!`, `# type: ignore`, lint switches). */
export function isDirectiveComment(raw: string): boolean {
  return /^(\/\/\/\s*<|\/\/[#@]|#!|\/\/\s*(eslint|prettier|istanbul|c8)\b|\/\*\s*(eslint|istanbul|c8)\b|#\s*(type:|noqa\b|pylint:|pragma\b|fmt:|mypy:))/.test(raw);
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
    if (raw.startsWith("#")) {
      lines.push(raw.replace(/^#+\s?/, "").trimEnd());
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

const STRING_QUOTES = /^[A-Za-z]*("""|'''|"|')([\s\S]*?)\1$/;

/**
 * A docstring's text: the string literal without its prefix and quotes,
 * its lines dedented past the first as Python's `inspect.cleandoc` does,
 * blank edges dropped; at most MAX_DOC_CHARS. Undefined when it is empty.
 *
 * @example
 * readDocString('"""Issue a token.\n\n    Raises ExpiredError.\n    """') // "Issue a token.\n\nRaises ExpiredError."
 */
export function readDocString(literal: string): string | undefined {
  const body = STRING_QUOTES.exec(literal)?.[2] ?? literal;
  const lines = body.split("\n").map((line) => line.trimEnd());
  let indent = Infinity;
  for (const line of lines.slice(1)) {
    const spaces = line.length - line.trimStart().length;
    if (line.trim() !== "") indent = Math.min(indent, spaces);
  }
  const dedented = [lines[0]!.trim(), ...lines.slice(1).map((line) => (indent === Infinity ? line : line.slice(indent)))];
  const doc = dedented.join("\n").trim().slice(0, MAX_DOC_CHARS);
  return doc || undefined;
}
