/**
 * Which folders the index may write to. A folder is the index's when it
 * holds graph-retrieve's cache directory tag (CACHEDIR.TAG, see
 * https://bford.info/cachedir/: backup tools skip such folders), or when
 * none of the files the index writes exist there yet, or when its
 * index.json is one graph-retrieve wrote before tags (then it is tagged).
 * A file of the same name that graph-retrieve did not write (`--cache-dir .`
 * in a project with its own index.json) is never overwritten.
 */
import { constants } from "node:fs";
import { mkdir, open, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { STORE_FORMAT } from "./store-header.js";

export const CACHE_TAG_FILE = "CACHEDIR.TAG";
const CACHE_TAG_SIGNATURE = "Signature: 8a477f597d28d172789f06886806bc55";
const CACHE_TAG = `${CACHE_TAG_SIGNATURE}\n# This file is a cache directory tag created by graph-retrieve (its index).\n# For information about cache directory tags, see https://bford.info/cachedir/\n`;
/** How every index file graph-retrieve writes begins (the header comes first). */
const STORE_FILE_START = `{"header":{"format":"${STORE_FORMAT}"`;

/** The index's own files (they begin with the store header): anything else of the store's format only in a tagged folder. */
const STORE_FILE_NAME = /\.json$|^facts\.bin$/;

/** A folder the index must not write to: it holds a file of the index's name that is someone else's. */
export class ForeignFolderError extends Error {
  readonly path: string;
  constructor(path: string) {
    super(`${path} was not written by graph-retrieve (not overwritten; pass another --cache-dir, or --no-cache)`);
    this.name = "ForeignFolderError";
    this.path = path;
  }
}

/** True when `dir` holds our tag. */
export async function hasOurTag(dir: string): Promise<boolean> {
  try {
    const text = await readFile(join(dir, CACHE_TAG_FILE), "utf8");
    return text.startsWith(CACHE_TAG_SIGNATURE) && text.includes("graph-retrieve");
  } catch {
    return false;
  }
}

/** "absent", "store" (begins as the index's files do) or "other". */
export async function whoseFile(path: string): Promise<"absent" | "store" | "other"> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ENOENT" ? "absent" : "other";
  }
  try {
    const buffer = Buffer.alloc(STORE_FILE_START.length);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.toString("latin1", 0, bytesRead) === STORE_FILE_START ? "store" : "other";
  } catch {
    return "other";
  } finally {
    await handle.close();
  }
}

/**
 * Make `dir` the index's folder (created when missing, then tagged), or
 * throw a ForeignFolderError naming the first of `names` that exists there
 * and is not the index's. Index files of the store's own format count as
 * the index's (folders written before tags); any other kind of file
 * (`daemon.log`) only in a tagged folder.
 *
 * @example
 * await claimStoreFolder("/home/me/.cache/graph-retrieve/3f1c", ["index.json", "graph.json"]);
 */
export async function claimStoreFolder(dir: string, names: readonly string[]): Promise<void> {
  await mkdir(dir, { recursive: true });
  if (await hasOurTag(dir)) return;
  for (const name of names) {
    const path = join(dir, name);
    const whose = await whoseFile(path);
    if (whose === "other" || (whose === "store" && !STORE_FILE_NAME.test(name))) throw new ForeignFolderError(path);
  }
  try {
    await writeFile(join(dir, CACHE_TAG_FILE), CACHE_TAG, { flag: "wx" });
  } catch (error) {
    // a tag written meanwhile by a second writer is fine; one of another tool is left as it is
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
}
