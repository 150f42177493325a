/**
 * The lexical side of the code graph: per file, term counts in four fields
 * (path, definition/export names, other identifiers, comments and strings),
 * the field lengths, and each term's document frequency. Built once per
 * graph; every scoring signal reads it.
 */
import type { CodeGraph } from "../graph/code-graph.js";
import type { ParsedFile, TermCounts } from "../types.js";
import { byCodeUnit } from "../util/sort.js";
import { countTerms, splitIdentifier, termsOf } from "../util/terms.js";

/** name: the file's base name; folder: the folders above it. */
export const FIELDS = ["name", "folder", "definitions", "identifiers", "comments"] as const;
export type Field = (typeof FIELDS)[number];

export interface IndexedFile {
  path: string;
  tokens: number;
  isDeclaration: boolean;
  isTest: boolean;
  /** Barrel: most of its statements re-export other modules. */
  isBarrel: boolean;
  /** Term counts per field (Maps: a term like "constructor" must never meet Object.prototype). */
  fields: Record<Field, Map<string, number>>;
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
  documentFrequency: Map<string, number>;
  /** Term → number of files holding it in code (names, definitions, identifiers; not comments or strings). */
  codeFrequency: Map<string, number>;
  averageLengths: Record<Field, number>;
}

const TEST_PATH = /(^|\/)(__tests__|__mocks__|tests?|spec|e2e)\/|\.(test|spec|stories|bench)\.[cm]?[jt]sx?$/i;

/** True for test, spec, mock and story files. */
export function isTestPath(path: string): boolean {
  return TEST_PATH.test(path);
}

/** Terms of a path's base name (extension dropped) and of its folders. */
export function pathTerms(path: string): { name: Map<string, number>; folder: Map<string, number> } {
  const slash = path.lastIndexOf("/");
  const name: Record<string, number> = Object.create(null) as Record<string, number>;
  const folder: Record<string, number> = Object.create(null) as Record<string, number>;
  countTerms(name, path.slice(slash + 1).replace(/(\.d)?\.[cm]?[jt]sx?$/i, ""));
  if (slash > 0) countTerms(folder, path.slice(0, slash).replace(/\//g, " "));
  return { name: new Map(Object.entries(name)), folder: new Map(Object.entries(folder)) };
}

function isBarrelFile(file: ParsedFile): boolean {
  const reexports = file.imports.filter((i) => i.kind === "reexport").length;
  return reexports > 0 && reexports >= file.definitions.filter((d) => d.kind !== "method").length;
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

const sum = (values: Iterable<number>): number => {
  let total = 0;
  for (const v of values) total += v;
  return total;
};

/** Is file `i` in a term's postings (ascending file numbers)? */
function holds(postings: readonly number[] | undefined, i: number): boolean {
  if (!postings) return false;
  let lo = 0;
  let hi = postings.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = postings[mid]!;
    if (v === i) return true;
    if (v < i) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** File `i` of the index (files numbered in path order); `postings` lists, per term, the files that hold it. */
function indexFile(file: ParsedFile, i: number, postings: ReadonlyMap<string, number[]>): IndexedFile {
  const fields = fieldsOf(file);
  const { vocabulary } = file;
  const lengths: Record<Field, number> = {
    name: sum(fields.name.values()),
    folder: sum(fields.folder.values()),
    definitions: sum(vocabulary.definitions.counts),
    identifiers: sum(vocabulary.identifiers.counts),
    comments: sum(vocabulary.comments.counts),
  };
  const allTerms: TermSet = { has: (term) => holds(postings.get(term), i) };
  const definedNames = new Set<string>();
  for (const def of file.definitions) definedNames.add(def.name.toLowerCase());
  for (const exp of file.exports) if (exp.name !== "*" && exp.name !== "default") definedNames.add(exp.name.toLowerCase());
  // the file's own name counts as a defined name: src/query-cache.ts defines "queryCache"
  const base = file.path.slice(file.path.lastIndexOf("/") + 1).replace(/(\.d)?\.[cm]?[jt]sx?$/i, "");
  definedNames.add(splitIdentifier(base).join(""));
  let definitionTerms: string[][] | undefined;
  return {
    path: file.path,
    tokens: file.tokens,
    // computed on first use: only REFINE reads it, for the few high files (a warm query on effect built it for
    // all 363 files, ~25 ms of a 0.4 s process)
    get definitionTerms(): string[][] {
      definitionTerms ??= [...new Set(file.definitions.map((d) => d.name))].map((name) => termsOf(name));
      return definitionTerms;
    },
    isDeclaration: file.isDeclaration,
    isTest: isTestPath(file.path),
    isBarrel: isBarrelFile(file),
    fields,
    lengths,
    definedNames,
    allTerms,
  };
}

/**
 * @example
 * const index = buildLexicalIndex(codeGraph);
 * index.documentFrequency.get("token"); // files mentioning "token"
 */
export function buildLexicalIndex(codeGraph: CodeGraph): LexicalIndex {
  const parsed = [...codeGraph.files.values()].sort((a, b) => byCodeUnit(a.path, b.path));
  const postings = new Map<string, number[]>();
  const files = parsed.map((file, i) => indexFile(file, i, postings));
  const documentFrequency = new Map<string, number>();
  const codeFrequency = new Map<string, number>();
  const totals = Object.fromEntries(FIELDS.map((f) => [f, 0])) as Record<Field, number>;
  // each term counted once a file: a file's number joins a term's postings once; `seenInCode` remembers the last file counted in code
  const seenInCode = new Map<string, number>();
  files.forEach((file, i) => {
    const { vocabulary } = parsed[i]!;
    const count = (terms: Iterable<string>, inCode: boolean) => {
      for (const term of terms) {
        let list = postings.get(term);
        if (!list) postings.set(term, (list = []));
        if (list[list.length - 1] !== i) list.push(i);
        if (inCode && seenInCode.get(term) !== i) {
          seenInCode.set(term, i);
          codeFrequency.set(term, (codeFrequency.get(term) ?? 0) + 1);
        }
      }
    };
    count(file.fields.name.keys(), true);
    count(file.fields.folder.keys(), true);
    count(vocabulary.definitions.terms, true);
    count(vocabulary.identifiers.terms, true);
    count(vocabulary.comments.terms, false);
    for (const field of FIELDS) totals[field] += file.lengths[field];
  });
  for (const [term, list] of postings) documentFrequency.set(term, list.length);
  const n = Math.max(1, files.length);
  const averageLengths = {} as Record<Field, number>;
  for (const field of FIELDS) averageLengths[field] = Math.max(1, totals[field] / n);
  return { files, byPath: new Map(files.map((f) => [f.path, f])), documentFrequency, codeFrequency, averageLengths };
}
