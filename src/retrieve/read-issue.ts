/**
 * A task read as an agent reads a GitHub issue: its parts, and what in it
 * is template or environment rather than about the code.
 *
 * An issue is a title, prose, "steps to reproduce", fenced and inline code,
 * a stack trace, a quoted error message, versions, links and screenshots.
 * Its words are mostly not about code: every heading of the template, the
 * environment table and the image links would become query terms. This
 * reads the text into:
 * - `title`: the first line, when more follow;
 * - `prose`: the lines that say something, template headings, checkboxes,
 *   environment lines, images, HTML and versions taken out;
 * - `code`: the fenced blocks (inline code stays in the prose, in its
 *   backticks);
 * - `frames`: stack-trace frames (Node and Chrome `at fn (file:line:col)`,
 *   Firefox `fn@file:line:col`, Python `File "file", line N, in fn`);
 * - `messages`: error messages (`TypeError: x is not a function`) and
 *   quoted strings of two words or more, as written;
 * - `paths`: file paths the text names (a frame's file, a repository link's
 *   `blob/<ref>/<path>`).
 * A commit message has none of this shape and reads back as its own text.
 *
 * @example
 * const issue = readIssue("Crash on start\n\n```\nTypeError: x is not a function\n    at run (/app/dist/cli.js:10:5)\n```");
 * issue.messages; // ["x is not a function"]
 * issue.frames;   // [{ path: "/app/dist/cli.js", line: 10, fn: "run", format: "node" }]
 */

/** One frame of a stack trace. */
export interface StackFrame {
  /** The file as the trace wrote it (a URL's path, an absolute or relative path). */
  path: string;
  line?: number;
  /** The function, when the frame names one. */
  fn?: string;
  format: "node" | "firefox" | "python";
}

export interface IssueText {
  /** The first line, when the text has more than one. */
  title?: string;
  /** The lines of prose, with the template and environment taken out. */
  prose: string[];
  /** The fenced blocks, as written (frames and messages are also read out of them). */
  code: string[];
  frames: StackFrame[];
  /** Error messages and quoted strings, as written, each once. */
  messages: string[];
  /** File paths the text names, each once. */
  paths: string[];
  /** What was taken out, by kind. */
  dropped: { images: number; links: number; headings: number; environment: number; versions: number };
  /** The text has an issue's shape: a fence, a frame, a template heading, an image or an environment section. */
  isIssue: boolean;
}

const FENCE = /^(\s*)(`{3,}|~{3,})([^\n]*)\n([\s\S]*?)\n\s*\2[ \t]*$/gm;
const INLINE_CODE = /`([^`\n]+)`/g;
const IMAGE = /!\[[^\]]*\]\([^)]*\)|<img\b[^>]*>/gi;
const HTML_COMMENT = /<!--[\s\S]*?-->/g;
const HTML_TAG = /<\/?(?:details|summary|br|p|div|span|sub|sup|kbd|b|i|em|strong|code|pre|ul|ol|li|h[1-6]|a)\b[^>]*>/gi;
const MARKDOWN_LINK = /\[([^\]]*)\]\(([^)\s]*)\)/g;
const URL = /\bhttps?:\/\/[^\s<>()"'`]+/g;
/** A repository link to a file: `…/blob/<ref>/<path>` (GitHub, GitLab) or `…/src/<ref>/<path>` (Bitbucket). */
const BLOB_PATH = /\/(?:blob|src|tree)\/[^/\s]+\/([^\s#?]+\.[A-Za-z0-9]+)/;
const VERSION = /(?<![\w.])v?\d+\.\d+(?:\.\d+)+(?:[-+][\w.]+)?(?![\w.])|(?<![\w.])v\d+(?:\.\d+)?(?![\w.])/g;

/** Template headings and the environment section's own words. */
const HEADING = /^\s*(?:#{1,6}\s+(.+?)\s*#*|\*\*([^*]+)\*\*:?|__([^_]+)__:?)\s*$/;
const ENVIRONMENT_HEADING = /\b(environment|version|versions|system info|platform|setup|browser|your environment|configuration|additional context)\b/i;
const ENVIRONMENT_LINE = /^\s*(?:[-*]\s*)?(?:\*\*)?(os|operating system|browser|browser name and version|node(?:\.js)?(?: version)?|npm(?: version)?|version|library version|package version|platform|device|typescript version|[\w .-]{0,30} version)(?:\*\*)?\s*:/i;
const CHECKBOX = /^\s*[-*]\s*\[[ xX]\]/;

/** Node and Chrome: `at fn (file:line:col)`, `at file:line:col`, `at async fn (…)`. */
const NODE_FRAME = /^\s*at\s+(?:(?:async\s+)?(?:new\s+)?([^\s()]+(?:\s\[as [^\]]+\])?)\s+\()?((?:[a-z]+:\/\/)?[^\s()]+?):(\d+)(?::\d+)?\)?\s*$/;
/** Firefox and Safari: `fn@file:line:col`. */
const FIREFOX_FRAME = /^\s*([^\s@]*)@((?:[a-z]+:\/\/)?[^\s@]+?):(\d+)(?::\d+)?\s*$/;
/** Python: `File "file", line N, in fn`. */
const PYTHON_FRAME = /^\s*File "([^"]+)", line (\d+)(?:, in (\S+))?/;
/** An error line: `TypeError: …`, `Uncaught Error: …`, `ValueError: …`, `ERR_X: …`. */
const ERROR_LINE = /^\s*(?:Uncaught\s+(?:\(in promise\)\s+)?)?(?:[\w.]*(?:Error|Exception|Warning)|ERR_[A-Z_]+|Error)(?:\s*\[[^\]]*\])?:\s+(.+?)\s*$/;
/** Quoted in prose: "…", '…', “…”. Two words or more. */
const QUOTED = /"([^"\n]{3,200})"|“([^”\n]{3,200})”|(?<![\w])'([^'\n]{3,200})'(?![\w])/g;

function frameOf(line: string): StackFrame | undefined {
  let m = NODE_FRAME.exec(line);
  if (m) return { path: m[2]!, line: Number(m[3]), ...(m[1] ? { fn: m[1].replace(/\s\[as [^\]]+\]$/, "") } : {}), format: "node" };
  m = PYTHON_FRAME.exec(line);
  if (m) return { path: m[1]!, line: Number(m[2]), ...(m[3] ? { fn: m[3] } : {}), format: "python" };
  m = FIREFOX_FRAME.exec(line);
  if (m && /[/\\.]/.test(m[2]!)) return { path: m[2]!, line: Number(m[3]), ...(m[1] ? { fn: m[1] } : {}), format: "firefox" };
  return undefined;
}

/** The path part of a frame's file: a URL's pathname, `webpack:///./src/x.js` as `src/x.js`, query and hash cut. */
export function framePath(file: string): string {
  let path = file.replace(/[?#].*$/, "");
  const url = /^[a-z][\w+.-]*:\/\/+[^/]*(\/.*)?$/i.exec(path);
  if (url) path = url[1] ?? "";
  return path.replace(/^(?:\.?\/)+/, "");
}

/**
 * The part of a frame's path that can name a file of the repository: what
 * follows the last `node_modules/<package>/` (a dependency's own files, as
 * its repository holds them), else the last three segments of an absolute
 * path (a checkout's folders above the repository are the reporter's).
 *
 * @example
 * repositoryPath("/home/me/app/node_modules/@acme/tool/dist/config/load.js"); // "dist/config/load.js"
 * repositoryPath("/usr/src/app/lib/router.js");                             // "app/lib/router.js"
 */
export function repositoryPath(path: string): string {
  const plain = framePath(path);
  const inPackage = /(?:^|\/)node_modules\/(?:@[^/]+\/)?[^/]+\/(.+)$/.exec(plain);
  if (inPackage) return inPackage[1]!;
  return /^(?:\/|[A-Za-z]:[\\/])/.test(path) ? plain.split(/[\\/]/).slice(-3).join("/") : plain;
}

const isWordy = (text: string) => /\p{L}{2,}.*\s.*\p{L}{2,}/su.test(text) || /\p{Script=Han}{2,}/u.test(text);

/**
 * Read a task's text as an issue.
 *
 * @example
 * readIssue("Fix the token expiry").isIssue; // false: a commit message's shape
 * framePath("webpack:///./src/ol/Map.js?abc"); // "src/ol/Map.js"
 */
export function readIssue(text: string): IssueText {
  const dropped = { images: 0, links: 0, headings: 0, environment: 0, versions: 0 };
  const frames: StackFrame[] = [];
  const messages = new Set<string>();
  const paths = new Set<string>();
  const code: string[] = [];
  let body = text.replace(/\r\n?/g, "\n").replace(HTML_COMMENT, "");
  let isIssue = false;

  const noteError = (line: string) => {
    const error = ERROR_LINE.exec(line);
    if (error) messages.add(error[1]!);
  };
  const noteQuoted = (line: string) => {
    for (const m of line.matchAll(QUOTED)) {
      const quoted = (m[1] ?? m[2] ?? m[3] ?? "").trim();
      if (isWordy(quoted)) messages.add(quoted);
    }
  };
  // a link is taken out of the prose; a repository link names its file
  const noteBlob = (href: string) => {
    dropped.links++;
    const blob = BLOB_PATH.exec(href);
    if (blob) paths.add(decodeURIComponent(blob[1]!));
  };
  // a stack frame or an error line is noted; true for a frame (no prose)
  const noteTrace = (line: string): boolean => {
    const frame = frameOf(line);
    if (frame) {
      frames.push(frame);
      const path = framePath(frame.path);
      if (path) paths.add(path);
      return true;
    }
    noteError(line);
    return false;
  };

  // fenced blocks first: their lines are code, never prose
  body = body.replace(FENCE, (_all, _indent: string, _fence: string, _info: string, block: string) => {
    isIssue = true;
    code.push(block);
    for (const line of block.split("\n")) noteTrace(line);
    return "\n";
  });
  body = body.replace(IMAGE, () => {
    dropped.images++;
    isIssue = true;
    return " ";
  });
  body = body.replace(HTML_TAG, " ");

  const title = body.includes("\n") ? body.split("\n").find((l) => l.trim() !== "")?.trim() : undefined;
  const prose: string[] = [];
  let inEnvironment = false;
  const lines = body.split("\n");
  let first = true;
  for (const raw of lines) {
    if (raw.trim() === "") continue;
    const isTitle = first && title !== undefined;
    first = false;
    if (isTitle) continue;
    const heading = HEADING.exec(raw);
    if (heading) {
      const words = (heading[1] ?? heading[2] ?? heading[3] ?? "").trim();
      dropped.headings++;
      isIssue = true;
      inEnvironment = ENVIRONMENT_HEADING.test(words);
      continue;
    }
    // a line of the body, never a one-line task ("browser: prefer pretty-print" is a commit's scope)
    if (title !== undefined && (inEnvironment || ENVIRONMENT_LINE.test(raw) || CHECKBOX.test(raw))) {
      dropped.environment++;
      if (!CHECKBOX.test(raw)) isIssue = true;
      continue;
    }
    if (noteTrace(raw)) {
      isIssue = true;
      continue;
    }
    prose.push(raw.trim());
  }

  const cleaned = prose.map((line) => {
    for (const m of line.matchAll(INLINE_CODE)) {
      const inner = m[1]!.trim();
      if (/\s/.test(inner) && isWordy(inner)) messages.add(inner);
    }
    const linked = line
      .replace(MARKDOWN_LINK, (_all, label: string, href: string) => {
        noteBlob(href);
        return ` ${label} `;
      })
      .replace(URL, (url) => {
        noteBlob(url);
        return " ";
      });
    noteQuoted(linked);
    return linked
      .replace(VERSION, () => {
        dropped.versions++;
        return " ";
      })
      .replace(/\s+/g, " ").trim();
  });
  if (title !== undefined) {
    noteError(title);
    noteQuoted(title);
  }

  return {
    ...(title !== undefined ? { title } : {}),
    prose: cleaned.filter((l) => l !== ""),
    code,
    frames,
    messages: [...messages],
    paths: [...paths],
    dropped,
    // every frame was read in a fence or in the body, both of which mark the text as an issue
    isIssue,
  };
}
