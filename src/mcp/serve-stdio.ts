/**
 * Serve the MCP tools over stdio until the client goes away. stdout carries
 * only protocol messages; every log line goes to `log` (stderr).
 *
 * @example
 * await serveStdio({ root: "/repo", flags: {}, version: "0.1.0", log: (l) => process.stderr.write(`${l}\n`) });
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { RetrieveOptions } from "../index.js";
import { createMcpServer } from "./create-server.js";
import { createWarmRetriever } from "./warm-retriever.js";

export interface ServeStdioOptions {
  /** Absolute root. */
  root: string;
  /** Command-line options, over the root's config. */
  flags: RetrieveOptions;
  version: string;
  log: (line: string) => void;
}

/**
 * Build the index once (so a bad root or config fails at start, before any
 * client call), then answer calls; resolves when stdin closes.
 */
export async function serveStdio({ root, flags, version, log }: ServeStdioOptions): Promise<void> {
  const warm = createWarmRetriever({ root, flags, log });
  await warm.current();
  const server = createMcpServer({ warm, version });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    const finish = () => {
      void server.close().finally(resolve);
    };
    process.stdin.once("end", finish);
    process.stdin.once("close", finish);
    server.server.onclose = () => resolve();
  });
  await server.connect(transport);
  log(`graph-retrieve mcp: serving ${root} over stdio (tools: retrieve_context, explain_file, graph_neighbors, find_symbol)`);
  await closed;
  await warm.close();
}
