/**
 * What the history says of each file that exists now: the files it changed
 * with (co-change), the words of the commits that changed it (its commit
 * vocabulary), how often and how lately it changed. Paths are followed
 * through renames, newest commit first, so a file renamed last year keeps
 * the history of its old name. A commit counts less the older it is
 * (relative to HEAD, so the same history gives the same answer on any day)
 * and the more files it changed: a 40-file refactor says little about any
 * pair.
 */
import { numberedPaths, type HistoryIndex } from "./history-index.js";
import { firstInOrder } from "../util/sort.js";

/** A commit's weight halves every this many days before HEAD. */
export const HALF_LIFE_DAYS = 365;
/** Commits changing more files than this add no co-change pairs (a refactor, a rename sweep). */
export const MAX_COCHANGE_FILES = 40;
/** Co-change partners kept per file, heaviest first. */
export const MAX_PARTNERS = 30;

export interface FileHistory {
  /**
   * The commit vocabulary, kept as an inverted index: term → the commits
   * whose message holds it (newest first). A file's weight for a term is the
   * sum of the weights of those commits that changed it ({@link vocabularyOf}).
   */
  termCommits: { get(term: string): readonly number[] | undefined };
  /** Per commit: its weight in a vocabulary (recency / √files changed; 0 when it changed none of the codebase's files). */
  commitWeight: number[];
  /** path → sum of its terms' weights (the field length). */
  vocabularyLength: FileValues;
  /** Mean vocabulary length over the files with one. */
  averageLength: number;
  /** path → partner → co-change weight (symmetric), the heaviest MAX_PARTNERS. */
  cochange: CochangeRows;
  /** path → its heaviest co-change weight (the first of its row): a share of a partner is its weight over this. */
  cochangeMax: { get(path: string): number | undefined };
  /** path → commits that changed it. */
  changes: FileValues;
  /** path → days between its last change and HEAD. */
  daysSinceChange: FileValues;
  /** Commits in the history. */
  commits: number;
  /** Per commit (newest first): the files of the codebase it changed, its recency weight (1 at HEAD). */
  commitFiles: string[][];
  commitRecency: number[];
  /** term → commits whose message holds it. */
  commitFrequency: { get(term: string): number | undefined };
  /** The history is a shallow clone's, or its read stopped at the time limit. */
  shallow: boolean;
  truncated: boolean;
}

/** A number for each file the history changed, asked by path; iterated in the order the files were first met. */
export interface FileValues extends Iterable<[string, number]> {
  get(path: string): number | undefined;
  readonly size: number;
}

/** One column of numbers by file, looked up through the one map of paths every column shares (rollup: 12,724 files). */
class FileColumn implements FileValues {
  constructor(
    private readonly indexOf: ReadonlyMap<string, number>,
    private readonly paths: readonly string[],
    private readonly values: readonly number[],
  ) {}

  get(path: string): number | undefined {
    const at = this.indexOf.get(path);
    return at === undefined ? undefined : this.values[at];
  }

  get size(): number {
    return this.paths.length;
  }

  *[Symbol.iterator](): Iterator<[string, number]> {
    for (let i = 0; i < this.paths.length; i++) yield [this.paths[i]!, this.values[i]!];
  }
}

/**
 * The co-change rows, each made when first asked for: a query asks for
 * those of its pool's files, and making every row (rollup, 4,267 commits:
 * the pairs of every commit of up to 40 files, then each row sorted) cost
 * each warm query ~0.1 s.
 */
export interface CochangeRows extends Iterable<[string, ReadonlyMap<string, number>]> {
  get(path: string): ReadonlyMap<string, number> | undefined;
}

/** Each commit's files as they are called now, newest commit first (renames followed back in time). */
export function currentPaths(history: HistoryIndex): string[][] {
  const { names, commits } = currentPathIds(history);
  return commits.map((ids) => ids.map((id) => names[id]!));
}

/**
 * {@link currentPaths} by number: every path the commits name, numbered
 * once, and each commit's files as numbers of the names they have now, each
 * once, in the order the commit names them. A history read from the store
 * comes numbered already (its string table): no map from every path
 * (rollup, 62,977 of them: ~15 ms of a warm query).
 */
function currentPathIds(history: HistoryIndex): { names: readonly string[]; commits: number[][]; terms: ReadonlyArray<readonly number[]> } {
  const numbered = numberedPaths(history);
  const { names } = numbered;
  // by number in typed arrays, not maps: a warm query runs this once, in V8's interpreter (rollup: 62,977 paths)
  const alias = new Int32Array(names.length).fill(-1);
  const stamp = new Int32Array(names.length);
  const commits: number[][] = [];
  for (let i = 0; i < history.commits.length; i++) {
    const files: number[] = [];
    const paths = numbered.paths[i]!;
    for (let k = 0; k < paths.length; k++) {
      const raw = paths[k]!;
      const now = alias[raw]! >= 0 ? alias[raw]! : raw;
      if (stamp[now] === i + 1) continue;
      stamp[now] = i + 1;
      files.push(now);
    }
    const renames = numbered.renames[i]!;
    for (let k = 0; k + 1 < renames.length; k += 2) {
      const to = renames[k + 1]!;
      alias[renames[k]!] = alias[to]! >= 0 ? alias[to]! : to;
    }
    commits.push(files);
  }
  return { names, commits, terms: numbered.terms };
}

/**
 * What the pass over every commit finds, as plain numbers and the names of
 * the files it met: all a {@link FileHistory} is made of besides the
 * history's own terms. The store keeps it beside the history
 * (evidence-store.ts), so that a warm query of an unchanged tree makes its
 * evidence without the pass.
 */
export interface EvidenceNumbers {
  /**
   * The codebase's files the history changed, in the order first met (newest
   * commit first), as numbers of the history's string table (see
   * numberedPaths: the same history numbers its strings the same way).
   */
  fileIds: number[];
  /** Per file, as in `fileIds`: the commits that changed it, the days between its last change and HEAD, its vocabulary length. */
  changes: number[];
  days: number[];
  lengths: number[];
  /** Per commit, newest first: where its files start in `commitFiles` (one entry more than commits). */
  commitStarts: number[];
  /** Each commit's files that exist, in the order it names them, as indexes into `fileIds`. */
  commitFiles: number[];
  commitRecency: number[];
  commitWeight: number[];
  /** The files with co-change pairs (indexes into `fileIds`), in the order their first such commit came. */
  paired: number[];
  /** Per file of `paired`: where its commits start in `pairCommits` (one entry more than `paired`). */
  pairStarts: number[];
  /** Each paired file's commits of 2 to MAX_COCHANGE_FILES files, newest first. */
  pairCommits: number[];
}

/**
 * The pass over every commit: each commit's files that exist now, their
 * counts, ages and vocabulary lengths, and the commits that pair them.
 *
 * @param exists which paths are files of the codebase now
 */
export function evidenceNumbers(history: HistoryIndex, exists: (path: string) => boolean): EvidenceNumbers {
  const headTime = history.commits[0]?.time ?? 0;
  // the pass below counts by path number, not by the strings of every commit (rollup, 62,977 paths in 4,267
  // commits: ~0.1 s of string maps a warm query)
  const { names, commits: pathIds, terms: termIds } = currentPathIds(history);
  // per path number: 0 not asked yet, 1 a file of the codebase, 2 not one
  const present = new Uint8Array(names.length);
  // per path number: its index in `fileIds` once met
  const fileIndex = new Int32Array(names.length).fill(-1);
  const numbers: EvidenceNumbers = {
    fileIds: [], changes: [], days: [], lengths: [],
    commitStarts: [0], commitFiles: [], commitRecency: [], commitWeight: [],
    paired: [], pairStarts: [], pairCommits: [],
  };
  // per file (index into fileIds), its commits of 2 to MAX_COCHANGE_FILES files
  const pairs: number[][] = [];
  // plain loops over numbers: the pass runs once a warm query, in V8's interpreter, where a callback a path
  // (filter, map) cost rollup's 62,977 paths ~10 ms more
  for (let i = 0; i < history.commits.length; i++) {
    const commit = history.commits[i]!;
    // the commit's files as they are called now that exist
    const ids = pathIds[i]!;
    const files: number[] = [];
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k]!;
      if (present[id] === 0) present[id] = exists(names[id]!) ? 1 : 2;
      if (present[id] === 1) files.push(id);
    }
    const days = Math.max(0, (headTime - commit.time) / 86400);
    const recency = 0.5 ** (days / HALF_LIFE_DAYS);
    numbers.commitRecency.push(recency);
    const weight = files.length > 0 ? recency / Math.sqrt(files.length) : 0;
    numbers.commitWeight.push(weight);
    // by number: a commit read back from the store need not make its terms' strings
    const termCount = termIds[i]!.length;
    for (const id of files) {
      let file = fileIndex[id]!;
      if (file < 0) {
        fileIndex[id] = file = numbers.fileIds.length;
        numbers.fileIds.push(id);
        numbers.changes.push(0);
        numbers.days.push(days);
        numbers.lengths.push(0);
      }
      numbers.commitFiles.push(file);
      numbers.changes[file]!++;
      numbers.lengths[file]! += weight * termCount;
    }
    numbers.commitStarts.push(numbers.commitFiles.length);
    if (files.length < 2 || files.length > MAX_COCHANGE_FILES) continue;
    for (const id of files) {
      const file = fileIndex[id]!;
      let list = pairs[file];
      if (!list) {
        pairs[file] = list = [];
        numbers.paired.push(file);
      }
      list.push(i);
    }
  }
  for (const file of numbers.paired) {
    numbers.pairStarts.push(numbers.pairCommits.length);
    for (const c of pairs[file]!) numbers.pairCommits.push(c);
  }
  numbers.pairStarts.push(numbers.pairCommits.length);
  return numbers;
}

/**
 * @param exists which paths are files of the codebase now
 *
 * @example
 * const evidence = fileHistory(history, (p) => codeGraph.files.has(p));
 * evidence.cochange.get("src/router.ts"); // Map { "src/history.ts" => 2.4, … }
 */
export function fileHistory(history: HistoryIndex, exists: (path: string) => boolean): FileHistory {
  return evidenceFrom(history, evidenceNumbers(history, exists));
}

/**
 * The evidence made from the pass's numbers (computed now, or stored with
 * the history) and the history's terms.
 */
export function evidenceFrom(history: HistoryIndex, numbers: EvidenceNumbers): FileHistory {
  const { names, terms: termIds } = numberedPaths(history);
  const paths = numbers.fileIds.map((id) => names[id]!);
  const commitFiles: string[][] = [];
  for (let c = 0; c + 1 < numbers.commitStarts.length; c++) {
    const files: string[] = [];
    for (let k = numbers.commitStarts[c]!; k < numbers.commitStarts[c + 1]!; k++) files.push(paths[numbers.commitFiles[k]!]!);
    commitFiles.push(files);
  }
  const { commitRecency, commitWeight } = numbers;
  // the index of each file that exists and changed, the one map by path every per-file column reads: a co-change
  // row is asked by path (a map of every path and term of the table, rollup's 24,798, cost ~8 ms of each warm query)
  const idOfFile = new Map<string, number>();
  let total = 0;
  for (let file = 0; file < paths.length; file++) {
    idOfFile.set(paths[file]!, file);
    total += numbers.lengths[file]!;
  }
  const changes = new FileColumn(idOfFile, paths, numbers.changes);
  const daysSinceChange = new FileColumn(idOfFile, paths, numbers.days);
  const vocabularyLength = new FileColumn(idOfFile, paths, numbers.lengths);
  // per file, its place in numbers.paired (where its pair commits are in numbers.pairCommits), −1 without any; made
  // when the first row is asked (a query asks for its pool's rows only)
  let pairedAt: Int32Array | undefined;
  const placeOf = (file: number): number => {
    if (!pairedAt) {
      pairedAt = new Int32Array(paths.length).fill(-1);
      for (let k = 0; k < numbers.paired.length; k++) pairedAt[numbers.paired[k]!] = k;
    }
    return pairedAt[file]!;
  };
  const rows = new Map<string, Map<string, number>>();
  const rowOf = (file: string): Map<string, number> | undefined => {
    let row = rows.get(file);
    if (row) return row;
    const id = idOfFile.get(file);
    const at = id === undefined ? -1 : placeOf(id);
    if (at < 0) return undefined;
    // each partner's weight summed in commit order, newest first, as the pairs of every commit would add up
    const sums = new Map<string, number>();
    for (let k = numbers.pairStarts[at]!; k < numbers.pairStarts[at + 1]!; k++) {
      const c = numbers.pairCommits[k]!;
      const files = commitFiles[c]!;
      const share = commitRecency[c]! / (files.length - 1);
      for (const b of files) if (b !== file) sums.set(b, (sums.get(b) ?? 0) + share);
    }
    row = new Map(firstInOrder(sums.entries(), MAX_PARTNERS, (x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)));
    rows.set(file, row);
    return row;
  };
  const cochange: CochangeRows = {
    get: rowOf,
    *[Symbol.iterator]() {
      for (const file of numbers.paired) yield [paths[file]!, rowOf(paths[file]!) as Map<string, number>];
    },
  };
  const cochangeMax = {
    get(file: string) {
      const row = rowOf(file);
      return row ? Math.max(0, row.values().next().value ?? 0) : undefined;
    },
  };
  // the commit vocabulary's inverted index, asked term by term: a query asks of its own terms, and an index of every
  // term of every commit (rollup: 37,494) took ~20 ms of each warm query
  const termHits = new Map<string, { commits: number[]; frequency: number }>();
  const hitsOf = (term: string): { commits: number[]; frequency: number } => {
    let hits = termHits.get(term);
    if (!hits) {
      hits = { commits: [], frequency: 0 };
      // the table holds each string once: a query's few terms are looked for in it, not every string mapped
      const n = names.indexOf(term);
      if (n >= 0) {
        for (let i = 0; i < termIds.length; i++) {
          if (!termIds[i]!.includes(n)) continue;
          hits.frequency++;
          if (commitFiles[i]!.length > 0) hits.commits.push(i);
        }
      }
      termHits.set(term, hits);
    }
    return hits;
  };
  const termCommits = {
    get: (term: string) => {
      const { commits } = hitsOf(term);
      return commits.length > 0 ? commits : undefined;
    },
  };
  const commitFrequency = { get: (term: string) => hitsOf(term).frequency || undefined };
  return {
    termCommits,
    commitWeight,
    vocabularyLength,
    averageLength: vocabularyLength.size > 0 ? total / vocabularyLength.size : 1,
    cochange,
    cochangeMax,
    changes,
    daysSinceChange,
    commits: history.commits.length,
    commitFiles,
    commitRecency,
    commitFrequency,
    shallow: history.shallow,
    truncated: history.truncated,
  };
}

/**
 * The commit vocabulary of the files for the given terms only: term → path
 * → weight (the sum of the weights of the commits holding the term that
 * changed the file), and each term's document frequency (files whose
 * vocabulary holds it). What a query needs, without building every file's
 * whole vocabulary.
 *
 * @example
 * vocabularyOf(evidence, ["hydration"]).weights.get("hydration")?.get("src/router.ts"); // 1.9
 */
export function vocabularyOf(evidence: FileHistory, terms: readonly string[]): { weights: Map<string, Map<string, number>>; documentFrequency: Map<string, number> } {
  const weights = new Map<string, Map<string, number>>();
  const documentFrequency = new Map<string, number>();
  for (const term of new Set(terms)) {
    const commits = evidence.termCommits.get(term);
    if (!commits) continue;
    const byFile = new Map<string, number>();
    for (const c of commits) {
      const weight = evidence.commitWeight[c]!;
      for (const file of evidence.commitFiles[c]!) byFile.set(file, (byFile.get(file) ?? 0) + weight);
    }
    weights.set(term, byFile);
    documentFrequency.set(term, byFile.size);
  }
  return { weights, documentFrequency };
}

/** A co-change edge: two files that changed together, and how much (the sum of their commits' discounted weights). */
export interface CochangeEdge {
  source: string;
  target: string;
  weight: number;
}

/** Pairs lighter than this (less than about half of one recent two-file commit) are no edge. */
export const MIN_COCHANGE_WEIGHT = 0.5;

/**
 * The co-change edges among the codebase's files, each pair once
 * (source < target), heaviest first per file as kept by {@link fileHistory}.
 *
 * @example
 * cochangeEdges(fileHistory(history, exists)); // [{ source: "src/a.ts", target: "src/b.ts", weight: 2.1 }, …]
 */
export function cochangeEdges(evidence: FileHistory, minWeight = MIN_COCHANGE_WEIGHT): CochangeEdge[] {
  const edges = new Map<string, CochangeEdge>();
  for (const [a, row] of evidence.cochange) {
    for (const [b, weight] of row) {
      if (weight < minWeight || a === b) continue;
      const [source, target] = a < b ? [a, b] : [b, a];
      const key = `${source}\u0000${target}`;
      if (!edges.has(key)) edges.set(key, { source, target, weight: Math.round(weight * 1000) / 1000 });
    }
  }
  return [...edges.values()].sort((x, y) => (x.source < y.source ? -1 : x.source > y.source ? 1 : x.target < y.target ? -1 : x.target > y.target ? 1 : 0));
}
