/**
 * The term postings of a codebase's facts: which files (numbered in path
 * order) hold each term, in any field and in code, and each file's field
 * lengths and barrel flag. What the lexical index needs of every file, so
 * that a warm query reads it from the index instead of every file's facts.
 *
 * Fields: the file's base name, the folders above it, its definition and
 * export names, its other identifiers, its comments and strings; all but
 * the last are "code". Stored by the index as bytes (encodeTermPostings):
 * the terms sorted, each with its postings, then the per-file arrays.
 */
import type { ParsedFile } from "../types.js";
import { byCodeUnit } from "../util/sort.js";
import { withoutSourceEnding } from "../parse/languages.js";
import { bytesOf, positionOf, unpack } from "../util/packed.js";
import { countTerms } from "../util/terms.js";

/** name: the file's base name; folder: the folders above it. */
export const FIELDS = ["name", "folder", "definitions", "identifiers", "comments"] as const;
export type Field = (typeof FIELDS)[number];

/** Term → a number of files (a document or code frequency). */
export interface TermCounter {
  get(term: string): number | undefined;
  has(term: string): boolean;
}

export interface TermPostings {
  /** Files indexed, in path order (their numbers). */
  readonly paths: readonly string[];
  /** Every term some file holds. */
  terms(): Iterable<string>;
  /** The files holding `term` in any field, ascending; undefined when none does. */
  postings(term: string): ArrayLike<number> | undefined;
  /**
   * How often file `i` holds `term` in each field (FIELDS order), when it
   * holds it at all: what a field's map of the file would say, read
   * without the file's facts.
   */
  countsIn(term: string, i: number): ArrayLike<number> | undefined;
  /** The field counts of all of `term`'s postings, FIELDS.length a posting, in their order. */
  countsOf(term: string): ArrayLike<number> | undefined;
  /** Term → files holding it (any field). */
  readonly documentFrequency: TermCounter;
  /** Term → files holding it in code (names, definitions, identifiers; not comments or strings). */
  readonly codeFrequency: TermCounter;
  /** File `i`'s field lengths (term counts), in FIELDS order. */
  lengths(i: number): readonly number[];
  /** Each field's length summed over every file, in FIELDS order (without a list per file). */
  lengthTotals(): readonly number[];
  /** File `i` is a barrel: it re-exports at least as many modules as it defines things (methods aside). */
  isBarrel(i: number): boolean;
  /** File `i`'s definitions: how many, and how many of them exported. */
  definitionCounts(i: number): readonly [number, number];
}

/** Terms of a path's base name (extension dropped) and of its folders. */
export function pathTerms(path: string): { name: Map<string, number>; folder: Map<string, number> } {
  const slash = path.lastIndexOf("/");
  const name: Record<string, number> = Object.create(null) as Record<string, number>;
  const folder: Record<string, number> = Object.create(null) as Record<string, number>;
  const fileName = path.slice(slash + 1);
  countTerms(name, withoutSourceEnding(fileName) ?? fileName);
  if (slash > 0) countTerms(folder, path.slice(0, slash).replace(/\//g, " "));
  return { name: new Map(Object.entries(name)), folder: new Map(Object.entries(folder)) };
}

function isBarrelFile(file: ParsedFile): boolean {
  const reexports = file.imports.filter((i) => i.kind === "reexport").length;
  return reexports > 0 && reexports >= file.definitions.filter((d) => d.kind !== "method").length;
}

function sum(values: Iterable<number>): number {
  let total = 0;
  for (const v of values) total += v;
  return total;
}

/** A counter over a Map of lists or numbers. */
function counterOf(get: (term: string) => number | undefined): TermCounter {
  return { get, has: (term) => get(term) !== undefined };
}

/**
 * The postings of `files` (any order: numbered by path).
 *
 * @example
 * const postings = buildTermPostings([...codeGraph.files.values()]);
 * postings.documentFrequency.get("token"); // files mentioning "token"
 */
export function buildTermPostings(files: Iterable<ParsedFile>): TermPostings {
  const sorted = [...files].sort((a, b) => byCodeUnit(a.path, b.path));
  const lists = new Map<string, number[]>();
  // per term, FIELDS.length counts per file of its postings
  const counts = new Map<string, number[]>();
  const code = new Map<string, number>();
  const lengths: number[][] = [];
  const barrels: boolean[] = [];
  const definitionCounts: Array<[number, number]> = [];
  sorted.forEach((file, i) => {
    const { vocabulary } = file;
    const add = (field: number, terms: readonly string[], values: readonly number[]) => {
      for (let k = 0; k < terms.length; k++) {
        const term = terms[k]!;
        let list = lists.get(term);
        let perField = counts.get(term);
        if (!list || !perField) {
          lists.set(term, (list = []));
          counts.set(term, (perField = []));
        }
        if (list[list.length - 1] !== i) {
          list.push(i);
          for (let f = 0; f < FIELDS.length; f++) perField.push(0);
          // a file counts once for a term in code: the fields come in order, comments (not code) last, so a term
          // first met in the file in another field is met in code
          if (field < COMMENTS) code.set(term, (code.get(term) ?? 0) + 1);
        }
        perField[perField.length - FIELDS.length + field] = values[k]!;
      }
    };
    const { name, folder } = pathTerms(file.path);
    add(0, [...name.keys()], [...name.values()]);
    add(1, [...folder.keys()], [...folder.values()]);
    add(2, vocabulary.definitions.terms, vocabulary.definitions.counts);
    add(3, vocabulary.identifiers.terms, vocabulary.identifiers.counts);
    add(4, vocabulary.comments.terms, vocabulary.comments.counts);
    lengths.push([sum(name.values()), sum(folder.values()), sum(vocabulary.definitions.counts), sum(vocabulary.identifiers.counts), sum(vocabulary.comments.counts)]);
    barrels.push(isBarrelFile(file));
    definitionCounts.push([file.definitions.length, file.definitions.filter((d) => d.exported).length]);
  });
  return {
    paths: sorted.map((f) => f.path),
    terms: () => lists.keys(),
    postings: (term) => lists.get(term),
    countsIn: (term, i) => {
      const list = lists.get(term);
      const k = list ? positionOf(list, i) : -1;
      return k < 0 ? undefined : (counts.get(term) as number[]).slice(k * FIELDS.length, (k + 1) * FIELDS.length);
    },
    countsOf: (term) => counts.get(term),
    documentFrequency: counterOf((term) => lists.get(term)?.length),
    codeFrequency: counterOf((term) => code.get(term)),
    lengths: (i) => lengths[i] ?? [0, 0, 0, 0, 0],
    lengthTotals: () => FIELDS.map((_, f) => lengths.reduce((total, row) => total + row[f]!, 0)),
    isBarrel: (i) => barrels[i] ?? false,
    definitionCounts: (i) => definitionCounts[i] ?? [0, 0],
  };
}

/** FIELDS' index of comments and strings: the one field that is not code. */
const COMMENTS = FIELDS.indexOf("comments");

/**
 * The postings as arrays, the layout the index stores: terms sorted, each
 * term's postings from `starts[t]` to `starts[t + 1]` of `flat`, and its
 * field counts FIELDS.length a posting at the same offsets of `fieldCounts`.
 */
interface RawPostings {
  paths: readonly string[];
  terms: readonly string[];
  starts: Int32Array;
  flat: Int32Array;
  codeCounts: Int32Array;
  /** FIELDS.length a file. */
  lengths: Int32Array;
  /** 2 a file: definitions, exported. */
  definitions: Int32Array;
  fieldCounts: Int32Array | Uint16Array;
  barrels: Uint8Array;
}

/** The raw layout behind postings this module made from it (decoded or updated): no term looked up again. */
const rawOfView = new WeakMap<TermPostings, RawPostings>();

/** The raw layout of any postings; undefined when a count is not whole (nothing can be stored then). */
function rawOf(postings: TermPostings): RawPostings | undefined {
  const known = rawOfView.get(postings);
  if (known) return known;
  const terms = [...postings.terms()].sort(byCodeUnit);
  const starts = new Int32Array(terms.length + 1);
  let total = 0;
  terms.forEach((term, t) => {
    starts[t] = total;
    total += postings.postings(term)?.length ?? 0;
  });
  starts[terms.length] = total;
  const flat = new Int32Array(total);
  const fieldCounts = new Int32Array(total * FIELDS.length);
  const codeCounts = new Int32Array(terms.length);
  for (let t = 0; t < terms.length; t++) {
    const term = terms[t]!;
    const list = postings.postings(term) ?? [];
    const counts = postings.countsOf(term) ?? [];
    const at = starts[t]!;
    for (let k = 0; k < list.length; k++) flat[at + k] = list[k]!;
    for (let n = 0; n < list.length * FIELDS.length; n++) {
      const c = counts[n] ?? 0;
      // counts are whole by construction (build-vocabulary.ts); one that is not would not survive the integer
      // layout: nothing stored, the postings are built from the facts when read
      if (!Number.isInteger(c) || c < 0 || c > 0x7fffffff) return undefined;
      fieldCounts[at * FIELDS.length + n] = c;
    }
    codeCounts[t] = postings.codeFrequency.get(term) ?? 0;
  }
  const fileCount = postings.paths.length;
  const lengths = new Int32Array(fileCount * FIELDS.length);
  const definitions = new Int32Array(fileCount * 2);
  const barrels = new Uint8Array(fileCount);
  for (let i = 0; i < fileCount; i++) {
    lengths.set(postings.lengths(i), i * FIELDS.length);
    definitions.set(postings.definitionCounts(i), i * 2);
    barrels[i] = postings.isBarrel(i) ? 1 : 0;
  }
  return { paths: postings.paths, terms, starts, flat, codeCounts, lengths, definitions, fieldCounts, barrels };
}

const MAGIC = 0x33505447; // "GTP3", little-endian
const HEAD_INTS = 8;

/**
 * The postings as bytes: a header of counts, then each term's postings
 * start, the postings, each term's code frequency, the files' field
 * lengths and definition counts, each posting's field counts (16 or 32
 * bits), the terms (sorted, UTF-8, newline-separated), the paths and the
 * barrel flags. Empty when a count is not whole.
 *
 * @example
 * decodeTermPostings(encodeTermPostings(postings)); // the same postings
 */
export function encodeTermPostings(postings: TermPostings): Uint8Array {
  const raw = rawOf(postings);
  if (!raw) return new Uint8Array(0);
  const { terms, starts, flat, codeCounts, lengths, definitions, fieldCounts, barrels, paths } = raw;
  let widest = 0;
  for (let n = 0; n < fieldCounts.length; n++) if (fieldCounts[n]! > widest) widest = fieldCounts[n]!;
  const wide = widest > 0xffff;
  const termBytes = Buffer.from(terms.join("\n"), "utf8");
  const pathBytes = Buffer.from(paths.join("\n"), "utf8");
  const counts = wide ? Int32Array.from(fieldCounts) : fieldCounts instanceof Uint16Array ? fieldCounts : Uint16Array.from(fieldCounts);
  const parts: Uint8Array[] = [
    bytesOf(new Int32Array([MAGIC, paths.length, terms.length, flat.length, termBytes.length, pathBytes.length, wide ? 4 : 2, 0])),
    bytesOf(starts),
    bytesOf(flat),
    bytesOf(codeCounts),
    bytesOf(lengths),
    bytesOf(definitions),
    bytesOf(counts),
    // 16-bit counts of an odd number of postings end 2 bytes off a 4-byte boundary: pad
    new Uint8Array(counts.byteLength % 4),
    termBytes,
    pathBytes,
    barrels,
  ];
  return Buffer.concat(parts);
}

/**
 * The postings `encodeTermPostings` wrote, or undefined when the bytes are
 * not that (damaged, another layout).
 */
export function decodeTermPostings(bytes: Uint8Array): TermPostings | undefined {
  const packed = unpack(bytes, HEAD_INTS);
  if (!packed) return undefined;
  const { own } = packed;
  const [magic, fileCount, termCount, total, termLength, pathLength, width] = packed.head as [number, number, number, number, number, number, number];
  if (magic !== MAGIC || (width !== 2 && width !== 4)) return undefined;
  const countBytes = total * FIELDS.length * width;
  const expected = HEAD_INTS * 4 + 4 * (termCount + 1 + total + termCount + fileCount * FIELDS.length + fileCount * 2) + countBytes + (countBytes % 4) + termLength + pathLength + fileCount;
  if (expected !== own.byteLength) return undefined;
  let at = HEAD_INTS * 4;
  const ints = (n: number): Int32Array => {
    const view = new Int32Array(own.buffer, at, n);
    at += n * 4;
    return view;
  };
  const starts = ints(termCount + 1);
  const flat = ints(total);
  const codeCounts = ints(termCount);
  const lengths = ints(fileCount * FIELDS.length);
  const definitions = ints(fileCount * 2);
  const fieldCounts = width === 4 ? new Int32Array(own.buffer, at, total * FIELDS.length) : new Uint16Array(own.buffer, at, total * FIELDS.length);
  at += countBytes + (countBytes % 4);
  const decoder = new TextDecoder();
  const terms = termCount === 0 ? [] : decoder.decode(own.subarray(at, at + termLength)).split("\n");
  at += termLength;
  const paths = fileCount === 0 ? [] : decoder.decode(own.subarray(at, at + pathLength)).split("\n");
  at += pathLength;
  const barrels = own.subarray(at, at + fileCount);
  if (terms.length !== termCount || paths.length !== fileCount) return undefined;
  return viewOf({ paths, terms, starts, flat, codeCounts, lengths, definitions, fieldCounts, barrels });
}

/** Postings read from the raw layout. */
function viewOf(raw: RawPostings): TermPostings {
  const { paths, terms, starts, flat, codeCounts, lengths, definitions, fieldCounts, barrels } = raw;
  // the terms are sorted by code unit: a binary search, no map of every term to build; the terms a query asks
  // for are remembered (it asks for each once a file)
  const asked = new Map<string, number>();
  const numberOf = (term: string): number => {
    let known = asked.get(term);
    if (known === undefined) asked.set(term, (known = positionOf(terms, term)));
    return known;
  };
  const postings = (term: string): Int32Array | undefined => {
    const t = numberOf(term);
    return t < 0 ? undefined : flat.subarray(starts[t]!, starts[t + 1]!);
  };
  const view: TermPostings = {
    paths,
    terms: () => terms,
    postings,
    countsIn: (term, i) => {
      const t = numberOf(term);
      if (t < 0) return undefined;
      const k = positionOf(flat.subarray(starts[t]!, starts[t + 1]!), i);
      const from = (starts[t]! + k) * FIELDS.length;
      return k < 0 ? undefined : fieldCounts.subarray(from, from + FIELDS.length);
    },
    countsOf: (term) => {
      const t = numberOf(term);
      return t < 0 ? undefined : fieldCounts.subarray(starts[t]! * FIELDS.length, starts[t + 1]! * FIELDS.length);
    },
    documentFrequency: counterOf((term) => {
      const t = numberOf(term);
      return t < 0 ? undefined : starts[t + 1]! - starts[t]!;
    }),
    codeFrequency: counterOf((term) => {
      const t = numberOf(term);
      return t < 0 || codeCounts[t] === 0 ? undefined : codeCounts[t];
    }),
    lengths: (i) => Array.from(lengths.subarray(i * FIELDS.length, (i + 1) * FIELDS.length)),
    lengthTotals: () => {
      const totals = FIELDS.map(() => 0);
      for (let k = 0; k < lengths.length; k++) totals[k % FIELDS.length]! += lengths[k]!;
      return totals;
    },
    isBarrel: (i) => barrels[i] === 1,
    definitionCounts: (i) => [definitions[2 * i] ?? 0, definitions[2 * i + 1] ?? 0],
  };
  rawOfView.set(view, raw);
  return view;
}

/**
 * The postings of `files` made from `previous` (postings of an earlier
 * build) and the facts of the files `isFresh` names alone: those whose
 * facts may differ from the ones `previous` was made of (edited, new,
 * renamed). The rest keep their postings, renumbered. The same postings as
 * buildTermPostings(files), without reading any kept file's facts (rollup,
 * 12,724 files: each one's vocabulary parsed from the store, ~0.6 s).
 * Undefined when `previous` cannot be laid out (a count not whole).
 *
 * @example
 * const next = updateTermPostings(stored, parsedFiles, (path) => path === "src/edited.ts");
 */
export function updateTermPostings(previous: TermPostings, files: Iterable<ParsedFile>, isFresh: (path: string) => boolean): TermPostings | undefined {
  const old = rawOf(previous);
  if (!old) return undefined;
  const sorted = [...files].sort((a, b) => byCodeUnit(a.path, b.path));
  const paths = sorted.map((f) => f.path);
  const oldNumber = new Map(old.paths.map((path, i) => [path, i]));
  // each old file's new number, -1 when it is gone or fresh; each fresh file's new number
  const oldToNew = new Int32Array(old.paths.length).fill(-1);
  const freshFiles: ParsedFile[] = [];
  const freshToNew: number[] = [];
  sorted.forEach((file, n) => {
    const i = oldNumber.get(file.path);
    if (i === undefined || isFresh(file.path)) {
      freshFiles.push(file);
      freshToNew.push(n);
    } else oldToNew[i] = n;
  });
  const fresh = rawOf(buildTermPostings(freshFiles)) as RawPostings;
  const F = FIELDS.length;
  const starts: number[] = [];
  const terms: string[] = [];
  const flat = new Int32Array(old.flat.length + fresh.flat.length);
  const fieldCounts = new Int32Array(flat.length * F);
  const codeCounts: number[] = [];
  let total = 0;
  const push = (source: RawPostings, k: number, n: number) => {
    flat[total] = n;
    const from = k * F;
    let code = 0;
    for (let f = 0; f < F; f++) {
      const c = source.fieldCounts[from + f]!;
      fieldCounts[total * F + f] = c;
      if (f < COMMENTS && c > 0) code = 1;
    }
    total++;
    return code;
  };
  let a = 0;
  let b = 0;
  while (a < old.terms.length || b < fresh.terms.length) {
    const ta = old.terms[a];
    const tb = fresh.terms[b];
    const fromOld = ta !== undefined && (tb === undefined || ta <= tb);
    const fromFresh = tb !== undefined && (ta === undefined || tb <= ta);
    const begin = total;
    let code = 0;
    // both lists ascend in the new numbering (kept files keep their order): merge them
    let ka = fromOld ? old.starts[a]! : 0;
    const enda = fromOld ? old.starts[a + 1]! : 0;
    let kb = fromFresh ? fresh.starts[b]! : 0;
    const endb = fromFresh ? fresh.starts[b + 1]! : 0;
    while (ka < enda || kb < endb) {
      while (ka < enda && oldToNew[old.flat[ka]!] === -1) ka++;
      const na = ka < enda ? oldToNew[old.flat[ka]!]! : Infinity;
      const nb = kb < endb ? freshToNew[fresh.flat[kb]!]! : Infinity;
      if (na === Infinity && nb === Infinity) break;
      if (na < nb) code += push(old, ka++, na);
      else code += push(fresh, kb++, nb);
    }
    if (total > begin) {
      terms.push((fromOld ? ta : tb) as string);
      starts.push(begin);
      codeCounts.push(code);
    }
    if (fromOld) a++;
    if (fromFresh) b++;
  }
  starts.push(total);
  const lengths = new Int32Array(paths.length * F);
  const definitions = new Int32Array(paths.length * 2);
  const barrels = new Uint8Array(paths.length);
  const copyFile = (source: RawPostings, i: number, n: number) => {
    lengths.set(source.lengths.subarray(i * F, (i + 1) * F), n * F);
    definitions.set(source.definitions.subarray(2 * i, 2 * i + 2), 2 * n);
    barrels[n] = source.barrels[i]!;
  };
  oldToNew.forEach((n, i) => {
    if (n >= 0) copyFile(old, i, n);
  });
  freshToNew.forEach((n, j) => copyFile(fresh, j, n));
  return viewOf({
    paths,
    terms,
    starts: Int32Array.from(starts),
    flat: flat.subarray(0, total),
    codeCounts: Int32Array.from(codeCounts),
    lengths,
    definitions,
    fieldCounts: fieldCounts.subarray(0, total * F),
    barrels,
  });
}
