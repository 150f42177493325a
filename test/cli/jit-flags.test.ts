import { describe, expect, it } from "vitest";
import { hasKnownFlags, isResident } from "../../src/cli/jit-flags.js";

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
