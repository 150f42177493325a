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

function indexFile(file: ParsedFile): IndexedFile {
  const { name, folder } = pathTerms(file.path);
  const fields: Record<Field, Map<string, number>> = {
    name,
    folder,
    definitions: mapOfCounts(file.vocabulary.definitions),
    identifiers: mapOfCounts(file.vocabulary.identifiers),
    comments: mapOfCounts(file.vocabulary.comments),
  };
  const lengths = {} as Record<Field, number>;
  for (const field of FIELDS) {
    let length = 0;
    for (const count of fields[field].values()) length += count;
    lengths[field] = length;
  }
  const allTerms: TermSet = {
    has: (term) => fields.identifiers.has(term) || fields.definitions.has(term) || fields.comments.has(term) || fields.name.has(term) || fields.folder.has(term),
  };
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
  const files = [...codeGraph.files.values()].map(indexFile).sort((a, b) => byCodeUnit(a.path, b.path));
  const documentFrequency = new Map<string, number>();
  const codeFrequency = new Map<string, number>();
  const totals = Object.fromEntries(FIELDS.map((f) => [f, 0])) as Record<Field, number>;
  // each term counted once a file: `seen` and `seenInCode` remember the last file that counted it
  const seen = new Map<string, number>();
  const seenInCode = new Map<string, number>();
  files.forEach((file, i) => {
    for (const field of FIELDS) {
      const inCode = field !== "comments";
      for (const term of file.fields[field].keys()) {
        if (seen.get(term) !== i) {
          seen.set(term, i);
          documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
        }
        if (inCode && seenInCode.get(term) !== i) {
          seenInCode.set(term, i);
          codeFrequency.set(term, (codeFrequency.get(term) ?? 0) + 1);
        }
      }
      totals[field] += file.lengths[field];
    }
  });
  const n = Math.max(1, files.length);
  const averageLengths = {} as Record<Field, number>;
  for (const field of FIELDS) averageLengths[field] = Math.max(1, totals[field] / n);
  return { files, byPath: new Map(files.map((f) => [f.path, f])), documentFrequency, codeFrequency, averageLengths };
}
