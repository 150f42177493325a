import { describe, expect, it } from "vitest";
import { countTerms, normaliseTerm, splitIdentifier, termsOf } from "../../src/util/terms.js";

describe("splitIdentifier", () => {
  it("splits camelCase, acronyms, snake_case, kebab-case and dotted names", () => {
    expect(splitIdentifier("parseHTTPResponse_v2")).toEqual(["parse", "http", "response", "v2"]);
    expect(splitIdentifier("posAtCoords")).toEqual(["pos", "at", "coords"]);
    expect(splitIdentifier("session-manager.ts")).toEqual(["session", "manager", "ts"]);
    expect(splitIdentifier("XMLHttpRequest")).toEqual(["xml", "http", "request"]);
    expect(splitIdentifier("MAX_RETRY_COUNT")).toEqual(["max", "retry", "count"]);
  });
});

describe("normaliseTerm", () => {
  it("folds the inflections a task and code use for one idea", () => {
    const same = (words: string[]) => new Set(words.map(normaliseTerm)).size;
    expect(same(["expire", "expiry", "expired", "expiration", "expires"])).toBe(1);
    expect(same(["token", "tokens"])).toBe(1);
    expect(same(["query", "queries"])).toBe(1);
    expect(same(["route", "router", "routing", "routes"])).toBe(1);
    expect(same(["throttle", "throttling", "throttled"])).toBe(1);
    expect(same(["session", "sessions"])).toBe(1);
    expect(same(["key", "keys"])).toBe(1);
    expect(same(["authenticate", "authentication", "authenticated", "authenticating"])).toBe(1);
    expect(same(["update", "updates", "updated", "updating"])).toBe(1);
    expect(same(["validate", "validation", "validated"])).toBe(1);
  });
  it("keeps distinct words apart and short words whole", () => {
    expect(normaliseTerm("user")).toBe("user");
    expect(normaliseTerm("status")).not.toBe(normaliseTerm("state"));
    expect(normaliseTerm("ast")).toBe("ast");
    expect(normaliseTerm("class")).toBe("class");
  });
});

describe("termsOf", () => {
  it("turns free text with identifiers and paths into normalised terms", () => {
    expect(termsOf("Fix tokenExpiry in src/auth/session-manager.ts")).toEqual([
      "fix", "token", "expir", "in", "src", "auth", "session", "manag", "ts",
    ]);
  });
});

describe("countTerms", () => {
  it("counts the terms of termsOf, in its order, for one identifier and for free text alike", () => {
    for (const text of ["parseHTTPResponse_v2", "#privateField", "Fix tokenExpiry in src/auth/session-manager.ts", "a token, and tokens", ""]) {
      const counted: Record<string, number> = {};
      countTerms(counted, text, 2);
      const expected: Record<string, number> = {};
      for (const term of termsOf(text)) expected[term] = (expected[term] ?? 0) + 2;
      expect(Object.entries(counted)).toEqual(Object.entries(expected));
    }
  });

  it("counts a term named like an Object.prototype member from zero", () => {
    const counted: Record<string, number> = {};
    countTerms(counted, "constructor");
    countTerms(counted, "the constructor", 2);
    expect(counted).toEqual({ constructor: 3, the: 2 });
    expect(Object.hasOwn(counted, "toString")).toBe(false);
  });
});
