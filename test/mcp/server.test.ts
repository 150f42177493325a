/**
 * The MCP server as agents run it: `node dist/cli/main.js mcp --root <tmp
 * copy of fixtures/auth-service>` (dist built by test/global-setup.ts),
 * driven by the SDK's own Client over stdio. Lists the tools, calls each,
 * then edits the tmp copy and sees the edit on the next call.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import type { ExplanationDetails } from "../../src/index.js";
import { HELP } from "../../src/cli/help.js";
import type { ContextAnswer } from "../../src/mcp/context-answer.js";
import type { Neighbors } from "../../src/mcp/describe-neighbors.js";
import type { FileExplanation as BaseExplanation } from "../../src/mcp/explain-file.js";

type FileExplanation = BaseExplanation & ExplanationDetails;

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const BIN = join(REPO_ROOT, "dist", "cli", "main.js");
const FIXTURE = join(REPO_ROOT, "fixtures", "auth-service");
const TASK = "Fix the authentication token expiry bug";
/** fixtures/auth-service/ANSWER.md: exactly these four files. */
const ANSWER = ["src/auth/auth.ts", "src/auth/jwt-utils.ts", "src/auth/session-manager.ts", "src/auth/tokens.ts"];

const ROTATION_FILE = `/**
 * Refresh-token rotation: every refresh spends the presented refresh token
 * and issues a new pair; a token presented twice is reuse, and revokes the
 * whole token family.
 */
import { checkToken, issueTokenPair, type TokenPair, type TokenSubject } from "./tokens";

const spentTokenIds = new Set<string>();

/** Rotate a refresh token: spend it and issue a fresh pair, or detect reuse. */
export function rotateRefreshToken(refreshToken: string, subject: TokenSubject): TokenPair | "reused" | "invalid" {
  const check = checkToken(refreshToken, "refresh");
  if (!check.valid) return "invalid";
  const tokenId = String(check.claims.jti);
  if (spentTokenIds.has(tokenId)) return "reused";
  spentTokenIds.add(tokenId);
  return issueTokenPair(subject);
}
`;

let root: string;
let client: Client;
let stderr = "";
const clientErrors: Error[] = [];

function textOf(result: unknown): string {
  const content = (result as CallToolResult).content;
  expect(content).toHaveLength(1);
  const first = content[0];
  if (first?.type !== "text") throw new Error("expected one text content");
  return first.text;
}

async function call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { isError: result.isError === true, text: textOf(result) };
}

/** A structured answer: its structuredContent, checked to be what a text-only client reads too. */
async function callJson<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = textOf(result);
  expect(result.isError ?? false, text).toBe(false);
  expect(result.structuredContent).toBeDefined();
  if (args.format !== undefined && args.format !== "json") return result.structuredContent as T;
  expect(JSON.parse(text)).toEqual(result.structuredContent);
  return result.structuredContent as T;
}

/** Tokens of an answer as the model may receive it: the text, and the structured content as JSON. */
function answerTokens(result: CallToolResult): number {
  const count = (text: string) => countTokens(text, { disallowedSpecial: new Set() });
  return count(textOf(result)) + (result.structuredContent ? count(JSON.stringify(result.structuredContent)) : 0);
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "gr-mcp-"));
  cpSync(FIXTURE, root, { recursive: true });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "mcp", "--root", root],
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => void (stderr += chunk.toString("utf8")));
  client = new Client({ name: "graph-retrieve-test", version: "0.0.0" });
  client.onerror = (error) => void clientErrors.push(error);
  await client.connect(transport);
});

afterAll(async () => {
  await client?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("graph-retrieve mcp over stdio", () => {
  it("lists the four tools, each described for a model, with its arguments; the CLI's help names each", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["explain_file", "find_symbol", "graph_neighbors", "retrieve_context"]);
    const helpTools = /tools ([a-z_, \n]+); the/.exec(HELP)?.[1]?.split(/,\s*/).map((t) => t.trim());
    expect(helpTools?.sort()).toEqual(tools.map((t) => t.name).sort());
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const tool of tools) {
      expect(tool.description?.length ?? 0).toBeGreaterThan(200);
      expect(tool.description).toMatch(/Call it/);
      expect(tool.description).toMatch(/Returns/);
      expect(tool.annotations?.readOnlyHint).toBe(true);
    }
    expect(byName.get("retrieve_context")?.inputSchema.required).toEqual(["task"]);
    expect(Object.keys(byName.get("retrieve_context")?.inputSchema.properties ?? {}).sort()).toEqual(["budget", "format", "task"]);
    expect(byName.get("explain_file")?.inputSchema.required?.sort()).toEqual(["path", "task"]);
    // each answers structured content too, and says its shape
    for (const tool of tools) expect(tool.outputSchema?.type, tool.name).toBe("object");
    expect(Object.keys(byName.get("retrieve_context")?.outputSchema?.properties ?? {})).toEqual(
      expect.arrayContaining(["files", "tokenizer", "budgetTokens", "leftOut"]),
    );
    expect(Object.keys(byName.get("explain_file")?.outputSchema?.properties ?? {})).toEqual(expect.arrayContaining(["trace", "uses", "usedBy"]));
    expect(byName.get("graph_neighbors")?.inputSchema.required).toEqual(["path"]);
  });

  it("retrieve_context (json) answers the fixture's task with its files first, the text being the structured content", async () => {
    const result = await callJson<ContextAnswer>("retrieve_context", { task: TASK, format: "json" });
    expect(result.schemaVersion).toBe(2);
    expect(result.task).toBe(TASK);
    expect(result.context.length).toBeGreaterThan(0);
    expect(result.files.slice(0, result.context.length).map((f) => f.path)).toEqual(result.context);
    expect(typeof result.decision).toBe("string");
    expect(result.root).toBe(root);
    expect(result.files.slice(0, 3).every((f) => ANSWER.includes(f.path))).toBe(true);
    expect(result.files.every((f) => (f.reason ?? "").length > 0 && f.shown === "ranked")).toBe(true);
    expect(result.tokenizer).toBe("o200k_base (gpt-tokenizer)");
    expect(result.budgetTokens).toBe(8000);
    // 600 tokens: the structured content holds the context, its supporting files and the decision beside the ranked paths
    const paths = await callJson<ContextAnswer>("retrieve_context", { task: TASK, format: "paths", budget: 600 });
    expect(paths.files.length).toBeGreaterThan(0);
    expect(paths.files.map((f) => f.path)).toEqual(result.files.slice(0, paths.files.length).map((f) => f.path));
    expect(paths.files.every((f) => f.reason === undefined)).toBe(true);
  });

  it("retrieve_context (md, the default) is the context pack: the files' code, the answer within the budget", async () => {
    const full = (await client.callTool({ name: "retrieve_context", arguments: { task: TASK } })) as CallToolResult;
    const text = textOf(full);
    expect(full.isError ?? false).toBe(false);
    const shown = (full.structuredContent as unknown as ContextAnswer).files;
    // the answer's files the retrieval ranks first are in the pack, the context's with their code
    const ranked = await callJson<ContextAnswer>("retrieve_context", { task: TASK, format: "json" });
    const first = ranked.files.slice(0, 3).map((f) => f.path);
    expect(first).toEqual(expect.arrayContaining(["src/auth/auth.ts", "src/auth/tokens.ts"]));
    for (const path of ANSWER.filter((p) => first.includes(p))) expect(text).toContain(path);
    // the top file's code, whole
    const topSource = readFileSync(join(root, shown[0]!.path), "utf8");
    for (const line of topSource.split("\n").filter((l) => l.startsWith("export "))) expect(text).toContain(line);
    expect(text).toMatch(/```/);
    expect(shown[0]?.shown).toBe("whole");
    // the context's code, its supporting files' signatures, a name and a reason for the rest
    for (const file of shown) expect(file.shown === "listed", file.path).toBe(file.role === "candidate");
    for (const file of shown.filter((f) => f.role === "supporting")) expect(["signatures", "names"]).toContain(file.shown);
    expect(answerTokens(full)).toBeLessThanOrEqual(8000);
    // 1000: the least the error asks for (the structured content carries the context, its supporting files and the decision)
    for (const budget of [1000, 1500]) {
      const tight = (await client.callTool({ name: "retrieve_context", arguments: { task: TASK, budget } })) as CallToolResult;
      expect(tight.isError ?? false, textOf(tight)).toBe(false);
      expect(answerTokens(tight)).toBeLessThanOrEqual(budget);
      expect(textOf(tight)).toContain("src/auth/");
      const json = (await client.callTool({ name: "retrieve_context", arguments: { task: TASK, budget, format: "json" } })) as CallToolResult;
      expect(answerTokens(json)).toBeLessThanOrEqual(budget);
      expect((json.structuredContent as unknown as ContextAnswer).files.length).toBeGreaterThan(0);
    }
  });

  it("explain_file says why a file scored what it did, each fact once, with a trace entry for every cycle", async () => {
    const ranked = await callJson<ContextAnswer>("retrieve_context", { task: TASK, format: "json" });
    const tokens = await callJson<FileExplanation>("explain_file", { task: TASK, path: "src/auth/tokens.ts" });
    expect(tokens).toMatchObject({ path: "src/auth/tokens.ts", task: TASK, cycle: 1 });
    expect(tokens.inContext).toBe(ranked.context.includes("src/auth/tokens.ts"));
    expect(tokens.rank).toBeLessThanOrEqual(3);
    expect(tokens.reason.length).toBeGreaterThan(0);
    expect(Array.isArray(tokens.missingContext)).toBe(true);
    expect(tokens.matchedTerms.length).toBeGreaterThan(0);
    expect(tokens.trace).toHaveLength(ranked.stats.cycles);
    expect(tokens.trace[0]).toMatch(/^cycle 1: entered the candidates through the search(; in the context \(0\.\d+\))?$/);
    expect(tokens).not.toHaveProperty("details");
    expect(tokens.usedBy.map((l) => l.path)).toEqual(expect.arrayContaining(["src/auth/auth.ts"]));
    expect(tokens.uses.map((l) => l.path)).toContain("src/auth/jwt-utils.ts");
    // whose gap it would fill: a task that names the auth module puts it in the context, with its gap toward checkToken
    const named = await callJson<FileExplanation>("explain_file", { task: `${TASK} in src/auth/auth.ts`, path: "src/auth/tokens.ts" });
    expect(named.fillsGapOf).toContain("src/auth/auth.ts");
    // gaps are the context's and the likely files' (from the medium band on)
    expect(tokens.fillsGapOf.every((p) => ranked.context.includes(p) || ranked.files.some((f) => f.path === p && f.relevance >= 0.5))).toBe(true);
    // the reason is given once: not repeated in another field
    const raw = JSON.stringify(tokens);
    expect(raw.split(tokens.reason).length - 1).toBe(1);
    // a distractor, written the way a model might write it
    const mailer = await callJson<FileExplanation>("explain_file", { task: TASK, path: "./src/notifications/mailer.ts" });
    expect(mailer.path).toBe("src/notifications/mailer.ts");
    expect(mailer.inContext).toBe(false);
    expect(mailer.relevance).toBeLessThan(0.7);
    expect(mailer.trace).toHaveLength(ranked.stats.cycles);
    // a file that never became a candidate: every cycle says so, and what it searched
    const palette = join(root, "src", "colour-palette.ts");
    writeFileSync(palette, 'export const PALETTE = ["crimson", "teal", "ochre"] as const;\n');
    try {
      const never = await callJson<FileExplanation>("explain_file", { task: TASK, path: "src/colour-palette.ts" });
      expect(never.relevance).toBe(0);
      expect(never.trace).toHaveLength(ranked.stats.cycles);
      expect(never.trace[0]).toMatch(/^cycle 1: not a candidate \(searched "authentic", "token", /);
    } finally {
      rmSync(palette);
    }
  });

  it("explain_file and graph_neighbors answer an unknown path with an MCP error result naming close matches", async () => {
    const unknown = await call("explain_file", { task: TASK, path: "src/tokens.ts" });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/^explain_file: "src\/tokens\.ts" is not a source file under the root .* \(did you mean src\/auth\/tokens\.ts\?\)$/);
    const missing = await call("graph_neighbors", { path: "nowhere/at-all.ts" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/^graph_neighbors: "nowhere\/at-all\.ts" is not a source file under the root/);
    // bad arguments are an error result too, and the server lives on
    const invalid = await call("retrieve_context", { task: "" });
    expect(invalid.isError).toBe(true);
    expect((await client.listTools()).tools).toHaveLength(4);
  });

  it("graph_neighbors lists imports, importers, defined and referenced symbols", async () => {
    const n = await callJson<Neighbors>("graph_neighbors", { path: "src/auth/tokens.ts" });
    expect(n.path).toBe("src/auth/tokens.ts");
    expect(n.imports.map((i) => i.target)).toEqual(["pkg:node:crypto", "src/auth/jwt-utils.ts", "src/config/index.ts"]);
    expect(n.imports.find((i) => i.target === "src/auth/jwt-utils.ts")).toMatchObject({
      kind: "import",
      names: expect.arrayContaining(["signJwt", "verifyJwt", "VerifiedClaims"]) as unknown as string[],
    });
    expect(n.importers.map((i) => i.path)).toEqual(expect.arrayContaining(["src/auth/auth.ts", "src/auth/session-manager.ts"]));
    expect(n.importers.every((i) => i.path !== "src/auth/tokens.ts")).toBe(true);
    expect(n.definedSymbols).toContainEqual(expect.objectContaining({ name: "issueRefreshToken", kind: "function", exported: true }));
    expect(n.referencedSymbols).toContainEqual(expect.objectContaining({ name: "signJwt", definedIn: "src/auth/jwt-utils.ts" }));
    expect(n.referencedSymbols.every((s) => s.definedIn !== "src/auth/tokens.ts")).toBe(true);
  });

  it("find_symbol gives a symbol's definition and the files that use it; an unknown name is an error naming similar ones", async () => {
    const found = await callJson<{ definitions: Array<Record<string, unknown>>; usedBy: Array<{ file: string; symbol: string; definedIn: string; uses: number }> }>("find_symbol", { name: "checkToken" });
    expect(found.definitions).toEqual([{ symbol: "checkToken", file: "src/auth/tokens.ts", kind: "function", exported: true, lines: expect.stringMatching(/^76-\d+$/) as unknown as string }]);
    // auth.ts calls it twice (lines 57 and 84)
    expect(found.usedBy).toContainEqual({ file: "src/auth/auth.ts", symbol: "checkToken", definedIn: "src/auth/tokens.ts", uses: 2 });
    expect(found.usedBy.every((u) => u.file !== "src/auth/tokens.ts")).toBe(true);
    // case is ignored when nothing matches exactly
    const lower = await callJson<{ definitions: Array<{ symbol: string }> }>("find_symbol", { name: "checktoken" });
    expect(lower.definitions.map((d) => d.symbol)).toEqual(["checkToken"]);
    const unknown = await call("find_symbol", { name: "checkTok" });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/^find_symbol: no symbol named "checkTok" is defined under the root \(did you mean .*checkToken.*\?\)$/);
  });

  it("sees a file added after the first calls: the next call re-indexes", async () => {
    const task = "Rotate refresh tokens and detect refresh token reuse";
    const before = await callJson<ContextAnswer>("retrieve_context", { task, format: "json" });
    expect(before.files.map((f) => f.path)).not.toContain("src/auth/refresh-rotation.ts");
    const unknown = await call("graph_neighbors", { path: "src/auth/refresh-rotation.ts" });
    expect(unknown.isError).toBe(true);

    writeFileSync(join(root, "src", "auth", "refresh-rotation.ts"), ROTATION_FILE);

    const after = await callJson<ContextAnswer>("retrieve_context", { task, format: "json" });
    // the new file, named for the task's words, is now among the best
    expect(after.files.slice(0, 3).map((f) => f.path)).toContain("src/auth/refresh-rotation.ts");
    const tokens = await callJson<Neighbors>("graph_neighbors", { path: "src/auth/tokens.ts" });
    expect(tokens.importers.map((i) => i.path)).toContain("src/auth/refresh-rotation.ts");
    const explained = await callJson<FileExplanation>("explain_file", { task, path: "src/auth/refresh-rotation.ts" });
    expect(explained.rank).toBeLessThanOrEqual(3);
    expect(stderr).toMatch(/re-indexed \(files changed\)/);
  });

  it("sees an edit to an existing file, and a removed file disappears", async () => {
    writeFileSync(join(root, "src", "logger.ts"), 'import { rotateRefreshToken } from "./auth/refresh-rotation";\nexport const logger = { info() {}, warn() {}, error() {} };\nexport { rotateRefreshToken };\n');
    const logger = await callJson<Neighbors>("graph_neighbors", { path: "src/logger.ts" });
    expect(logger.imports.map((i) => i.target)).toEqual(["src/auth/refresh-rotation.ts"]);
    rmSync(join(root, "src", "auth", "refresh-rotation.ts"));
    const gone = await call("graph_neighbors", { path: "src/auth/refresh-rotation.ts" });
    expect(gone.isError).toBe(true);
  });

  it("re-indexes an edit as the watch sees it, before any call", async () => {
    const reindexed = () => stderr.match(/re-indexed \(files changed\)/g)?.length ?? 0;
    await new Promise((done) => setTimeout(done, 200)); // the last test's changes, seen and done
    const before = reindexed();
    writeFileSync(join(root, "src", "auth", "revocation.ts"), 'import { checkToken } from "./tokens";\nexport const revokeEverything = () => checkToken("", "access");\n');
    for (let i = 0; i < 100 && reindexed() === before; i++) await new Promise((done) => setTimeout(done, 50));
    expect(reindexed()).toBe(before + 1);
    const neighbors = await callJson<Neighbors>("graph_neighbors", { path: "src/auth/revocation.ts" });
    expect(neighbors.imports.map((i) => i.target)).toEqual(["src/auth/tokens.ts"]);
    expect(reindexed()).toBe(before + 1); // the call found it done
  });

  it("wrote nothing but protocol messages on stdout, and logged to stderr", () => {
    expect(clientErrors).toEqual([]);
    expect(stderr).toMatch(/^graph-retrieve mcp: indexed \d+ files under /m);
  });
});

describe("graph-retrieve mcp start-up failures", () => {
  it("an invalid config fails at start with one line and exit 2", () => {
    const bad = mkdtempSync(join(tmpdir(), "gr-mcp-bad-"));
    try {
      cpSync(FIXTURE, bad, { recursive: true });
      writeFileSync(join(bad, "graph-retrieve.config.json"), JSON.stringify({ strategy: "fast" }));
      const run = spawnSync(process.execPath, [BIN, "mcp", "--root", bad], { input: "", encoding: "utf8", timeout: 30_000 });
      expect(run.status).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toBe('graph-retrieve.config.json: "strategy" must be one of "graph", "bm25", "pagerank", got "fast"\n');
    } finally {
      rmSync(bad, { recursive: true, force: true });
    }
  });

  it("options a server has no use for are a usage error", () => {
    const run = spawnSync(process.execPath, [BIN, "mcp", "--format", "json"], { input: "", encoding: "utf8", timeout: 30_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^graph-retrieve mcp: --format does not apply to the server/);
  });

  it("exits 0 when the client closes stdin", () => {
    const run = spawnSync(process.execPath, [BIN, "mcp", "--root", FIXTURE, "--quiet"], { input: "", encoding: "utf8", timeout: 30_000 });
    expect(run.status).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe("");
  });
});
