/**
 * The CLI's side of the index: `graph-retrieve index`, --cache-dir,
 * --no-cache, the default folder under $XDG_CACHE_HOME (always a temp
 * folder here), and the progress bar (stderr, TTY only, after 1 s).
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli, type CliIo } from "../../src/cli/run-cli.js";
import { createProgressBar } from "../../src/cli/progress-bar.js";
import { rootKey } from "../../src/store/index.js";
import { copyFixture, listTree, makeTempDir, REPO_ROOT } from "./helpers.js";

let tmp: { dir: string; cleanup: () => void };
let root: string;
let xdg: string;

beforeEach(() => {
  tmp = makeTempDir("gr-cli-index-");
  root = copyFixture("graph-basics", join(tmp.dir, "root"));
  xdg = join(tmp.dir, "xdg");
});
afterEach(() => tmp.cleanup());

async function cli(...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    cwd: tmp.dir,
    isStderrTty: false,
    env: { XDG_CACHE_HOME: xdg },
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

describe("graph-retrieve index", () => {
  it("builds, then refreshes, the index in the default folder ($XDG_CACHE_HOME/graph-retrieve/<root hash>); one line on stdout", async () => {
    const cold = await cli("index", "--root", "root");
    expect(cold.code).toBe(0);
    expect(cold.stdout).toMatch(/^indexed 16 files: 16 parsed, 0 reused, 0 skipped in \d+ ms \(.+\)\n$/);
    const dir = join(xdg, "graph-retrieve", rootKey(root));
    expect(cold.stdout).toContain(dir);
    expect(listTree(dir)).toEqual(["CACHEDIR.TAG", "facts.bin", "graph.json", "index.json"]);
    const warm = await cli("index", "--root", "root", "--format", "json");
    expect(JSON.parse(warm.stdout)).toMatchObject({ files: 16, parsed: 0, reused: 16, cacheDir: dir });
  });

  it("--cache-dir puts the index exactly there", async () => {
    const run = await cli("index", "--root", "root", "--cache-dir", "my-index", "-q");
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(listTree(join(tmp.dir, "my-index"))).toEqual(["CACHEDIR.TAG", "facts.bin", "graph.json", "index.json"]);
    expect(listTree(xdg)).toEqual([]);
  });

  it("--no-cache: graph and retrieval write nothing; index refuses it (usage error)", async () => {
    const graph = await cli("graph", "--root", "root", "--no-cache");
    expect(graph.code).toBe(0);
    const retrieval = await cli("Add an item to the inventory", "--root", "root", "--no-cache", "--format", "json");
    expect(retrieval.code).toBe(0);
    expect(listTree(xdg)).toEqual([]);
    expect(listTree(root)).toEqual(listTree(join(REPO_ROOT, "fixtures", "graph-basics")));
    const index = await cli("index", "--root", "root", "--no-cache");
    expect(index.code).toBe(2);
  });

  it("graph and retrieval use and refresh the index, with the same output as without it", async () => {
    const plainGraph = await cli("graph", "--root", "root", "--no-cache");
    const first = await cli("graph", "--root", "root");
    const second = await cli("graph", "--root", "root");
    expect(first.stdout).toBe(plainGraph.stdout);
    expect(second.stdout).toBe(plainGraph.stdout);
    expect(second.stderr).toBe(plainGraph.stderr);
    expect(listTree(join(xdg, "graph-retrieve", rootKey(root)))).toEqual(["CACHEDIR.TAG", "facts.bin", "graph.json", "index.json"]);

    const task = "Add an item to the inventory";
    const plain = JSON.parse((await cli(task, "--root", "root", "--no-cache", "--format", "json")).stdout) as { files: unknown };
    const cached = JSON.parse((await cli(task, "--root", "root", "--format", "json")).stdout) as { files: unknown };
    expect(cached.files).toEqual(plain.files);
  });

  it("the built bin, with stderr piped, prints no progress and keeps stdout to the summary", () => {
    const run = spawnSync(process.execPath, [join(REPO_ROOT, "dist", "cli", "main.js"), "index", "--root", root, "-q"], {
      encoding: "utf8",
      env: { ...process.env, XDG_CACHE_HOME: xdg },
    });
    expect(run.status).toBe(0);
    expect(run.stderr).toBe("");
    expect(run.stdout.split("\n")).toHaveLength(2);
    expect(listTree(xdg).length).toBe(4);
  });
});

describe("progress bar", () => {
  function fakeIo(isStderrTty: boolean) {
    const drawn: string[] = [];
    const io: CliIo = { stdout: () => {}, stderr: () => {}, cwd: "/", isStderrTty, progress: (text) => void drawn.push(text) };
    return { io, drawn };
  }

  it("draws nothing during the first second, then a bar on stderr, erased at the end", () => {
    let clock = 0;
    const { io, drawn } = fakeIo(true);
    const bar = createProgressBar(io, () => clock);
    bar.update(1, 10);
    clock = 500;
    bar.update(2, 10);
    expect(drawn).toEqual([]);
    clock = 1_200;
    bar.update(5, 10);
    clock = 1_250; // throttled
    bar.update(6, 10);
    clock = 1_400;
    bar.update(10, 10);
    expect(drawn).toHaveLength(2);
    expect(drawn[0]).toMatch(/^\r\x1b\[Kindexing \[#{15}-{15}\] 5\/10 files$/);
    bar.finish();
    expect(drawn.at(-1)).toBe("\r\x1b[K");
  });

  it("draws nothing when stderr is not a terminal, or on work under a second", () => {
    let clock = 0;
    const piped = fakeIo(false);
    const bar = createProgressBar(piped.io, () => clock);
    clock = 5_000;
    bar.update(1, 2);
    bar.finish();
    expect(piped.drawn).toEqual([]);
    const quick = fakeIo(true);
    const quickBar = createProgressBar(quick.io, () => 10);
    quickBar.update(2, 2);
    quickBar.finish();
    expect(quick.drawn).toEqual([]);
  });
});
