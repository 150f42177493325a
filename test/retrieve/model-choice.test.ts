/**
 * Which shipped model ranks: data/ranker.bin when the retrieval read git
 * history, data/ranker-no-history.bin when it read none (no work tree,
 * `history: false`). Checked by what each gives: a retrieval without a
 * `model` answers exactly as the one given that model's path, and not as the
 * other model does. The fixture is copied into a throwaway repository for
 * the history.
 */
import { appendFileSync, cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { retrieve, type RetrievalResult } from "../../src/index.js";
import { DEFAULT_MODEL_PATH, NO_HISTORY_MODEL_PATH, shippedModelPath } from "../../src/retrieve/model/ranker.js";
import { fixtureRoot } from "../support/fixtures.js";
import { git } from "../support/git.js";

const TASK = "Fix the authentication token expiry bug";
const ranking = (result: RetrievalResult) => result.files.map((f) => [f.path, f.relevance]);

let repo: string;

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), "gr-model-choice-"));
  cpSync(fixtureRoot("auth-service"), repo, { recursive: true });
  git(repo, "init", "-q", "-b", "main");
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "auth: first version");
  appendFileSync(join(repo, "src", "auth", "tokens.ts"), "\n// expiry is checked in seconds\n");
  appendFileSync(join(repo, "src", "auth", "jwt-utils.ts"), "\n// token expiry: seconds since the epoch\n");
  git(repo, "commit", "-q", "-am", "fix token expiry: compare seconds, not milliseconds");
});

afterAll(() => {
  if (repo) rmSync(repo, { recursive: true, force: true });
});

describe("the shipped model a retrieval uses", () => {
  it("is the history's when commits were read, the other when none were", () => {
    expect(shippedModelPath(2)).toBe(DEFAULT_MODEL_PATH);
    expect(shippedModelPath(0)).toBe(NO_HISTORY_MODEL_PATH);
    expect(DEFAULT_MODEL_PATH).not.toBe(NO_HISTORY_MODEL_PATH);
  });

  it("without history: the no-history model's answer, not the history model's", async () => {
    const root = fixtureRoot("auth-service");
    const chosen = await retrieve(TASK, { root });
    expect(chosen.stats.history).toBeUndefined();
    expect(ranking(chosen)).toEqual(ranking(await retrieve(TASK, { root, model: NO_HISTORY_MODEL_PATH })));
    expect(ranking(chosen)).not.toEqual(ranking(await retrieve(TASK, { root, model: DEFAULT_MODEL_PATH })));
  });

  it("with history: the history model's answer; switched off, the no-history model's", async () => {
    const chosen = await retrieve(TASK, { root: repo });
    expect(chosen.stats.history?.commits).toBe(2);
    expect(ranking(chosen)).toEqual(ranking(await retrieve(TASK, { root: repo, model: DEFAULT_MODEL_PATH })));
    expect(ranking(chosen)).not.toEqual(ranking(await retrieve(TASK, { root: repo, model: NO_HISTORY_MODEL_PATH })));
    const off = await retrieve(TASK, { root: repo, history: false });
    expect(off.stats.history).toBeUndefined();
    expect(ranking(off)).toEqual(ranking(await retrieve(TASK, { root: repo, history: false, model: NO_HISTORY_MODEL_PATH })));
  });
});
