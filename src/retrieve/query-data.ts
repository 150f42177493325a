/**
 * The query's language data: the Chinese glossary, the thesaurus and the
 * stopword lists, read from the package's `data/` folder once and checked on
 * load. The files' formats are described in `data/README.md`; a malformed
 * file fails with one line naming the file and the key.
 *
 * @example
 * const glossary = loadGlossary();
 * glossary.entries.get("令牌"); // ["token"]
 */

import { readFileSync } from "node:fs";
import { isAbsolute, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { GraphRetrieveError } from "../errors.js";
import { termsOf } from "../util/terms.js";

/** Chinese programming words → the English keywords they stand for (as written in the data file). */
export interface Glossary {
  readonly entries: ReadonlyMap<string, readonly string[]>;
  /** Length of the longest key, in UTF-16 units: the window of the greedy segmenter. */
  readonly maxKeyLength: number;
}

/** One member of a thesaurus group: as written ("rate limit") and as terms (["rate", "limit"]). */
export interface ThesaurusEntry {
  readonly written: string;
  readonly terms: readonly string[];
}

/** A named group of programming words that stand for one idea. */
export interface ThesaurusGroup {
  readonly name: string;
  readonly entries: readonly ThesaurusEntry[];
}

/** Groups of synonyms, in file order. */
export interface Thesaurus {
  readonly groups: readonly ThesaurusGroup[];
}

/** Words a task says that carry no code meaning. All lower-case as written (not normalised). */
export interface Stopwords {
  /** English function words: dropped everywhere, identifier parts included. */
  readonly english: ReadonlySet<string>;
  /** Task boilerplate (fix, bug, add, support…): dropped from prose, kept inside identifiers. */
  readonly boilerplate: ReadonlySet<string>;
  /** Chinese boilerplate and function words (修复, 添加, 的…), matched by the segmenter. */
  readonly chinese: ReadonlySet<string>;
  readonly maxChineseLength: number;
}

/** The package root: src/retrieve/ and dist/retrieve/ both sit two levels below it. */
const PACKAGE_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** The folder that holds the data files shipped with the package. */
export const DATA_DIR = join(PACKAGE_ROOT, "data");

export const GLOSSARY_FILE = join(DATA_DIR, "glossary-zh.json");
export const THESAURUS_FILE = join(DATA_DIR, "thesaurus.json");
export const STOPWORDS_FILE = join(DATA_DIR, "stopwords.json");
/** The learned ranker for a codebase with git history (trained by `npm run train`, read by retrieve/model/ranker.ts). */
export const RANKER_FILE = join(DATA_DIR, "ranker.bin");
/** The learned ranker for a codebase without history (trained by `npm run train -- --also-without-history`). */
export const RANKER_NO_HISTORY_FILE = join(DATA_DIR, "ranker-no-history.bin");

const HAN_ONLY = /^\p{Script=Han}+$/u;
const FIX_HINT = "fix the entry; data/README.md describes the format";

function labelOf(file: string): string {
  const rel = relative(PACKAGE_ROOT, file);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel.split("\\").join("/") : file;
}

function malformed(source: string, what: string): GraphRetrieveError {
  return new GraphRetrieveError("config", `${source}: ${what} (${FIX_HINT})`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function readJson(file: string): unknown {
  const source = labelOf(file);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (cause) {
    throw new GraphRetrieveError("io", `${source}: cannot be read (reinstall graph-retrieve: the data/ folder ships with it)`, {
      cause,
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new GraphRetrieveError("config", `${source}: not valid JSON: ${reason} (${FIX_HINT})`, { cause });
  }
}

/**
 * Check and index a glossary record `{ "令牌": ["token"], … }`.
 * `source` names the data in error messages.
 *
 * @example
 * createGlossary({ 令牌: ["token"], 过期: ["expire", "expiry"] }).entries.get("过期"); // ["expire", "expiry"]
 */
export function createGlossary(record: unknown, source = "glossary"): Glossary {
  if (!isRecord(record)) throw malformed(source, "must be a JSON object of Chinese word → English keywords");
  const entries = new Map<string, readonly string[]>();
  let maxKeyLength = 0;
  for (const [key, value] of Object.entries(record)) {
    if (!HAN_ONLY.test(key)) throw malformed(source, `key "${key}" must be Chinese characters only`);
    if (!Array.isArray(value) || value.length === 0) {
      throw malformed(source, `key "${key}" must map to a non-empty array of English keywords`);
    }
    for (const keyword of value) {
      if (typeof keyword !== "string" || termsOf(keyword).length === 0) {
        throw malformed(source, `key "${key}" has ${JSON.stringify(keyword)}, not an English keyword`);
      }
    }
    entries.set(key, Object.freeze([...(value as string[])]));
    maxKeyLength = Math.max(maxKeyLength, key.length);
  }
  return { entries, maxKeyLength };
}

/**
 * Check and index a thesaurus record `{ "auth": ["auth", "authentication", "login"], … }`.
 * Each member is stored as written and as its terms (see `termsOf`).
 *
 * @example
 * createThesaurus({ "rate limit": ["rate limit", "throttle"] }).groups[0]?.entries[0]?.terms; // ["rate", "limit"]
 */
export function createThesaurus(record: unknown, source = "thesaurus"): Thesaurus {
  if (!isRecord(record)) throw malformed(source, "must be a JSON object of group name → synonyms");
  const groups: ThesaurusGroup[] = [];
  for (const [name, value] of Object.entries(record)) {
    if (!name.trim()) throw malformed(source, "a group has an empty name");
    if (!Array.isArray(value) || value.length < 2) {
      throw malformed(source, `group "${name}" must be an array of at least 2 synonyms`);
    }
    const entries: ThesaurusEntry[] = [];
    for (const written of value) {
      const terms = typeof written === "string" ? termsOf(written) : [];
      if (terms.length === 0) {
        throw malformed(source, `group "${name}" has ${JSON.stringify(written)}, not a word`);
      }
      entries.push({ written: written as string, terms });
    }
    groups.push({ name, entries });
  }
  return { groups };
}

/**
 * Check a stopword record `{ "english": […], "boilerplate": […], "chinese": […] }`.
 *
 * @example
 * createStopwords({ english: ["the"], boilerplate: ["fix"], chinese: ["修复"] }).boilerplate.has("fix"); // true
 */
export function createStopwords(record: unknown, source = "stopwords"): Stopwords {
  if (!isRecord(record)) throw malformed(source, "must be a JSON object with english, boilerplate and chinese arrays");
  const list = (key: "english" | "boilerplate" | "chinese"): Set<string> => {
    const value = record[key];
    if (!Array.isArray(value)) throw malformed(source, `key "${key}" must be an array of words`);
    const out = new Set<string>();
    for (const word of value) {
      const ok = typeof word === "string" && word.trim() !== "" && (key !== "chinese" || HAN_ONLY.test(word));
      if (!ok) throw malformed(source, `key "${key}" has ${JSON.stringify(word)}, not a ${key === "chinese" ? "Chinese " : ""}word`);
      out.add((word as string).toLowerCase());
    }
    return out;
  };
  const chinese = list("chinese");
  return {
    english: list("english"),
    boilerplate: list("boilerplate"),
    chinese,
    maxChineseLength: Math.max(0, ...[...chinese].map((w) => w.length)),
  };
}

/** Read and check a glossary file (no cache). */
export function readGlossary(file: string): Glossary {
  return createGlossary(readJson(file), labelOf(file));
}

/** Read and check a thesaurus file (no cache). */
export function readThesaurus(file: string): Thesaurus {
  return createThesaurus(readJson(file), labelOf(file));
}

/** Read and check a stopword file (no cache). */
export function readStopwords(file: string): Stopwords {
  return createStopwords(readJson(file), labelOf(file));
}

let glossaryCache: Glossary | undefined;
let thesaurusCache: Thesaurus | undefined;
let stopwordsCache: Stopwords | undefined;

/**
 * The built-in Chinese → English glossary (`data/glossary-zh.json`), read once.
 *
 * @example
 * loadGlossary().entries.get("速率限制"); // ["rate limit", "throttle"]
 */
export function loadGlossary(): Glossary {
  glossaryCache ??= readGlossary(GLOSSARY_FILE);
  return glossaryCache;
}

/**
 * The built-in thesaurus of programming synonyms (`data/thesaurus.json`), read once.
 *
 * @example
 * loadThesaurus().groups.find((g) => g.name === "auth")?.entries.map((e) => e.written);
 */
export function loadThesaurus(): Thesaurus {
  thesaurusCache ??= readThesaurus(THESAURUS_FILE);
  return thesaurusCache;
}

/**
 * The built-in stopword lists (`data/stopwords.json`), read once.
 *
 * @example
 * loadStopwords().boilerplate.has("fix"); // true
 */
export function loadStopwords(): Stopwords {
  stopwordsCache ??= readStopwords(STOPWORDS_FILE);
  return stopwordsCache;
}

/**
 * The built-in glossary with a caller's additions (same record format as
 * `data/glossary-zh.json`); an added key replaces the built-in entry.
 *
 * @example
 * extendGlossary({ 刷新: ["refresh"] }).entries.get("刷新"); // ["refresh"]
 */
export function extendGlossary(additions: unknown, source = "glossary additions", base: Glossary = loadGlossary()): Glossary {
  const added = createGlossary(additions, source);
  if (added.entries.size === 0) return base;
  return { entries: new Map([...base.entries, ...added.entries]), maxKeyLength: Math.max(base.maxKeyLength, added.maxKeyLength) };
}

/**
 * The built-in thesaurus with a caller's groups after it (same record format
 * as `data/thesaurus.json`).
 *
 * @example
 * extendThesaurus({ session: ["session", "login state"] }).groups.at(-1)?.name; // "session"
 */
export function extendThesaurus(additions: unknown, source = "thesaurus additions", base: Thesaurus = loadThesaurus()): Thesaurus {
  const added = createThesaurus(additions, source);
  return added.groups.length === 0 ? base : { groups: [...base.groups, ...added.groups] };
}
