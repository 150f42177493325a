/**
 * graph-retrieve: find the files a coding agent must read for a task, by
 * iterative retrieval (dispatch → evaluate → refine → loop) over a
 * TypeScript codebase's import and symbol graph.
 *
 * @example
 * import { retrieve } from "graph-retrieve";
 *
 * const result = await retrieve("Fix the authentication token expiry bug", { root: "./service" });
 * for (const file of result.files.filter((f) => result.context.includes(f.path))) {
 *   console.log(file.path, file.relevance, file.reason);
 * }
 * result.supporting; // the files to read beside them, with the names used
 *
 * @packageDocumentation
 */
export { buildGraph, type BuildGraphOptions } from "./graph/build-graph.js";
export { plainPath, resolveFilePath, suggestFilePaths, MAX_PATH_SUGGESTIONS, type FilePathLookup } from "./graph/resolve-file-path.js";
export { sourceReader } from "./graph/read-source.js";
export { createIndexMemory, flushIndexMemory, type IndexMemory } from "./graph/index-memory.js";
export { defaultCacheDir, userCacheBase, type CacheDirContext } from "./store/cache-dir.js";
export type {
  CacheStats,
  CodeGraph,
  CompactGraph,
  EdgeAttributes,
  EdgeKind,
  Graph,
  GraphStats,
  NodeAttributes,
  NodeKind,
} from "./graph/code-graph.js";
export { renderGraphDot } from "./render/graph-dot.js";
export { readCochangeEdges, refreshHistory, cochangeEdges, fileHistory, type CochangeEdge, type FileHistory, type HistoryIndex, type HistoryRead, type HistoryOptions } from "./history/index.js";
export { graphToJson, renderGraphJson, type GraphJson } from "./render/graph-json.js";
export { GraphRetrieveError, RootError, UsageError, isKnownError, type ErrorCode } from "./errors.js";
export type * from "./types.js";
export { retrieve, createRetriever, type Retriever } from "./retrieve/retrieve.js";
export type {
  Evaluator,
  EvaluatorInput,
  EvaluatorVerdict,
  QueryExpander,
  RetrieveOptions,
} from "./retrieve/retrieve-options.js";
export { STRATEGIES } from "./retrieve/retrieve-options.js";
export { bandOf, bandRange, BANDS, CONTEXT_THRESHOLD, formatRelevance, EXCLUDE_BELOW, HIGH_BAND, LOW_BAND, MEDIUM_BAND } from "./retrieve/bands.js";
export type { TaskQuery, QueryTerm } from "./retrieve/query.js";
export { renderJson } from "./render/retrieval-json.js";
export { renderText } from "./render/retrieval-text.js";
export { scanFiles } from "./scan/index.js";
export { loadConfig, configToRetrieveOptions, CONFIG_FILE, type LoadedConfig } from "./config/load-config.js";
export { checkConfig, CONFIG_KEYS, type GraphRetrieveConfig } from "./config/check-config.js";
export { renderDot, BAND_COLOURS, type RenderDotOptions } from "./render/retrieval-dot.js";
export { renderSvg, renderDotAsSvg } from "./render/retrieval-svg.js";
export { buildContextPack, renderContextPack, estimateTokens, DEFAULT_PACK_BUDGET_TOKENS, type ContextPack, type ContextPackOptions, type PackedFile, type PackForm } from "./render/context-pack.js";
export { loadTokenCounter, TOKENIZER_NAME, type TokenCounter } from "./util/tokens.js";
export { renderExplanation, readExplanationDetails, type ExplainedLink, type ExplanationDetails } from "./render/explain-file.js";
export {
  readRetrievalSubgraph,
  readFileLinks,
  type FileLink,
  type GapLink,
  type RetrievalSubgraph,
  type RetrievalSubgraphOptions,
  type SubgraphFile,
} from "./render/retrieval-subgraph.js";

