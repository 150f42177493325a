/**
 * What every cycle reads and nothing changes: the code graph, its lexical
 * index and its file links. Built once per graph, kept by createRetriever
 * across queries.
 */
import type { CodeGraph } from "../graph/code-graph.js";
import { buildLexicalIndex, type LexicalIndex } from "./lexical-index.js";
import type { FileLinks, FileRelations, UsesByFile } from "../graph/file-links.js";
import { evidenceFrom, fileHistory, type EvidenceNumbers, type FileHistory } from "../history/file-history.js";
import type { HistoryIndex } from "../history/history-index.js";

export interface RetrievalContext {
  codeGraph: CodeGraph;
  index: LexicalIndex;
  links: FileLinks;
  /** Each file's uses of other files' symbols (what its gaps are made of). */
  uses: UsesByFile;
  /** What the repository's history says of each file; undefined without history. */
  history?: FileHistory;
  /** The history as read (every path each commit changed, the codebase's or not); undefined without history. */
  historyIndex?: HistoryIndex;
}

/**
 * The lexical index and links of graphs still in use, by the graph's
 * relations. A build that finds nothing changed hands back the same graph
 * (and so the same relations) only when the index is kept in memory (a
 * resident process); its next retriever then skips building them again.
 * Without memory every graph is new and never found.
 */
const builtFor = new WeakMap<FileRelations, Omit<RetrievalContext, "codeGraph">>();

/**
 * Everything a retrieval reads, built from the facts' term postings and the
 * graph's relations: a graph loaded from the index is not read for it.
 *
 * @param numbers the history evidence's numbers when already made (read from the store): else made now
 */
export function createRetrievalContext(codeGraph: CodeGraph, history?: HistoryIndex, numbers?: EvidenceNumbers): RetrievalContext {
  const relations = codeGraph.relations;
  let built = builtFor.get(relations);
  if (!built) {
    built = { index: buildLexicalIndex(codeGraph), links: relations.links, uses: relations.uses };
    builtFor.set(relations, built);
  }
  if (!history) return { codeGraph, ...built };
  const key = `${history.head}\u0000${history.commits.length}`;
  let evidence = historyFor.get(relations);
  if (evidence?.key !== key) {
    evidence = { key, history: numbers ? evidenceFrom(history, numbers) : fileHistory(history, (path) => codeGraph.files.has(path)) };
    historyFor.set(relations, evidence);
  }
  return { codeGraph, ...built, history: evidence.history, historyIndex: history };
}

/** The history evidence of graphs still in use, by the graph's relations and the history's HEAD. */
const historyFor = new WeakMap<FileRelations, { key: string; history: FileHistory }>();

/** One keyword of a cycle's query. */
export interface Keyword {
  term: string;
  weight: number;
  /** Where it came from: the task, a verbatim code word, the caller, the glossary, the thesaurus, the codebase's own vocabulary. */
  source: "task" | "verbatim" | "keyword" | "glossary" | "thesaurus" | "abbreviation" | "vocabulary";
  /** The word as the task (or the source) wrote it. */
  original: string;
  /**
   * The task concept this keyword stands for (the normalised task term; a
   * synonym or abbreviation shares its term's concept). Undefined for
   * learned vocabulary, which supports a match but is no concept of the task.
   */
  concept?: string;
}

/** The search criteria of one cycle, as REFINE leaves them for the next. */
export interface CycleQuery {
  keywords: Keyword[];
  /** Code words of the task, lower-cased, for exact definition-name matches. */
  identifiers: string[];
  /** Folders of high-relevance files (`src/auth/`). */
  patterns: string[];
  /** Paths excluded for good (relevance < 0.2 in an earlier cycle). */
  excluded: Set<string>;
  /** Files to evaluate whatever their lexical score: expansion along import edges toward gaps. */
  focus: Map<string, string>;
  /** Task concepts → weight (the idf of their best alternative present in the codebase); what coverage is measured against. */
  concepts: Map<string, number>;
  /** Terms REFINE just added: an excluded file whose name or definitions hold one comes back. */
  newTerms: Set<string>;
}
