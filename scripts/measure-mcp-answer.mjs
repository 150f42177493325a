// Measure the MCP server's retrieve_context answer as an agent receives it: one call through the SDK's
// Client over stdio, default arguments, the whole result (text and structured content) counted with
// o200k_base. `node scripts/measure-mcp-answer.mjs ROOT "TASK" [BIN]` (BIN: dist/cli/main.js).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";

const [root, task, bin = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "dist", "cli", "main.js")] = process.argv.slice(2);
if (!root || !task) {
  console.error('usage: node scripts/measure-mcp-answer.mjs ROOT "TASK" [BIN]');
  process.exit(2);
}
const client = new Client({ name: "measure", version: "0" });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [bin, "mcp", "--root", root, "--quiet"] }));
const started = performance.now();
const result = await client.callTool({ name: "retrieve_context", arguments: { task } });
const ms = performance.now() - started;
await client.close();
const all = JSON.stringify(result);
const text = result.content.map((c) => c.text ?? "").join("");
const count = (t) => countTokens(t, { disallowedSpecial: new Set() });
console.log(JSON.stringify({ ms: Math.round(ms), answerChars: all.length, answerTokens: count(all), textChars: text.length, textTokens: count(text), structured: result.structuredContent !== undefined }));
