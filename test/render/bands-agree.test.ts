/**
 * Numbers that agree (issue 20, point 5): one definition of the bands
 * (src/retrieve/bands.ts) labels every output, and a printed relevance never
 * crosses an edge the real one did not (0.699 is not "0.70" below the
 * context's 0.7).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bandOf, BANDS, bandRange, CONTEXT_THRESHOLD, formatRelevance, renderDot, renderExplanation, renderText, type RetrievalResult } from "../../src/index.js";
import { fixtureRetrieval, REPO_ROOT } from "./helpers.js";

/** The retrieval with one file moved to `relevance` (and its band with it). */
function withRelevance(result: RetrievalResult, index: number, relevance: number): RetrievalResult {
  const files = result.files.map((file, i) => (i === index ? { ...file, relevance, band: bandOf(relevance) } : file));
  return { ...result, files };
}

describe("numbers that agree", () => {
  it("0.699 is printed 0.69 under Next candidates, never 0.70", async () => {
    const { result, codeGraph } = await fixtureRetrieval("auth-service");
    const next = result.files.findIndex((f) => f.relevance < CONTEXT_THRESHOLD && !result.context.includes(f.path));
    expect(next).toBeGreaterThanOrEqual(0);
    const moved = withRelevance(result, next, 0.699);
    const path = moved.files[next]!.path;
    const text = renderText(moved);
    const nextSection = text.slice(text.indexOf("Next candidates:"));
    expect(nextSection).toContain(`  0.69 medium  ${path}  `);
    expect(text).not.toContain(`0.70  ${path}`);
    expect(renderExplanation(moved, codeGraph, path)).toContain("relevance 0.699, medium band [0.5, 0.8), not in the context");
    // the box shows the file's name (its folder is the cluster's label)
    expect(renderDot(moved, codeGraph)).toContain(`${path.slice(path.lastIndexOf("/") + 1)}\\n0.69 medium`);
  });

  it("one word for one thing: each cycle says the context it decided, and the report the final context and why", async () => {
    const { result } = await fixtureRetrieval("auth-service");
    const text = renderText(result);
    expect(text).not.toMatch(/High relevance/);
    for (const cycle of result.cycles) expect(cycle.context.length).toBeGreaterThan(0);
    expect(text.match(/^- Context: /gm)).toHaveLength(result.cycles.length);
    expect(text).toContain(`Final context: ${result.context.length} file${result.context.length === 1 ? "" : "s"}, `);
    expect(text).toContain(`: ${result.decision}\n`);
  });

  it("cuts, never rounds, and keeps exact values exact", () => {
    expect([0.699, 0.7, 0.29, 0.7999, 0.8, 1, 0].map((r) => formatRelevance(r))).toEqual(["0.69", "0.70", "0.29", "0.79", "0.80", "1.00", "0.00"]);
    expect(formatRelevance(0.6999, 3)).toBe("0.699");
  });

  it("the bands cover [0, 1] without a gap: 0.47 is low, 0.5 medium, 0.8 high", () => {
    expect([0, 0.19, 0.2, 0.47, 0.5, 0.79, 0.8, 1].map(bandOf)).toEqual(["excluded", "excluded", "low", "low", "medium", "medium", "high", "high"]);
    for (const [i, row] of BANDS.entries()) if (i > 0) expect(row.to).toBe(BANDS[i - 1]!.from);
    expect(BANDS.map((b) => `${b.band} ${bandRange(b.band)}`)).toEqual(["high [0.8, 1]", "medium [0.5, 0.8)", "low [0.2, 0.5)", "excluded [0, 0.2)"]);
  });

  it("the DOT legend and the README write the bands as bands.ts does", async () => {
    const { result, codeGraph } = await fixtureRetrieval("api-gateway");
    const dot = renderDot(result, codeGraph);
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8").replace(/\s+/g, " ");
    for (const { band } of BANDS) {
      expect(dot).toContain(`>${band} ${bandRange(band)}</FONT>`);
      expect(readme).toContain(`${band} ${bandRange(band)}`);
    }
    expect(readme).not.toMatch(/0\.5–0\.7|0\.2–0\.4/);
  });
});
