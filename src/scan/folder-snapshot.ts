/**
 * What one walk read of each plain folder (not through a link), so that the
 * next walk can take a folder unchanged since from it instead of reading
 * it and testing its entries again (rollup, 4,585 folders: a stat each in
 * place of the readdir and the rules on 18,000 entries).
 *
 * A folder's entries are unchanged while its modification and change times
 * are: adding, removing or renaming an entry sets both, and no one can set
 * a change time back. Times within RACY_MS of the walk that saw them are
 * not trusted (a change in the same tick of the file system's clock as the
 * walk's read would leave them as they were: git's "racy" entries).
 */
import { statSync } from "node:fs";
import { folderOf, pathIn } from "../util/folders.js";
import { byCodeUnit } from "../util/sort.js";

/**
 * How long before a read a file's or folder's times must have been set for
 * a later run to trust that they still say what the read saw (a change in
 * the same tick of the file system's clock as the read would leave them as
 * they were: git's "racy" entries): the last walk's start for a folder
 * taken from it, the hash of a file reused on its stat. 2 s covers the
 * coarsest clocks (FAT's).
 */
export const RACY_MS = 2000;

/** Flag of a folder never taken from a snapshot: it holds a link (whose target may change), or it is read as output or unreadable. */
export const NEVER_TAKEN = 1;
/** Flag of a folder holding a .gitignore (read again when the folder is taken: its rules and the ignore key need it). */
export const HAS_GITIGNORE = 2;

export interface FolderSnapshot {
  /** When the walk started (ms since the epoch). */
  startedAt: number;
  /** The key of the ignore rules it read. */
  ignoreKey: string;
  /** Per folder, by path. */
  folders: FolderRecord[];
}

/** [root-relative path ("" the root), mtimeMs, ctimeMs, flags, then the names of its candidate files]. */
export type FolderRecord = [string, number, number, number, ...string[]];

/** A folder's modification and change times (ms). */
export type FolderStamp = readonly [mtimeMs: number, ctimeMs: number];

/** A folder as a walk read it: the names of its candidate files when it was read, its last record when it was taken. */
export interface FolderRead {
  path: string;
  stamp: FolderStamp;
  flags: number;
  names?: string[];
  taken?: FolderRecord;
}

/** The last walk's folders by path, and the subfolders it walked in each. */
export interface LastWalk {
  snapshot: FolderSnapshot;
  byPath: Map<string, FolderRecord>;
  subfolders: Map<string, string[]>;
}

/** A folder's times, or undefined when it cannot be stat'ed. */
export function stampOf(realPath: string): FolderStamp | undefined {
  try {
    const stats = statSync(realPath, { throwIfNoEntry: false });
    return stats ? [stats.mtimeMs, stats.ctimeMs] : undefined;
  } catch {
    return undefined;
  }
}

/** True when the folder may be taken from the last walk: its times are the ones that walk saw, and were not racy then. */
export function isUnchangedSince(last: FolderRecord, stamp: FolderStamp, startedAt: number): boolean {
  const [, mtimeMs, ctimeMs, flags] = last;
  return (flags & NEVER_TAKEN) === 0 && mtimeMs === stamp[0] && ctimeMs === stamp[1] && !isRacy(last, startedAt);
}

/**
 * The last walk's folders made searchable; undefined when the snapshot is
 * not one a walk made (a damaged index): a folder left out of it would not
 * be walked at all.
 *
 * @example
 * lastWalkOf(snapshot)?.subfolders.get("src"); // ["auth", "util"]
 */
export function lastWalkOf(snapshot: FolderSnapshot): LastWalk | undefined {
  if (typeof snapshot !== "object" || snapshot === null || typeof snapshot.startedAt !== "number" || typeof snapshot.ignoreKey !== "string" || !Array.isArray(snapshot.folders)) return undefined;
  if (!snapshot.folders.every(isFolderRecord)) return undefined;
  // made when the walk first asks: a tree taken whole asks neither (babel, 12,946 folders: ~8 ms)
  let made: Omit<LastWalk, "snapshot"> | undefined;
  const maps = () => (made ??= mapsOf(snapshot.folders));
  return {
    snapshot,
    get byPath() {
      return maps().byPath;
    },
    get subfolders() {
      return maps().subfolders;
    },
  };
}

/** The records by path, and the subfolders of each folder (by name). */
function mapsOf(folders: readonly FolderRecord[]): Omit<LastWalk, "snapshot"> {
  const byPath = new Map<string, FolderRecord>();
  const subfolders = new Map<string, string[]>();
  for (const record of folders) {
    const path = record[0];
    byPath.set(path, record);
    if (path === "") continue;
    const parent = folderOf(path);
    let list = subfolders.get(parent);
    if (!list) subfolders.set(parent, (list = []));
    list.push(path.slice(parent === "" ? 0 : parent.length + 1));
  }
  return { byPath, subfolders };
}

/**
 * A walk's snapshot: each folder it walked with the names of its candidate
 * files, in path order (a folder taken unread keeps its last record); and
 * whether it tells the next walk anything the last snapshot did not.
 *
 * @param options.isKept the candidates the rules kept, when they left out some the walk took
 */
export function snapshotOf(
  folders: readonly FolderRead[],
  options: { last: LastWalk | undefined; startedAt: number; ignoreKey: string; isKept?: (path: string) => boolean },
): { snapshot: FolderSnapshot; changed: boolean } {
  const { last, startedAt, ignoreKey, isKept } = options;
  const records = folders.map(({ path, stamp, flags, names, taken }): FolderRecord => {
    if (taken) return taken;
    const kept = isKept ? (names ?? []).filter((name) => isKept(pathIn(path, name))) : (names ?? []);
    return [path, stamp[0], stamp[1], flags, ...kept.sort(byCodeUnit)];
  });
  // unchanged: every folder as the last walk left it, and none that was too close to its start is past this one's
  // (written, this snapshot lets the next walk take it; within 2 s of a change, no walk can)
  const changed =
    !last ||
    last.snapshot.ignoreKey !== ignoreKey ||
    last.byPath.size !== records.length ||
    records.some((record) => !sameRecord(last.byPath.get(record[0]), record) || (isRacy(record, last.snapshot.startedAt) && !isRacy(record, startedAt)));
  // unchanged, the last snapshot is this one (rollup: the sort of 4,585 records not done)
  if (!changed) return { snapshot: last!.snapshot, changed };
  return { snapshot: { startedAt, ignoreKey, folders: records.sort((a, b) => byCodeUnit(a[0], b[0])) }, changed };
}

function isFolderRecord(record: unknown): record is FolderRecord {
  if (!Array.isArray(record) || record.length < 4 || typeof record[0] !== "string" || typeof record[1] !== "number" || typeof record[2] !== "number" || typeof record[3] !== "number") return false;
  for (let i = 4; i < record.length; i++) if (typeof record[i] !== "string" || (record[i] as string).includes("/")) return false;
  return true;
}

function sameRecord(last: FolderRecord | undefined, record: FolderRecord): boolean {
  if (!last || last.length !== record.length) return false;
  for (let i = 0; i < record.length; i++) if (last[i] !== record[i]) return false;
  return true;
}

/** True when a folder's times are too close to a walk's start for a later walk to trust them. */
function isRacy(record: FolderRecord, startedAt: number): boolean {
  return Math.max(record[1], record[2]) >= startedAt - RACY_MS;
}
