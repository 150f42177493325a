/**
 * Build output committed beside its source: `components/prism-sql.min.js`
 * next to `components/prism-sql.js`. The scan leaves minified files out
 * (their text says nothing a reader can use), yet a repository that
 * commits them changes them with their source, and a change that needs the
 * source then needs its twin too (rebuilt, not edited). Each of the best
 * files with such a twin on disk is followed by it, at the source's chance
 * times the share of the source's commits that changed the twin as well
 * (read from the history: a twin rebuilt only at release time shares few
 * of them and stays low). Without history nothing is known of the twin and
 * nothing is added.
 */
import { lstatSync } from "node:fs";
import { join } from "node:path";
import { numberedPaths, type HistoryIndex } from "../history/history-index.js";
import { minifiedTwinsOf } from "../scan/default-excludes.js";
import type { RankedFile } from "./assemble-result.js";
import { byRelevance } from "./assemble-result.js";
import { TWIN_DOUBT_COMMITS, TWIN_SOURCES } from "./parameters.js";
import type { RetrievalContext } from "./retrieval-context.js";

/** What the twins are decided from. */
export interface TwinEvidence {
  /** A path the index holds (a twin the scan kept is ranked as any file). */
  isIndexed(path: string): boolean;
  /** A regular file under the root (not a link). */
  isFile(path: string): boolean;
  /** How many commits changed `source`, and how many of those changed `twin` too. */
  commits(source: string, twin: string): { changed: number; together: number };
}

/**
 * The twins of the best {@link TWIN_SOURCES} of `ranked`, each at its
 * source's relevance times together / (changed + {@link TWIN_DOUBT_COMMITS}),
 * best first; none whose source's commits never changed it.
 *
 * @example
 * builtTwins(ranked, evidence);
 * // [{ path: "components/prism-sql.min.js", relevance: 0.71, reason: "minified build of components/prism-sql.js: changed with it in 18 of its 19 commits", … }]
 */
export function builtTwins(ranked: readonly RankedFile[], evidence: TwinEvidence): RankedFile[] {
  const twins: RankedFile[] = [];
  const seen = new Set<string>();
  for (const source of [...ranked].sort(byRelevance).slice(0, TWIN_SOURCES)) {
    for (const twin of minifiedTwinsOf(source.path)) {
      if (seen.has(twin) || evidence.isIndexed(twin) || !evidence.isFile(twin)) continue;
      const { changed, together } = evidence.commits(source.path, twin);
      if (together === 0) continue;
      seen.add(twin);
      const share = together / (changed + TWIN_DOUBT_COMMITS);
      twins.push({
        path: twin,
        relevance: Math.round(source.relevance * share * 1000) / 1000,
        score: source.score + Math.log(share),
        reason: `minified build of ${source.path}: changed with it in ${together} of its ${changed} commits`,
        missingContext: [],
        matchedTerms: [],
      });
    }
  }
  return twins.sort(byRelevance);
}

/**
 * Commit counts from the history as read: how many commits changed a path,
 * and how many changed two paths together (paths as each commit named
 * them; a renamed file counts from its rename on).
 *
 * @example
 * historyCommits(history)("components/prism-sql.js", "components/prism-sql.min.js"); // { changed: 19, together: 18 }
 */
export function historyCommits(history: HistoryIndex): TwinEvidence["commits"] {
  // made on the first twin found on disk: a query with none reads nothing of the history here
  let numbered: { idOf: Map<string, number>; paths: ReturnType<typeof numberedPaths>["paths"] } | undefined;
  return (source, twin) => {
    if (!numbered) {
      const { names, paths } = numberedPaths(history);
      numbered = { idOf: new Map(names.map((name, id) => [name, id])), paths };
    }
    const a = numbered.idOf.get(source);
    const b = numbered.idOf.get(twin);
    let changed = 0;
    let together = 0;
    if (a === undefined) return { changed, together };
    for (const commit of numbered.paths) {
      if (!commit.includes(a)) continue;
      changed++;
      if (b !== undefined && commit.includes(b)) together++;
    }
    return { changed, together };
  };
}

/** The counts of each history as read, made once (a resident process answers many queries from one). */
const countsOf = new WeakMap<HistoryIndex, TwinEvidence["commits"]>();

/**
 * The evidence of a retrieval's context: its index, the files under its
 * root (a twin's path is its source's folder and name with another ending:
 * never outside the root), its history; `isAllowed` the query's path test.
 */
export function twinEvidence(context: RetrievalContext, history: HistoryIndex, isAllowed: (path: string) => boolean): TwinEvidence {
  let commits = countsOf.get(history);
  if (!commits) countsOf.set(history, (commits = historyCommits(history)));
  return {
    isIndexed: (path) => context.codeGraph.files.has(path),
    isFile: (path) => {
      if (!isAllowed(path)) return false;
      try {
        return lstatSync(join(context.codeGraph.root, path), { throwIfNoEntry: false })?.isFile() === true;
      } catch {
        return false;
      }
    },
    commits,
  };
}
