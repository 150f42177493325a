/**
 * Side files of a retrieval (`--dot FILE`, `--svg FILE`): checked before the
 * run so that a mistake fails at once, and never written over a file that
 * exists unless `--force` says so.
 */
import { constants } from "node:fs";
import { access, stat, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { GraphRetrieveError, UsageError } from "../index.js";

export interface OutputFile {
  /** The flag that named it, for messages (`--dot`). */
  flag: string;
  /** As the user wrote it (for messages). */
  given: string;
  /** Absolute path. */
  path: string;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path, constants.F_OK);
    return true;
  } catch {
    return false;
  }
}

/** Resolve and check the side files; a usage error when one exists (without --force), is a folder, or two flags name the same file. */
export async function checkOutputFiles(
  requested: ReadonlyArray<{ flag: string; given: string | undefined }>,
  cwd: string,
  force: boolean,
): Promise<OutputFile[]> {
  const files: OutputFile[] = [];
  for (const { flag, given } of requested) {
    if (given === undefined) continue;
    if (given.trim() === "") throw new UsageError(`graph-retrieve: ${flag} needs a file name (e.g. ${flag} retrieval.${flag.slice(2)})`);
    const path = resolve(cwd, given);
    const twin = files.find((f) => f.path === path);
    if (twin) throw new UsageError(`graph-retrieve: ${twin.flag} and ${flag} name the same file "${given}" (give each its own)`);
    if (await exists(path)) {
      const isFolder = (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
      if (isFolder) throw new UsageError(`graph-retrieve: ${flag} "${given}" is a folder (name a file)`);
      if (!force) throw new UsageError(`graph-retrieve: ${flag} "${given}" exists; not overwriting it (remove it, pick another name, or add --force)`);
    }
    files.push({ flag, given, path });
  }
  return files;
}

/** Write a side file: exclusive create unless `force` (a file that appeared meanwhile is still not overwritten). */
export async function writeOutputFile(file: OutputFile, text: string, force: boolean): Promise<void> {
  try {
    await writeFile(file.path, text, { encoding: "utf8", flag: force ? "w" : "wx" });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") {
      throw new UsageError(`graph-retrieve: ${file.flag} "${file.given}" exists; not overwriting it (remove it, pick another name, or add --force)`, { cause: error });
    }
    const why = code === "ENOENT" ? "its folder does not exist" : code === "EACCES" || code === "EPERM" ? "permission denied" : (code ?? "write failed");
    throw new GraphRetrieveError("io", `graph-retrieve: cannot write ${file.flag} "${file.given}": ${why} (check the path)`, { cause: error });
  }
}
