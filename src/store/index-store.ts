/**
 * The persistent index of one root: parsed facts per file keyed by content
 * hash, the scan metadata that lets a warm run skip reading a file, where
 * each import led, and the assembled graph.
 *
 * On disk, in the store folder (and nowhere else):
 * - `index.json`: header, files (size, mtime, hash, import targets with
 *   the line of each unresolved one, and the light facts: path, language,
 *   lines, tokens…), the
 *   resolution fingerprint, the key of the graph it produced, where
 *   each file's heavy facts sit in facts.bin, and what the walk read of
 *   each folder (its times and candidate files: the next walk takes a
 *   folder unchanged since from it, see ScanHints.folders);
 * - `facts.bin`: a header line (the store header and the key of what
 *   follows), then each file's heavy facts (definitions, exports,
 *   references, vocabulary, literals, imports) as ASCII JSON one after
 *   another, then the
 *   sections the graph stage hands over as bytes (the term postings);
 * - `graph.json`: header, that key, the graph (compact form, see
 *   src/graph/serialize-graph.ts) and what each file's edges read;
 * - `stat-list.txt` (a root of 2,000+ files and folders): the paths the
 *   next walk stats, for a worker that stats them ahead (stat-list.ts).
 * Each is written whole to a temp file and renamed over the old one,
 * index.json last, so a reader (or a second process indexing the same root)
 * never sees a torn file; a graph.json or facts.bin whose key is not the
 * index's is not used.
 *
 * Why two files for the facts: a warm query reads the heavy facts of the
 * few files it looks at, not of every file. On effect@4.1.0 (548 files),
 * the heavy facts are 12 of index.json's 13.5 MB; a loaded file's heavy
 * facts are read from facts.bin and parsed on first use (ParsedFile
 * getters, facts-body.ts), and written back as the bytes they were read
 * from.
 * ASCII JSON: characters past U+007F are written as `\uXXXX`
 * escapes, so the file reads back as a one-byte string (latin1, no UTF-8
 * decoding) and JSON.parse makes one-byte strings of it; one `┌` in a doc
 * comment made V8 hold the whole 6 MB text, and every string parsed from
 * it, in two bytes a character. A file with other bytes (written before) is
 * read as UTF-8.
 */
import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { FolderSnapshot } from "../scan/index.js";
import type { Diagnostic, ParsedFile } from "../types.js";
import { hashContent } from "../util/content-hash.js";
import { jsonText, toAsciiJson } from "./ascii-json.js";
import type { ConfigHash } from "./resolution-fingerprint.js";
import { headerMismatch, PARSER_CHANGED, type StoreHeader } from "./store-header.js";
import { openFactsFile, type FactsBody } from "./facts-body.js";
import { claimStoreFolder, hasOurTag, whoseFile } from "./store-folder.js";
import { saveStatList, STAT_LIST_FILE } from "./stat-list.js";
import { removeStaleTempFiles, writeFileAtomic } from "./write-atomic.js";

export const INDEX_FILE = "index.json";
export const GRAPH_FILE = "graph.json";
export const FACTS_FILE = "facts.bin";

/** True when `dir` holds an index file: a build there starts from it (else from nothing). */
export function holdsIndex(dir: string): boolean {
  return existsSync(join(dir, INDEX_FILE));
}

/** One file's entry. */
export interface StoredFile {
  size: number;
  mtimeMs: number;
  /** sha1 of the bytes the facts were parsed from. */
  hash: string;
  parsed: ParsedFile;
  /** Where each import fact led (same order as `parsed.imports`): a file, `pkg:<name>`, or null when unresolved. */
  targets?: Array<string | null>;
  /** The `unresolved` diagnostic of each import fact that has one, by the fact's index (without its line: lines move), and the line it was on in these facts. */
  unresolved?: Array<[index: number, diagnostic: Diagnostic, line?: number]>;
}

export interface IndexStore {
  header: StoreHeader;
  /** By root-relative path. */
  files: Record<string, StoredFile>;
  /**
   * What the import targets were resolved against (file set + config files), see resolution-fingerprint.ts; with the
   * config files' hashes as that fingerprint took them, and when it began (the next one reuses a hash on its stat).
   */
  resolution?: { fingerprint: string; diagnostics: Diagnostic[]; configs?: ConfigHash[]; configsTakenAt?: number };
  /** Key of the graph assembled from these facts and targets (matches graph.json's). */
  graphKey?: string;
  /** That graph's node and edge counts (its stats, without reading graph.json). */
  graphCounts?: StoredGraphCounts;
  /** The key of the .gitignore rules the files were scanned under (see ScanHints.ignoreKey). */
  ignoreKey?: string;
  /** What the walk read of each folder, for the next walk under the same options (see ScanHints.folders). */
  folders?: StoredFolders;
}

/** A walk's folders: its options' key, its snapshot, and the config files of the folders holding any. */
export interface StoredFolders {
  scanKey: string;
  snapshot: FolderSnapshot;
  configNames: Record<string, string[]>;
}

/** A graph's counts: symbol and package nodes, edges by kind. */
export interface StoredGraphCounts {
  symbols: number;
  packages: number;
  edges: Record<string, number>;
}

/** Sections the graph stage stores beside the facts, as bytes the store does not read. */
export interface StoredSections {
  /** The term postings of the files (graph/term-postings.ts). */
  postings?: Uint8Array;
  /** The file links and symbol uses of the graph named by graphKey (graph/file-links.ts). */
  relations?: Uint8Array;
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
  /** Re-export cycles met while assembling. */
  cyclesCut?: number;
  /**
   * With cycles cut: the files (indexes as in `reads`) on the way of a cut.
   * An edit whose recomputed files neither are nor read one of them is
   * updated in place; absent, the graph is assembled in full after an edit.
   */
  cycleFiles?: number[];
}

/** A store read back: the store (empty when missing or unusable) and the warning when it was unusable. */
export interface LoadedStore {
  store: IndexStore;
  /** Set when a store existed but could not be used (damaged, another version): it is rebuilt. */
  warning?: Diagnostic;
  /** True when a usable store was found. */
  found: boolean;
  /** The sections stored with these facts (valid for exactly these files and facts). */
  sections?: StoredSections;
}

/**
 * The facts a file's entry keeps in facts.bin, read when first used (the rest sit in index.json, read with it). The
 * import facts are among them: a warm query whose files and resolution are as stored reads none of them (the
 * 54,782-file tree: 12 MB of index.json, ~0.1-0.2 s of its parse, no longer read).
 */
const HEAVY_KEYS = ["definitions", "exports", "references", "vocabulary", "literals", "imports"] as const;
type HeavyKey = (typeof HEAVY_KEYS)[number];
type HeavyFacts = Pick<ParsedFile, HeavyKey>;
const HEAVY = new Set<string>(HEAVY_KEYS);

/** Where a loaded file's heavy facts sit in facts.bin, by the facts object made from them: written back unread. */
const storedHeavy = new WeakMap<ParsedFile, { body: FactsBody; at: number; length: number }>();

function storedBytes(parsed: ParsedFile): Buffer | undefined {
  const stored = storedHeavy.get(parsed);
  return stored?.body.bytes(stored.at, stored.length);
}
/** A loaded file's heavy facts, once read. */
const readHeavy = new WeakMap<ParsedFile, HeavyFacts>();
/** A loaded file's definitions and exports, read alone before the rest was. */
const readNames = new WeakMap<ParsedFile, NameFacts>();

function heavyOf(parsed: ParsedFile): HeavyFacts {
  let heavy = readHeavy.get(parsed);
  if (!heavy) {
    heavy = JSON.parse((storedBytes(parsed) as Buffer).toString("latin1")) as HeavyFacts;
    // the same arrays as read alone before, if they were: a caller may hold them
    const names = readNames.get(parsed);
    if (names) Object.assign(heavy, names);
    readHeavy.set(parsed, heavy);
  }
  return heavy;
}

/**
 * What a file defines and exports, the first of its heavy facts as written
 * (`{"definitions":…,"exports":…,"references":…`): a task naming an
 * identifier asks every file holding one of its terms what it defines
 * (babel: 854 files), and the rest of their facts (references, vocabulary,
 * literals, imports) is most of the bytes. Read up to the third key, which
 * no string holds unescaped; the whole when the bytes are not in that order.
 */
const NAME_KEYS = ["definitions", "exports"] as const;
type NameFacts = Pick<HeavyFacts, (typeof NAME_KEYS)[number]>;
const NAMES_END = Buffer.from(',"references":', "latin1");
const NAMES_START = Buffer.from('{"definitions":', "latin1");

function namesOf(parsed: ParsedFile): NameFacts {
  const heavy = readHeavy.get(parsed);
  if (heavy) return heavy;
  let names = readNames.get(parsed);
  if (!names) {
    const bytes = storedBytes(parsed) as Buffer;
    const end = bytes.indexOf(NAMES_END);
    if (end < 0 || !bytes.subarray(0, NAMES_START.length).equals(NAMES_START)) return heavyOf(parsed);
    names = JSON.parse(`${bytes.toString("latin1", 0, end)}}`) as NameFacts;
    readNames.set(parsed, names);
  }
  return names;
}

/**
 * The heavy facts' getters, one set shared by every loaded file (an object
 * literal with getters made four closures a file: 0.6 s for rollup's
 * 12,724 files, against 0.05-0.15 s for these).
 */
const HEAVY_GETTERS: PropertyDescriptorMap = Object.fromEntries(
  HEAVY_KEYS.map((key) => [
    key,
    {
      get: (NAME_KEYS as readonly string[]).includes(key)
        ? function (this: ParsedFile) {
            return namesOf(this)[key as keyof NameFacts];
          }
        : function (this: ParsedFile) {
            return heavyOf(this)[key];
          },
      enumerable: true,
      configurable: true,
    },
  ]),
);

/** A file's facts whose heavy part is read from the body's [at, at + length) and parsed on first use. */
function lazyParsedFile(light: Omit<ParsedFile, HeavyKey>, body: FactsBody, at: number, length: number): ParsedFile {
  // one defineProperty a key: defineProperties reads its descriptor map anew for each object (~10 ms on rollup)
  for (const key of HEAVY_KEYS) Object.defineProperty(light, key, HEAVY_GETTERS[key]!);
  const parsed = light as ParsedFile;
  storedHeavy.set(parsed, { body, at, length });
  return parsed;
}

/** The light facts of a file (its own keys but the heavy ones: a lazy file's getters are not called). */
function lightOf(parsed: ParsedFile): Omit<ParsedFile, HeavyKey> {
  const light: Record<string, unknown> = {};
  for (const key of Object.keys(parsed)) if (!HEAVY.has(key)) light[key] = (parsed as unknown as Record<string, unknown>)[key];
  return light as Omit<ParsedFile, HeavyKey>;
}

/** The heavy facts as stored: the bytes they were read from, or ASCII JSON. */
function heavyBytesOf(parsed: ParsedFile): Buffer {
  const stored = storedBytes(parsed);
  if (stored) return stored;
  const heavy: HeavyFacts = { definitions: parsed.definitions, exports: parsed.exports, references: parsed.references, vocabulary: parsed.vocabulary, literals: parsed.literals, imports: parsed.imports };
  return Buffer.from(toAsciiJson(heavy), "latin1");
}

/** index.json's entry of a file: the light facts, and where the heavy ones sit in facts.bin's body. */
interface DiskFile extends Omit<StoredFile, "parsed"> {
  parsed: Omit<ParsedFile, HeavyKey>;
  facts: [number, number];
}

/** What index.json says of facts.bin. */
interface DiskFacts {
  key: string;
  postings?: [number, number];
  relations?: [number, number];
}

function emptyStore(header: StoreHeader): IndexStore {
  return { header, files: {} };
}

/** Read `<dir>/<name>` as JSON: undefined when absent, an Error when unreadable or damaged. */
async function readJson(path: string): Promise<unknown> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    return new Error(`cannot read it (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  return parseJson(bytes);
}

/** A file's bytes as JSON, or an Error when damaged. */
function parseJson(bytes: Buffer): unknown {
  const text = jsonText(bytes);
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
  const facts = readFacts(dir, expected, (json as { facts?: unknown }).facts);
  if (typeof facts === "string") return unusable(facts);
  const loaded = withLazyFacts(files as Record<string, DiskFile>, facts.body);
  if (!loaded) return unusable("it is damaged (a file's facts are out of facts.bin)");
  const store = json as IndexStore & { facts?: unknown };
  delete store.facts;
  store.header = expected;
  store.files = loaded;
  return { store, found: true, sections: facts.sections };
}

/** facts.bin's body (read on demand) and sections when it is the one index.json names; else why not. */
function readFacts(dir: string, expected: StoreHeader, named: unknown): { body: FactsBody; sections: StoredSections } | string {
  const facts = named as Partial<DiskFacts> | undefined;
  if (typeof facts !== "object" || facts === null || typeof facts.key !== "string") return "it is damaged (no facts key)";
  let opened: ReturnType<typeof openFactsFile>;
  try {
    opened = openFactsFile(join(dir, FACTS_FILE));
  } catch (error) {
    return `cannot read ${FACTS_FILE} (${(error as NodeJS.ErrnoException).code ?? "error"})`;
  }
  const { head: line, body } = opened;
  let head: { header?: unknown; key?: unknown };
  try {
    head = JSON.parse(line ?? "") as typeof head;
  } catch {
    return `${FACTS_FILE} is damaged`;
  }
  if (headerMismatch(head.header, expected) || head.key !== facts.key || line === undefined) return `${FACTS_FILE} is not the one index.json names (written by another build)`;
  const sections: StoredSections = {};
  for (const name of ["postings", "relations"] as const) {
    const at = facts[name];
    if (inRange(at, body.length)) sections[name] = body.bytes(at[0], at[1]);
  }
  return { body, sections };
}

function inRange(at: unknown, size: number): at is [number, number] {
  return Array.isArray(at) && at.length === 2 && Number.isInteger(at[0]) && Number.isInteger(at[1]) && at[0] >= 0 && at[1] >= 0 && at[0] + at[1] <= size;
}

/** The stored entries with their facts made whole (the heavy part read on first use); undefined when one points outside the body. */
function withLazyFacts(files: Record<string, DiskFile>, body: FactsBody): Record<string, StoredFile> | undefined {
  // each entry is index.json's own object, made whole in place: a new table and entry per file cost rollup's
  // 12,724 files ~15 ms and their garbage
  for (const path of Object.keys(files)) {
    const disk = files[path];
    if (typeof disk !== "object" || disk === null || typeof disk.parsed !== "object" || disk.parsed === null || !inRange(disk.facts, body.length)) return undefined;
    const [at, length] = disk.facts;
    // the range is the entry's last key (as diskFormOf writes it): V8 drops a last key without leaving fast mode
    delete (disk as Partial<DiskFile>).facts;
    (disk as unknown as StoredFile).parsed = lazyParsedFile(disk.parsed, body, at, length);
  }
  return files as unknown as Record<string, StoredFile>;
}

/**
 * The stored graph when its key is `key`, else undefined (absent, damaged,
 * or written for other facts).
 */
export async function loadStoredGraph(dir: string, expected: StoreHeader, key: string): Promise<StoredGraph | undefined> {
  return storedGraphOf(await readJson(join(dir, GRAPH_FILE)), expected, key);
}

/** {@link loadStoredGraph}, read now: for a graph read on first use, after the build that named it returned. */
export function loadStoredGraphSync(dir: string, expected: StoreHeader, key: string): StoredGraph | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(dir, GRAPH_FILE));
  } catch {
    return undefined;
  }
  return storedGraphOf(parseJson(bytes), expected, key);
}

function storedGraphOf(json: unknown, expected: StoreHeader, key: string): StoredGraph | undefined {
  if (json === undefined || json instanceof Error) return undefined;
  const stored = json as Partial<StoredGraph>;
  if (headerMismatch(stored.header, expected) || stored.key !== key || typeof stored.graph !== "object" || stored.graph === null) return undefined;
  return stored as StoredGraph;
}

/**
 * index.json's file table and facts.bin's body for `store` and `sections`,
 * the body in its parts: written one after the other, never joined (a
 * 54,782-file tree's body is 108 MB, and joining it, then joining it again
 * to its head line, held three copies at the cold index's peak).
 */
function diskFormOf(store: IndexStore, sections: StoredSections): { files: Record<string, DiskFile>; body: Uint8Array[]; facts: DiskFacts } {
  const files: Record<string, DiskFile> = {};
  const chunks: Uint8Array[] = [];
  let at = 0;
  for (const [path, entry] of Object.entries(store.files)) {
    const heavy = heavyBytesOf(entry.parsed);
    files[path] = { ...entry, parsed: lightOf(entry.parsed), facts: [at, heavy.length] };
    chunks.push(heavy);
    at += heavy.length;
  }
  const placed: Partial<Record<keyof StoredSections, [number, number]>> = {};
  for (const name of ["postings", "relations"] as const) {
    const bytes = sections[name];
    if (!bytes) continue;
    placed[name] = [at, bytes.byteLength];
    chunks.push(bytes);
    at += bytes.byteLength;
  }
  return { files, body: chunks, facts: { key: hashContent(chunks), ...placed } };
}

/**
 * Write the store folder: graph.json first, then facts.bin, then
 * index.json (which names the other two), each atomically (temp file +
 * rename), after clearing temp files a killed writer left behind. A folder
 * holding an index file that graph-retrieve did not write is refused (see
 * store-folder.ts).
 */
export async function saveIndexStore(dir: string, store: IndexStore, graph?: StoredGraph, sections: StoredSections = {}): Promise<void> {
  // never over a file of the same name that is not the index's (throws ForeignFolderError)
  await claimStoreFolder(dir, [INDEX_FILE, GRAPH_FILE, FACTS_FILE, STAT_LIST_FILE]);
  await removeStaleTempFiles(dir);
  // ASCII text: its latin1 bytes are its UTF-8 bytes, and latin1 encodes without a scan for multi-byte characters
  if (graph) await writeFileAtomic(join(dir, GRAPH_FILE), Buffer.from(toAsciiJson(graph), "latin1"));
  const { files, body, facts } = diskFormOf(store, sections);
  const head = Buffer.from(`${toAsciiJson({ header: store.header, key: facts.key })}\n`, "latin1");
  await writeFileAtomic(join(dir, FACTS_FILE), [head, ...body]);
  await writeFileAtomic(join(dir, INDEX_FILE), Buffer.from(toAsciiJson({ ...store, files, facts }), "latin1"));
  // only a hint for the next walk (see stat-list.ts): a list not written leaves it to ask every path itself
  await saveStatList(dir, store).catch(() => undefined);
}
