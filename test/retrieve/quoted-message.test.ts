/**
 * A task quoting an error message, the way an issue does: the file whose
 * string literal holds the message as one string is the one to read first,
 * though other files share more of the message's words
 * (fixtures/quoted-message). Without the message the same task does not
 * point there.
 */
import { describe, expect, it } from "vitest";
import { retrieve } from "../../src/index.js";

const ROOT = "fixtures/quoted-message";
const STEPS = "\n\n### Steps to reproduce\n1. Add a middleware that calls next() without returning\n\n### Expected behavior\nA response";

describe("a quoted message", () => {
  it("puts the file that writes it first, with the evidence in its reason", async () => {
    const task = `Error "Context is not finalized. Did you forget to return a Response object or \`await next()\`?" with a middleware${STEPS}`;
    const result = await retrieve(task, { root: ROOT });
    expect(result.files[0]?.path).toBe("src/app.ts");
    expect(result.context[0]).toBe("src/app.ts");
    expect(result.files[0]?.reason).toContain("writes a message the task quotes, as one string");
  });

  it("without the message, the same words do not point to it", async () => {
    const result = await retrieve(`Error with a middleware when a response object is not finalized${STEPS}`, { root: ROOT });
    expect(result.files[0]?.path).not.toBe("src/app.ts");
  });
});
