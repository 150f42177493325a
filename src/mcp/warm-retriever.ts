/**
 * A Retriever kept warm between MCP calls, over one resident index (see
 * retrieve/resident-index.ts): the index in memory, the calls one at a
 * time, the index written after each answer, and a watch of the indexed
 * folders that refreshes the index between calls with the paths it names.
 * Each call still checks the root (a stat of each file, the config read
 * again), since a watch event can come after the call that follows an
 * edit: an added, removed or edited file is seen by the next call, and
 * the retriever is made again only when the graph, the history or the
 * options changed.
 *
 * @example
 * const warm = createWarmRetriever({ root: "/repo", flags: {}, log: (line) => process.stderr.write(line) });
 * const { retriever } = await warm.current();
 */
import { configToRetrieveOptions, createRetriever, loadConfig, type RetrieveOptions, type Retriever } from "../index.js";
import { createResidentIndex, type ResidentIndex } from "../faces.js";

export interface WarmRetrieverOptions {
  /** Absolute root. */
  root: string;
  /** Options given on the command line: they override the root's config file. */
  flags: RetrieveOptions;
  /** One line at a time, for stderr (never stdout: it carries the protocol). */
  log: (line: string) => void;
  /** Watch the root's folders and refresh on a change, not only on a call (default true). */
  watch?: boolean;
}

/** The retriever as of the latest check, the options it was built with, and a counter bumped on each rebuild. */
export interface WarmState {
  retriever: Retriever;
  options: RetrieveOptions;
  generation: number;
}

export interface WarmRetriever {
  /** Check the root for changes (rebuilding when there are some) and return the retriever. Calls are served one at a time. */
  current(): Promise<WarmState>;
  /** Stop watching the root and write what is left of the index. */
  close(): Promise<void>;
}

/** What a retriever answers from: its options, its graph (the same object while nothing changed) and its history's head. */
function sourcesOf(retriever: Retriever, options: RetrieveOptions): { options: string; graph: object; history: string } {
  const history = retriever.history?.index;
  return { options: JSON.stringify(options), graph: retriever.codeGraph.relations, history: history ? `${history.head}\u0000${history.commits.length}` : "" };
}

export function createWarmRetriever({ root, flags, log, watch = true }: WarmRetrieverOptions): WarmRetriever {
  let state: WarmState | undefined;
  let sources: ReturnType<typeof sourcesOf> | undefined;
  let resident: ResidentIndex | undefined;
  const given = Object.fromEntries(Object.entries(flags).filter(([, value]) => value !== undefined)) as RetrieveOptions;

  const check = async (): Promise<WarmState> => {
    const loaded = await loadConfig(root);
    const options: RetrieveOptions = { ...configToRetrieveOptions(loaded?.config), ...given };
    const started = Date.now();
    // a rebuild starts from the previous one in memory (only changed files parsed, the graph updated in place)
    const retriever = await createRetriever({ ...options, root, ...(resident ? { memory: resident.memory } : {}) });
    const now = sourcesOf(retriever, options);
    if (state && sources && now.options === sources.options && now.graph === sources.graph && now.history === sources.history) return state;
    state = { retriever, options, generation: (state?.generation ?? 0) + 1 };
    sources = now;
    // a graph the watch's refresh already made (and logged) is taken as it is; this call's own work is logged
    const cache = retriever.codeGraph.cache;
    const worked = !cache || cache.parsed > 0 || !cache.graphReused;
    const what = state.generation === 1 ? "indexed" : worked ? "re-indexed (files changed)" : undefined;
    if (what) log(`graph-retrieve mcp: ${what} ${retriever.codeGraph.stats.files} files under ${root} in ${Date.now() - started} ms${loaded ? ` (config: ${loaded.source})` : ""}`);
    return state;
  };

  const residentFor = async (): Promise<ResidentIndex> => {
    if (!resident) {
      // the scan a watch's refresh makes: the one the config and the flags ask for when the server starts
      const options: RetrieveOptions = { ...configToRetrieveOptions((await loadConfig(root))?.config), ...given };
      resident = createResidentIndex({
        root,
        ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}),
        scan: { include: options.include, exclude: options.exclude, alsoInclude: options.alsoInclude, maxFileBytes: options.maxFileBytes },
        label: "graph-retrieve mcp",
        log,
        watch,
      });
    }
    return resident;
  };

  return {
    async current() {
      return (await residentFor()).run(check);
    },
    async close() {
      await resident?.close();
    },
  };
}
