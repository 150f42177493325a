/**
 * A resident process with history (the daemon, the MCP server) keeps the
 * latest builds, not every build it made. Each retrieval's history evidence
 * is kept by the graph's relations and reads the code graph's files; were
 * the code graph to hold its build (the index session, and through it the
 * graph before), each graph would hold the one before it, in a chain as
 * long as the process's edits (a graph of uni-app's ~1,700 files was ~33 MB
 * a build).
 */
import { appendFileSync, cpSync } from "node:fs";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, describe, expect, it } from "vitest";
import { createIndexMemory, createRetriever } from "../../src/index.js";
import { fixtureRoot } from "../support/fixtures.js";
import { git } from "../support/git.js";
import { makeTempDir } from "../store/helpers.js";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

const tmp = makeTempDir("gr-retention-");
afterAll(() => tmp.cleanup());

describe("a resident process with history", () => {
  it("lets the code graphs of earlier builds go", async () => {
    const root = join(tmp.dir, "root");
    cpSync(fixtureRoot("auth-service"), root, { recursive: true });
    git(root, "init", "-q", "-b", "main");
    git(root, "add", ".");
    git(root, "commit", "-q", "-m", "auth service");
    const cacheDir = join(tmp.dir, "cache");
    const memory = createIndexMemory();
    const graphs: Array<WeakRef<object>> = [];
    let withHistory = 0;
    for (let i = 0; i < 8; i++) {
      appendFileSync(join(root, "src", "auth", "tokens.ts"), `\nexport function edited${i}(): number { return ${i}; }\n`);
      git(root, "commit", "-q", "-am", `edit the token module, step ${i}`);
      const retriever = await createRetriever({ root, cacheDir, memory });
      if (retriever.history) withHistory++;
      await retriever.retrieve("Fix the authentication token expiry bug");
      graphs.push(new WeakRef(retriever.codeGraph));
    }
    // a WeakRef holds its target until the turn that made it ends
    await new Promise((resolve) => setTimeout(resolve, 0));
    collectGarbage();
    const alive = graphs.filter((g) => g.deref() !== undefined).length;
    expect(withHistory).toBe(8);
    expect(alive, "code graphs still reachable after 8 builds").toBeLessThanOrEqual(2);
  }, 60_000);
});
