/**
 * The tools' output schemas: the shape of each answer's structuredContent,
 * as zod shapes the SDK turns into the JSON Schema `tools/list` advertises
 * and checks every answer against. Data, one per tool.
 *
 * @example
 * server.registerTool("retrieve_context", { inputSchema, outputSchema: RETRIEVE_CONTEXT_OUTPUT }, handler);
 */
import { z } from "zod";

const BAND = z.enum(["high", "medium", "low", "excluded"]);

export const RETRIEVE_CONTEXT_OUTPUT = {
  schemaVersion: z.literal(2),
  task: z.string(),
  root: z.string().describe("The codebase's absolute root"),
  format: z.enum(["md", "json", "paths"]),
  tokenizer: z.string().describe("The tokenizer the budget is counted with"),
  budgetTokens: z.number().int().describe("The answer (text and structured content together) is at most this many tokens"),
  files: z
    .array(
      z.object({
        path: z.string(),
        relevance: z.number(),
        band: BAND,
        role: z
          .enum(["context", "supporting", "candidate"])
          .describe("context: a file to read (its code is shown); supporting: read beside the context (signatures of the names it uses); candidate: the next best guesses"),
        shown: z
          .enum(["whole", "reduced", "signatures", "names", "listed", "ranked"])
          .describe("md: how much of its code the text shows (listed: one line, no code); json and paths: ranked"),
        reason: z.string().optional(),
        missingContext: z.array(z.string()).optional(),
      }),
    )
    .describe("The files the answer shows: the context best first, its supporting files, then the next candidates"),
  context: z.array(z.string()).describe("The files to read, best first (empty only when no file is plausible: decision says why)"),
  supporting: z
    .array(z.object({ path: z.string(), tie: z.enum(["defines", "uses"]), for: z.array(z.string()), names: z.array(z.string()) }))
    .describe("Files to read beside the context: defines (the context files in for use its names) or uses (it uses names of the context files in for)"),
  decision: z.string().describe("Why the context is what it is"),
  leftOut: z.number().int().describe("Ranked files the budget left out (raise budget to see them)"),
  gaps: z.array(z.string()),
  stats: z.object({ strategy: z.string(), cycles: z.number().int(), candidates: z.number().int(), files: z.number().int() }),
};

export const EXPLAIN_FILE_OUTPUT = {
  path: z.string(),
  task: z.string(),
  relevance: z.number(),
  band: BAND,
  inContext: z.boolean(),
  rank: z.number().int().optional(),
  reason: z.string(),
  missingContext: z.array(z.string()),
  matchedTerms: z.array(z.string()),
  cycle: z.number().int().optional(),
  tokens: z.number().int().optional(),
  trace: z.array(z.string()).describe("What each cycle did with the file, one entry a cycle"),
  keywords: z.array(z.string()).optional(),
  definitions: z.array(z.string()).describe("The file's definitions carrying the matched terms"),
  uses: z.array(z.object({ path: z.string(), relevance: z.number().optional(), how: z.string() })).describe("Files it imports or references"),
  usedBy: z.array(z.object({ path: z.string(), relevance: z.number().optional(), how: z.string() })).describe("Files that import or reference it"),
  fillsGapOf: z.array(z.string()).describe("Ranked files whose missing context it is"),
};

const EDGE = { names: z.array(z.string()), kind: z.enum(["import", "reexport"]), typeOnly: z.boolean(), via: z.array(z.string()).optional().describe("Barrel files passed through") };

export const GRAPH_NEIGHBORS_OUTPUT = {
  path: z.string(),
  tokens: z.number().int(),
  lines: z.number().int(),
  imports: z.array(z.object({ target: z.string().describe("A root-relative file, or pkg:<name>"), ...EDGE })),
  importers: z.array(z.object({ path: z.string(), ...EDGE })),
  definedSymbols: z.array(z.object({ name: z.string(), kind: z.string(), exported: z.boolean(), lines: z.string() })),
  referencedSymbols: z.array(z.object({ name: z.string(), definedIn: z.string(), count: z.number().int() })),
};

export const FIND_SYMBOL_OUTPUT = {
  name: z.string(),
  definitions: z.array(z.object({ symbol: z.string(), file: z.string(), kind: z.string(), exported: z.boolean(), lines: z.string() })),
  usedBy: z
    .array(z.object({ file: z.string(), symbol: z.string(), definedIn: z.string(), uses: z.number().int() }))
    .describe("Files using a definition, most uses first (uses 0: imported without a counted use)"),
  moreDefinitions: z.number().int(),
  moreUsers: z.number().int(),
};
