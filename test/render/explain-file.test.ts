/** renderExplanation: why one file of a retrieval got its score. */
import { describe, expect, it } from "vitest";
import { bandRange, formatRelevance, renderExplanation, UsageError } from "../../src/index.js";
import { fixtureRetrieval } from "./helpers.js";

describe("renderExplanation", () => {
  it("api-gateway throttle.ts: rank, relevance, cycle, terms and the definitions carrying them, edges", async () => {
    const { result, codeGraph } = await fixtureRetrieval("api-gateway");
    const file = result.files.find((f) => f.path === "src/middleware/throttle.ts")!;
    const rank = result.files.indexOf(file) + 1;
    const text = renderExplanation(result, codeGraph, "./src/middleware/throttle.ts");
    const lines = text.split("\n");
    expect(lines[0]).toBe(`src/middleware/throttle.ts: rank ${rank} of ${result.files.length}, relevance ${formatRelevance(file.relevance, 3)}, ${file.band} band ${bandRange(file.band)}, ${result.context.includes(file.path) ? "in the context" : "not in the context"}`);
    expect(text).toContain(`  Entered: cycle ${file.cycle}, `);
    expect(text).toContain(`  Reason: ${file.reason}\n`);
    expect(text).toContain(`  Terms matched: ${file.matchedTerms.join(", ")}\n`);
    expect(text).toMatch(/ {2}Definitions carrying them: .*throttle \(function, lines \d+–\d+\)/);
    expect(text).toMatch(/ {4}uses:\n {6}src\/errors\.ts \(\d\.\d\d \w+\): imports tooManyRequests; 1 reference\n/);
    expect(text).toMatch(/ {4}used by:\n {6}src\/middleware\/index\.ts \(\d\.\d\d \w+\): re-exports .*throttle/);
    expect(text.endsWith("\n")).toBe(true);
  });

  it("a context file lists its gaps; the file a gap points at says whose gap it would fill", async () => {
    const { result, codeGraph } = await fixtureRetrieval("auth-service");
    const top = result.files[0]!;
    expect(top.path).toBe("src/auth/auth.ts");
    expect(top.relevance).toBeGreaterThanOrEqual(0.7);
    const text = renderExplanation(result, codeGraph, top.path);
    expect(text.split("\n")[0]).toMatch(/, in the context$/);
    expect(text).toMatch(/ {2}Gaps \(what it uses that the context lacks\):\n(?: {4}.*\n)* {4}checkToken \(src\/auth\/tokens\.ts\) → src\/auth\/tokens\.ts \(/);
    expect(renderExplanation(result, codeGraph, "src/auth/tokens.ts")).toMatch(/^ {2}Would fill a gap of: (?:\S+, )*src\/auth\/auth\.ts(?:, \S+)*$/m);
  });

  it("a file of the codebase that never became a candidate is explained too; an unknown path is a usage error", async () => {
    const { result, codeGraph } = await fixtureRetrieval("auth-service");
    const never = [...codeGraph.files.keys()].find((p) => !result.files.some((f) => f.path === p));
    if (never) expect(renderExplanation(result, codeGraph, never)).toMatch(/^.*: not a candidate in \d cycles?\n/);
    expect(() => renderExplanation(result, codeGraph, "src/nope.ts")).toThrow(UsageError);
    expect(() => renderExplanation(result, codeGraph, "src/nope.ts")).toThrow(/^renderExplanation: "src\/nope\.ts" is not a source file under the root \(/);
  });
});
