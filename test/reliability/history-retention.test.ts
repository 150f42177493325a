/**
 * A resident process with history (the daemon, the MCP server) keeps the
 * latest builds, not every build it made. Each retrieval's history evidence
 * is kept by the graph's relations; were it to hold the code graph itself,
 * each graph would hold the build before it, and that build the one before,
 * in a chain as long as the process's edits (a graph of uni-app's ~1,700
 * files was ~33 MB a build).
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, cpSync } from "node:fs";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, describe, expect, it } from "vitest";
import { createIndexMemory, createRetriever } from "../../src/index.js";
import { fixtureRoot } from "../support/fixtures.js";
import { makeTempDir } from "../store/helpers.js";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;
const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };
const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, env: GIT_ENV, encoding: "utf8" });

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
