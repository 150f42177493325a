/**
 * Reuse: each scanned file's facts from the index when its bytes are the
 * ones the index read (the same size and mtime; else the same content
 * hash), or from a vanished file with the same bytes (a rename); every
 * other file becomes a parse job.
 */
import { readFile } from "node:fs/promises";
import type { ParseJob } from "../parse/parse-files.js";
import type { IndexStore, StoredFile } from "../store/index.js";
import type { ScannedFile } from "../types.js";
import { RACY_MS } from "../scan/index.js";
import { hashContent } from "../util/content-hash.js";

export interface ReusedFacts {
  /** The entries kept, by path (a parsed file's entry is added by the parse). */
  entries: Map<string, StoredFile>;
  /** The files to parse, in scan order. */
  jobs: ParseJob[];
  jobBytes: number;
  /** Files whose stat changed and whose content hash was compared. */
  rehashed: number;
  /** Of those, the ones whose entry stays exactly as it was (nothing to write). */
  rehashedAsBefore: number;
}

/** sha1 of a file's bytes, or undefined when it cannot be read (it is then parsed, and the read failure reported there). */
async function hashFile(file: ScannedFile): Promise<string | undefined> {
  try {
    return hashContent(await readFile(file.absPath));
  } catch {
    return undefined;
  }
}

/**
 * The mtime to store: none (-1) for a file modified within RACY_MS of the
 * scan, which may change again within the same mtime tick after it is
 * read: the next run re-hashes it instead of trusting the stat (git's
 * "racily clean" files).
 */
export function stableMtime(file: ScannedFile, scanWallClock: number): number {
  return scanWallClock - file.mtimeMs < RACY_MS ? -1 : file.mtimeMs;
}

/** The lower-case name ending that picks the grammar and script kind (".ts", ".d.ts", ".tsx"…). */
function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
  const dot = name.indexOf(".");
  return dot < 0 ? "" : name.slice(dot);
}

/** Entries of files no longer scanned, by extension and content hash (to recognise a rename). */
function goneEntriesByHash(previous: IndexStore["files"], files: readonly ScannedFile[]): Map<string, StoredFile> {
  const scanned = new Set(files.map((f) => f.path));
  const gone = new Map<string, StoredFile>();
  for (const [path, entry] of Object.entries(previous)) {
    if (!scanned.has(path)) gone.set(`${extensionOf(path)}\u0000${entry.hash}`, entry);
  }
  return gone;
}

/**
 * @param scanWallClock when the scan started (Date.now()): an mtime closer to it is not stored
 * @param done told once per file whose facts are reused
 *
 * @example
 * const reused = await reuseFacts(scan.files, session.previous, Date.now(), () => {});
 * reused.jobs.length; // files to parse
 */
export async function reuseFacts(files: readonly ScannedFile[], previous: IndexStore["files"], scanWallClock: number, done: () => void): Promise<ReusedFacts> {
  const entries = new Map<string, StoredFile>();
  const jobs: ParseJob[] = [];
  let jobBytes = 0;
  let rehashed = 0;
  let rehashedAsBefore = 0;
  // the vanished files by content, made only when a file new to the index asks (a warm run of 12,724 files spent ~7 ms on it)
  let gone: Map<string, StoredFile> | undefined;
  for (const file of files) {
    const entry = previous[file.path];
    if (entry && entry.mtimeMs === file.mtimeMs && entry.size === file.size && entry.parsed.isDeclaration === file.isDeclaration) {
      entries.set(file.path, entry);
      done();
      continue;
    }
    if (entry && entry.parsed.isDeclaration === file.isDeclaration) {
      const hash = await hashFile(file);
      if (hash === entry.hash) {
        const mtimeMs = stableMtime(file, scanWallClock);
        // the same bytes with an mtime still too recent to store (a file edited in the last seconds, checked
        // again): the entry as it was, nothing to write
        if (mtimeMs === entry.mtimeMs && file.size === entry.size) {
          entries.set(file.path, entry);
          rehashedAsBefore++;
        } else {
          entries.set(file.path, { ...entry, size: file.size, mtimeMs });
        }
        rehashed++;
        done();
        continue;
      }
    }
    if (!entry && (gone ??= goneEntriesByHash(previous, files)).size > 0) {
      // a renamed or copied file: the facts of a vanished file with the same bytes and extension
      const hash = await hashFile(file);
      const twin = hash !== undefined ? gone.get(`${extensionOf(file.path)}\u0000${hash}`) : undefined;
      if (twin && twin.parsed.isDeclaration === file.isDeclaration) {
        entries.set(file.path, { ...twin, size: file.size, mtimeMs: stableMtime(file, scanWallClock), parsed: { ...twin.parsed, path: file.path }, targets: undefined, unresolved: undefined });
        rehashed++;
        done();
        continue;
      }
    }
    jobs.push({ path: file.path, absPath: file.absPath, language: file.language, isDeclaration: file.isDeclaration, size: file.size });
    jobBytes += file.size;
  }
  return { entries, jobs, jobBytes, rehashed, rehashedAsBefore };
}
