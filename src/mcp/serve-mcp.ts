/**
 * The MCP face's entry (`graph-retrieve/mcp`): the library's entry point
 * (src/index.ts) does not import the face that is built on it.
 */
import type { ServeStdioOptions } from "./serve-stdio.js";

export type { ServeStdioOptions };

/**
 * Serve the MCP tools (retrieve_context, explain_file, graph_neighbors, find_symbol) over
 * stdio until the client closes stdin. The MCP SDK is loaded only when this
 * is called, so the other commands do not pay for it.
 *
 * @example
 * import { serveMcp } from "graph-retrieve/mcp";
 * await serveMcp({ root: "/repo", flags: {}, version: "0.1.0", log: (l) => process.stderr.write(`${l}\n`) });
 */
export async function serveMcp(options: ServeStdioOptions): Promise<void> {
  const { serveStdio } = await import("./serve-stdio.js");
  await serveStdio(options);
}
