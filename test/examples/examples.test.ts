/**
 * The runnable examples in examples/: each runs as its own node process
 * against the built dist (test/global-setup.ts builds it; the examples import
 * "graph-retrieve", which resolves to this package) on fixtures/auth-service,
 * and its printed answer is checked.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const FIXTURE = join(REPO_ROOT, "fixtures", "auth-service");
/** fixtures/auth-service/ANSWER.md */
const ANSWER = ["src/auth/auth.ts", "src/auth/jwt-utils.ts", "src/auth/session-manager.ts", "src/auth/tokens.ts"];

function runExample<T>(name: string): T {
  const run = spawnSync(process.execPath, [join(REPO_ROOT, "examples", name), FIXTURE], { cwd: REPO_ROOT, encoding: "utf8", timeout: 60_000 });
  expect(run.stderr).toBe("");
  expect(run.status).toBe(0);
  return JSON.parse(run.stdout) as T;
}

describe("examples/", () => {
  it("every example has a test here", () => {
    expect(readdirSync(join(REPO_ROOT, "examples")).filter((f) => f.endsWith(".mjs")).sort()).toEqual([
      "custom-evaluator.mjs",
      "query-expander.mjs",
      "reusable-retriever.mjs",
    ]);
  });

  it("custom-evaluator.mjs: the stand-in judge rescores candidates, and the answer holds the first four places", () => {
    const out = runExample<{ context: Array<{ path: string; relevance: number; reason: string }>; best: Array<{ path: string }> }>("custom-evaluator.mjs");
    // the judge lifts the three files that set or check a token's expiry into the context, beside whatever the ranker put there
    expect(out.context.map((f) => f.path)).toEqual(expect.arrayContaining(["src/auth/jwt-utils.ts", "src/auth/session-manager.ts", "src/auth/tokens.ts"]));
    expect(out.context.every((f) => ANSWER.includes(f.path))).toBe(true);
    expect(out.best.slice(0, 4).map((f) => f.path).sort()).toEqual(ANSWER);
    const tokens = out.context.find((f) => f.path === "src/auth/tokens.ts");
    expect(tokens?.relevance).toBe(0.9);
    expect(tokens?.reason).toMatch(/^judge: sets or checks a token's expiry \(cycle \d\)$/);
  });

  it("query-expander.mjs: the team's jargon adds the code's words and finds the session files", () => {
    const out = runExample<{ keywords: string[]; without: string[]; with: string[] }>("query-expander.mjs");
    expect(out.keywords).toEqual(expect.arrayContaining(["logout", "session", "refresh", "token"]));
    // the jargon's words move the token module up (it may sit lower in the plain five, or outside them)
    const rank = (list: string[], path: string) => (list.includes(path) ? list.indexOf(path) : Infinity);
    expect(rank(out.with, "src/auth/tokens.ts")).toBeLessThan(rank(out.without, "src/auth/tokens.ts"));
    expect(out.with.slice(0, 3)).toEqual(expect.arrayContaining(["src/auth/session-manager.ts", "src/auth/tokens.ts"]));
  });

  it("reusable-retriever.mjs: one graph, three tasks, each its own answer", () => {
    const out = runExample<{ files: number; answers: Array<{ task: string; best: string[] }> }>("reusable-retriever.mjs");
    expect(out.files).toBe(19);
    expect(out.answers).toHaveLength(3);
    expect(out.answers[0]?.best.every((p) => ANSWER.includes(p))).toBe(true);
    expect(out.answers[1]?.best).toContain("src/notifications/mailer.ts");
    // the repository that caches the lookups, not the auth files of the first task
    expect(out.answers[2]?.best[0]).toBe("src/db/user-repository.ts");
    expect(new Set(out.answers.map((a) => a.best[0])).size).toBe(3);
  });
});
