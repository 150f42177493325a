/**
 * Assemble or update: the graph from the files' facts and targets. When
 * the index names a graph for exactly these facts and targets, that one;
 * for the same file set, the previous graph with the edges of the changed
 * files and of the files that read them computed again; else assembled
 * whole.
 */
import type { IndexStore, StoredFile } from "../store/index.js";
import type { ParsedFile } from "../types.js";
import { hashContent } from "../util/content-hash.js";
import { byCodeUnit } from "../util/sort.js";
import { assembleGraphWithReads, asksAnyOf, changedExportNames, type AssembledGraph } from "./assemble-graph.js";
import type { PreviousGraph } from "./index-session.js";
import type { LazyGraph } from "./serialize-graph.js";

/** True when the stored entries are exactly the parsed files' paths (an update in place needs the same file set). */
function hasSameFiles(previous: IndexStore["files"], parsedFiles: readonly ParsedFile[]): boolean {
  if (Object.keys(previous).length !== parsedFiles.length) return false;
  return parsedFiles.every((f) => previous[f.path] !== undefined);
}

/** True when two files' import targets are the same list (kept from the index: the same array). */
function sameTargets(a: StoredFile["targets"], b: StoredFile["targets"]): boolean {
  if (a === b) return true;
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((target, i) => target === y[i]);
}

/**
 * The files whose edges must be computed again: those whose content or
 * import targets changed, and every file whose edges read one of them and
 * can ask it a name whose answer changed (see changedExportNames: an export
 * added that no reader names leaves the readers as they were).
 */
function affectedFiles(
  parsedFiles: readonly ParsedFile[],
  entries: ReadonlyMap<string, StoredFile>,
  previous: IndexStore["files"],
  reads: ReadonlyArray<readonly number[]>,
): { affected: Set<string>; changed: Set<string> } {
  const sorted = parsedFiles.map((f) => f.path).sort(byCodeUnit);
  const changed = new Set<number>();
  for (const [index, path] of sorted.entries()) {
    const now = entries.get(path) as StoredFile;
    const before = previous[path] as StoredFile;
    if (now.hash !== before.hash || !sameTargets(now.targets, before.targets)) changed.add(index);
  }
  const affected = new Set<string>();
  /** per changed file, the names whose lookups can answer differently (undefined: any) */
  const changedNames = new Map<number, Set<string> | undefined>();
  for (const index of changed) {
    const path = sorted[index] as string;
    affected.add(path);
    const now = entries.get(path) as StoredFile;
    const before = previous[path] as StoredFile;
    changedNames.set(index, changedExportNames(before.parsed, now.parsed, before.targets ?? [], now.targets ?? []));
  }
  const parsedAt = (index: number) => (entries.get(sorted[index] as string) as StoredFile).parsed;
  /** per set of names (as one key), whether each file asks one of them: most readers read the same barrels */
  const asked = new Map<string, Map<number, boolean>>();
  for (const [index, list] of reads.entries()) {
    if (affected.has(sorted[index] as string)) continue;
    const names = new Set<string>();
    let any = false;
    for (const read of list) {
      if (!changed.has(read)) continue;
      const these = changedNames.get(read);
      if (these === undefined) any = true;
      else for (const name of these) names.add(name);
    }
    if (any) {
      affected.add(sorted[index] as string);
      continue;
    }
    if (names.size === 0) continue;
    // the names the file or a file it read (a barrel on the way) can ask
    const key = [...names].sort(byCodeUnit).join("\u0000");
    let memo = asked.get(key);
    if (!memo) asked.set(key, (memo = new Map()));
    const asksOf = (i: number) => {
      let answer = memo.get(i);
      if (answer === undefined) memo.set(i, (answer = asksAnyOf(parsedAt(i), names)));
      return answer;
    };
    if (asksOf(index) || list.some(asksOf)) affected.add(sorted[index] as string);
  }
  return { affected, changed: new Set([...changed].map((index) => sorted[index] as string)) };
}

/**
 * Whether, by `reads`, no file of `affected` is one of `cycleFiles` (indexes
 * in path order) or reads one: then its lookups never met a cut cycle.
 */
function clearOfCutsFn(parsedFiles: readonly ParsedFile[], affected: ReadonlySet<string>, cycleFiles: readonly number[]): (reads: ReadonlyArray<readonly number[]>) => boolean {
  if (cycleFiles.length === 0) return () => true;
  const cut = new Set(cycleFiles);
  const recomputed = parsedFiles
    .map((f) => f.path)
    .sort(byCodeUnit)
    .flatMap((path, i) => (affected.has(path) ? [i] : []));
  return (reads) => recomputed.every((i) => !cut.has(i) && !(reads[i] ?? []).some((j) => cut.has(j)));
}

/** What the assembled graph is a function of: each file's content hash and import targets, in path order. */
export function keyOfGraph(parsedFiles: readonly ParsedFile[], entries: ReadonlyMap<string, StoredFile>): string {
  const parts: string[] = [];
  for (const parsed of parsedFiles) {
    const entry = entries.get(parsed.path) as StoredFile;
    parts.push(`${parsed.path}\u0000${entry.hash}\u0000${(entry.targets ?? []).join("\u0001")}`);
  }
  return hashContent(parts.join("\n"));
}

export interface GraphStage {
  /** The graph in its compact form: graphology's graph is restored from it only when something reads it. */
  graph: LazyGraph;
  /** The graph this build assembled or updated (undefined: the previous one, reused as it was). */
  assembled?: AssembledGraph;
  /** Files whose edges were computed again in an update in place. */
  updated?: number;
}

/**
 * @param graphKey this build's {@link keyOfGraph} (undefined without an index)
 * @param previousGraph the graph the index names, under the key `previousKey`
 *
 * @example
 * const { graph } = assembleOrUpdate(parsedFiles, targets, entries, {}, undefined);
 * graph.compact.nodes; // file, symbol and package nodes
 */
export function assembleOrUpdate(
  parsedFiles: readonly ParsedFile[],
  targets: ReadonlyMap<string, ReadonlyArray<string | undefined>>,
  entries: ReadonlyMap<string, StoredFile>,
  previous: IndexStore["files"],
  previousGraph: PreviousGraph | undefined,
  keys: { graphKey?: string; previousKey?: string },
): GraphStage {
  if (previousGraph && keys.graphKey !== undefined && keys.previousKey === keys.graphKey) return { graph: previousGraph.lazy };
  const cycleFiles = previousGraph?.cyclesCut === 0 ? [] : previousGraph?.cycleFiles;
  if (previousGraph?.reads && cycleFiles && hasSameFiles(previous, parsedFiles)) {
    const reads = previousGraph.reads;
    const { affected, changed } = affectedFiles(parsedFiles, entries, previous, reads);
    // with cycles cut somewhere, the update holds when no recomputed file is on a cut's way, or read one before or now
    const clearOfCuts = clearOfCutsFn(parsedFiles, affected, cycleFiles);
    if (clearOfCuts(reads)) {
      const update = assembleGraphWithReads(parsedFiles, targets, { graph: previousGraph.lazy.compact, reads, affected, changed });
      // a re-export cycle among the recomputed files, or a file recomputed that now reads one on a cut's way:
      // which lookup runs first matters, assemble in full
      if (update && update.cyclesCut === 0 && clearOfCuts(update.reads)) {
        update.cyclesCut = previousGraph.cyclesCut ?? 0;
        update.cycleFiles = [...cycleFiles];
        return { graph: update.lazy, assembled: update, updated: affected.size };
      }
    }
  }
  const assembled = assembleGraphWithReads(parsedFiles, targets);
  return { graph: assembled.lazy, assembled };
}
