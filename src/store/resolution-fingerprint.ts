/**
 * What import resolution depends on, as one hash: the scanned file set and
 * the config files TypeScript's resolution reads (tsconfig*.json,
 * jsconfig*.json, package.json), and those naming a Python project's
 * package folders (pyproject.toml, setup.cfg, setup.py), in the folders
 * holding scanned files and their ancestors up to the root. Same fingerprint → a file whose import
 * specifiers did not change resolves as before.
 *
 * Not seen (re-index with --no-cache after such a change): packages
 * installed into a node_modules folder under the root, and a tsconfig
 * `extends` target with another name or outside those folders.
 */
import { type Dirent, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { RACY_MS } from "../scan/index.js";
import { hashContent } from "../util/content-hash.js";
import { foldersOf, holdsPathIn, pathIn } from "../util/folders.js";
import { byCodeUnit, isSortedByCodeUnit } from "../util/sort.js";

const CONFIG_NAME = /^(?:(?:ts|js)config.*\.json|package\.json|pyproject\.toml|setup\.cfg|setup\.py)$/i;

/**
 * @param realRoot the root's absolute real path
 * @param filePaths the scanned files, root-relative POSIX, sorted
 * @param configNames the config files of folders already read (see
 *   {@link configFileNames}; the scan's walk reads every folder this needs):
 *   a folder found there is not read again
 * @param everyFolder the names hold every folder of the files (a walk's,
 *   which reads each folder it finds a file in): the folders with no
 *   config file are then not derived from the paths at all
 * @example
 * const before = resolutionFingerprint(root, ["src/a.ts"]);
 * // add a tsconfig "paths" entry → a different fingerprint
 */
export function resolutionFingerprint(
  realRoot: string,
  filePaths: readonly string[],
  configNames?: ReadonlyMap<string, readonly string[]>,
  everyFolder = false,
  configs: { known?: KnownConfigs; found?: ConfigHash[] } = {},
): string {
  const parts: string[] = [`files ${filePaths.length}`, ...filePaths];
  // a walk's names hold every folder of the files: only those with a config file are looked at, not every folder
  // derived from the paths and sorted (rollup, 4,585 folders, 64 with a config file: ~15 ms of a warm query)
  const folders = everyFolder && configNames && isSortedByCodeUnit(filePaths) ? foldersWithConfigs(filePaths, configNames) : foldersOf(filePaths);
  const reading: ConfigReading = {
    known: configs.known ? new Map(configs.known.hashes.map((hash) => [hash[0], hash])) : undefined,
    trustedBefore: (configs.known?.takenAt ?? 0) - RACY_MS,
    found: configs.found,
  };
  // read synchronously: a few small files, where each asynchronous read costs four trips through the thread
  // pool and the event loop (a daemon's refresh on effect spent 1-13 ms here, now ~0.5)
  for (const dir of folders) parts.push(...configsIn(realRoot, dir, configNames?.get(dir), reading));
  return hashContent(parts.join("\n"));
}

/**
 * A config file's content hash as a fingerprint took it, with the stat it
 * had just before: [root-relative path, size, mtimeMs, sha1].
 */
export type ConfigHash = [path: string, size: number, mtimeMs: number, hash: string];

/** The config hashes an earlier fingerprint took, and when it began taking them (ms since the epoch). */
export interface KnownConfigs {
  hashes: readonly ConfigHash[];
  takenAt: number;
}

/** How {@link configsIn} reads: the hashes it may reuse, and where it tells the ones it took. */
interface ConfigReading {
  known?: Map<string, ConfigHash>;
  /** A known hash is reused only for a file last modified before this (ms): see RACY_MS. */
  trustedBefore: number;
  found?: ConfigHash[];
}

/** The folders of `configNames` that name a config file and hold one of the (sorted) files, below them or in them; sorted. */
function foldersWithConfigs(sortedPaths: readonly string[], configNames: ReadonlyMap<string, readonly string[]>): string[] {
  // the root is always among a file set's folders, even when the names lack it (it is then read)
  const folders: string[] = configNames.has("") ? [] : [""];
  for (const [dir, names] of configNames) if (names.length > 0 && (dir === "" || holdsPathIn(sortedPaths, dir))) folders.push(dir);
  return folders.sort(byCodeUnit);
}

/**
 * The names of the config files among a folder's entries, sorted.
 *
 * @example
 * configFileNames(await readdir(dir, { withFileTypes: true })); // ["package.json", "tsconfig.json"]
 */
export function configFileNames(entries: readonly Dirent[]): string[] {
  const names: string[] = [];
  for (const entry of entries) if (CONFIG_NAME.test(entry.name) && entry.isFile()) names.push(entry.name);
  return names.sort();
}

/**
 * `<path> <sha1>` of each config file directly in `dir` (its config file
 * names, when already known). A file with the size and mtime of a hash
 * taken before, modified long enough before that (RACY_MS), is not read
 * again: that hash is its (babel's ~250 config files: ~25 ms of a warm
 * query, read and hashed, against a stat each).
 */
function configsIn(realRoot: string, dir: string, names: readonly string[] | undefined, reading: ConfigReading): string[] {
  // most folders hold no config file: their path is not joined (rollup, 4,585 folders: ~15 ms of a warm query)
  if (names?.length === 0) return [];
  const abs = dir === "" ? realRoot : join(realRoot, dir);
  let found: readonly string[];
  try {
    found = names ?? configFileNames(readdirSync(abs, { withFileTypes: true }));
  } catch {
    return [`${dir}/ unreadable`];
  }
  const out: string[] = [];
  for (const name of found) {
    const path = pathIn(dir, name);
    try {
      const file = join(abs, name);
      const { size, mtimeMs } = statSync(file);
      const known = reading.known?.get(path);
      const hash = known && known[1] === size && known[2] === mtimeMs && mtimeMs < reading.trustedBefore ? known[3] : hashContent(readFileSync(file));
      reading.found?.push([path, size, mtimeMs, hash]);
      out.push(`${path} ${hash}`);
    } catch {
      out.push(`${path} unreadable`);
    }
  }
  return out;
}
