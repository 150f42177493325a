/**
 * Installed as a user installs it, before it is published (README "Install"):
 *
 * 1. `npm pack` of this working tree (its build inputs copied to a temporary
 *    folder, so `prepare` builds there and never over the dist/ other tests
 *    are running): the tarball holds the build `prepare` made;
 * 2. the tarball installed into an empty project with
 *    `npm install --prefer-offline` (the local npm cache that `npm ci`
 *    filled), then `npx graph-retrieve --help`, a retrieval on a fixture, and
 *    one MCP `retrieve_context` call through the SDK's Client over stdio, the
 *    server started as the README's `claude mcp add … -- npx graph-retrieve
 *    mcp --root …` starts it;
 * 3. the global install from a clone (`npm install -g .` in it), into a
 *    temporary prefix, and its bin on PATH.
 *
 * Every folder is under os.tmpdir() and removed afterwards.
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** What `npm pack` needs from the working tree: the package's files and the build's inputs. */
const PACK_INPUTS = ["package.json", "package-lock.json", "README.md", "LICENSE", "tsconfig.json", "tsconfig.build.json", "src", "scripts", "grammars", "data"];
const TASK = "Fix the authentication token expiry bug";
/** fixtures/auth-service/ANSWER.md */
const ANSWER = ["src/auth/auth.ts", "src/auth/jwt-utils.ts", "src/auth/session-manager.ts", "src/auth/tokens.ts"];
const NPM_QUIET = ["--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"];

let work: string;
let tarball: string;
let consumer: string;
let fixture: string;
/** The environment of a user's shell: none of the `npm test` run's npm_* variables. */
let env: NodeJS.ProcessEnv;

function run(command: string, args: string[], cwd: string, extraEnv: NodeJS.ProcessEnv = {}): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, env: { ...env, ...extraEnv }, encoding: "utf8", timeout: 120_000 });
}

function ok(result: SpawnSyncReturns<string>, what: string): string {
  if (result.status !== 0) throw new Error(`${what} exited ${String(result.status)}: ${result.stderr || String(result.error)}`);
  return result.stdout;
}

beforeAll(() => {
  env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  work = mkdtempSync(join(tmpdir(), "gr-e2e-"));
  // 1. npm pack: prepare builds the copy
  const pkg = join(work, "graph-retrieve");
  mkdirSync(pkg);
  for (const name of PACK_INPUTS) cpSync(join(REPO_ROOT, name), join(pkg, name), { recursive: true });
  symlinkSync(join(REPO_ROOT, "node_modules"), join(pkg, "node_modules"), "dir");
  expect(existsSync(join(pkg, "dist"))).toBe(false);
  const packed = JSON.parse(ok(run("npm", ["pack", "--json", "--pack-destination", work, "--loglevel=error"], pkg), "npm pack")) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  tarball = join(work, packed[0]!.filename);
  expect(packed[0]!.files.map((f) => f.path)).toEqual(expect.arrayContaining(["dist/cli/main.js", "dist/index.js", "LICENSE", "data/ranker.bin", "data/ranker-no-history.bin"]));
  // 2. an empty project, the tarball installed from the local npm cache
  consumer = join(work, "consumer");
  mkdirSync(consumer);
  writeFileSync(join(consumer, "package.json"), `${JSON.stringify({ name: "consumer", version: "1.0.0", private: true }, null, 2)}\n`);
  ok(run("npm", ["install", ...NPM_QUIET, tarball], consumer), "npm install <tarball>");
  fixture = join(work, "auth-service");
  cpSync(join(REPO_ROOT, "fixtures", "auth-service"), fixture, { recursive: true });
}, 240_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("installed from a tarball into an empty project", () => {
  it("npm pack ran prepare: the tarball holds a fresh build", () => {
    const installed = join(consumer, "node_modules", "graph-retrieve");
    expect(existsSync(join(installed, "dist", "cli", "main.js"))).toBe(true);
    expect(existsSync(join(installed, "LICENSE"))).toBe(true);
    expect(JSON.parse(readFileSync(join(installed, "package.json"), "utf8")).license).toBe("MIT");
  });

  it("npx graph-retrieve --help", { timeout: 60_000 }, () => {
    const help = run("npx", ["graph-retrieve", "--help"], consumer);
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/graph-retrieve/);
    expect(help.stdout).toMatch(/--root/);
  });

  it("npx graph-retrieve runs a retrieval on a fixture", { timeout: 60_000 }, () => {
    const retrieval = run("npx", ["graph-retrieve", TASK, "--root", fixture, "--format", "json", "--no-cache", "-q"], consumer);
    expect(retrieval.status, retrieval.stderr).toBe(0);
    const result = JSON.parse(retrieval.stdout) as { files: Array<{ path: string }> };
    expect(result.files.slice(0, 3).every((f) => ANSWER.includes(f.path))).toBe(true);
  });

  /** The two ways README's MCP section starts the server from an install into a project. */
  const launches = () => [
    // claude mcp add graph-retrieve -- npx graph-retrieve mcp --root …, in the project
    { name: "npx in the project", command: "npx", args: ["graph-retrieve"], cwd: consumer },
    // an mcpServers block: node and the installed bin's absolute path, from any folder
    { name: "node and the bin's path", command: process.execPath, args: [join(consumer, "node_modules", "graph-retrieve", "dist", "cli", "main.js")], cwd: work },
  ];

  it("the MCP server, started as README says, answers retrieve_context through the SDK's Client", { timeout: 120_000 }, async () => {
    for (const launch of launches()) {
      const client = new Client({ name: "graph-retrieve-e2e", version: "0.0.0" });
      const transport = new StdioClientTransport({
        command: launch.command,
        args: [...launch.args, "mcp", "--root", fixture, "--no-cache", "--quiet"],
        cwd: launch.cwd,
        env: env as Record<string, string>,
      });
      await client.connect(transport);
      try {
        const answer = (await client.callTool({ name: "retrieve_context", arguments: { task: TASK } })) as CallToolResult;
        expect(answer.isError ?? false, launch.name).toBe(false);
        const text = answer.content[0]?.type === "text" ? answer.content[0].text : "";
        const files = (answer.structuredContent as { files: Array<{ path: string }> }).files;
        expect(ANSWER, launch.name).toContain(files[0]?.path);
        // the top file's code is in the pack
        const exports = readFileSync(join(fixture, files[0]!.path), "utf8").split("\n").filter((l) => l.startsWith("export "));
        expect(exports.length, launch.name).toBeGreaterThan(0);
        for (const line of exports) expect(text, launch.name).toContain(line);
        const tokens = countTokens(text, { disallowedSpecial: new Set() }) + countTokens(JSON.stringify(answer.structuredContent), { disallowedSpecial: new Set() });
        expect(tokens, launch.name).toBeLessThanOrEqual(8000);
      } finally {
        await client.close();
      }
    }
  });
});

describe("installed globally from a clone", () => {
  it("npm install -g . puts graph-retrieve on PATH", { timeout: 120_000 }, () => {
    const prefix = join(work, "global");
    // the copy npm pack built stands for the clone after `npm ci` (which runs the same prepare)
    ok(run("npm", ["install", "-g", ...NPM_QUIET, "--prefix", prefix, "."], join(work, "graph-retrieve")), "npm install -g .");
    const bin = join(prefix, "bin");
    const help = run("graph-retrieve", ["--help"], work, { PATH: `${bin}${delimiter}${env.PATH ?? ""}` });
    expect(help.status, help.stderr).toBe(0);
    expect(help.stdout).toMatch(/--root/);
    const which = execFileSync("sh", ["-c", "command -v graph-retrieve"], { env: { ...env, PATH: `${bin}${delimiter}${env.PATH ?? ""}` }, encoding: "utf8" });
    expect(which.trim()).toBe(join(bin, "graph-retrieve"));
  });
});
