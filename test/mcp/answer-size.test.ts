/**
 * retrieve_context sized for an agent, on a codebase of 300+ files: the
 * sources rxjs and zod ship (node_modules/rxjs/src, node_modules/zod/src,
 * 507 files) copied side by side into a temporary root, served by the built
 * bin and called through the SDK's Client. With default arguments the whole
 * answer (text and structured content) is at most 8,000 tokens under
 * o200k_base (before this was measured: 17,985 tokens for this task); a
 * larger `budget` gives more, and never more than asked.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ContextAnswer } from "../../src/mcp/context-answer.js";
import { bandOf, formatRelevance } from "../../src/retrieve/bands.js";

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const BIN = join(REPO_ROOT, "dist", "cli", "main.js");
const TASK = "Fix the email string validation rejecting plus addresses";

let root: string;
let client: Client;

function tokensOf(result: CallToolResult): number {
  const count = (text: string) => countTokens(text, { disallowedSpecial: new Set() });
  const text = result.content.map((c) => (c.type === "text" ? c.text : "")).join("");
  return count(text) + count(JSON.stringify(result.structuredContent ?? ""));
}

async function retrieveContext(args: Record<string, unknown>): Promise<CallToolResult> {
  const result = (await client.callTool({ name: "retrieve_context", arguments: { task: TASK, ...args } })) as CallToolResult;
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  return result;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "gr-mcp-size-"));
  mkdirSync(join(root, "packages"));
  cpSync(join(REPO_ROOT, "node_modules", "rxjs", "src"), join(root, "packages", "rxjs"), { recursive: true });
  cpSync(join(REPO_ROOT, "node_modules", "zod", "src"), join(root, "packages", "zod"), { recursive: true });
  client = new Client({ name: "graph-retrieve-size-test", version: "0.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, "mcp", "--root", root, "--no-cache", "--quiet"] }));
}, 120_000);

afterAll(async () => {
  await client?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("retrieve_context on a codebase of 300+ files", () => {
  it("answers within 8,000 tokens by default: the context's code, its supporting files' signatures, names with a reason for the rest", async () => {
    const result = await retrieveContext({});
    const answer = result.structuredContent as unknown as ContextAnswer;
    expect(answer.stats.files).toBeGreaterThanOrEqual(300);
    expect(answer.budgetTokens).toBe(8000);
    expect(tokensOf(result)).toBeLessThanOrEqual(8000);
    const text = result.content[0]?.type === "text" ? result.content[0].text : "";
    expect(text).toContain("Budget: ");
    expect(text).toContain("counted with the o200k_base (gpt-tokenizer) tokenizer");
    // at least the best five, whatever their relevance; beyond them only files from 0.2 on
    expect(answer.files.length).toBeGreaterThanOrEqual(5);
    for (const file of answer.files.slice(5)) expect(file.relevance).toBeGreaterThanOrEqual(0.2);
    if (answer.context.length === 0) {
      // nothing plausible: no code, the reason, and the best candidates by name
      expect(answer.decision).toMatch(/^no file is plausible: the best, \S+, is at 0\.\d\d, below the low band \(0\.2\)$/);
      expect(text).toContain(`Nothing handed over: ${answer.decision}.`);
      expect(text).not.toMatch(/```/);
    } else {
      expect(answer.files[0]?.path).toBe(answer.context[0]);
      expect(answer.files[0]?.shown).not.toBe("listed");
    }
    for (const file of answer.files) {
      // code for the context, signatures (or names) for its supporting files, one line for the rest
      if (file.role === "context") expect(["whole", "reduced", "signatures", "names"]).toContain(file.shown);
      else if (file.role === "supporting") expect(["signatures", "names"]).toContain(file.shown);
      else {
        expect(file.shown).toBe("listed");
        expect(text).toMatch(new RegExp(`^- \\d+\\. ${file.path.replace(/[.]/g, "\\.")} · ${formatRelevance(file.relevance)} ${bandOf(file.relevance)} · \\S.*$`, "m"));
      }
    }
    expect(answer.files.filter((f) => f.role === "context").map((f) => f.path)).toEqual(answer.context.slice(0, answer.files.filter((f) => f.role === "context").length));
    expect(answer.files.some((f) => f.role === "candidate")).toBe(true);
  });

  it("a larger budget gives a larger answer, never more than asked", async () => {
    const small = tokensOf(await retrieveContext({}));
    const large = await retrieveContext({ budget: 20_000 });
    expect(tokensOf(large)).toBeLessThanOrEqual(20_000);
    expect(tokensOf(large)).toBeGreaterThanOrEqual(small);
    const json = await retrieveContext({ format: "json", budget: 3000 });
    expect(tokensOf(json)).toBeLessThanOrEqual(3000);
  });
});
