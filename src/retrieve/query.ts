/**
 * Task text → query: the first step of `dispatch`. A task in plain words
 * (English, Chinese or both) becomes weighted terms that match the terms
 * parse/ takes from files (both sides go through `util/terms.ts`), plus the
 * identifiers, paths and quoted phrases the task names verbatim.
 *
 * - English prose: words split and normalised, function words and commit
 *   boilerplate (fix, bug, add, support…) dropped.
 * - Code-looking words (`posAtCoords`, `snake_case`, `Foo.bar`, `run()`),
 *   backticked code, quoted phrases and a conventional-commit scope
 *   (`router: …`, `feat(auth): …`) are kept whole and their terms weighted up.
 * - Chinese runs are segmented by greedy longest match against the glossary
 *   (`data/glossary-zh.json`); unknown characters are skipped.
 * - The thesaurus (`data/thesaurus.json`) is for `refine`: a term that found
 *   nothing is retried with its synonyms ({@link expandWithThesaurus}).
 *
 * @example
 * const query = parseTask("修复身份验证令牌过期 bug");
 * query.terms.map((t) => t.term); // ["authentic", "auth", "token", "expir"]
 */

import { normaliseTerm, splitIdentifier, wordsOf } from "../util/terms.js";
import { readIssue, repositoryPath } from "./read-issue.js";
import {
  loadGlossary,
  loadStopwords,
  loadThesaurus,
  type Glossary,
  type Stopwords,
  type Thesaurus,
  type ThesaurusEntry,
} from "./query-data.js";
import { ISSUE_PROSE_WEIGHT } from "./parameters.js";

export {
  createGlossary,
  createThesaurus,
  extendGlossary,
  extendThesaurus,
  loadGlossary,
  loadStopwords,
  loadThesaurus,
  readGlossary,
  readStopwords,
  readThesaurus,
} from "./query-data.js";
export type { Glossary, Thesaurus } from "./query-data.js";

/** Where a query term came from. */
export type QueryTermSource = "task" | "verbatim" | "keyword" | "glossary" | "thesaurus";

/** One weighted term of a query. */
export interface QueryTerm {
  /** Normalised, as `termsOf` gives. */
  term: string;
  weight: number;
  source: QueryTermSource;
  /** The word as written (an identifier, a path, a Chinese word, a thesaurus entry). */
  original: string;
}

/** A task turned into what retrieval matches against the codebase. */
export interface TaskQuery {
  task: string;
  /** Unique by term, the highest weight kept, in order of first appearance. */
  terms: QueryTerm[];
  /** Code-looking words kept verbatim: posAtCoords, useSuspenseQueries, snake_case_name, Foo.bar. */
  identifiers: string[];
  /** Path-looking words: src/path.ts, auth/token, session-manager.ts. */
  paths: string[];
  /** Quoted phrases, as written inside the quotes. */
  phrases: string[];
  /** The conventional-commit scope as written (`router` of `fix(router): …`, `useQueries` of `useQueries: …`): the part of the code the task names. */
  scopes?: string[];
  /** The task has an issue's shape (read-issue.ts): a template, code blocks, a stack trace, images. */
  isIssue?: boolean;
}

/** Options of {@link parseTask}. */
export interface ParseTaskOptions {
  /** Extra keywords (from `refine`: words the codebase uses); added with source "keyword". */
  keywords?: string[];
  /** Defaults to the built-in glossary ({@link loadGlossary}). */
  glossary?: Glossary;
  /** When given, every term's synonyms are added with source "thesaurus" and a low weight. Off by default. */
  thesaurus?: Thesaurus;
}

/** Weight of a term by where it came from; a term met twice keeps the highest. */
export const TERM_WEIGHTS: Readonly<Record<QueryTermSource, number>> = Object.freeze({
  verbatim: 2,
  task: 1,
  keyword: 1,
  glossary: 1,
  thesaurus: 0.5,
});

/** Conventional-commit types: a `type:` prefix is boilerplate, a `type(scope):` scope is a code word. */
const COMMIT_TYPES = new Set([
  "feat", "feature", "fix", "bugfix", "hotfix", "chore", "docs", "doc", "refactor", "perf", "test", "tests",
  "build", "ci", "style", "revert", "wip", "release", "deps", "types", "improvement", "breaking",
]);

/** File extensions that make a word a path. */
const PATH_EXTENSIONS =
  /\.(?:[cm]?[jt]sx?|d\.ts|json|jsonc|md|mdx|ya?ml|toml|css|scss|sass|less|html?|vue|svelte|astro|graphql|gql|sql|sh|py|go|rs|java|kt|rb|php|cs|c|h|cpp|hpp|swift|scm|lock|env|txt)$/i;

const QUOTED = /"([^"]+)"|“([^”]+)”|「([^」]+)」|『([^』]+)』/g;
const BACKTICKED = /`([^`]+)`/g;
const SCOPE_PREFIX = /^\s*([A-Za-z_$][\w$./@-]*)(?:\(([^()]+)\))?!?:\s+/;
const BRACKET_SCOPE = /^\s*\[([^\]\s][^\]]*)\]\s*/;
const HAN_RUN = /(\p{Script=Han}+)/u;
const LEADING_PUNCT = /^[\s"'`“”‘’([{<,;:!?。，、；：！？（）【】《》]+/u;
const TRAILING_PUNCT = /[\s"'`“”‘’)\]}>,;:!?.。，、；：！？（）【】《》]+$/u;

/** A code block's words: identifiers and dotted names. */
const CODE_TOKEN = /[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/g;
/** What a stack frame's function names that is no code of the repository. */
const FRAME_NOISE = new Set(["Object", "Module", "anonymous", "Array", "Promise", "process", "processTicksAndRejections", "runMicrotasks", "async", "new", "eval"]);

/** Collects terms, identifiers, paths and phrases in order of appearance, without duplicates. */
class QueryBuilder {
  readonly terms = new Map<string, QueryTerm>();
  readonly identifiers = new Set<string>();
  readonly paths = new Set<string>();
  readonly phrases = new Set<string>();
  readonly scopes = new Set<string>();
  /** What a plain word weighs here against one of a task's first line (ISSUE_PROSE_WEIGHT in an issue's body). */
  proseScale = 1;

  constructor(readonly stopwords: Stopwords) {}

  addTerm(term: string, source: QueryTermSource, original: string): void {
    if (term.length < 2 || /^[0-9]+$/.test(term)) return;
    const weight = TERM_WEIGHTS[source] * (source === "task" || source === "glossary" ? this.proseScale : 1);
    const known = this.terms.get(term);
    if (!known) this.terms.set(term, { term, weight, source, original });
    else if (weight > known.weight) Object.assign(known, { weight, source, original });
  }

  isFunctionWord(word: string): boolean {
    return this.stopwords.english.has(word.toLowerCase());
  }

  isStopword(word: string): boolean {
    const lower = word.toLowerCase();
    return this.stopwords.english.has(lower) || this.stopwords.boilerplate.has(lower);
  }

  /** The parts of a code word, function words dropped unless nothing would be left. */
  addCodeParts(parts: string[], original: string): void {
    const kept = parts.filter((p) => !this.isFunctionWord(p));
    for (const part of kept.length > 0 ? kept : parts) this.addTerm(normaliseTerm(part), "verbatim", original);
  }

  addIdentifier(identifier: string): void {
    this.identifiers.add(identifier);
    this.addCodeParts(splitIdentifier(identifier), identifier);
  }

  addPath(path: string): void {
    this.paths.add(path);
    const segments = path.split("/").filter((s) => s !== "" && s !== "." && s !== ".." && s !== "~");
    const parts: string[] = [];
    segments.forEach((segment, i) => {
      const name = i === segments.length - 1 ? segment.replace(PATH_EXTENSIONS, "") : segment;
      parts.push(...splitIdentifier(name));
    });
    this.addCodeParts(parts, path);
  }

  /** Plain prose words: split, stopwords dropped, weight 1 (or verbatim inside quotes). */
  addWords(text: string, source: QueryTermSource, dropBoilerplate: boolean): void {
    for (const word of wordsOf(text)) {
      if (dropBoilerplate ? this.isStopword(word) : this.isFunctionWord(word)) continue;
      for (const part of splitIdentifier(word)) {
        if (dropBoilerplate ? this.isStopword(part) : this.isFunctionWord(part)) continue;
        this.addTerm(normaliseTerm(part), source, word);
      }
    }
  }
}

function isPathLike(token: string, builder: QueryBuilder): boolean {
  if (token.includes("://") || !/[A-Za-z]/.test(token)) return false;
  if (token.includes("/")) {
    // "and/or", "either/or" are prose
    const segments = token.split("/").filter(Boolean);
    return segments.length > 0 && !segments.every((s) => builder.isStopword(s));
  }
  return PATH_EXTENSIONS.test(token) && /^[\w.@-]+$/.test(token);
}

function isIdentifierLike(token: string): boolean {
  if (/^[A-Za-z_$][\w$]*$/.test(token)) {
    return (
      /[a-z0-9][A-Z]/.test(token) || // camelCase, PascalCase with humps
      /[A-Z]{2,}[a-z]/.test(token) || // HTTPServer
      /[A-Za-z0-9]_[A-Za-z0-9]/.test(token) || // snake_case, SCREAMING_CASE
      /^[_$]\w/.test(token) // _private, $store
    );
  }
  // Foo.bar, window.location.href (each part 2+ characters, so "e.g" stays prose)
  return /^[A-Za-z_$][\w$]+(?:\.[A-Za-z_$][\w$]+)+$/.test(token);
}

/** One whitespace-separated token of English prose. */
function addToken(raw: string, builder: QueryBuilder): void {
  let token = raw.replace(LEADING_PUNCT, "");
  const call = /^([A-Za-z_$][\w$.]*)\(([^()]*)\)/.exec(token);
  if (call?.[1] && !/^e?s$/.test(call[2] ?? "")) {
    builder.addIdentifier(call[1]);
    return;
  }
  token = token.replace(TRAILING_PUNCT, "").replace(/['’]s$/, "");
  if (!token || token.includes("://")) return;
  if (/^[A-Z]{2,}s$/.test(token)) token = token.slice(0, -1); // URLs, APIs: acronym plurals
  if (/^[A-Z][A-Za-z]*\.js$/.test(token)) token = token.slice(0, -3); // framework names: Node.js, Vue.js
  if (isPathLike(token, builder)) builder.addPath(token);
  else if (isIdentifierLike(token)) builder.addIdentifier(token);
  else if (!builder.isStopword(token)) builder.addWords(token, "task", true);
}

/** Code named on purpose (backticks, a commit scope): an identifier or path if it is one word, else a phrase. */
function addCode(code: string, builder: QueryBuilder, isScope: boolean): void {
  const text = code.trim().replace(/\(\)$/, "");
  if (!text || (isScope && builder.isStopword(text))) return;
  if (/\s/.test(text)) {
    builder.phrases.add(text);
    builder.addWords(text, "verbatim", false);
  } else if (isPathLike(text, builder)) builder.addPath(text);
  else if (/^[A-Za-z_$][\w$.-]*$/.test(text)) builder.addIdentifier(text);
  else if (!isScope) {
    builder.phrases.add(text);
    builder.addWords(text, "verbatim", false);
  }
}

function addQuoted(phrase: string, builder: QueryBuilder, glossary: () => Glossary): void {
  const text = phrase.trim();
  if (!text) return;
  builder.phrases.add(text);
  if (!/\s/.test(text) && (isPathLike(text, builder) || isIdentifierLike(text))) {
    addCode(text, builder, false);
    return;
  }
  for (const part of text.split(HAN_RUN)) {
    if (HAN_RUN.test(part)) addChinese(part, builder, glossary());
    else builder.addWords(part, "verbatim", false);
  }
}

/** Greedy longest match of a run of Chinese characters against the glossary and the Chinese stopwords. */
function addChinese(run: string, builder: QueryBuilder, glossary: Glossary): void {
  const { chinese, maxChineseLength } = builder.stopwords;
  const window = Math.max(glossary.maxKeyLength, maxChineseLength);
  let i = 0;
  while (i < run.length) {
    let step = 1;
    for (let length = Math.min(window, run.length - i); length >= 1; length--) {
      const word = run.slice(i, i + length);
      const keywords = glossary.entries.get(word);
      if (keywords) {
        for (const keyword of keywords) {
          for (const part of wordsOf(keyword).flatMap(splitIdentifier)) {
            if (!builder.isFunctionWord(part)) builder.addTerm(normaliseTerm(part), "glossary", word);
          }
        }
        step = length;
        break;
      }
      if (chinese.has(word)) {
        step = length;
        break;
      }
    }
    i += step; // an unknown character is skipped
  }
}

/** A leading conventional-commit scope: `feat(router): …`, `useQueries: …`, `[auth] …`. Returns the rest. */
function takeScope(text: string, builder: QueryBuilder): string {
  const bracket = BRACKET_SCOPE.exec(text);
  const take = (scope: string) => {
    if (!scope) return;
    addCode(scope, builder, true);
    builder.scopes.add(scope);
  };
  if (bracket?.[1]) {
    for (const scope of bracket[1].split(/[,\s]+/)) take(scope);
    return text.slice(bracket[0].length);
  }
  const match = SCOPE_PREFIX.exec(text);
  const type = match?.[1];
  if (!match || !type) return text;
  if (!COMMIT_TYPES.has(type.toLowerCase())) take(type);
  for (const scope of match[2]?.split(/[,\s]+/) ?? []) take(scope);
  return text.slice(match[0].length);
}

/** Prose's code spans, quotes and words, in that order. */
function readText(prose: string, builder: QueryBuilder, glossary: () => Glossary): void {
  let text = prose.replace(BACKTICKED, (_, code: string) => {
    addCode(code, builder, false);
    return " ";
  });
  text = text.replace(QUOTED, (_, ...groups: unknown[]) => {
    const phrase = groups.slice(0, 4).find((g): g is string => typeof g === "string");
    if (phrase) addQuoted(phrase, builder, glossary);
    return " ";
  });
  for (const part of text.split(HAN_RUN)) {
    if (HAN_RUN.test(part)) addChinese(part, builder, glossary());
    else for (const token of part.split(/\s+/)) if (token) addToken(token, builder);
  }
}

/**
 * Turn a task into a query: weighted terms, and the identifiers, paths and
 * phrases it names verbatim. Deterministic: the same task and options give
 * the same query, in order of appearance.
 *
 * @example
 * const q = parseTask("useQueries: Prevent infinite render loops when useSuspenseQueries has duplicate queryKeys");
 * q.identifiers; // ["useQueries", "useSuspenseQueries", "queryKeys"]
 * q.terms.find((t) => t.original === "render"); // { term: "rend", weight: 1, source: "task", original: "render" }
 *
 * parseTask("为 API 端点添加速率限制").terms.map((t) => t.term);
 * // ["api", "endpoint", "rout", "rate", "limit", "throttl"]
 */
export function parseTask(task: string, options: ParseTaskOptions = {}): TaskQuery {
  // read on the first Chinese word: an English task never needs it (~20 ms of a warm query)
  let loaded: Glossary | undefined = options.glossary;
  const glossary = (): Glossary => (loaded ??= loadGlossary());
  const builder = new QueryBuilder(loadStopwords());
  // NFKC folds full-width letters and punctuation (ｌｏｇｉｎ，：) to ASCII; Chinese characters are unchanged.
  const text = task.normalize("NFKC");

  // an issue's template, environment, links and images say nothing of the code: its title and prose are read,
  // and what its code blocks, stack frames and messages name (a commit message has none of this and is read whole)
  const issue = readIssue(text);
  if (issue.isIssue) {
    for (const block of issue.code) for (const token of block.match(CODE_TOKEN) ?? []) if (isIdentifierLike(token)) builder.addIdentifier(token);
    for (const frame of issue.frames) {
      for (const part of frame.fn?.split(".") ?? []) if (/^[A-Za-z_$][\w$]{2,}$/.test(part) && !FRAME_NOISE.has(part)) builder.addIdentifier(part);
      const path = repositoryPath(frame.path);
      if (path) builder.addPath(path);
    }
    for (const message of issue.messages) addQuoted(message, builder, glossary);
    for (const path of issue.paths) builder.addPath(path);
  }

  if (issue.isIssue && issue.title !== undefined) {
    // the title says what the issue is about; the plain words of the report around it weigh less (its code does not)
    readText(takeScope(issue.title, builder), builder, glossary);
    builder.proseScale = ISSUE_PROSE_WEIGHT;
    readText(issue.prose.join("\n"), builder, glossary);
    builder.proseScale = 1;
  } else readText(takeScope(issue.isIssue ? issue.prose.join("\n") : text, builder), builder, glossary);

  for (const keyword of options.keywords ?? []) {
    for (const word of wordsOf(keyword)) {
      for (const part of splitIdentifier(word)) {
        if (!builder.isFunctionWord(part)) builder.addTerm(normaliseTerm(part), "keyword", keyword);
      }
    }
  }

  if (options.thesaurus) {
    const expansions = findSynonyms([...builder.terms.keys()], options.thesaurus);
    for (const entries of expansions.values()) {
      for (const entry of entries) {
        if (entry.written.split(/\s+/).every((w) => builder.isStopword(w))) continue;
        for (const term of entry.terms) builder.addTerm(term, "thesaurus", entry.written);
      }
    }
  }

  return {
    task,
    terms: [...builder.terms.values()].map((t) => ({ ...t })),
    identifiers: [...builder.identifiers],
    paths: [...builder.paths],
    phrases: [...builder.phrases],
    scopes: [...builder.scopes],
    ...(issue.isIssue ? { isIssue: true } : {}),
  };
}

/** Does a thesaurus entry stand for `term`, given all the query's terms? */
function entryMatches(entry: ThesaurusEntry, term: string, present: ReadonlySet<string>): boolean {
  if (entry.terms.length === 1) return entry.terms[0] === term;
  // "rate limit" stands for "rate" or "limit" only when both are asked for; "ratelimit" always
  if (normaliseTerm(entry.terms.join("")) === term) return true;
  return entry.terms.includes(term) && entry.terms.every((t) => present.has(t));
}

/** term → the other entries of every group it belongs to, group order then entry order. */
function findSynonyms(terms: string[], thesaurus: Thesaurus): Map<string, ThesaurusEntry[]> {
  const asked = [...new Set(terms.map((t) => normaliseTerm(t)))];
  const present = new Set(asked);
  const out = new Map<string, ThesaurusEntry[]>();
  for (const term of asked) {
    const found: ThesaurusEntry[] = [];
    const matchedGroups = thesaurus.groups
      .map((group) => ({ group, matched: group.entries.filter((e) => entryMatches(e, term, present)) }))
      .filter((g) => g.matched.length > 0);
    // a phrase the task spells out ("rate limit") decides what its words mean: "limit" alone is pagination, not here
    const byPhrase = matchedGroups.filter((g) => g.matched.some((e) => e.terms.length > 1));
    for (const { group, matched } of byPhrase.length > 0 ? byPhrase : matchedGroups) {
      const own = new Set(matched.flatMap((e) => e.terms));
      for (const entry of group.entries) {
        if (!matched.includes(entry) && entry.terms.some((t) => !own.has(t) && t !== term) && !found.includes(entry)) {
          found.push(entry);
        }
      }
    }
    if (found.length > 0) out.set(term, found);
  }
  return out;
}

/**
 * The synonyms of each term (normalised), for `refine` to retry a term the
 * codebase does not use. Terms without synonyms are absent from the map. A
 * multi-word entry ("rate limit") answers for its words only when all of them
 * are among `terms`.
 *
 * @example
 * expandWithThesaurus(["rate", "limit"]).get("rate"); // ["ratelimit", "throttl", "quota"]
 * expandWithThesaurus(["throttle"]).get("throttl");   // ["rate", "limit", "ratelimit", "quota", "debounc"]
 */
export function expandWithThesaurus(terms: string[], thesaurus: Thesaurus = loadThesaurus()): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [term, entries] of findSynonyms(terms, thesaurus)) {
    const synonyms = new Set<string>();
    for (const entry of entries) for (const t of entry.terms) if (t !== term) synonyms.add(t);
    out.set(term, [...synonyms]);
  }
  return out;
}

/**
 * Multi-word thesaurus entries whose every word is among `terms` ("rate
 * limit" when a task says both): such words name one idea together.
 *
 * @example
 * thesaurusPhrasesIn(["rate", "limit", "api"]); // [["rate", "limit"]]
 */
export function thesaurusPhrasesIn(terms: string[], thesaurus: Thesaurus = loadThesaurus()): string[][] {
  const present = new Set(terms.map((t) => normaliseTerm(t)));
  const phrases = new Map<string, string[]>();
  for (const group of thesaurus.groups) {
    for (const entry of group.entries) {
      if (entry.terms.length > 1 && entry.terms.every((t) => present.has(t))) phrases.set(entry.terms.join(" "), [...entry.terms]);
    }
  }
  return [...phrases.values()];
}
