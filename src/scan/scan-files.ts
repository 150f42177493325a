/**
 * The scan stage: a root folder → the source files under it, sorted by path.
 *
 * The walk reads folders with `readdir(withFileTypes)` and touches each kept
 * file once (open, fstat, read its first 8 KiB, close; inline, in batches
 * with a yield to the event loop between them). Given the last walk's
 * snapshot (an index keeps it), a folder whose modification and change
 * times are those the last walk saw, more than 2 s before that walk began,
 * is taken from it instead: its entries are the same, so are its candidate
 * files and the subfolders walked (its files are still stat'ed: a file's
 * content can change without its folder). It leaves out, in this order:
 * 1. default excludes (dependencies, build output, caches, VCS folders,
 *    minified / bundled / generated-by-name files; a `build` folder only when
 *    its entries look like output; see default-excludes.ts),
 * 2. paths the .gitignore files leave out (nested files, negations),
 * 3. paths an `exclude` glob matches, or no `include` glob matches,
 * 4. files that are not TypeScript / JavaScript sources,
 * and then, with one `skipped` diagnostic each: files over `maxFileBytes`,
 * binary files, files whose header marks them generated, unreadable files
 * and folders, broken symlinks and symlinks that point outside the root
 * (and one `warning` per .gitignore that cannot be read).
 *
 * Symlinks: a link is resolved to its real path; one leading out of the root
 * is never followed, a folder is walked once however many links lead to it
 * (so link cycles end), and a file reached twice is kept once, under its
 * plain path when it has one, else under the first link path in sort order.
 * Linked folders are walked after the plain tree, one at a time in path
 * order, so the result does not depend on timing.
 *
 * @example
 * const { root, files, diagnostics } = await scanFiles("./my-app", {
 *   exclude: ["**\/*.test.ts"],
 *   maxFileBytes: 512 * 1024,
 * });
 * files[0]; // { path: "src/index.ts", absPath: "/home/me/my-app/src/index.ts", size: 812, … }
 */
import { lstatSync, readdirSync, readFileSync, type Dirent, type Stats } from "node:fs";
import { readdir, readFile, realpath, stat } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import { RootError, UsageError } from "../errors.js";
import { isDeclarationPath, LANGUAGES, languageForPath, languageRowForPath } from "../parse/languages.js";
import type { Diagnostic, ScannedFile, ScanOptions, ScanResult } from "../types.js";
import { isExcludedDirName, isExcludedFileName, isReopenableDirName, looksLikeBuildOutput, OUTPUT_DIR_NAMES } from "./default-excludes.js";
import { BINARY_CHECK_BYTES, type FileHead, generatedMarkerOfHead, isBinaryHead, readFileHeadSync } from "./file-head.js";
import { createIgnoreLevel, type IgnoreLevel, isIgnored } from "./gitignore-rules.js";
import { createPathFilter, type PathFilter } from "./path-filter.js";
import type { StatsAhead } from "./stat-ahead.js";
import { hashContent } from "../util/content-hash.js";
import { folderOf, pathIn } from "../util/folders.js";
import { byCodeUnit as compareStrings } from "../util/sort.js";
import { HAS_GITIGNORE, isUnchangedSince, lastWalkOf, NEVER_TAKEN, snapshotOf, stampOf, type FolderRead, type FolderRecord, type FolderSnapshot, type FolderStamp, type LastWalk } from "./folder-snapshot.js";
import {
  errorCodeOf,
  skippedBinary,
  skippedBrokenSymlink,
  skippedGenerated,
  skippedSymlinkOutside,
  skippedTooLarge,
  skippedUnreadable,
  unreadableGitignore,
} from "./skip-diagnostics.js";

/** Files larger than this are skipped unless the caller raises `maxFileBytes` (1 MiB). */
export const DEFAULT_MAX_FILE_BYTES = 1_048_576;

/** Files whose heads are read between two yields to the event loop (a few ms of work). */
const FILES_PER_BATCH = 256;

/** A folder to walk. */
interface DirTask {
  /** Root-relative POSIX path ("" for the root). */
  path: string;
  /** Real absolute path on disk. */
  realPath: string;
  /** .gitignore rules that apply to its entries, root first. */
  levels: readonly IgnoreLevel[];
  /** True when the folder or one of its ancestors matched an include glob (or there are none). */
  isIncluded: boolean;
  /** True when reached through a symlink. */
  viaLink: boolean;
}

/** A file that passed every name rule, before its head is read. */
interface Candidate {
  path: string;
  realPath: string;
  viaLink: boolean;
  /** Taken without asking the .gitignore rules (see ScanHints.ignoreKey): these levels decide if the rules changed. */
  untested?: readonly IgnoreLevel[];
}

interface WalkState {
  /** The root as the caller wrote it: for error messages. */
  rootArg: string;
  /** Real absolute root. */
  root: string;
  filter: PathFilter;
  /** Real paths of folders already walked (or being walked). */
  visitedDirs: Set<string>;
  /** Folders reached through a symlink, walked after the plain tree. */
  linkedDirs: DirTask[];
  candidates: Candidate[];
  diagnostics: Diagnostic[];
  /** See {@link ScanHints.onCandidates}. */
  onCandidates?: (count: number) => void;
  /** See {@link ScanHints.onFolder}. */
  onFolder?: (path: string, entries: readonly Dirent[] | undefined) => void;
  /** See {@link ScanHints.known}. */
  known?: (path: string) => KnownFile | undefined;
  /** See {@link ScanHints.ignoreKey}: the folders holding a known file, when the rules may be trusted as before. */
  knownFolders?: { has(path: string): boolean };
  /** Each ignore file read (its root-relative path, then its text), for the key of the rules. */
  ignoreTexts: string[];
  /** Folders taken without asking the rules, with the levels that would have decided. */
  untestedDirs: Array<{ path: string; levels: readonly IgnoreLevel[] }>;
  /** The last walk's folders, when the caller gave them (see ScanHints.folders). */
  lastWalk?: LastWalk;
  /** This walk's folders, as read (kept when the caller asked for them). */
  folders?: FolderRead[];
  /** Folders taken from the last walk without reading them. */
  foldersTaken: number;
  /** See {@link ScanHints.ahead}. */
  ahead?: StatsAhead;
}

/**
 * List the source files under `root`: see the module comment for the rules.
 * Throws {@link RootError} when the root is missing, not a folder or
 * unreadable, and {@link UsageError} for a bad option; every other problem
 * becomes a diagnostic.
 *
 * @example
 * const result = await scanFiles("/repo", { include: ["src/**"] });
 * result.files.map((f) => f.path); // ["src/a.ts", "src/b.tsx"]
 */
export async function scanFiles(root: string, options: ScanOptions = {}, hints: ScanHints = {}): Promise<ScanResult> {
  const maxFileBytes = checkMaxFileBytes(options.maxFileBytes);
  const filter = createPathFilter(options);
  const realRoot = await resolveScanRoot(root);
  const state: WalkState = {
    rootArg: root,
    root: realRoot,
    filter,
    visitedDirs: new Set(),
    linkedDirs: [],
    candidates: [],
    diagnostics: [],
    onCandidates: hints.onCandidates,
    onFolder: hints.onFolder,
    ...(hints.ignoreKey?.known !== undefined && hints.known ? { known: hints.known, knownFolders: hints.ignoreKey.knownFolders } : {}),
    ignoreTexts: [],
    untestedDirs: [],
    lastWalk: hints.folders?.last ? lastWalkOf(hints.folders.last) : undefined,
    ...(hints.folders?.found ? { folders: [] } : {}),
    foldersTaken: 0,
    ...(hints.ahead ? { ahead: hints.ahead } : {}),
  };
  // a walk that takes stats taken ahead started when they were taken
  const startedAt = Math.min(Date.now(), hints.ahead?.takenAt ?? Infinity);
  const whole = state.lastWalk ? await scanWholeTree(state, state.lastWalk, { maxFileBytes, startedAt, hints }) : undefined;
  if (whole) return whole;
  const levels = await readInfoExclude(state);
  await walkDir(state, { path: "", realPath: realRoot, levels, isIncluded: !filter.hasInclude, viaLink: false });
  await walkLinkedDirs(state);
  const ignoreKey = keyOfIgnoreTexts(state.ignoreTexts);
  // folders taken unread hold what they held under the last walk's ignore rules: under others, walk them all
  if (state.foldersTaken > 0 && ignoreKey !== state.lastWalk?.snapshot.ignoreKey) {
    return scanFiles(root, options, { ...hints, folders: hints.folders?.found ? { found: hints.folders.found } : {} });
  }
  hints.ignoreKey?.found?.(ignoreKey);

  const kept = rulesAsBefore(state, ignoreKey === hints.ignoreKey?.known);
  if (hints.folders?.found && state.folders) {
    // the rules left out some of the files the walk took unasked: those are no candidates of their folders
    const keptPaths = kept === state.candidates ? undefined : new Set(kept.map((candidate) => candidate.path));
    hints.folders.found(snapshotOf(state.folders, { last: state.lastWalk, startedAt, ignoreKey, ...(keptPaths ? { isKept: (path: string) => keptPaths.has(path) } : {}) }));
  }
  return inspectCandidates(state, dedupeByRealPath(kept), maxFileBytes, hints);
}

/** The scan's files: each candidate (one per real file, in path order) inspected, a diagnostic for each skipped. */
async function inspectCandidates(state: WalkState, candidates: readonly Candidate[], maxFileBytes: number, hints: ScanHints, files: ScannedFile[] = []): Promise<ScanResult> {
  for (let start = 0; start < candidates.length; start += FILES_PER_BATCH) {
    if (start > 0) await yieldToEventLoop();
    for (const candidate of candidates.slice(start, start + FILES_PER_BATCH)) {
      const outcome = inspectFile(candidate, maxFileBytes, hints.known?.(candidate.path), candidate.viaLink ? undefined : state.ahead?.file(candidate.path));
      if (outcome.file) files.push(outcome.file);
      if (outcome.diagnostic) state.diagnostics.push(outcome.diagnostic);
    }
  }
  return resultOf(state, files);
}

/** The scan's result: its files in path order, its diagnostics sorted (a warning when it found no file). */
function resultOf(state: WalkState, files: ScannedFile[]): ScanResult {
  files.sort((a, b) => compareStrings(a.path, b.path));
  if (files.length === 0) state.diagnostics.push(noFilesWarning(state.filter.hasInclude));
  state.diagnostics.sort((a, b) => compareStrings(a.path ?? "", b.path ?? "") || compareStrings(a.message, b.message));
  return { root: state.root, files, diagnostics: state.diagnostics };
}

/**
 * The last walk's tree whole, when the walk would take every folder of it
 * from the snapshot but those it always reads (a folder holding a link, one
 * read as output): each is still a plain folder with the times it had then
 * (not too close to that walk's start), and the ignore files read again
 * give the rules it was walked under. Its files are then the snapshot's
 * candidates, each inspected as the walk inspects it, in one pass without
 * the walk's work per folder (babel, 12,946 folders: ~90 ms of a warm
 * query); the folders always read are read and walked as the walk does.
 * Undefined when any of that fails: the walk decides, from the state this
 * left as it found it (everything here is done on a copy).
 */
async function scanWholeTree(
  state: WalkState,
  last: LastWalk,
  options: { maxFileBytes: number; startedAt: number; hints: ScanHints },
): Promise<ScanResult | undefined> {
  const { snapshot } = last;
  const { maxFileBytes, hints } = options;
  // (a record's path is POSIX: the walk's real paths use the platform's separator)
  const realOf = (path: string) => (path === "" ? state.root : childPath(state.root, sep === "/" ? path : path.split("/").join(sep)));
  // the stats taken ahead, read in the list's order where it is this snapshot's (each folder, then the files its record
  // names: see store/stat-list.ts), by line and without a lookup by path; by path where it is not (an older list)
  const { ahead } = state;
  const lines = ahead?.lines ?? [];
  const firstLine: number[] = [];
  let cursor = 0;
  // the folders the walk reads whatever their times, and the times of every folder
  const stamps: FolderStamp[] = [];
  const read = new Set<string>();
  for (const record of snapshot.folders) {
    const folder = record[0];
    const inOrder = lines[cursor] === (folder === "" ? "." : folder);
    firstLine.push(inOrder ? cursor : -1);
    const stamp = (inOrder ? ahead?.folderAt(cursor) : ahead?.folder(folder)) ?? stampOf(realOf(folder));
    if (inOrder) cursor += record.length - 3;
    if (!stamp) return undefined;
    stamps.push(stamp);
    if ((record[3] & NEVER_TAKEN) !== 0) read.add(folder);
    else if (!isUnchangedSince(record, stamp, snapshot.startedAt)) return undefined;
  }
  const trial: WalkState = { ...state, ignoreTexts: [], diagnostics: [], candidates: [], untestedDirs: [], linkedDirs: [], visitedDirs: new Set(), ...(state.folders ? { folders: [] } : {}) };
  // every other folder is taken here, also one inside a folder read (a root holding a link, such as CLAUDE.md ->
  // AGENTS.md, is read; the tree under it is taken all the same): the walk from a folder read passes them by
  // the rules, read as the walk reads them: the info/exclude file, the .gitignore of each folder taken here (a folder
  // read reads its own there; its rules are made here too, for the folders read below it)
  const base = await readInfoExclude(trial);
  // (read synchronously: small files, where each awaited read waited on the thread pool; the 54,782-file tree's 105:
  // ~0.1 s idle. One that cannot be read leaves it to the walk, which reports it)
  const ownLevel = new Map<string, IgnoreLevel>();
  for (const record of snapshot.folders) {
    const [folder] = record;
    if ((record[3] & HAS_GITIGNORE) === 0) continue;
    let text: string;
    try {
      text = readFileSync(join(realOf(folder), ".gitignore"), "utf8");
    } catch {
      return undefined;
    }
    if (!read.has(folder)) trial.ignoreTexts.push(pathIn(folder, ".gitignore"), text);
    ownLevel.set(folder, createIgnoreLevel(folder, text));
  }
  if (trial.diagnostics.length > 0) return undefined;
  // the folders read from here: those whose parent is taken (one whose parent is read is reached from it, as the walk
  // does, with its rules)
  const tops: FolderRecord[] = [];
  const taken: number[] = [];
  snapshot.folders.forEach((record, index) => {
    if (!read.has(record[0])) taken.push(index);
    else if (record[0] === "" || !read.has(folderOf(record[0]))) tops.push(record);
  });
  if (tops.length > 0) for (const index of taken) trial.visitedDirs.add(realOf(snapshot.folders[index]![0]));
  const files: ScannedFile[] = [];
  let inspected = 0;
  for (const index of taken) {
    const record = snapshot.folders[index]!;
    const [folder] = record;
    trial.foldersTaken++;
    trial.onFolder?.(folder, undefined);
    // (the reads the snapshot is made from, when folders are read too: else it is the last one)
    if (tops.length > 0) trial.folders?.push({ path: folder, stamp: stamps[index]!, flags: record[3], taken: record });
    const realFolder = realOf(folder);
    const first = firstLine[index]!;
    for (let i = 4; i < record.length; i++) {
      if (++inspected % FILES_PER_BATCH === 0) await yieldToEventLoop();
      const name = record[i] as string;
      // the list's line is the path, when it is this file's (no new string, and its lookups hash no joined one)
      const line = first < 0 ? -1 : first + i - 3;
      const inOrder = line >= 0 && isPathOf(lines[line], folder, name);
      const path = inOrder ? lines[line]! : pathIn(folder, name);
      const outcome = inspectFile({ path, realPath: childPath(realFolder, name), viaLink: false }, maxFileBytes, hints.known?.(path), inOrder ? ahead?.fileAt(line) : ahead?.file(path));
      if (outcome.file) files.push(outcome.file);
      if (outcome.diagnostic) trial.diagnostics.push(outcome.diagnostic);
    }
  }
  // the walk from a folder read asks its paths' stats by path: the map of paths it looks them up in is made without the
  // lines of the folders taken here (the 54,782-file tree: ~88k paths, ~50 ms)
  if (tops.length > 0 && ahead) {
    const takenLine = new Uint8Array(lines.length);
    for (const index of taken) if (firstLine[index]! >= 0) takenLine.fill(1, firstLine[index]!, firstLine[index]! + snapshot.folders[index]!.length - 3);
    trial.ahead = ahead.except((line) => takenLine[line] === 1);
  }
  for (const record of tops) {
    const path = record[0];
    const chain = ancestorsOf(path);
    const levels = [...base, ...chain.flatMap((folder) => ownLevel.get(folder) ?? [])];
    const isIncluded = !trial.filter.hasInclude || [...chain, path].some((folder) => folder !== "" && trial.filter.isIncluded(folder));
    await walkDir(trial, { path, realPath: realOf(path), levels, isIncluded, viaLink: false });
  }
  await walkLinkedDirs(trial);
  const ignoreKey = keyOfIgnoreTexts(trial.ignoreTexts);
  if (ignoreKey !== snapshot.ignoreKey) return undefined;
  hints.ignoreKey?.found?.(ignoreKey);
  if (tops.length === 0) {
    hints.folders?.found?.({ snapshot, changed: false });
    trial.onCandidates?.(inspected);
    return resultOf(trial, files);
  }
  // the folders read: their candidates as the walk keeps them, one per real file with those taken here
  const kept = rulesAsBefore(trial, ignoreKey === hints.ignoreKey?.known);
  if (hints.folders?.found && trial.folders) {
    const keptPaths = kept === trial.candidates ? undefined : new Set(kept.map((candidate) => candidate.path));
    hints.folders.found(snapshotOf(trial.folders, { last, startedAt: options.startedAt, ignoreKey, ...(keptPaths ? { isKept: (p: string) => keptPaths.has(p) } : {}) }));
  }
  trial.onCandidates?.(inspected + kept.length);
  // one candidate per real file, as the walk keeps them: a file reached through a link as well as by its plain path is
  // the plain one's, and one taken here was inspected above
  const isTakenFile = (realPath: string): boolean => {
    const prefix = state.root.endsWith(sep) ? state.root : `${state.root}${sep}`;
    if (!realPath.startsWith(prefix)) return false;
    const path = sep === "/" ? realPath.slice(prefix.length) : realPath.slice(prefix.length).split(sep).join("/");
    const slash = path.lastIndexOf("/");
    const folder = slash < 0 ? "" : path.slice(0, slash);
    const record = last.byPath.get(folder);
    return record !== undefined && !read.has(folder) && record.indexOf(path.slice(slash + 1), 4) >= 4;
  };
  const more = kept.some((candidate) => candidate.viaLink) ? dedupeByRealPath(kept).filter((candidate) => !(candidate.viaLink && isTakenFile(candidate.realPath))) : kept;
  return inspectCandidates(trial, more, maxFileBytes, hints, files);
}

/** True when `line` is the path of `name` in `folder` (compared in place, without joining them). */
function isPathOf(line: string | undefined, folder: string, name: string): boolean {
  if (line === undefined) return false;
  if (folder === "") return line === name;
  return line.length === folder.length + 1 + name.length && line.charCodeAt(folder.length) === 47 && line.startsWith(folder) && line.endsWith(name);
}

/** The folders above a root-relative path, the root ("") first; none for the root. */
function ancestorsOf(path: string): string[] {
  if (path === "") return [];
  const folders = [""];
  for (let slash = path.indexOf("/"); slash > 0; slash = path.indexOf("/", slash + 1)) folders.push(path.slice(0, slash));
  return folders;
}

/** The key of the ignore rules a walk read: each file's path and text, in path order. */
function keyOfIgnoreTexts(texts: readonly string[]): string {
  const pairs: string[] = [];
  for (let i = 0; i < texts.length; i += 2) pairs.push(`${texts[i]}\u0000${texts[i + 1]}`);
  return hashContent(pairs.sort(compareStrings).join("\u0001"));
}

/**
 * The candidates once the rules are known: when they are the ones the
 * known files were scanned under, a known file (and a folder holding one)
 * that the walk took without asking them was not ignored then and is not
 * now; otherwise each is asked now, with the levels that applied to it.
 */
function rulesAsBefore(state: WalkState, asBefore: boolean): Candidate[] {
  if (asBefore || (state.untestedDirs.length === 0 && !state.candidates.some((c) => c.untested))) return state.candidates;
  const leftOut = state.untestedDirs.filter((dir) => isIgnored(dir.levels, dir.path, true)).map((dir) => `${dir.path}/`);
  if (leftOut.length > 0) {
    // what the walk said of the files and folders inside a folder the rules leave out, as if it never went in
    state.diagnostics = state.diagnostics.filter((d) => !leftOut.some((folder) => (d.path ?? "").startsWith(folder)));
    if (state.folders) state.folders = state.folders.filter((f) => !leftOut.some((folder) => `${f.path}/`.startsWith(folder)));
  }
  return state.candidates.filter(
    (candidate) => !(candidate.untested && isIgnored(candidate.untested, candidate.path)) && !leftOut.some((folder) => candidate.path.startsWith(folder)),
  );
}

/**
 * The scan `previous` made, again, when only the files at `paths` can have
 * changed since (a watch's word): each is inspected as the walk inspects a
 * file (a regular file still, its size, binary or generated), the others
 * are taken as they were, without reading a folder. Undefined when one of
 * them is no file of that scan (a new or removed file, a folder, an ignore
 * or config file), was reached through a link, or would now be skipped:
 * only a full scan can tell then. Trusting the watch is the caller's choice
 * (the daemon's refresh); a command checks every file.
 *
 * @example
 * const again = rescanFiles(lastScan, ["src/a.ts"], options) ?? (await scanFiles(root, options));
 */
export function rescanFiles(previous: ScanResult, paths: Iterable<string>, options: ScanOptions = {}): ScanResult | undefined {
  const maxFileBytes = checkMaxFileBytes(options.maxFileBytes);
  const files = [...previous.files];
  let positions: Map<string, number> | undefined;
  for (const path of paths) {
    positions ??= new Map(files.map((file, index) => [file.path, index]));
    const index = positions.get(path);
    const before = index !== undefined ? files[index] : undefined;
    if (index === undefined || !before || before.absPath !== join(previous.root, path)) return undefined;
    const outcome = inspectFile({ path, realPath: before.absPath, viaLink: false }, maxFileBytes);
    if (!outcome.file || outcome.file.isDeclaration !== before.isDeclaration) return undefined;
    files[index] = outcome.file;
  }
  return { root: previous.root, files, diagnostics: previous.diagnostics };
}

/** Why a scan found nothing, and what brings files in: most often a root whose sources are all build output. */
function noFilesWarning(hasInclude: boolean): Diagnostic {
  const found = hasInclude ? "no source file under the root matches the include globs" : "no source file under the root";
  return {
    kind: "warning",
    message: `${found} (${LANGUAGES.flatMap((row) => row.extensions).join(" ")}; folders such as node_modules and dist, and a build folder of output, are left out unless an include glob names them, e.g. --include 'dist/**')`,
  };
}

function checkMaxFileBytes(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_FILE_BYTES;
  if (typeof value !== "number" || !(value > 0)) {
    throw new UsageError(
      `scan: maxFileBytes must be a positive number of bytes, got ${String(value)} (pass --max-file-bytes such as 1048576)`,
    );
  }
  return value;
}

/**
 * The real path of a scan root, with the errors {@link scanFiles} gives for
 * a missing root, a file, an unreadable folder.
 *
 * @example
 * await resolveScanRoot("."); // "/home/me/app"
 */
export async function resolveScanRoot(root: string): Promise<string> {
  let real: string;
  try {
    real = await realpath(resolve(root));
  } catch (error) {
    throw rootError(root, error);
  }
  const info = await stat(real).catch((error: unknown) => {
    throw rootError(root, error);
  });
  if (!info.isDirectory()) {
    throw new RootError(`scan: root "${root}" is a file, not a folder (pass --root with the project folder)`);
  }
  return real;
}

function rootError(root: string, error: unknown): RootError {
  const code = errorCodeOf(error);
  if (code === "ENOENT" || code === "ENOTDIR") {
    return new RootError(`scan: root "${root}" does not exist (pass --root with an existing folder)`, { cause: error });
  }
  return new RootError(
    `scan: root "${root}" cannot be read (${code ?? "unknown error"}; check its permissions or pass another --root)`,
    { cause: error },
  );
}

/** Walk a folder and everything under it. */
function walkDir(state: WalkState, task: DirTask): Promise<void> {
  const pending: Promise<void>[] = [];
  visitDir(state, task, pending);
  return settled(pending);
}

const DONE: Promise<void> = Promise.resolve();

/** Settles once every promise has (each is a walk, which never rejects but for the root's read). */
function settled(pending: readonly Promise<void>[]): Promise<void> {
  if (pending.length === 0) return DONE;
  if (pending.length === 1) return pending[0]!;
  return Promise.all(pending).then(() => undefined);
}

/**
 * Walk a folder: one unchanged since the last walk (and its subfolders
 * likewise) in this call, without a promise each (babel/babel, 12,947
 * folders nearly all taken: a promise, an await and a Promise.all each
 * were ~60 ms of a warm query); a folder to read, or whose .gitignore must
 * be read again, in a promise added to `pending`.
 */
function visitDir(state: WalkState, task: DirTask, pending: Promise<void>[]): void {
  if (state.visitedDirs.has(task.realPath)) return;
  state.visitedDirs.add(task.realPath);
  // the folder's times before its entries are read: a change after this shows in the next walk's
  const stamp = state.folders || state.lastWalk ? (task.viaLink ? undefined : (state.ahead?.folder(task.path) ?? stampOf(task.realPath))) : undefined;
  const last = stamp && state.lastWalk?.byPath.get(task.path);
  if (last && isUnchangedSince(last, stamp, state.lastWalk!.snapshot.startedAt)) {
    markTaken(state, task, last, stamp);
    if ((last[3] & HAS_GITIGNORE) === 0) takeContents(state, task, last, pending);
    else pending.push(takeWithGitignore(state, task, last));
    return;
  }
  pending.push(readDir(state, task, stamp));
}

/** A folder read: its entries listed and tested (a subfolder walked in turn). */
async function readDir(state: WalkState, task: DirTask, stamp: FolderStamp | undefined): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await readdir(task.realPath, { withFileTypes: true });
  } catch (error) {
    if (task.path === "") throw rootError(state.rootArg, error);
    state.diagnostics.push(skippedUnreadable(task.path, "folder", errorCodeOf(error)));
    if (stamp) state.folders?.push({ path: task.path, stamp, flags: NEVER_TAKEN });
    return;
  }
  const output = outputFolderReads(state, task, entries);
  if (output) {
    // left out; the folders read to decide are reported as read (a resident process watches them: one that
    // stops looking like output is walked again)
    for (const [path, read] of output) state.onFolder?.(path, read);
    if (stamp) state.folders?.push({ path: task.path, stamp, flags: NEVER_TAKEN });
    return;
  }
  state.onFolder?.(task.path, entries);
  // the names of its candidate files go with it (a plain folder: its candidates are plain)
  const gitignore = hasGitignore(entries);
  const read: FolderRead | undefined = stamp && state.folders ? { path: task.path, stamp, flags: folderFlags(task, entries, gitignore), names: [] } : undefined;
  if (read) state.folders!.push(read);
  // most folders hold no .gitignore: no await for them (rollup, 4,585 folders: a promise and a trip through the
  // microtask queue each, ~20 ms)
  const here: DirTask = gitignore ? { ...task, levels: await addGitignore(state, task) } : task;
  const pending: Promise<void>[] = [];
  for (const entry of entries) {
    const path = pathIn(here.path, entry.name);
    // a name read from the folder has no separator and the folder's real path is normalised: no join() needed
    // (path.join normalises each of date-fns' 7,700 entries again: ~10 ms of its scan)
    const realPath = childPath(here.realPath, entry.name);
    if (entry.isDirectory()) {
      const child = childDir(state, here, entry.name, path, realPath);
      if (child) pending.push(walkDir(state, child));
    } else if (entry.isFile()) {
      const wanted = isWantedFile(state, here, entry.name, path);
      if (wanted === UNTESTED) state.candidates.push({ path, realPath, viaLink: here.viaLink, untested: here.levels });
      else if (wanted) state.candidates.push({ path, realPath, viaLink: here.viaLink });
      if (wanted) read?.names?.push(entry.name);
    } else if (entry.isSymbolicLink()) {
      pending.push(followLink(state, here, entry.name, path, realPath));
    }
  }
  state.onCandidates?.(state.candidates.length);
  await Promise.all(pending);
}

function folderFlags(task: DirTask, entries: readonly Dirent[], gitignore: boolean): number {
  const name = task.path.slice(task.path.lastIndexOf("/") + 1);
  const never = OUTPUT_DIR_NAMES.has(name) || entries.some((entry) => entry.isSymbolicLink());
  return (never ? NEVER_TAKEN : 0) | (gitignore ? HAS_GITIGNORE : 0);
}

/**
 * A folder unchanged since the last walk read it (the same times: no entry
 * added, removed or renamed since) holds what it held then: its candidate
 * files, and the subfolders the walk went into. Its .gitignore, if any, is
 * read again (its text may have changed in place); the caller checks the
 * rules are the last walk's (else it walks every folder). Here: the folder
 * counted and recorded as taken.
 */
function markTaken(state: WalkState, task: DirTask, last: FolderRecord, stamp: FolderStamp): void {
  state.foldersTaken++;
  state.onFolder?.(task.path, undefined);
  state.folders?.push({ path: task.path, stamp, flags: last[3], taken: last });
}

/** A taken folder's contents when it holds a .gitignore: read again (its text may have changed in place), its rules apply below. */
async function takeWithGitignore(state: WalkState, task: DirTask, last: FolderRecord): Promise<void> {
  const pending: Promise<void>[] = [];
  takeContents(state, { ...task, levels: await addGitignore(state, task) }, last, pending);
  await settled(pending);
}

/** A taken folder's candidate files, as the last walk listed them, and its subfolders, each walked. */
function takeContents(state: WalkState, here: DirTask, last: FolderRecord, pending: Promise<void>[]): void {
  for (let i = 4; i < last.length; i++) {
    const name = last[i] as string;
    state.candidates.push({ path: pathIn(here.path, name), realPath: childPath(here.realPath, name), viaLink: false });
  }
  state.onCandidates?.(state.candidates.length);
  for (const name of state.lastWalk!.subfolders.get(here.path) ?? []) {
    const path = pathIn(here.path, name);
    visitDir(state, { path, realPath: childPath(here.realPath, name), levels: here.levels, isIncluded: here.isIncluded || state.filter.isIncluded(path), viaLink: false }, pending);
  }
}

/** `name` inside the real, normalised folder path `folder` (what join() gives for a plain name). */
function childPath(folder: string, name: string): string {
  return folder.endsWith(sep) ? `${folder}${name}` : `${folder}${sep}${name}`;
}

/** Walk the folders reached through symlinks: one at a time, in path order, round after round (links inside linked folders come next round). */
async function walkLinkedDirs(state: WalkState): Promise<void> {
  while (state.linkedDirs.length > 0) {
    const round = state.linkedDirs.sort((a, b) => compareStrings(a.path, b.path));
    state.linkedDirs = [];
    for (const task of round) await walkDir(state, task);
  }
}

/**
 * The repository's own ignore rules, `.git/info/exclude`, when the root is
 * a repository's top folder: git applies them under every .gitignore (the
 * root's .gitignore overrides them). Only a real folder and a regular file:
 * a `.git` file (a worktree, a submodule) points outside the root.
 */
async function readInfoExclude(state: WalkState): Promise<IgnoreLevel[]> {
  const path = join(state.root, ".git", "info", "exclude");
  try {
    if (!lstatSync(join(state.root, ".git")).isDirectory() || !lstatSync(join(state.root, ".git", "info")).isDirectory() || !lstatSync(path).isFile()) return [];
  } catch {
    return []; // none
  }
  try {
    const text = await readFile(path, "utf8");
    state.ignoreTexts.push(".git/info/exclude", text);
    return [createIgnoreLevel("", text)];
  } catch (error) {
    state.diagnostics.push(unreadableGitignore(".git/info/exclude", errorCodeOf(error)));
    return [];
  }
}

/** True when the folder's entries hold a .gitignore: only a regular file (a symlink could point outside the root). */
function hasGitignore(entries: readonly Dirent[]): boolean {
  for (const entry of entries) if (entry.name === ".gitignore") return entry.isFile();
  return false;
}

/** The folder's rules plus those of its own .gitignore (which it holds, see hasGitignore). */
async function addGitignore(state: WalkState, task: DirTask): Promise<readonly IgnoreLevel[]> {
  try {
    const text = await readFile(join(task.realPath, ".gitignore"), "utf8");
    state.ignoreTexts.push(pathIn(task.path, ".gitignore"), text);
    return [...task.levels, createIgnoreLevel(task.path, text)];
  } catch (error) {
    state.diagnostics.push(unreadableGitignore(pathIn(task.path, ".gitignore"), errorCodeOf(error)));
    return task.levels;
  }
}

/** A `build` folder holding more folders than this is not looked into for output (see outputFolderReads). */
const MAX_OUTPUT_SUBFOLDERS = 8;

/**
 * A `build` folder that no include glob names, whose entries look like
 * build output, or whose entries are all folders whose own entries do
 * (`build/legacy` and `build/modern`, one build per target, as
 * tanstack-style packages ship them): left out, read but not walked. The
 * folders read to decide, with their entries; undefined when it is walked.
 */
function outputFolderReads(state: WalkState, task: DirTask, entries: Dirent[]): Array<[string, Dirent[]]> | undefined {
  const { path } = task;
  const name = path.slice(path.lastIndexOf("/") + 1);
  if (path === "" || !OUTPUT_DIR_NAMES.has(name) || state.filter.namesFolder(path)) return undefined;
  if (looksLikeBuildOutput(entries.map((entry) => entry.name))) return [[path, entries]];
  if (entries.length === 0 || entries.length > MAX_OUTPUT_SUBFOLDERS || !entries.every((entry) => entry.isDirectory())) return undefined;
  const reads: Array<[string, Dirent[]]> = [[path, entries]];
  for (const entry of entries) {
    let inner: Dirent[];
    try {
      inner = readdirSync(childPath(task.realPath, entry.name), { withFileTypes: true });
    } catch {
      return undefined; // walked, and the walk reports what it cannot read
    }
    if (!looksLikeBuildOutput(inner.map((e) => e.name))) return undefined;
    reads.push([`${path}/${entry.name}`, inner]);
  }
  return reads;
}

/** A folder left out by its name: unless an include glob names it (and it is no version-control folder). */
function isLeftOutDir(state: WalkState, name: string, path: string): boolean {
  return isExcludedDirName(name) && !(isReopenableDirName(name) && state.filter.namesFolder(path));
}

/** The task for a subfolder, or undefined when a rule leaves it out. */
function childDir(state: WalkState, parent: DirTask, name: string, path: string, realPath: string): DirTask | undefined {
  if (isLeftOutDir(state, name, path) || state.filter.isExcluded(path)) return undefined;
  if (!parent.viaLink && state.knownFolders?.has(path)) state.untestedDirs.push({ path, levels: parent.levels });
  else if (isIgnored(parent.levels, path, true)) return undefined;
  return {
    path,
    realPath,
    levels: parent.levels,
    isIncluded: parent.isIncluded || state.filter.isIncluded(path),
    viaLink: parent.viaLink,
  };
}

/** isWantedFile's word for a file it took without asking the .gitignore rules. */
const UNTESTED = "untested";

/**
 * True when a file name and path pass every rule that needs no I/O;
 * UNTESTED when they pass all but the .gitignore rules, which were not
 * asked: the file is a known one (see ScanHints.ignoreKey).
 */
function isWantedFile(state: WalkState, parent: DirTask, name: string, path: string): boolean | typeof UNTESTED {
  if (languageForPath(name) === undefined || isExcludedFileName(name) || state.filter.isExcluded(path) || !(parent.isIncluded || state.filter.isIncluded(path))) return false;
  if (!parent.viaLink && state.known?.(path) !== undefined) return UNTESTED;
  return !isIgnored(parent.levels, path);
}

/**
 * Resolve a symlink found in `parent`: a file inside the root becomes a
 * candidate, a folder inside the root is queued, anything outside the root
 * is reported and never touched (not even stat'ed).
 */
async function followLink(state: WalkState, parent: DirTask, name: string, path: string, linkPath: string): Promise<void> {
  // Rules that hold whatever the link points to; file rules wait for the target's type.
  if (isLeftOutDir(state, name, path) || isIgnored(parent.levels, path) || state.filter.isExcluded(path)) return;
  let real: string;
  try {
    real = await realpath(linkPath);
  } catch (error) {
    state.diagnostics.push(skippedBrokenSymlink(path, errorCodeOf(error)));
    return;
  }
  if (!isInside(state.root, real)) {
    state.diagnostics.push(skippedSymlinkOutside(path));
    return;
  }
  let target: Stats;
  try {
    target = await stat(real);
  } catch (error) {
    state.diagnostics.push(skippedBrokenSymlink(path, errorCodeOf(error)));
    return;
  }
  if (target.isDirectory()) {
    const child = childDir(state, parent, name, path, real);
    if (child) state.linkedDirs.push({ ...child, viaLink: true });
  } else if (target.isFile() && isWantedFile(state, parent, name, path)) {
    state.candidates.push({ path, realPath: real, viaLink: true });
  }
}

/** True when real path `path` is `root` or under it. */
function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

/** One candidate per real file: a plain path beats a link path, then the smaller path wins. */
function dedupeByRealPath(candidates: readonly Candidate[]): Candidate[] {
  const best = new Map<string, Candidate>();
  for (const candidate of candidates) {
    const current = best.get(candidate.realPath);
    if (!current || isPreferred(candidate, current)) best.set(candidate.realPath, candidate);
  }
  return [...best.values()].sort((a, b) => compareStrings(a.path, b.path));
}

function isPreferred(a: Candidate, b: Candidate): boolean {
  if (a.viaLink !== b.viaLink) return !a.viaLink;
  return compareStrings(a.path, b.path) < 0;
}

/** A file as an earlier scan saw it (the index's entry). */
export interface KnownFile {
  size: number;
  mtimeMs: number;
}

/** What a caller with an index tells the scan. */
export interface ScanHints {
  /**
   * Stats of the last walk's folders and known files, taken ahead in a
   * worker (see stat-ahead.ts): the walk takes a plain folder's times and a
   * known file's size and mtime from them, and starts when they were taken.
   */
  ahead?: StatsAhead;
  /** The file at a root-relative path as the index holds it: with the same size and mtime, its head is not read again. */
  known?: (path: string) => KnownFile | undefined;
  /** Told the number of candidate files found so far, after each folder the walk reads (before any head is read). */
  onCandidates?: (count: number) => void;
  /**
   * Shown each folder the walk reads (root-relative, "" for the root) with
   * its entries, as read; without entries, a folder taken from the last
   * walk unread (see `folders`).
   */
  onFolder?: (path: string, entries: readonly Dirent[] | undefined) => void;
  /**
   * The last walk's folders, made under the same options, and where to tell
   * this walk's (with whether it differs from the last): a folder whose
   * times are unchanged since is taken from it unread.
   */
  folders?: { last?: FolderSnapshot; found?: (made: { snapshot: FolderSnapshot; changed: boolean }) => void };
  /**
   * The key of the .gitignore rules (every ignore file's path and text)
   * the known files were scanned under, and the folders holding them: the
   * walk takes those files and folders without asking the rules (rollup,
   * 12,722 files: ~0.12 s of a warm run), and asks them after all when the
   * rules it read are not the same. `found` is told this walk's key.
   */
  ignoreKey?: { known?: string; knownFolders?: { has(path: string): boolean }; found?: (key: string) => void };
}

/** The buffer every head is read into (a head is looked at before the next one is read; reads are synchronous). */
const headScratch = Buffer.allocUnsafe(BINARY_CHECK_BYTES);

/**
 * Read a candidate's head and decide: a scanned file, a diagnostic, or (for
 * a non-regular file) neither. A file the caller already knows, with the
 * same size and mtime, was read and accepted before: a stat decides (the
 * one taken ahead when given: a regular file's, not through a link).
 */
function inspectFile(candidate: Candidate, maxFileBytes: number, known?: KnownFile, takenAhead?: KnownFile): { file?: ScannedFile; diagnostic?: Diagnostic } {
  const { path, realPath } = candidate;
  const row = languageRowForPath(path);
  if (row === undefined) return {};
  const { language } = row;
  if (known !== undefined) {
    // lstat: a regular file still, not a link put in its place since the walk (or the same, taken ahead)
    const stats = takenAhead ?? regularFileStats(realPath);
    if (stats && stats.size === known.size && stats.mtimeMs === known.mtimeMs && stats.size <= maxFileBytes) {
      return { file: { path, absPath: realPath, size: stats.size, mtimeMs: stats.mtimeMs, language, isDeclaration: isDeclarationPath(path) } };
    }
  }
  let head: FileHead;
  try {
    head = readFileHeadSync(realPath, maxFileBytes, headScratch);
  } catch (error) {
    return { diagnostic: skippedUnreadable(path, "file", errorCodeOf(error)) };
  }
  if (!head.isFile) return {};
  if (head.size > maxFileBytes) return { diagnostic: skippedTooLarge(path, head.size, maxFileBytes) };
  if (isBinaryHead(head.bytes)) return { diagnostic: skippedBinary(path) };
  const marker = generatedMarkerOfHead(head.bytes, row.markerInOpeningComments === true);
  if (marker !== undefined) return { diagnostic: skippedGenerated(path, marker) };
  return {
    file: {
      path,
      absPath: realPath,
      size: head.size,
      mtimeMs: head.mtimeMs,
      language,
      isDeclaration: isDeclarationPath(path),
    },
  };
}

/** A regular file's size and mtime (lstat: not through a link), or undefined. */
function regularFileStats(realPath: string): KnownFile | undefined {
  const stats = lstatSync(realPath, { throwIfNoEntry: false });
  return stats?.isFile() ? stats : undefined;
}

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolveYield) => setImmediate(resolveYield));
}

