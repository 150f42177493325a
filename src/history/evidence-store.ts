/**
 * The file evidence's numbers (see {@link EvidenceNumbers}) kept in the
 * store folder, `history-evidence.json`, under a key of what they were made
 * from: the history (its HEAD, length, oldest commit and rename mode), every
 * file of the codebase (whether each path exists), and the code that makes
 * them. A warm query of an unchanged tree reads them instead of passing over
 * every commit's paths again (rollup: 62,977 paths in 4,267 commits, ~28 ms
 * of each query). A file made for another key, by another version, or
 * damaged is not used: the numbers are made again and the file rewritten.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { claimStoreFolder } from "../store/store-folder.js";
import { STORE_FORMAT } from "../store/store-header.js";
import { writeFileAtomic } from "../store/write-atomic.js";
import { hashContent } from "../util/content-hash.js";
import { evidenceNumbers, type EvidenceNumbers } from "./file-history.js";
import { numberedPaths, type HistoryIndex } from "./history-index.js";

export const EVIDENCE_FILE = "history-evidence.json";
/** Bumped when the stored form changes. */
const EVIDENCE_VERSION = 1;

let codeHash: string | undefined;

/**
 * sha1 of the history code (src|dist/history): a change to how the numbers
 * are made changes the key even at the same version (in development).
 */
function hashHistoryCode(): string {
  if (codeHash !== undefined) return codeHash;
  const path = fileURLToPath(new URL("../history/", import.meta.url));
  const parts: string[] = [];
  for (const file of readdirSync(path).filter((f) => /\.(js|ts)$/.test(f) && !f.endsWith(".d.ts")).sort()) parts.push(`${file}:${hashContent(readFileSync(path + file))}`);
  codeHash = hashContent(parts.join("\n"));
  return codeHash;
}

/**
 * The key of the numbers made from `history` for a codebase of `files`.
 *
 * @example
 * evidenceKey(history, codeGraph.files.keys()); // "3f1c…" (40 hex digits)
 */
export function evidenceKey(history: HistoryIndex, files: Iterable<string>): string {
  const oldest = history.commits[history.commits.length - 1]?.hash ?? "";
  // the string table's size too: the numbers name files by their number in it
  const made = [EVIDENCE_VERSION, hashHistoryCode(), history.head, history.commits.length, oldest, history.exactRenames, numberedPaths(history).names.length].join("\u0000");
  // every file: the numbers count only those the history names, but which of its paths exist is what they depend on
  return hashContent(`${made}\u0000${[...files].join("\n")}`);
}

/** Starts of consecutive runs: `count` + 1 of them, from 0 to `total`. */
function startsOf(list: unknown, count: number, total: number): list is number[] {
  return Array.isArray(list) && list.length === count + 1 && list[0] === 0 && list[count] === total;
}

/**
 * The numbers when `value` has the shape of a set of them for `history`,
 * else undefined. Their values are vouched for by the body's checksum, not
 * checked one by one (~100k numbers on rollup, ~10 ms in V8's interpreter).
 */
function shapedNumbers(value: unknown, history: HistoryIndex): EvidenceNumbers | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const n = value as Partial<Record<keyof EvidenceNumbers, unknown>>;
  const lists = [n.fileIds, n.changes, n.days, n.lengths, n.commitRecency, n.commitWeight, n.commitFiles, n.paired, n.pairCommits];
  if (!lists.every(Array.isArray)) return undefined;
  const size = (n.fileIds as unknown[]).length;
  const commits = history.commits.length;
  const ok =
    [n.changes, n.days, n.lengths].every((list) => (list as unknown[]).length === size) &&
    [n.commitRecency, n.commitWeight].every((list) => (list as unknown[]).length === commits) &&
    startsOf(n.commitStarts, commits, (n.commitFiles as unknown[]).length) &&
    startsOf(n.pairStarts, (n.paired as unknown[]).length, (n.pairCommits as unknown[]).length);
  return ok ? (value as EvidenceNumbers) : undefined;
}

/**
 * The numbers stored in `dir` under `key`, or undefined (none, another key,
 * damaged). The file is a header line (the store header, the key and the
 * sha1 of the body) and the body, the numbers as JSON.
 */
export function readEvidence(dir: string, key: string, history: HistoryIndex): EvidenceNumbers | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(dir, EVIDENCE_FILE));
  } catch {
    return undefined;
  }
  const newline = bytes.indexOf(10);
  if (newline < 0) return undefined;
  try {
    const head = JSON.parse(bytes.toString("latin1", 0, newline)) as { header?: { format?: unknown; kind?: unknown; version?: unknown }; key?: unknown; body?: unknown };
    if (head?.header?.format !== STORE_FORMAT || head.header.kind !== "history-evidence" || head.header.version !== EVIDENCE_VERSION || head.key !== key) return undefined;
    const body = bytes.subarray(newline + 1);
    if (head.body !== hashContent(body)) return undefined;
    return shapedNumbers(JSON.parse(body.toString("latin1")), history);
  } catch {
    return undefined;
  }
}

/** Write the numbers into the store folder `dir` under `key`. */
export async function saveEvidence(dir: string, key: string, numbers: EvidenceNumbers): Promise<void> {
  await claimStoreFolder(dir, [EVIDENCE_FILE]);
  // numbers only: the body is ASCII
  const body = JSON.stringify(numbers);
  // the header first, so that the folder's guard knows the file for ours (store-folder.ts)
  const head = JSON.stringify({ header: { format: STORE_FORMAT, kind: "history-evidence", version: EVIDENCE_VERSION }, key, body: hashContent(body) });
  await writeFileAtomic(join(dir, EVIDENCE_FILE), `${head}\n${body}`);
}

/**
 * The evidence's numbers for `history` and the codebase's `files`: read
 * from the store folder `dir` when it holds them under the same key, else
 * made now and stored there (a store that cannot be written is only slower
 * next time).
 *
 * @example
 * const numbers = await storedEvidenceNumbers(cacheDir, history, codeGraph.files);
 * evidenceFrom(history, numbers).changes.get("src/router.ts"); // 3
 */
export async function storedEvidenceNumbers(dir: string, history: HistoryIndex, files: ReadonlyMap<string, unknown>): Promise<EvidenceNumbers> {
  const made = () => evidenceNumbers(history, (path) => files.has(path));
  let key: string;
  try {
    key = evidenceKey(history, files.keys());
  } catch {
    return made(); // the history code cannot be read to key them by (a repackaged install): made each time, never stored
  }
  const stored = readEvidence(dir, key, history);
  if (stored) return stored;
  const numbers = made();
  await saveEvidence(dir, key, numbers).catch(() => undefined);
  return numbers;
}
