/**
 * Shared by the reliability tests: temporary roots (always removed), the CLI
 * run in-process or as the built bin, and the checks every hostile run must
 * pass (no stack trace, one line per message, a valid result).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { runCli } from "../../src/cli/run-cli.js";
import type { RetrievalResult } from "../../src/index.js";

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const MAIN = join(REPO_ROOT, "dist", "cli", "main.js");
/** True when the tests run as root: permissions do not stop root, so unreadable-file cases cannot be made. */
export const IS_ROOT_USER = process.getuid?.() === 0;

/** A fresh real (symlink-free) temporary folder; pair with {@link removeTmp}. */
export function makeTmp(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), `graph-retrieve-${prefix}-`)));
}

export function removeTmp(path: string | undefined): void {
  if (path) rmSync(path, { recursive: true, force: true });
}

/**
 * Point the default index folder ($XDG_CACHE_HOME) at a temporary folder for
 * this test file (and the processes it spawns), so no run writes to the
 * user's cache; returns the folder, for {@link removeTmp}.
 */
export function isolateUserCache(): string {
  const dir = makeTmp("xdg-cache");
  process.env.XDG_CACHE_HOME = dir;
  return dir;
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** stderr split into lines, without empty ones. */
  errLines: string[];
  /** Times io.exit was called (after a timeout). */
  exits: number[];
  millis: number;
}

/** runCli in-process with a fake io. */
export async function cli(argv: string[], cwd = REPO_ROOT): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const exits: number[] = [];
  const started = performance.now();
  const code = await runCli(argv, {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    cwd,
    isStderrTty: false,
    exit: (exitCode) => void exits.push(exitCode),
  });
  const millis = performance.now() - started;
  return { code, stdout, stderr, errLines: stderr.split("\n").filter((line) => line !== ""), exits, millis };
}

/** The built bin (dist/cli/main.js, built by test/global-setup.ts) as a child process; killed after `killAfterMs`. */
export function spawnCli(
  argv: string[],
  options: { cwd?: string; nodeArgs?: string[]; killAfterMs?: number; keepStdout?: boolean; onSpawn?: (child: ChildProcess) => void } = {},
): Promise<Run & { signal: NodeJS.Signals | null }> {
  const started = performance.now();
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), MAIN, ...argv], {
      cwd: options.cwd ?? REPO_ROOT,
      stdio: ["ignore", options.keepStdout === false ? "ignore" : "pipe", "pipe"],
    });
    options.onSpawn?.(child);
    let stdout = "";
    let stderr = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => void (stdout += chunk));
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => void (stderr += chunk));
    const killer = setTimeout(() => child.kill("SIGKILL"), options.killAfterMs ?? 60_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(killer);
      resolveRun({
        code: code ?? -1,
        signal,
        stdout,
        stderr,
        errLines: stderr.split("\n").filter((line) => line !== ""),
        exits: [],
        millis: performance.now() - started,
      });
    });
  });
}

/** Raw control characters a terminal would act on (the CLI must print them escaped). */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/**
 * What every run must show, whatever it was given: no stack trace, no
 * "unexpected failure", every stderr line one message (a warning, or the one
 * error line), no raw control character, and no path outside the root.
 */
export function expectOrderly(run: Run, forbidden: readonly string[] = []): void {
  expect(run.stderr).not.toMatch(/\n\s+at /);
  expect(run.stderr).not.toMatch(/unexpected failure|Error:|RangeError/);
  for (const line of run.errLines) expect(line).toMatch(run.code === 0 ? /^warning: / : /^[a-z-]+: /);
  expect(run.stdout).not.toMatch(RAW_CONTROL);
  expect(run.stderr).not.toMatch(RAW_CONTROL);
  for (const text of forbidden) {
    expect(run.stdout).not.toContain(text);
    expect(run.stderr).not.toContain(text);
  }
  if (run.code !== 0) {
    expect(run.errLines).toHaveLength(1);
    expect(run.stdout).toBe("");
  }
}

/** A retrieval result's invariants: relevance in [0, 1], root-relative POSIX paths of known files, sorted best first. */
export function expectValidRetrieval(result: RetrievalResult, knownFiles?: ReadonlySet<string>): void {
  expect(result.schemaVersion).toBe(2);
  const ranked = new Set(result.files.map((f) => f.path));
  for (const path of result.context) expect(ranked.has(path)).toBe(true);
  for (const supporting of result.supporting) expectRootRelative(supporting.path);
  let previous = Number.POSITIVE_INFINITY;
  for (const file of result.files) {
    expect(file.relevance).toBeGreaterThanOrEqual(0);
    expect(file.relevance).toBeLessThanOrEqual(1);
    expect(file.relevance).toBeLessThanOrEqual(previous);
    previous = file.relevance;
    expectRootRelative(file.path);
    if (knownFiles) expect(knownFiles.has(file.path)).toBe(true);
  }
}

/** A root-relative POSIX path: not absolute, no `..` segment, no backslash, no empty segment. */
export function expectRootRelative(path: string): void {
  expect(path.startsWith("/")).toBe(false);
  expect(path).not.toMatch(/^[A-Za-z]:/);
  expect(path.split("/")).not.toContain("..");
  expect(path.split("/")).not.toContain("");
  expect(path).not.toContain("\\");
}
