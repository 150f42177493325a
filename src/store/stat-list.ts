/**
 * The paths a warm walk stats, listed for the worker that stats them ahead
 * (scan/stat-ahead.ts): every folder the last walk read, each followed by
 * the candidate files it held, then every other file the index holds;
 * root-relative, one a line ("." the root). Written beside
 * index.json when there are enough of them to pay for a worker, removed
 * when there are not. Only a hint: a list that is stale, damaged or gone
 * makes the walk ask more itself, never answer otherwise.
 */
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { pathIn } from "../util/folders.js";
import { STAT_LIST_FILE } from "../scan/stat-ahead.js";
import { STAT_AHEAD_MIN_PATHS, type FolderSnapshot } from "../scan/index.js";
import { writeFileAtomic } from "./write-atomic.js";

/** What of an index the list is made from: its files by path and its last walk's folders. */
interface Listed {
  files: Record<string, unknown>;
  folders?: { snapshot: FolderSnapshot };
}

export { STAT_LIST_FILE };

/**
 * The list's lines for `store`, or undefined when they are too few for a
 * worker to pay (see STAT_AHEAD_MIN_PATHS).
 *
 * @example
 * statListOf(store); // [".", "src", "src/a.ts", …] or undefined
 */
export function statListOf(store: Listed): string[] | undefined {
  const records = store.folders?.snapshot.folders ?? [];
  const files = Object.keys(store.files);
  if (records.length + files.length < STAT_AHEAD_MIN_PATHS) return undefined;
  // in the order a tree taken whole asks them (scan-files.ts, scanWholeTree): each folder, then the candidate files its
  // record names; then the files no record names (reached through a link)
  const lines: string[] = [];
  const named = new Set<string>();
  for (const record of records) {
    const folder = record[0];
    lines.push(folder === "" ? "." : folder);
    for (let i = 4; i < record.length; i++) {
      const path = pathIn(folder, record[i] as string);
      lines.push(path);
      named.add(path);
    }
  }
  for (const path of files) if (!named.has(path)) lines.push(path);
  // a path holding a line break could not be listed: it is asked by the walk itself
  return lines.filter((path) => !path.includes("\n"));
}

/** Write the list for `store` into the store folder `dir`, or remove one left there when the store is too small for it. */
export async function saveStatList(dir: string, store: Listed): Promise<void> {
  const lines = statListOf(store);
  const path = join(dir, STAT_LIST_FILE);
  if (lines) await writeList(path, lines);
  else await rm(path, { force: true });
}

/**
 * Write the list for `store` when the store folder `dir` has none and the
 * store is large enough for one: an index written before lists were (by an
 * older version) gets it on its next use, not only once something changes.
 */
export async function addMissingStatList(dir: string, store: Listed): Promise<void> {
  if (existsSync(join(dir, STAT_LIST_FILE))) return;
  const lines = statListOf(store);
  if (lines) await writeList(join(dir, STAT_LIST_FILE), lines);
}

function writeList(path: string, lines: readonly string[]): Promise<void> {
  return writeFileAtomic(path, Buffer.from(lines.join("\n"), "utf8"));
}
