import { describe, expect, it } from "vitest";
import { isResident } from "../../src/cli/jit-flags.js";

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
