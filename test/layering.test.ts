/**
 * The pipeline's layering (STYLE.md §1) holds: the rules of
 * .dependency-cruiser.cjs find nothing in src/, and on a fixture that breaks
 * each rule once they name every break.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { cruise, type ICruiseResult } from "dependency-cruiser";
import { describe, expect, it } from "vitest";

const projectRoot = path.resolve(import.meta.dirname, "..");
const require = createRequire(import.meta.url);
const config = require(path.join(projectRoot, ".dependency-cruiser.cjs")) as { forbidden: unknown[] };

async function violationsIn(baseDir: string): Promise<{ result: ICruiseResult; broken: string[] }> {
  const { output } = await cruise(["src"], {
    baseDir,
    ruleSet: { forbidden: config.forbidden } as never,
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    validate: true,
  });
  const result = output as ICruiseResult;
  const broken = result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
  return { result, broken };
}

describe("layering", () => {
  it("src/ keeps every rule", async () => {
    const { result, broken } = await violationsIn(projectRoot);
    expect(result.summary.totalCruised).toBeGreaterThan(50);
    expect(broken).toEqual([]);
  }, 60_000);

  it("the rules name each break in a codebase that makes them", async () => {
    const { broken } = await violationsIn(path.join(projectRoot, "fixtures", "layering"));
    expect(broken).toEqual([
      "cli-to-main-only: src/cli/main.ts → src/retrieve/find.ts",
      "no-circular: src/retrieve/concepts.ts → src/retrieve/refine.ts",
      expect.stringMatching(/^parsers-stay-in-parse-and-resolve: src\/render\/list\.ts → .*node_modules\/tree-sitter\//),
      "scan-flows-one-way: src/scan/walk.ts → src/render/list.ts",
    ]);
  }, 60_000);
});
