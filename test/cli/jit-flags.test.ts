import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/cli-io.js";
import { hasKnownFlags, isResident } from "../../src/cli/jit-flags.js";
import { runCli } from "../../src/cli/run-cli.js";
import { createIndexMemory } from "../../src/index.js";
import { REPO_ROOT } from "../support/fixtures.js";

describe("isResident: which commands keep V8's default optimising compiler", () => {
  it("is true for the MCP server and the daemon process, wherever the flags stand", () => {
    expect(isResident(["mcp"])).toBe(true);
    expect(isResident(["--root", "src", "mcp"])).toBe(true);
    expect(isResident(["daemon", "run", "--root", "."])).toBe(true);
    expect(isResident(["--cache-dir", "/tmp/x", "daemon", "run"])).toBe(true);
  });

  it("is false for one-shot commands, daemon control and a task that merely says mcp", () => {
    expect(isResident(["index"])).toBe(false);
    expect(isResident(["fix the token expiry bug"])).toBe(false);
    expect(isResident(["daemon", "start"])).toBe(false);
    expect(isResident(["daemon", "status"])).toBe(false);
    expect(isResident(["--root", "mcp", "index"])).toBe(false);
  });

  it("is false for an argv the CLI will refuse, leaving the error to the CLI", () => {
    expect(isResident(["--no-such-flag", "mcp"])).toBe(false);
  });
});

describe("hasKnownFlags: V8 flags are set only where V8 is known to have them", () => {
  it("is true for the V8 of Node 20 to 24 and false for others, whose unknown flags would print on stdout", () => {
    expect(hasKnownFlags("11.3.244.8-node.33")).toBe(true);
    expect(hasKnownFlags("13.6.233.10-node.18")).toBe(true);
    expect(hasKnownFlags("10.2.154.26-node.26")).toBe(false);
    expect(hasKnownFlags("14.0.1")).toBe(false);
    expect(hasKnownFlags("")).toBe(false);
  });
});

describe("beforeColdBuild: a one-shot command's heap grows less only when it builds from nothing", () => {
  const TASK = "Fix the authentication token expiry bug";
  /** runCli on auth-service, counting the calls of the hook. */
  async function run(argv: string[], extra: Partial<CliIo> = {}): Promise<{ code: number; cold: number }> {
    let cold = 0;
    const io: CliIo = { stdout: () => {}, stderr: () => {}, cwd: REPO_ROOT, isStderrTty: false, beforeColdBuild: () => void cold++, ...extra };
    const code = await runCli(argv, io);
    return { code, cold };
  }

  it("is called before the first build into an index folder and with --no-cache, never once the folder holds an index", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "gr-cold-"));
    try {
      const root = ["--root", "fixtures/auth-service", "-q", "--format", "json"];
      expect(await run([TASK, ...root, "--cache-dir", cacheDir])).toEqual({ code: 0, cold: 1 });
      expect(await run([TASK, ...root, "--cache-dir", cacheDir])).toEqual({ code: 0, cold: 0 });
      expect(await run(["index", "--root", "fixtures/auth-service", "-q", "--cache-dir", cacheDir])).toEqual({ code: 0, cold: 0 });
      expect(await run([TASK, ...root, "--no-cache"])).toEqual({ code: 0, cold: 1 });
      // the index gone: cold again
      rmSync(join(cacheDir, "index.json"));
      expect(await run(["graph", "--root", "fixtures/auth-service", "-q", "--cache-dir", cacheDir])).toEqual({ code: 0, cold: 1 });
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });

  it("is not called in the daemon, which builds from its memory", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "gr-cold-"));
    try {
      const memory = createIndexMemory();
      expect(await run([TASK, "--root", "fixtures/auth-service", "-q", "--cache-dir", cacheDir], { memory })).toEqual({ code: 0, cold: 0 });
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});
