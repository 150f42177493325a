/**
 * The lexical side of the code graph: per file, term counts in four fields
 * (path, definition/export names, other identifiers, comments and strings),
 * the field lengths, and each term's document frequency. Built once per
 * graph; every scoring signal reads it.
 */
import type { CodeGraph } from "../graph/code-graph.js";
import { FIELDS, pathTerms, type Field, type TermCounter, type TermPostings } from "../graph/term-postings.js";
import type { ParsedFile, TermCounts } from "../types.js";
import { withoutSourceEnding } from "../parse/languages.js";
import { positionOf } from "../util/packed.js";
import { splitIdentifier, termsOf } from "../util/terms.js";

export { FIELDS, type Field } from "../graph/term-postings.js";

/** Each field's place in FIELDS (and in a file's termCounts). */
export const FIELD_INDEX = Object.fromEntries(FIELDS.map((field, i) => [field, i])) as Record<Field, number>;

export interface IndexedFile {
  path: string;
  tokens: number;
  isDeclaration: boolean;
  isTest: boolean;
  /** Under a folder of vendored third-party code (`_vendor/`, `third_party/`): see {@link isVendoredPath}. */
  isVendored: boolean;
  /** Barrel: most of its statements re-export other modules. */
  isBarrel: boolean;
  /** Its definitions: how many, and how many exported. */
  definitionCounts: readonly [number, number];
  /** Term counts per field (Maps: a term like "constructor" must never meet Object.prototype). */
  fields: Record<Field, Map<string, number>>;
  /** How often the file holds `term` in each field (FIELDS order), when it holds it: `fields` without reading the file's facts. */
  termCounts(term: string): ArrayLike<number> | undefined;
  lengths: Record<Field, number>;
  /** Names defined or exported here, lower-cased, for exact identifier matches. */
  definedNames: Set<string>;
  /** The terms of each definition name (`issueRefreshToken` → issu, refresh, token), for co-occurrence. */
  definitionTerms: string[][];
  /** Every term of the file (any field). */
  allTerms: TermSet;
}

/** Membership in a file's terms, answered from its field maps (no set of its own to build). */
export interface TermSet {
  has(term: string): boolean;
}

export interface LexicalIndex {
  files: IndexedFile[];
  byPath: Map<string, IndexedFile>;
  /** Term → number of files holding it (any field). */
  documentFrequency: TermCounter;
  /** Term → number of files holding it in code (names, definitions, identifiers; not comments or strings). */
  codeFrequency: TermCounter;
  averageLengths: Record<Field, number>;
  /** 1 for each file (in `files` order) holding at least one of `terms` (any field), read from the postings. */
  holdingAny(terms: Iterable<string>): Uint8Array;
  /** True when some file's folders hold every one of `terms` (none: false), read from the postings. */
  folderHoldsAll(terms: readonly string[]): boolean;
}

const TEST_PATH = /(^|\/)(__tests__|__mocks__|tests?|spec|e2e)\/|\.(test|spec|stories|bench)\.[cm]?[jt]sx?$/i;

/** Python's test files by name, as pytest collects them (`test_*.py`, `*_test.py`) and its `conftest.py`, in any folder. */
const PYTHON_TEST_NAME = /(^|\/)(test_[^/]*|[^/]*_test|conftest)\.pyi?$/i;

/** True for test, spec, mock and story files. */
export function isTestPath(path: string): boolean {
  return TEST_PATH.test(path) || PYTHON_TEST_NAME.test(path);
}

/**
 * Folders that, by convention, hold a copy of someone else's code: `vendor`,
 * `_vendor`, `vendored`, `third_party` (and `third-party`, `thirdparty`).
 * A change to the project seldom edits them (they are replaced whole when
 * the copy is updated), and the benchmarks' gold leaves them out by rule
 * (../shared/bench/train/README.md, train-python/README.md). Ranked, they
 * crowd out the project's own files: pip's `src/pip/_vendor/rich/*.py`
 * took all of the first 5 places for "Use rich.traceback with debug mode".
 */
const VENDORED_PATH = /(^|\/)(_?vendor|vendored|third[-_]?party)\//i;

/** True for a file under a vendored third-party folder. */
export function isVendoredPath(path: string): boolean {
  return VENDORED_PATH.test(path);
}

/** Parallel term and count arrays as a Map, in their order. */
function mapOfCounts({ terms, counts }: TermCounts): Map<string, number> {
  const map = new Map<string, number>();
  for (let i = 0; i < terms.length; i++) map.set(terms[i] as string, counts[i] as number);
  return map;
}

/** A file's field maps: the path's two made now, the vocabulary's three on first read (most files never meet a query term). */
function fieldsOf(file: ParsedFile): Record<Field, Map<string, number>> {
  const { name, folder } = pathTerms(file.path);
  let definitions: Map<string, number> | undefined;
  let identifiers: Map<string, number> | undefined;
  let comments: Map<string, number> | undefined;
  return {
    name,
    folder,
    get definitions() {
      return (definitions ??= mapOfCounts(file.vocabulary.definitions));
    },
    get identifiers() {
      return (identifiers ??= mapOfCounts(file.vocabulary.identifiers));
    },
    get comments() {
      return (comments ??= mapOfCounts(file.vocabulary.comments));
    },
  };
}

/**
 * File `i` of the index (files numbered in path order), as `postings` list
 * it. A class, not an object of getters and closures: rollup's 12,724 files
 * made ~12 closures each on every warm query (~40 ms and their garbage); its
 * getters and methods now live once, on the prototype.
 */
class IndexFileView implements IndexedFile {
  readonly path: string;
  readonly tokens: number;
  readonly isDeclaration: boolean;
  readonly #file: ParsedFile;
  readonly #i: number;
  readonly #postings: TermPostings;
  #isTest: boolean | undefined;
  #isVendored: boolean | undefined;
  #lengths: Record<Field, number> | undefined;
  #definitionCounts: readonly [number, number] | undefined;
  #fields: Record<Field, Map<string, number>> | undefined;
  #definedNames: Set<string> | undefined;
  #definitionTerms: string[][] | undefined;
  #allTerms: TermSet | undefined;

  constructor(file: ParsedFile, i: number, postings: TermPostings) {
    this.path = file.path;
    this.tokens = file.tokens;
    this.isDeclaration = file.isDeclaration;
    this.#file = file;
    this.#i = i;
    this.#postings = postings;
  }

  // read for the files a query scores, not made for every file (rollup: 12,724 lists and records a warm run)
  get lengths(): Record<Field, number> {
    if (!this.#lengths) {
      const [name, folder, definitions, identifiers, comments] = this.#postings.lengths(this.#i) as [number, number, number, number, number];
      this.#lengths = { name, folder, definitions, identifiers, comments };
    }
    return this.#lengths;
  }

  get isTest(): boolean {
    return (this.#isTest ??= isTestPath(this.path));
  }

  get isVendored(): boolean {
    return (this.#isVendored ??= isVendoredPath(this.path));
  }

  get isBarrel(): boolean {
    return this.#postings.isBarrel(this.#i);
  }

  get definitionCounts(): readonly [number, number] {
    return (this.#definitionCounts ??= this.#postings.definitionCounts(this.#i));
  }

  // the field maps, the defined names and the definitions' terms are made on first read: they read the file's
  // heavy facts, which a warm run reads from the index only for the files a query looks at
  get fields(): Record<Field, Map<string, number>> {
    return (this.#fields ??= fieldsOf(this.#file));
  }

  get definedNames(): Set<string> {
    return (this.#definedNames ??= definedNamesOf(this.#file));
  }

  // only REFINE reads it, for the few high files (a warm query on effect built it for all 363 files, ~25 ms of a 0.4 s process)
  get definitionTerms(): string[][] {
    return (this.#definitionTerms ??= [...new Set(this.#file.definitions.map((d) => d.name))].map((name) => termsOf(name)));
  }

  termCounts(term: string): ArrayLike<number> | undefined {
    return this.#postings.countsIn(term, this.#i);
  }

  get allTerms(): TermSet {
    const postings = this.#postings;
    const i = this.#i;
    return (this.#allTerms ??= {
      has: (term) => {
        const list = postings.postings(term);
        return list !== undefined && positionOf(list, i) >= 0;
      },
    });
  }
}

/** Names defined or exported in a file, lower-cased, and its own name (src/query-cache.ts defines "queryCache"). */
function definedNamesOf(file: ParsedFile): Set<string> {
  const names = new Set<string>();
  for (const def of file.definitions) names.add(def.name.toLowerCase());
  for (const exp of file.exports) if (exp.name !== "*" && exp.name !== "default") names.add(exp.name.toLowerCase());
  const fileName = file.path.slice(file.path.lastIndexOf("/") + 1);
  const base = withoutSourceEnding(fileName) ?? fileName;
  names.add(splitIdentifier(base).join(""));
  return names;
}

/**
 * @example
 * const index = buildLexicalIndex(codeGraph);
 * index.documentFrequency.get("token"); // files mentioning "token"
 */
export function buildLexicalIndex(codeGraph: CodeGraph): LexicalIndex {
  const postings = codeGraph.postings;
  const files: IndexedFile[] = postings.paths.map((path, i) => new IndexFileView(codeGraph.files.get(path) as ParsedFile, i, postings));
  const byPath = new Map<string, IndexedFile>();
  for (const file of files) byPath.set(file.path, file);
  const totals = Object.fromEntries(FIELDS.map((f) => [f, 0])) as Record<Field, number>;
  postings.lengthTotals().forEach((total, f) => (totals[FIELDS[f]!] = total));
  const n = Math.max(1, files.length);
  const holdingAny = (terms: Iterable<string>): Uint8Array => {
    const held = new Uint8Array(files.length);
    for (const term of new Set(terms)) {
      const list = postings.postings(term);
      if (!list) continue;
      for (let k = 0; k < list.length; k++) held[list[k] as number] = 1;
    }
    return held;
  };
  // the rarest term's files, each asked for the others in its folder field: no file's path is split into terms (a
  // scoped task on babel split all 17,601 paths, ~140 ms of a warm query)
  const folderHoldsAll = (terms: readonly string[]): boolean => {
    let rarest: ArrayLike<number> | undefined;
    for (const term of terms) {
      const list = postings.postings(term);
      if (!list) return false;
      if (!rarest || list.length < rarest.length) rarest = list;
    }
    if (!rarest) return false;
    for (let k = 0; k < rarest.length; k++) {
      const i = rarest[k] as number;
      if (terms.every((term) => (postings.countsIn(term, i)?.[FIELD_INDEX.folder] ?? 0) > 0)) return true;
    }
    return false;
  };
  const averageLengths = {} as Record<Field, number>;
  for (const field of FIELDS) averageLengths[field] = Math.max(1, totals[field] / n);
  return {
    files,
    byPath,
    documentFrequency: postings.documentFrequency,
    codeFrequency: postings.codeFrequency,
    averageLengths,
    holdingAny,
    folderHoldsAll,
  };
}
