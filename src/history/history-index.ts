/**
 * The history index: the last commits of the root's first-parent history,
 * each with its time, the terms of its message and the files it changed,
 * kept in the store folder (`history.json`) and brought up to date
 * incrementally. A HEAD that moved forward adds only the new commits; a
 * history that was rewritten (the old HEAD is no ancestor) is read afresh;
 * a shallow clone reads what it has and says so.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { claimStoreFolder } from "../store/store-folder.js";
import { jsonText, toAsciiJson } from "../store/ascii-json.js";
import { STORE_FORMAT } from "../store/store-header.js";
import { writeFileAtomic } from "../store/write-atomic.js";
import { gitFolderOf, isAncestorOfHead, isShallow, readGitLog, readHead, type GitCommit } from "./git-history.js";
import { messageTerms } from "./message-terms.js";

export const HISTORY_FILE = "history.json";
/**
 * Bumped when what a stored history holds changes: the file is then read afresh (2: strings kept once, see
 * PackedHistory; 3: whether its renames are exact ones only).
 */
const HISTORY_VERSION = 3;

/** One commit of the index. */
export interface IndexedCommit {
  hash: string;
  /** Seconds since the epoch. */
  time: number;
  /** The terms of its message, each once (util/terms.ts terms, Chinese by the glossary and as character pairs). */
  terms: string[];
  /** Changed paths as they were in this commit; renames as [old, new]. */
  paths: string[];
  renames: Array<[string, string]>;
}

export interface HistoryIndex {
  head: string;
  /** Newest first. */
  commits: IndexedCommit[];
  /** A shallow clone: the history ends where the clone does. */
  shallow: boolean;
  /** The last read stopped at its time limit: older commits are missing. */
  truncated: boolean;
  /**
   * Its renames are exact ones only: git could not read a blob somewhere in
   * the range read (a partial or size-filtered clone), so it could not
   * compare contents. Commits added later are read the same way, so that the
   * history is the one a fresh read from the same HEAD gives, whatever the
   * HEADs it was brought up to date from.
   */
  exactRenames: boolean;
}

/** What one refresh did. */
export interface HistoryRead {
  /** Commits read from git this time (0 when HEAD had not moved). */
  read: number;
  /** "fresh" (read from scratch), "added" (commits new since the indexed HEAD), "kept" (nothing new). */
  how: "fresh" | "added" | "kept";
  /** Wall time of the refresh, ms (beside a graph's build: not counting the wait for its end). */
  ms: number;
}

export interface HistoryOptions {
  /** At most this many commits (default 5000). */
  maxCommits?: number;
  /** A read stops after this long, keeping what arrived (default 3000 ms). */
  timeoutMs?: number;
  /** The store folder (none: read every time, write nothing). */
  cacheDir?: string;
  /** The index of an earlier refresh in this process (a resident process keeps it). */
  previous?: HistoryIndex;
  /**
   * The graph's build this refresh runs beside, settling true once the
   * graph is built and its index written (false: it failed). git reads the
   * log on the other core while the build scans and parses; the time limit
   * counts from the build's end (it bounds the wait the history adds), the
   * history is written only after the graph's index (whose write claims the
   * folder), and a failed build abandons the read (undefined).
   */
  graphBuilt?: Promise<boolean>;
}

export const DEFAULT_MAX_COMMITS = 5000;
export const DEFAULT_HISTORY_TIMEOUT_MS = 3000;

function toIndexed(commit: GitCommit): IndexedCommit {
  return { hash: commit.hash, time: commit.time, terms: messageTerms(commit.message), paths: commit.paths, renames: commit.renames };
}

/**
 * history.json's form of the index: every path and term once, in `strings`,
 * and each commit as `[hash, time, term numbers, path numbers, renames as
 * pairs of numbers]`. Rollup's 4,267 commits: 5.2 MB of JSON parsed in
 * ~30 ms, against 2.4 MB in ~13 ms; and the commits then share each path's
 * one string, whose hash a map computes once.
 */
interface PackedHistory {
  head: string;
  shallow: boolean;
  truncated: boolean;
  exactRenames: boolean;
  strings: string[];
  commits: Array<[string, number, number[], number[], number[]]>;
}

/** The index in history.json's form. */
function packHistory(history: HistoryIndex): PackedHistory {
  const strings: string[] = [];
  const numbers = new Map<string, number>();
  const numberOf = (text: string): number => {
    let n = numbers.get(text);
    if (n === undefined) {
      numbers.set(text, (n = strings.length));
      strings.push(text);
    }
    return n;
  };
  const commits = history.commits.map((c): PackedHistory["commits"][number] => [c.hash, c.time, c.terms.map(numberOf), c.paths.map(numberOf), c.renames.flatMap(([from, to]) => [numberOf(from), numberOf(to)])]);
  return { head: history.head, shallow: history.shallow, truncated: history.truncated, exactRenames: history.exactRenames, strings, commits };
}

/**
 * A history's paths and terms by number: `names[n]` is path or term n; per
 * commit, the numbers of the paths it changed, its renames as [from, to,
 * from, to…] and its terms.
 */
export interface NumberedPaths {
  names: readonly string[];
  paths: ReadonlyArray<readonly number[]>;
  renames: ReadonlyArray<readonly number[]>;
  /** Per commit, the numbers of its message's terms (in the same table: `names[n]` is term n). */
  terms: ReadonlyArray<readonly number[]>;
}

/** The numbers of each history's paths (a history read from the store: its string table's), by the history they number. */
const storedNumbers = new WeakMap<HistoryIndex, NumberedPaths>();

/**
 * A history's paths by number: as history.json numbers them when it was read
 * from there, else numbered now the same way (once per history).
 */
export function numberedPaths(history: HistoryIndex): NumberedPaths {
  let numbered = storedNumbers.get(history);
  if (!numbered) {
    numbered = numbersOf(packHistory(history));
    storedNumbers.set(history, numbered);
  }
  return numbered;
}

function numbersOf(packed: PackedHistory): NumberedPaths {
  return { names: packed.strings, paths: packed.commits.map((c) => c[3]), renames: packed.commits.map((c) => c[4]), terms: packed.commits.map((c) => c[2]) };
}

/** {@link packHistory} undone; undefined when the form is not one it wrote. */
function unpackHistory(packed: PackedHistory): HistoryIndex | undefined {
  const { strings } = packed;
  if (typeof packed.head !== "string" || !Array.isArray(strings) || !Array.isArray(packed.commits)) return undefined;
  const text = (n: number): string => {
    const found = strings[n];
    if (typeof found !== "string") throw new RangeError("history.json: a number names no string");
    return found;
  };
  try {
    const commits = packed.commits.map(([hash, time, terms, paths, renames]): IndexedCommit => {
      const pairs: Array<[string, string]> = [];
      for (let i = 0; i + 1 < renames.length; i += 2) pairs.push([text(renames[i]!), text(renames[i + 1]!)]);
      return { hash, time, terms: terms.map(text), paths: paths.map(text), renames: pairs };
    });
    const history: HistoryIndex = { head: packed.head, commits, shallow: packed.shallow === true, truncated: packed.truncated === true, exactRenames: packed.exactRenames === true };
    // checked above: every number names a string
    storedNumbers.set(history, numbersOf(packed));
    return history;
  } catch {
    return undefined; // damaged: read afresh
  }
}

async function loadStored(cacheDir: string): Promise<HistoryIndex | undefined> {
  try {
    // the bytes decoded at once, as one-byte text (store/ascii-json.ts; read with an encoding, the text came in chunks
    // through a decoder, joined: babel's 5 MB ~65-120 ms decoded and parsed, against ~30)
    const parsed = JSON.parse(jsonText(await readFile(join(cacheDir, HISTORY_FILE)))) as { header?: { format?: string; version?: number }; history?: PackedHistory };
    if (parsed.header?.format !== STORE_FORMAT || parsed.header.version !== HISTORY_VERSION || typeof parsed.history !== "object" || parsed.history === null) return undefined;
    return unpackHistory(parsed.history);
  } catch {
    return undefined;
  }
}

async function saveStored(cacheDir: string, history: HistoryIndex): Promise<void> {
  await claimStoreFolder(cacheDir, [HISTORY_FILE]);
  // the header first, so that the folder's guard knows the file for ours (store-folder.ts)
  const packed = packHistory(history);
  // the same numbers serve the file evidence later (no second packing)
  if (!storedNumbers.has(history)) storedNumbers.set(history, numbersOf(packed));
  // ASCII JSON (a character past U+007F as a \u escape), which reads back as one-byte text (see loadStored)
  await writeFileAtomic(join(cacheDir, HISTORY_FILE), Buffer.from(toAsciiJson({ header: { format: STORE_FORMAT, kind: "history", version: HISTORY_VERSION }, history: packed }), "latin1"));
}

/**
 * The root's history index, refreshed: undefined when the root has no
 * history to read (no `.git` folder in it, no git, an empty repository).
 *
 * @example
 * const refreshed = await refreshHistory("/repo", { cacheDir });
 * refreshed?.history.commits.length; // up to 5000
 */
export async function refreshHistory(root: string, options: HistoryOptions = {}): Promise<{ history: HistoryIndex; read: HistoryRead } | undefined> {
  const started = performance.now();
  const { graphBuilt } = options;
  const gitDir = await gitFolderOf(root);
  if (!gitDir) return undefined;
  const head = await readHead(gitDir);
  if (!head) return undefined;
  const maxCommits = options.maxCommits ?? DEFAULT_MAX_COMMITS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_HISTORY_TIMEOUT_MS;
  const known = options.previous ?? (options.cacheDir ? await loadStored(options.cacheDir) : undefined);
  const finish = async (history: HistoryIndex, read: number, how: HistoryRead["how"]) => {
    const waitFrom = performance.now();
    if (graphBuilt && !(await graphBuilt)) return undefined;
    const waited = performance.now() - waitFrom;
    if (options.cacheDir && how !== "kept") await saveStored(options.cacheDir, history).catch(() => undefined);
    return { history, read: { read, how, ms: Math.round(performance.now() - started - waited) } };
  };
  if (known && known.head === head) return finish(known, 0, "kept");
  const shallow = await isShallow(gitDir);
  const startClock = graphBuilt ? { startClock: graphBuilt } : {};
  let exactRenames = false;
  if (known && (await isAncestorOfHead(root, known.head, timeoutMs, graphBuilt))) {
    const log = await readGitLog(root, { maxCommits, timeoutMs, after: known.head, exactRenames: known.exactRenames, ...startClock });
    // new commits that could only be read with exact renames, after commits read with all: the whole range again
    // the one way (a fresh read from HEAD falls back for the whole range too)
    const sameWay = log !== undefined && !log.truncated && log.exactRenames === known.exactRenames;
    // a history read with exact renames whose oldest commits leave its window: the commit that made it fall back may
    // be among them, and a fresh read from HEAD would then find all renames (read afresh, all renames tried first)
    const slides = known.exactRenames && log !== undefined && log.commits.length + known.commits.length > maxCommits;
    if (sameWay && !slides) {
      const added = log.commits.map(toIndexed);
      const commits = [...added, ...known.commits].slice(0, maxCommits);
      return finish({ head, commits, shallow, truncated: known.truncated, exactRenames: known.exactRenames }, added.length, "added");
    }
    exactRenames = !slides && log?.exactRenames === true;
  }
  const log = await readGitLog(root, { maxCommits, timeoutMs, exactRenames, ...startClock });
  if (!log) return undefined;
  return finish({ head, commits: log.commits.map(toIndexed), shallow, truncated: log.truncated, exactRenames: log.exactRenames }, log.commits.length, "fresh");
}
