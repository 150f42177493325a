/** Atomic file writes: a temp file in the same folder, then a rename over the target. */
import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/**
 * Write `text` to `path` so a reader sees either the old file or the whole
 * new one, never a torn one, even with two writers at once (the last
 * rename wins). Creates the folder when missing.
 *
 * @example
 * await writeFileAtomic("/home/me/.cache/graph-retrieve/3f1c/index.json", JSON.stringify(store));
 */
export async function writeFileAtomic(path: string, text: string): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    await writeFile(temp, text, "utf8");
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
