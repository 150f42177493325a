/**
 * A language with its own shipped model (data/ranker-python.bin and its
 * no-history twin, trained on Python changes alone) has its files scored
 * by it; the other files by the shipped model; a model the caller gives
 * scores every file.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { buildGraph } from "../../src/index.js";
import { dispatch } from "../../src/retrieve/dispatch.js";
import { evaluate } from "../../src/retrieve/evaluate.js";
import { calibrate, DEFAULT_MODEL_PATH, loadRanker, NO_HISTORY_MODEL_PATH, scoreRow, shippedLanguageModelPath, shippedRankers } from "../../src/retrieve/model/ranker.js";
import { createRetrievalContext, type RetrievalContext } from "../../src/retrieve/retrieval-context.js";

let mixed: RetrievalContext;
beforeAll(async () => {
  mixed = createRetrievalContext(await buildGraph("fixtures/mixed-stack"));
});

describe("a language's own model", () => {
  it("is shipped for Python, with history and without", () => {
    expect(shippedLanguageModelPath("python", 120)).toMatch(/data\/ranker-python\.bin$/);
    expect(shippedLanguageModelPath("python", 0)).toMatch(/data\/ranker-python-no-history\.bin$/);
    expect(shippedLanguageModelPath("typescript", 120)).toBeUndefined();
  });

  it("scores its language's files, the shipped model every other file", () => {
    for (const commits of [0, 120]) {
      const rankerFor = shippedRankers(commits);
      const general = loadRanker(commits > 0 ? DEFAULT_MODEL_PATH : NO_HISTORY_MODEL_PATH);
      const python = loadRanker(shippedLanguageModelPath("python", commits)!);
      expect(python).not.toBe(general);
      expect(rankerFor("backend/notes_api/store.py")).toBe(python);
      expect(rankerFor("backend/notes_api/stubs.pyi")).toBe(python);
      expect(rankerFor("frontend/src/main.ts")).toBe(general);
      expect(rankerFor("README.md")).toBe(general);
    }
  });

  it("a model the caller gives scores every file", () => {
    const rankerFor = shippedRankers(0, DEFAULT_MODEL_PATH);
    expect(rankerFor("backend/notes_api/store.py")).toBe(loadRanker(DEFAULT_MODEL_PATH));
    expect(rankerFor("frontend/src/main.ts")).toBe(loadRanker(DEFAULT_MODEL_PATH));
  });

  it("gives a mixed codebase's Python files their model's chance and its TypeScript files the shipped model's", () => {
    const features = dispatch(mixed, "delete a note: the NoteStore and the deleteNote client call", { isAllowed: () => true });
    const evaluations = evaluate(mixed, features, shippedRankers(0), 1);
    const python = loadRanker(shippedLanguageModelPath("python", 0)!);
    const general = loadRanker(NO_HISTORY_MODEL_PATH);
    const languages = new Set<string>();
    for (const [i, file] of features.pool.entries()) {
      const model = file.path.endsWith(".py") ? python : general;
      languages.add(model === python ? "python" : "typescript");
      const margin = scoreRow(model.stages[0]!, features.rows[i]!);
      expect(evaluations.find((e) => e.path === file.path)?.relevance, file.path).toBeCloseTo(calibrate(model.stages[0]!, margin), 2);
    }
    expect([...languages].sort()).toEqual(["python", "typescript"]);
  });
});
