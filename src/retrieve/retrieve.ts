/**
 * The public retrieval API: `retrieve` for one task, `createRetriever` to
 * keep the graph for many.
 */
import { resolve as resolvePath } from "node:path";
import { UsageError } from "../errors.js";
import { buildGraph } from "../graph/build-graph.js";
import { sourceReader } from "../graph/read-source.js";
import type { IndexMemory } from "../graph/index-memory.js";
import { readHistoryBesideBuild } from "../history/beside-build.js";
import { storedEvidenceNumbers } from "../history/evidence-store.js";
import { refreshHistory, type HistoryIndex, type HistoryRead } from "../history/history-index.js";
import type { CodeGraph } from "../graph/code-graph.js";
import type { RetrievalResult } from "../types.js";
import { runIterativeRetrieval } from "./loop.js";
import { checkRetrieveOptions, type RetrieveOptions } from "./retrieve-options.js";
import { createRetrievalContext, type RetrievalContext } from "./retrieval-context.js";
import { runBaselineStrategy } from "./strategies.js";

export interface Retriever {
  /** The graph the retriever keeps. */
  readonly codeGraph: CodeGraph;
  /** The repository's history it read (undefined without one, or with `history: false`), and what that read did. */
  readonly history?: { index: HistoryIndex; read: HistoryRead };
  /** Retrieve the context for one task; options here override the retriever's. */
  retrieve(task: string, options?: Omit<RetrieveOptions, "root" | "maxFileBytes">): Promise<RetrievalResult>;
}

function checkTask(task: unknown): string {
  if (typeof task !== "string" || task.trim() === "") {
    throw new UsageError('retrieve: the task is empty (describe the change, e.g. "Fix the token expiry bug")');
  }
  return task.trim();
}

/** The history a resident process read last, per index memory: its next refresh starts from it. */
const historyMemory = new WeakMap<IndexMemory, HistoryIndex>();

/** The root's history, unless switched off (`history: false`): read, or brought up to date from the index. */
async function historyFor(root: string, options: RetrieveOptions, graphBuilt: Promise<boolean>): Promise<{ index: HistoryIndex; read: HistoryRead } | undefined> {
  if (options.history === false) return undefined;
  const previous = options.memory ? historyMemory.get(options.memory) : undefined;
  const refreshed = await refreshHistory(root, {
    graphBuilt,
    ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
    ...(previous ? { previous } : {}),
    ...(options.historyCommits !== undefined ? { maxCommits: options.historyCommits } : {}),
  });
  if (refreshed && options.memory) historyMemory.set(options.memory, refreshed.history);
  return refreshed ? { index: refreshed.history, read: refreshed.read } : undefined;
}

async function runOn(context: RetrievalContext, task: string, displayRoot: string, options: RetrieveOptions): Promise<RetrievalResult> {
  checkRetrieveOptions(options);
  const input = {
    task,
    displayRoot,
    options,
    // only files the scan found under the root can be read
    readFile: sourceReader(context.codeGraph),
  };
  const strategy = options.strategy ?? "graph";
  return strategy === "graph" ? runIterativeRetrieval(context, input) : runBaselineStrategy(context, input, strategy);
}

/**
 * Build the graph once and answer many tasks over it.
 *
 * @example
 * const retriever = await createRetriever({ root: "./service" });
 * const a = await retriever.retrieve("Fix the token expiry bug");
 * const b = await retriever.retrieve("Add rate limiting to the API endpoints", { maxCycles: 2 });
 */
export async function createRetriever(options: RetrieveOptions = {}): Promise<Retriever> {
  checkRetrieveOptions(options);
  const displayRoot = options.root ?? ".";
  const root = resolvePath(displayRoot);
  // the history is read beside the build (git on the other core while the scan and parse run)
  const { built: codeGraph, history } = await readHistoryBesideBuild(
    () =>
      buildGraph(root, {
        include: options.include,
        exclude: options.exclude,
        alsoInclude: options.alsoInclude,
        maxFileBytes: options.maxFileBytes,
        ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
        ...(options.onProgress !== undefined ? { onProgress: options.onProgress } : {}),
        ...(options.memory !== undefined ? { memory: options.memory } : {}),
      }),
    (graphBuilt) => historyFor(root, options, graphBuilt),
  );
  // a one-shot run with a store reads the history's file evidence from it (made and stored when the history or the
  // file set changed); a resident process keeps it in memory
  const numbers = history && options.cacheDir !== undefined && !options.memory ? await storedEvidenceNumbers(options.cacheDir, history.index, codeGraph.files) : undefined;
  const context = createRetrievalContext(codeGraph, history?.index, numbers);
  return {
    codeGraph,
    ...(history ? { history } : {}),
    // async, so a blank task rejects the promise like every other failure instead of throwing before it
    retrieve: async (task, overrides = {}) => runOn(context, checkTask(task), displayRoot, { ...options, ...overrides }),
  };
}

/**
 * Find the files an agent must read for a task, by iterative retrieval over
 * the codebase's graph.
 *
 * @example
 * const result = await retrieve("Fix the authentication token expiry bug", { root: "./service" });
 * result.context; // the files to read, best first
 */
export async function retrieve(task: string, options: RetrieveOptions = {}): Promise<RetrievalResult> {
  const checked = checkTask(task);
  const retriever = await createRetriever(options);
  return retriever.retrieve(checked);
}
