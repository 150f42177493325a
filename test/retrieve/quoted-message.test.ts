/**
 * A task quoting an error message, the way an issue does
 * (fixtures/quoted-message): `src/app.ts` throws the message as one string
 * literal, other files share more of its words. The model with history
 * reads the literal evidence (literalShare, trained on both splits) and the
 * reason names it; the quote more than doubles the file's chance and lifts
 * it above the files that share more of the message's words (the model
 * shipped in session 38: 4th at 0.093 unquoted, 2nd at 0.231 quoted). The
 * evidence does not decide the first file: in the training data a file
 * whose literals hold a quoted message whole was changed by the fix in 4 of
 * 20 issue rows and 14 of 19 commit rows (docs/quality.md), and
 * `src/compose.ts`, which defines `next`, the message's one identifier,
 * leads at 0.71.
 */
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { retrieve } from "../../src/index.js";
import { git } from "../support/git.js";

const STEPS = "\n\n### Steps to reproduce\n1. Add a middleware that calls next() without returning\n\n### Expected behavior\nA response";
const QUOTED = `Error "Context is not finalized. Did you forget to return a Response object or \`await next()\`?" with a middleware${STEPS}`;
const UNQUOTED = `Error with a middleware when a response object is not finalized, did you forget to return a context or await next${STEPS}`;

let root: string;
let quoted: Awaited<ReturnType<typeof retrieve>>;
beforeAll(async () => {
  // the fixture as a repository of one commit: a retrieval with history, as on an agent's checkout
  root = mkdtempSync(join(tmpdir(), "gr-quoted-"));
  cpSync("fixtures/quoted-message", root, { recursive: true });
  git(root, "init", "-q", "-b", "main");
  git(root, "add", "-A");
  git(root, "commit", "-q", "-m", "a web framework's core");
  quoted = await retrieve(QUOTED, { root });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const relevanceOf = (result: Awaited<ReturnType<typeof retrieve>>, path: string) => result.files.find((f) => f.path === path)?.relevance ?? 0;

describe("a quoted message", () => {
  it("names the file that writes it as one string, and the quote lifts it", async () => {
    const unquoted = await retrieve(UNQUOTED, { root });
    const reasonOf = (result: Awaited<ReturnType<typeof retrieve>>) => result.files.find((f) => f.path === "src/app.ts")?.reason ?? "";
    expect(reasonOf(quoted)).toContain("writes a message the task quotes, as one string");
    expect(reasonOf(unquoted)).not.toContain("a message the task quotes");
    // its chance doubles (the quote's words, verbatim, and the literal evidence) and it passes the files sharing more of the words
    expect(relevanceOf(quoted, "src/app.ts")).toBeGreaterThan(2 * relevanceOf(unquoted, "src/app.ts"));
    const rankOf = (result: Awaited<ReturnType<typeof retrieve>>) => result.files.findIndex((f) => f.path === "src/app.ts");
    expect(rankOf(quoted)).toBeLessThan(rankOf(unquoted));
    for (const path of ["src/context.ts", "src/response.ts"]) expect(relevanceOf(quoted, "src/app.ts"), path).toBeGreaterThan(relevanceOf(quoted, path));
  });

  it("is not claimed by a file that holds the words in separate strings", () => {
    for (const file of quoted.files.filter((f) => f.path !== "src/app.ts")) expect(file.reason, file.path).not.toContain("a message the task quotes");
  });
});
