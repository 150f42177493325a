import { resolve } from "node:path";
import { STRATEGIES, UsageError, type StrategyName } from "../index.js";
import { serveMcp } from "../mcp/serve-mcp.js";
import { cacheDirOption } from "./cache-options.js";
import { VERSION } from "./help.js";
import { EXIT_OK, integerOption, type CliIo } from "./cli-io.js";
import type { CliValues } from "./options.js";

/** Options a server has no use for: the tools choose the task, the format and the wait. */
const NOT_FOR_MCP = ["format", "keywords", "timeout"] as const;

/**
 * `graph-retrieve mcp`: serve the MCP tools over stdio until the client
 * closes stdin. stdout carries protocol messages only; logs go to stderr.
 */
export async function runMcpCommand(values: CliValues, extra: string[], io: CliIo): Promise<number> {
  if (extra.length > 0) throw new UsageError(`graph-retrieve mcp: unexpected argument "${extra[0]}" (usage: graph-retrieve mcp [--root DIR])`);
  const misplaced = NOT_FOR_MCP.find((name) => (values as Record<string, unknown>)[name] !== undefined);
  if (misplaced) throw new UsageError(`graph-retrieve mcp: --${misplaced} does not apply to the server (drop it; the tools take their own arguments)`);
  const strategy = values.strategy as StrategyName | undefined;
  if (strategy !== undefined && !STRATEGIES.includes(strategy)) {
    throw new UsageError(`graph-retrieve mcp: --strategy must be one of ${STRATEGIES.join(", ")}, got "${strategy}"`);
  }
  const flags = {
    include: values.include,
    exclude: values.exclude,
    alsoInclude: values["also-include"],
    maxFileBytes: integerOption(values, "max-file-bytes"),
    maxCycles: integerOption(values, "max-cycles"),
    budgetTokens: integerOption(values, "budget"),
    strategy,
    ...(values.model !== undefined ? { model: resolve(io.cwd, values.model) } : {}),
    ...(values["no-history"] ? { history: false } : {}),
    // the index keeps rebuilds after an edit cheap
    cacheDir: cacheDirOption(values, io, values.root ?? "."),
  };
  const log = values.quiet ? () => undefined : (line: string) => io.stderr(`${line}\n`);
  await serveMcp({ root: resolve(io.cwd, values.root ?? "."), flags, version: VERSION, log });
  return EXIT_OK;
}
