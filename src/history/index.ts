/**
 * The history stage: the root's git history as the retriever's evidence
 * (git-history.ts reads it, history-index.ts keeps it up to date in the
 * store, file-history.ts turns it into per-file evidence and co-change
 * edges).
 */
export { refreshHistory, type HistoryIndex, type HistoryOptions, type HistoryRead } from "./history-index.js";
export { cochangeEdges, fileHistory, type CochangeEdge, type FileHistory } from "./file-history.js";

import { cochangeEdges, fileHistory, type CochangeEdge } from "./file-history.js";
import { refreshHistory, type HistoryOptions } from "./history-index.js";

/**
 * The co-change edges among `files` of the root's history (none without one).
 *
 * @example
 * const edges = await readCochangeEdges("/repo", (p) => codeGraph.files.has(p), { cacheDir });
 */
export async function readCochangeEdges(root: string, exists: (path: string) => boolean, options: HistoryOptions = {}): Promise<CochangeEdge[]> {
  const refreshed = await refreshHistory(root, options);
  return refreshed ? cochangeEdges(fileHistory(refreshed.history, exists)) : [];
}
