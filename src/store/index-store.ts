/**
 * The persistent index of one root: parsed facts per file keyed by content
 * hash, the scan metadata that lets a warm run skip reading a file, where
 * each import led, and the assembled graph.
 *
 * On disk, in the store folder (and nowhere else):
 * - `index.json`: header, files (facts, size, mtime, hash, import targets),
 *   the resolution fingerprint and the key of the graph it produced;
 * - `graph.json`: header, that key, the graph (compact form, see
 *   src/graph/serialize-graph.ts) and what each file's edges read.
 * Both are written whole to a temp file and renamed over the old one, so a
 * reader (or a second process indexing the same root) never sees a torn
 * file; a graph.json whose key is not the index's is ignored.
 * JSON, not v8.serialize: on effect's 363 files (6.0 MB of facts) reading
 * back takes 174 ms for JSON.parse vs 181 ms for v8.deserialize, and JSON
 * stays readable. ASCII JSON: characters past U+007F are written as `\uXXXX`
 * escapes, so the file reads back as a one-byte string (latin1, no UTF-8
 * decoding) and JSON.parse makes one-byte strings of it; one `┌` in a doc
 * comment made V8 hold the whole 6 MB text, and every string parsed from
 * it, in two bytes a character. A file with other bytes (written before) is
 * read as UTF-8.
 */
import { isAscii } from "node:buffer";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Diagnostic, ParsedFile } from "../types.js";
import { headerMismatch, PARSER_CHANGED, type StoreHeader } from "./store-header.js";
import { claimStoreFolder, hasOurTag, whoseFile } from "./store-folder.js";
import { removeStaleTempFiles, writeFileAtomic } from "./write-atomic.js";

export const INDEX_FILE = "index.json";
export const GRAPH_FILE = "graph.json";

/** One file's entry. */
export interface StoredFile {
  size: number;
  mtimeMs: number;
  /** sha1 of the bytes the facts were parsed from. */
  hash: string;
  parsed: ParsedFile;
  /** Where each import fact led (same order as `parsed.imports`): a file, `pkg:<name>`, or null when unresolved. */
  targets?: Array<string | null>;
  /** The `unresolved` diagnostic of each import fact that has one, by the fact's index (without its line: lines move). */
  unresolved?: Array<[number, Diagnostic]>;
}

export interface IndexStore {
  header: StoreHeader;
  /** By root-relative path. */
  files: Record<string, StoredFile>;
  /** What the import targets were resolved against (file set + config files); see resolution-fingerprint.ts. */
  resolution?: { fingerprint: string; diagnostics: Diagnostic[] };
  /** Key of the graph assembled from these facts and targets (matches graph.json's). */
  graphKey?: string;
}

export interface StoredGraph {
  header: StoreHeader;
  key: string;
  /** The graph in the compact form of src/graph/serialize-graph.ts (opaque to the store). */
  graph: unknown;
  /**
   * For the i-th file in path order, the indexes of the other files its
   * edges read (see assembleGraphWithReads): what lets one edited file
   * update the graph without assembling it again. Absent: no update in place.
   */
  reads?: number[][];
  /** Re-export cycles met while assembling; with any, the graph is assembled in full after an edit. */
  cyclesCut?: number;
}

/** A store read back: the store (empty when missing or unusable) and the warning when it was unusable. */
export interface LoadedStore {
  store: IndexStore;
  /** Set when a store existed but could not be used (damaged, another version): it is rebuilt. */
  warning?: Diagnostic;
  /** True when a usable store was found. */
  found: boolean;
}

function emptyStore(header: StoreHeader): IndexStore {
  return { header, files: {} };
}

/** Read `<dir>/<name>` as JSON: undefined when absent, an Error when unreadable or damaged. */
async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    const bytes = await readFile(path);
    text = bytes.toString(isAscii(bytes) ? "latin1" : "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    return new Error(`cannot read it (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    return new Error(`it is damaged (${error instanceof Error ? error.message.split("\n")[0] : "bad JSON"})`);
  }
}

function storeWarning(path: string, why: string): Diagnostic {
  return { kind: "warning", message: `store: ignored the index at ${path}: ${why} (it is rebuilt; pass --no-cache to skip the index)` };
}

/**
 * Read the index of a store folder. Never throws: a missing store is a
 * cold start, a damaged one or one from another version comes back empty
 * with one warning.
 *
 * @example
 * const { store, warning } = await loadIndexStore(dir, createStoreHeader(realRoot));
 */
export async function loadIndexStore(dir: string, expected: StoreHeader): Promise<LoadedStore> {
  const path = join(dir, INDEX_FILE);
  const json = await readJson(path);
  if (json === undefined) return { store: emptyStore(expected), found: false };
  // someone else's index.json (an untagged folder, not our format): no "rebuilt" warning, the write refuses it
  const unusable = async (why: string): Promise<LoadedStore> =>
    !(await hasOurTag(dir)) && (await whoseFile(path)) !== "store"
      ? { store: emptyStore(expected), found: false }
      : { store: emptyStore(expected), warning: storeWarning(path, why), found: false };
  if (json instanceof Error) return unusable(json.message);
  const mismatch = headerMismatch((json as { header?: unknown }).header, expected);
  // only the parse code changed (development, or a run from the sources after one from dist/): rebuilt quietly
  if (mismatch === PARSER_CHANGED) return { store: emptyStore(expected), found: false };
  if (mismatch) return unusable(mismatch);
  const files = (json as { files?: unknown }).files;
  if (typeof files !== "object" || files === null || Array.isArray(files)) return unusable("it is damaged (no file table)");
  const store = json as IndexStore;
  store.header = expected;
  return { store, found: true };
}

/**
 * The stored graph when its key is `key`, else undefined (absent, damaged,
 * or written for other facts).
 */
export async function loadStoredGraph(dir: string, expected: StoreHeader, key: string): Promise<StoredGraph | undefined> {
  const json = await readJson(join(dir, GRAPH_FILE));
  if (json === undefined || json instanceof Error) return undefined;
  const stored = json as Partial<StoredGraph>;
  if (headerMismatch(stored.header, expected) || stored.key !== key || typeof stored.graph !== "object" || stored.graph === null) return undefined;
  return stored as StoredGraph;
}

const NON_ASCII = /[\u0080-\uffff]/g;

/**
 * JSON text in ASCII: every character past U+007F as a `\uXXXX` escape (one
 * UTF-16 code unit each, so JSON.parse gives back the same string).
 *
 * @example
 * toAsciiJson({ doc: "┌ é" }) // '{"doc":"\\u250c \\u00e9"}'
 */
export function toAsciiJson(value: unknown): string {
  return JSON.stringify(value).replace(NON_ASCII, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * Write the store folder: graph.json first, then index.json, each
 * atomically (temp file + rename), after clearing temp files a killed
 * writer left behind. A folder holding an index.json or graph.json that
 * graph-retrieve did not write is refused (see store-folder.ts).
 */
export async function saveIndexStore(dir: string, store: IndexStore, graph?: StoredGraph): Promise<void> {
  // never over a file of the same name that is not the index's (throws ForeignFolderError)
  await claimStoreFolder(dir, [INDEX_FILE, GRAPH_FILE]);
  await removeStaleTempFiles(dir);
  // ASCII text: its latin1 bytes are its UTF-8 bytes, and latin1 encodes without a scan for multi-byte characters
  if (graph) await writeFileAtomic(join(dir, GRAPH_FILE), Buffer.from(toAsciiJson(graph), "latin1"));
  await writeFileAtomic(join(dir, INDEX_FILE), Buffer.from(toAsciiJson(store), "latin1"));
}
