/**
 * The MCP server: three tools over one warm retriever. Each call first
 * refreshes the retriever (see warm-retriever.ts), so an edit on disk is
 * seen by the next call. Tool failures (an unknown path, an invalid config)
 * come back as MCP error results, never as a crash.
 *
 * @example
 * const server = createMcpServer({ warm, version: "0.1.0" });
 * await server.connect(new StdioServerTransport());
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { renderContextPack, renderExplanation, renderJson, type CodeGraph, type RetrievalResult } from "../index.js";
import { describeNeighbors } from "./describe-neighbors.js";
import { explainFile } from "./explain-file.js";
import { resolveFilePath } from "./resolve-path.js";
import type { WarmRetriever, WarmState } from "./warm-retriever.js";

/** Files listed by retrieve_context (the ranking behind explain_file keeps every candidate). */
const LISTED_FILES = 50;
/** Results kept for explain_file after retrieve_context on the same task. */
const CACHED_RESULTS = 16;

export const RETRIEVE_CONTEXT_DESCRIPTION = `Find the files you must read before changing this codebase for a task.
Call it first, when you start a task (fix a bug, add a feature, refactor) and do not yet know which files matter: it replaces grepping and opening files one by one.
Pass the task in plain words, as the user stated it (English or Chinese; naming identifiers, paths or error messages helps).
Returns the files ranked best first, each with a relevance in [0, 1] (0.7 or more = in the context: read those), a one-line reason (matched terms and symbols, import edges), its missing context (what it depends on that the set lacks), and the trace of the retrieval cycles.
format "md" (default) is the context pack: the trace, then each picked file's code with line numbers, best first, reduced to its matching definitions when the budget is tight; "json" is the ranking alone (schemaVersion 1), without code. budget caps the context in tokens (default 20000).
The index follows the files on disk: edits since the last call are picked up automatically.`;

export const EXPLAIN_FILE_DESCRIPTION = `Explain why one file did or did not make the context for a task.
Call it after retrieve_context when a file you expected is missing, or a listed file looks wrong, before deciding to read or skip it.
Pass the same task and the file's root-relative path (e.g. src/auth/tokens.ts).
Returns JSON: relevance, band (high/medium/low/excluded), inContext, rank, reason, missingContext (what it uses that the context lacks), matchedTerms, the cycle it became a candidate, what each cycle did with it, and details (the definitions carrying the matched terms, its links to the ranked files). A file that was never a candidate gets relevance 0 and the keywords that were searched.
An unknown path is an error naming close matches.`;

export const GRAPH_NEIGHBORS_DESCRIPTION = `Show a file's place in the import and symbol graph, without reading it.
Call it to follow dependencies: who imports a module before you change its exports or a function's signature, what a file relies on, where the symbols it uses are defined.
Pass a root-relative path (e.g. src/auth/tokens.ts).
Returns JSON: imports (target file or pkg:<name>, the names, type-only, the barrel passed through), importers (files that import it), definedSymbols (name, kind, exported, lines) and referencedSymbols (symbols from other files it uses, with the defining file and use count).
An unknown path is an error naming close matches.`;

export interface McpServerOptions {
  warm: WarmRetriever;
  version: string;
}

function text(value: string): CallToolResult {
  return { content: [{ type: "text", text: value }] };
}

function json(value: unknown): CallToolResult {
  return text(JSON.stringify(value));
}

function toolError(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
}

/** The md format: the context pack (the picked files' code, best first, within the budget). */
function renderPack(result: RetrievalResult, codeGraph: CodeGraph, budgetTokens: number | undefined): Promise<string> {
  return renderContextPack(result, {
    codeGraph,
    // only files the scan found under the root are read
    readFile: async (path) => {
      if (!codeGraph.files.has(path)) throw new Error(`"${path}" is not a source file under the root`);
      return readFile(join(codeGraph.root, path), "utf8");
    },
    ...(budgetTokens !== undefined ? { budgetTokens } : {}),
  });
}

/** Run a tool body, turning a thrown error into an MCP error result with its one-line message. */
async function guarded(body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return toolError(message.split("\n")[0] ?? message);
  }
}

export function createMcpServer({ warm, version }: McpServerOptions): McpServer {
  const server = new McpServer({ name: "graph-retrieve", version });
  const cache = new Map<string, RetrievalResult>();

  /** One retrieval per (index generation, task, budget), ranked over every candidate. */
  const retrieveFor = async (state: WarmState, task: string, budget: number | undefined): Promise<RetrievalResult> => {
    const key = JSON.stringify([state.generation, task.trim(), budget ?? null]);
    const known = cache.get(key);
    if (known) return known;
    const result = await state.retriever.retrieve(task, {
      ...(budget !== undefined ? { budgetTokens: budget } : {}),
      maxResults: Math.max(1, state.retriever.codeGraph.files.size),
    });
    cache.set(key, result);
    if (cache.size > CACHED_RESULTS) cache.delete(cache.keys().next().value as string);
    return result;
  };

  server.registerTool(
    "retrieve_context",
    {
      title: "Retrieve the context for a task",
      description: RETRIEVE_CONTEXT_DESCRIPTION,
      inputSchema: {
        task: z.string().min(1).describe("The task in plain words, e.g. \"Fix the authentication token expiry bug\""),
        budget: z.number().int().positive().optional().describe("Token budget of the context (default 20000)"),
        format: z.enum(["md", "json"]).optional().describe('"md" (default): readable; "json": the full result'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ task, budget, format }) =>
      guarded(async () => {
        const state = await warm.current();
        const full = await retrieveFor(state, task, budget);
        const result = { ...full, files: full.files.slice(0, LISTED_FILES) };
        const budgetTokens = budget ?? state.options.budgetTokens;
        return text(format === "json" ? renderJson(result) : await renderPack(full, state.retriever.codeGraph, budgetTokens));
      }),
  );

  server.registerTool(
    "explain_file",
    {
      title: "Explain a file's relevance to a task",
      description: EXPLAIN_FILE_DESCRIPTION,
      inputSchema: {
        task: z.string().min(1).describe("The task, as given to retrieve_context"),
        path: z.string().min(1).describe("Root-relative path of the file, e.g. src/auth/tokens.ts"),
        budget: z.number().int().positive().optional().describe("The budget given to retrieve_context, if any"),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ task, path, budget }) =>
      guarded(async () => {
        const state = await warm.current();
        const lookup = resolveFilePath(state.retriever.codeGraph, path);
        if ("error" in lookup) return toolError(`explain_file: ${lookup.error}`);
        const result = await retrieveFor(state, task, budget);
        const details = renderExplanation(result, state.retriever.codeGraph, lookup.path);
        return json({ ...explainFile(result, lookup.path), details });
      }),
  );

  server.registerTool(
    "graph_neighbors",
    {
      title: "A file's imports, importers and symbols",
      description: GRAPH_NEIGHBORS_DESCRIPTION,
      inputSchema: {
        path: z.string().min(1).describe("Root-relative path of the file, e.g. src/auth/tokens.ts"),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ path }) =>
      guarded(async () => {
        const state = await warm.current();
        const lookup = resolveFilePath(state.retriever.codeGraph, path);
        if ("error" in lookup) return toolError(`graph_neighbors: ${lookup.error}`);
        return json(describeNeighbors(state.retriever.codeGraph, lookup.path));
      }),
  );

  return server;
}
