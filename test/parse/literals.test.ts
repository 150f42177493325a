/**
 * The literal shingles of a parsed file: a message is held where the code
 * writes it as one string (a string, a `+` chain of strings, a template
 * literal's text between substitutions), with case and spacing forgiven,
 * and not where its words are in separate strings.
 */
import { describe, expect, it } from "vitest";
import { parseSource } from "../../src/parse/index.js";
import { heldShare, messageShingles } from "../../src/util/literal-shingles.js";

const MESSAGE = "Context is not finalized. Did you forget to return a Response object?";

function held(source: string, message = MESSAGE): number {
  return heldShare(parseSource("src/a.ts", source, "typescript").literals, messageShingles(message));
}

describe("literal shingles", () => {
  it("a string literal holds the message, whatever its case and spacing", () => {
    expect(held(`throw new Error("Context is not finalized. Did you forget to return a Response object?");\n`)).toBe(1);
    expect(held(`throw new Error('context is NOT finalized.  did you forget to return a response object?');\n`)).toBe(1);
  });

  it("a message split over a + chain of strings is one string", () => {
    expect(held(`throw new Error(\n  "Context is not finalized. " +\n    "Did you forget to return " +\n    'a Response object?',\n);\n`)).toBe(1);
  });

  it("a template literal holds what it writes between substitutions, not across them", () => {
    expect(held("const m = `Context is not finalized. Did you forget to return a Response object? (${path})`;\n")).toBe(1);
    // the words around a substitution are not one string: the trigram across it is missing
    expect(held("const m = `Context is not ${state}. Did you forget to return a Response object?`;\n")).toBeLessThan(1);
  });

  it("the same words in separate strings are not the message", () => {
    const share = held(`log("Context is not finalized.");\nwarn("Did you forget to return");\nhint("a Response object?");\n`);
    expect(share).toBeGreaterThan(0);
    expect(share).toBeLessThan(1);
  });

  it("a file without the message, or a message of fewer than three words, holds nothing", () => {
    expect(held(`export const greeting = "Hello there, general Kenobi";\n`)).toBe(0);
    expect(held(`throw new Error("not finalized");\n`, "not finalized")).toBe(0);
  });

  it("keeps no literal shorter than a message (keys, paths, names)", () => {
    expect(parseSource("src/a.ts", `import x from "./x";\nconst key = "user-id";\n`, "typescript").literals).toEqual([]);
  });
});

describe("Python's literal shingles", () => {
  const heldPy = (source: string, message = MESSAGE) => heldShare(parseSource("app/core.py", source, "python").literals, messageShingles(message));

  it("a string, strings side by side and a + chain hold the message", () => {
    expect(heldPy(`raise RuntimeError("Context is not finalized. Did you forget to return a Response object?")\n`)).toBe(1);
    expect(heldPy(`raise RuntimeError(\n    "Context is not finalized. "\n    'Did you forget to return a Response object?'\n)\n`)).toBe(1);
    expect(heldPy(`raise RuntimeError("Context is not finalized. " + "Did you forget to return " + "a Response object?")\n`)).toBe(1);
  });

  it("an f-string holds what it writes between substitutions, not across them", () => {
    expect(heldPy(`raise RuntimeError(f"Context is not finalized. Did you forget to return a Response object? ({path})")\n`)).toBe(1);
    expect(heldPy(`raise RuntimeError(f"Context is not {state}. Did you forget to return a Response object?")\n`)).toBeLessThan(1);
  });

  it("a docstring is documentation, not a message", () => {
    expect(heldPy(`def finish():\n    """Context is not finalized. Did you forget to return a Response object?"""\n`)).toBe(0);
  });
});
