/** Atomic file writes: a temp file in the same folder, then a rename over the target. */
import { randomBytes } from "node:crypto";
import { mkdir, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/**
 * Write `text` to `path` so a reader sees either the old file or the whole
 * new one, never a torn one, even with two writers at once (the last
 * rename wins). Creates the folder when missing. Parts (an array of bytes)
 * are written one after the other, never joined in memory.
 *
 * @example
 * await writeFileAtomic("/home/me/.cache/graph-retrieve/3f1c/index.json", JSON.stringify(store));
 */
export async function writeFileAtomic(path: string, text: string | Uint8Array | readonly Uint8Array[]): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    await writeFile(temp, text, typeof text === "string" ? "utf8" : undefined);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** The temp files writeFileAtomic makes for the index's own files (`.index.json.<pid>.<hex>.tmp`). */
const OWN_TEMP = /^\.(index\.json|graph\.json|facts\.bin)\.\d+\.[0-9a-f]{8}\.tmp$/;

/** A temp file this old is left over from a writer that was killed (a live write takes seconds at most). */
export const STALE_TEMP_MS = 10 * 60 * 1000;

/**
 * Remove temp files that killed writers left in `dir` (only ours:
 * `.index.json.<pid>.<hex>.tmp` and the same for graph.json and facts.bin, and only when older than {@link STALE_TEMP_MS},
 * so a concurrent writer's file is never touched). Failures are ignored:
 * a leftover wastes disk, it never tears the store.
 *
 * @example
 * await removeStaleTempFiles("/home/me/.cache/graph-retrieve/3f1c");
 */
export async function removeStaleTempFiles(dir: string, now = Date.now()): Promise<string[]> {
  const removed: string[] = [];
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!OWN_TEMP.test(name)) continue;
    const path = join(dir, name);
    try {
      if (now - (await stat(path)).mtimeMs < STALE_TEMP_MS) continue;
      await rm(path, { force: true });
      removed.push(name);
    } catch {
      // gone already, or not ours to remove
    }
  }
  return removed;
}
