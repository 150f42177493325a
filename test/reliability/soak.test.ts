/**
 * Soak of the resident index (retrieve/resident-index.ts), the one the
 * daemon and the MCP server keep: many requests over a tree that changes
 * between every few (an edit, a new file, a deleted file), each answer
 * equal to a fresh retrieval's on the same tree (no index, no memory, made
 * in another process: test/support/fresh-retriever.mjs),
 * memory that does not grow with the requests, and no watcher or file
 * handle left once it is closed.
 *
 * `npm test` runs a short version (60 requests: the retained heap held to
 * the bound); `npm run soak` runs 2,000 (the resident size held to it too;
 * SOAK_REQUESTS sets the number).
 */
import { fork, type ChildProcess } from "node:child_process";
import { appendFileSync, cpSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, describe, expect, it } from "vitest";
import { createRetriever, renderJson } from "../../src/index.js";
import { createResidentIndex } from "../../src/faces.js";
import { fixtureRoot, REPO_ROOT } from "../support/fixtures.js";
import { makeTempDir } from "../store/helpers.js";

const REQUESTS = Number(process.env.SOAK_REQUESTS ?? 60);
const TASKS = ["Fix the authentication token expiry bug", "cache user sessions in memory", "send a mail when a password is reset", "log failed logins"];
/** Growth of memory allowed over the run, after a warm-up of a tenth of it (20 requests at least). */
const MAX_GROWTH_MB = 50;
const WARM_UP = Math.max(20, Math.floor(REQUESTS / 10));
/** Below this many requests the process's resident size is mostly the heap still growing to its working size: only the retained heap is held to the bound. */
const RSS_CHECKED_FROM = 500;

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;
/** The heap still in use after a full collection: what a leak would make grow. */
function retainedHeap(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

const tmp = makeTempDir("gr-soak-");
let freshProcess: ChildProcess | undefined;
afterAll(() => {
  freshProcess?.kill();
  tmp.cleanup();
});

let asked = 0;
/** The fresh answer, from the other process. */
function freshAnswer(task: string, root: string): Promise<string> {
  freshProcess ??= fork(join(REPO_ROOT, "test", "support", "fresh-retriever.mjs"), { stdio: ["ignore", "ignore", "inherit", "ipc"] });
  const child = freshProcess;
  const id = ++asked;
  return new Promise((resolve, reject) => {
    const onMessage = (message: { id: number; json?: string; error?: string }) => {
      if (message.id !== id) return;
      child.off("message", onMessage);
      if (message.json !== undefined) resolve(message.json);
      else reject(new Error(message.error));
    };
    child.on("message", onMessage);
    child.send({ id, task, root });
  });
}

/** The answer without what changes from run to run (timings, the index's own stats). */
function comparable(json: string): unknown {
  return JSON.parse(json, (key, value) => (/(^ms$|Ms$|millis|elapsed|seconds|^cache$)/i.test(key) ? undefined : value));
}

/** What handles of a kind the process holds now (watchers: FSEventWrap; open files: FileHandle). */
function resources(kind: string): number {
  return process.getActiveResourcesInfo().filter((r) => r === kind).length;
}

describe(`resident index soak (${REQUESTS} requests)`, () => {
  it("answers as a fresh retrieval does while the tree changes, without growing, and leaves nothing open", async () => {
    const root = join(tmp.dir, "root");
    cpSync(fixtureRoot("auth-service"), root, { recursive: true });
    const cacheDir = join(tmp.dir, "cache");
    const watchersBefore = resources("FSEventWrap");
    const resident = createResidentIndex({ root, cacheDir, scan: {}, label: "soak", log: () => undefined });
    const added: string[] = [];
    let rssAfterWarmUp = 0;
    let heapAfterWarmUp = 0;
    for (let i = 0; i < REQUESTS; i++) {
      // the tree changes between every few requests: an edit, a new file, a deleted file
      if (i % 3 === 1) appendFileSync(join(root, "src", "auth", "tokens.ts"), `\nexport function soakEdited${i}(): number { return ${i}; }\n`);
      if (i % 5 === 2) {
        const path = join(root, "src", "utils", `soak-${i}.ts`);
        writeFileSync(path, `import { issueToken } from "../auth/tokens";\nexport const soakToken${i} = () => issueToken;\n`);
        added.push(path);
      }
      if (i % 7 === 4 && added.length > 0) rmSync(added.shift()!);
      const task = TASKS[i % TASKS.length]!;
      const answer = await resident.run(async () => {
        const retriever = await createRetriever({ root, cacheDir, memory: resident.memory });
        return renderJson(await retriever.retrieve(task));
      });
      const fresh = await freshAnswer(task, root);
      expect(comparable(answer), `request ${i}: ${task}`).toEqual(comparable(fresh));
      if (i === WARM_UP) {
        heapAfterWarmUp = retainedHeap();
        rssAfterWarmUp = process.memoryUsage().rss;
      }
    }
    // both measured after a full collection
    const heapGrowthMb = (retainedHeap() - heapAfterWarmUp) / 2 ** 20;
    const rssGrowthMb = (process.memoryUsage().rss - rssAfterWarmUp) / 2 ** 20;
    await resident.close();
    process.stdout.write(`soak: ${REQUESTS} requests, retained heap ${heapGrowthMb >= 0 ? "+" : ""}${heapGrowthMb.toFixed(1)} MB, resident size ${rssGrowthMb >= 0 ? "+" : ""}${rssGrowthMb.toFixed(1)} MB after ${WARM_UP} requests\n`);
    expect(heapGrowthMb, "retained heap growth, MB").toBeLessThanOrEqual(MAX_GROWTH_MB);
    if (REQUESTS >= RSS_CHECKED_FROM) expect(rssGrowthMb, "resident size growth, MB").toBeLessThanOrEqual(MAX_GROWTH_MB);
    expect(resources("FSEventWrap")).toBe(watchersBefore);
    expect(resources("FileHandle")).toBe(0);
  }, Math.max(120_000, REQUESTS * 1_000));
});
