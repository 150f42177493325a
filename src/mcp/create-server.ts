/**
 * The MCP server: four tools (retrieve_context, explain_file,
 * graph_neighbors, find_symbol) over one warm retriever. Each call first
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
import { readExplanationDetails, sourceReader, type RetrievalResult } from "../index.js";
import { buildContextAnswer, MCP_DEFAULT_BUDGET_TOKENS } from "./context-answer.js";
import { describeNeighbors } from "./describe-neighbors.js";
import { explainFile } from "./explain-file.js";
import { findSymbol, similarSymbolNames } from "./find-symbol.js";
import { EXPLAIN_FILE_OUTPUT, FIND_SYMBOL_OUTPUT, GRAPH_NEIGHBORS_OUTPUT, RETRIEVE_CONTEXT_OUTPUT } from "./output-schemas.js";
import { lookUpPath } from "./resolve-path.js";
import type { WarmRetriever, WarmState } from "./warm-retriever.js";

/** Results kept for explain_file after retrieve_context on the same task. */
const CACHED_RESULTS = 16;

export const RETRIEVE_CONTEXT_DESCRIPTION = `Find the files you must read before changing this codebase for a task.
Call it first, when you start a task (fix a bug, add a feature, refactor) and do not yet know which files matter: it replaces grepping and opening files one by one.
Pass the task in plain words, as the user stated it (English or Chinese; naming identifiers, paths or error messages helps).
Returns the context (the files to read, best first, chosen from each file's relevance: the calibrated chance in [0, 1] that the change needs it, so 0.8 is needed about 8 times in 10; empty only when no file is plausible, and then says why), its supporting files (what the context uses or is used by, to read as signatures), and the next candidates, each with a one-line reason (matched terms and symbols, import edges) and its missing context.
format "md" (default) is the context pack: the retrieval's trace, then the context's code with line numbers, best first, reduced to its matching definitions when the budget is tight, then the signatures of the names each supporting file is read for, then the next candidates (at least the best five in all) by name with a one-line reason; "json" is the ranking alone, with reasons and missing context, without code; "paths" is only the best files' paths and relevances.
The whole answer (text and structured content) stays within budget tokens (default ${MCP_DEFAULT_BUDGET_TOKENS}, counted with o200k_base); raise budget for more code.
The index follows the files on disk: edits since the last call are picked up automatically.`;

export const EXPLAIN_FILE_DESCRIPTION = `Explain why one file did or did not make the context for a task.
Call it after retrieve_context when a file you expected is missing, or a listed file looks wrong, before deciding to read or skip it.
Pass the same task and the file's root-relative path (e.g. src/auth/tokens.ts).
Returns JSON: relevance, band (high/medium/low/excluded), inContext, rank, reason, missingContext (what it uses that the context lacks), matchedTerms, the cycle it became a candidate, trace (what each cycle did with it), definitions (those carrying the matched terms), uses and usedBy (its links to other files, ranked ones first) and fillsGapOf. A file that was never a candidate gets relevance 0 and the keywords that were searched.
An unknown path is an error naming close matches.`;

export const GRAPH_NEIGHBORS_DESCRIPTION = `Show a file's place in the import and symbol graph, without reading it.
Call it to follow dependencies: who imports a module before you change its exports or a function's signature, what a file relies on, where the symbols it uses are defined.
Pass a root-relative path (e.g. src/auth/tokens.ts).
Returns JSON: imports (target file or pkg:<name>, the names, type-only, the barrel passed through), importers (files that import it), definedSymbols (name, kind, exported, lines) and referencedSymbols (symbols from other files it uses, with the defining file and use count).
An unknown path is an error naming close matches.`;

export const FIND_SYMBOL_DESCRIPTION = `Find where a symbol (function, class, method, type, variable) is defined and which files use it.
Call it before changing a symbol's signature or behaviour, to know every file the change touches, or to jump to a name you saw in code.
Pass the name as written in code: "checkToken", or "SessionStore.expire" for a member ("expire" finds it too); case is ignored when nothing matches exactly.
Returns JSON: definitions (symbol, file, kind, exported, lines) and usedBy (each file using a definition, with its count of uses; 0 means imported without a counted use), most uses first, at most 50 of each.
An unknown name is an error naming similar ones.`;

export interface McpServerOptions {
  warm: WarmRetriever;
  version: string;
}

/** A structured answer: the structured content, and a text for clients that read only text (the JSON itself unless given). */
function structured(value: object, text = JSON.stringify(value)): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent: value as Record<string, unknown> };
}

function toolError(message: string): CallToolResult {
  return { content: [{ type: "text", text: message }], isError: true };
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

  /**
   * One retrieval per (index generation, task), ranked over every candidate,
   * with the server's options: an answer's budget sizes the answer, not the
   * ranking, so every tool sees the same ranking for a task.
   */
  const retrieveFor = async (state: WarmState, task: string): Promise<RetrievalResult> => {
    const key = JSON.stringify([state.generation, task.trim()]);
    const known = cache.get(key);
    if (known) return known;
    const result = await state.retriever.retrieve(task, { maxResults: Math.max(1, state.retriever.codeGraph.files.size) });
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
        budget: z.number().int().positive().optional().describe(`Most tokens the whole answer may take (default ${MCP_DEFAULT_BUDGET_TOKENS})`),
        format: z.enum(["md", "json", "paths"]).optional().describe('"md" (default): the files\' code; "json": the ranking with reasons; "paths": paths and relevances only'),
      },
      outputSchema: RETRIEVE_CONTEXT_OUTPUT,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ task, budget, format }) =>
      guarded(async () => {
        const state = await warm.current();
        const full = await retrieveFor(state, task);
        const { codeGraph } = state.retriever;
        const answer = await buildContextAnswer(
          { ...full, root: codeGraph.root },
          { codeGraph, readFile: sourceReader(codeGraph), budgetTokens: budget ?? state.options.budgetTokens ?? MCP_DEFAULT_BUDGET_TOKENS, format: format ?? "md" },
        );
        return structured(answer.structured, answer.text);
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
      },
      outputSchema: EXPLAIN_FILE_OUTPUT,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ task, path }) =>
      guarded(async () => {
        const state = await warm.current();
        const lookup = lookUpPath(state.retriever.codeGraph, path);
        if ("error" in lookup) return toolError(`explain_file: ${lookup.error}`);
        const result = await retrieveFor(state, task);
        return structured({ ...explainFile(result, lookup.path), ...readExplanationDetails(result, state.retriever.codeGraph, lookup.path) });
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
      outputSchema: GRAPH_NEIGHBORS_OUTPUT,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ path }) =>
      guarded(async () => {
        const state = await warm.current();
        const lookup = lookUpPath(state.retriever.codeGraph, path);
        if ("error" in lookup) return toolError(`graph_neighbors: ${lookup.error}`);
        return structured(describeNeighbors(state.retriever.codeGraph, lookup.path));
      }),
  );

  server.registerTool(
    "find_symbol",
    {
      title: "A symbol's definitions and users",
      description: FIND_SYMBOL_DESCRIPTION,
      inputSchema: {
        name: z.string().min(1).describe('The symbol\'s name, e.g. "checkToken" or "SessionStore.expire"'),
      },
      outputSchema: FIND_SYMBOL_OUTPUT,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ name }) =>
      guarded(async () => {
        const state = await warm.current();
        const found = findSymbol(state.retriever.codeGraph, name);
        if (found.definitions.length === 0) {
          const similar = similarSymbolNames(state.retriever.codeGraph, name);
          return toolError(`find_symbol: no symbol named "${name}" is defined under the root (${similar.length > 0 ? `did you mean ${similar.join(", ")}?` : "names are as written in code, e.g. createSession or SessionStore.expire"})`);
        }
        return structured(found);
      }),
  );

  return server;
}
