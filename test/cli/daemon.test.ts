/**
 * The daemon: a process per root that keeps the index in memory and runs
 * the CLI's commands for the bin. Its answers must be the answers of the
 * same command run without it, an edit must be seen by the next command,
 * and anything wrong with it (none running, a stale socket, another
 * version) must leave the command to run as usual.
 */
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, utimesSync, writeFileSync, readdirSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { forwardToDaemon } from "../../src/cli/daemon-client.js";
import { SOCKET_FILE, encodeMessage } from "../../src/cli/daemon-protocol.js";
import { startDaemon, type Daemon } from "../../src/cli/daemon-server.js";
import { runCli } from "../../src/cli/run-cli.js";
import { watchIsReliable } from "../../src/scan/watch-folders.js";
import { FIXTURES, REPO_ROOT } from "../support/fixtures.js";
import { runCliInProcess } from "../support/run-cli.js";

const MAIN = join(REPO_ROOT, "dist", "cli", "main.js");
const TASK = "Fix the authentication token expiry bug";

let tmp: string;
let root: string;
let cacheDir: string;
let daemon: Daemon | undefined;

/** Every file's mtime an hour back: stats older than the racy window. */
function age(dir: string): void {
  const past = Date.now() / 1000 - 3600;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) utimesSync(join(entry.parentPath, entry.name), past, past);
  }
}

beforeEach(() => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), "gr-daemon-")));
  root = join(tmp, "root");
  cpSync(join(FIXTURES, "auth-service"), root, { recursive: true });
  age(root);
  cacheDir = join(tmp, "cache");
});
afterEach(async () => {
  await daemon?.stop();
  daemon = undefined;
  spawnSync(process.execPath, [MAIN, "daemon", "stop", "--root", root, "--cache-dir", cacheDir]);
  rmSync(tmp, { recursive: true, force: true });
});

/** The command through the daemon client: its exit code (undefined: not forwarded) and output. */
async function forwarded(argv: string[]): Promise<{ code: number | undefined; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await forwardToDaemon(argv, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), cwd: tmp, env: {} });
  return { code, stdout, stderr };
}

/** The daemon's status reply. */
async function forwardedStatus(): Promise<Record<string, unknown>> {
  const reply = await new Promise<string>((done) => {
    const socket = createConnection(join(cacheDir, SOCKET_FILE));
    let text = "";
    socket.on("connect", () => socket.write(encodeMessage({ type: "status" })));
    socket.on("data", (chunk) => void (text += chunk.toString()));
    socket.on("close", () => done(text));
  });
  return JSON.parse(reply) as Record<string, unknown>;
}

const startHere = (idleMinutes = 30) => startDaemon({ root, cacheDir, idleMinutes, scan: {}, log: () => undefined, run: runCli });
const args = (...more: string[]) => [...more, "--root", root, "--cache-dir", cacheDir];

describe("daemon", () => {
  it("answers a retrieval, the graph and index exactly as the command run without it", async () => {
    daemon = await startHere();
    for (const argv of [args(TASK, "--format", "json"), args(TASK, "--format", "md", "--budget", "3000"), args("graph", "--format", "dot")]) {
      const viaDaemon = await forwarded(argv);
      const direct = await runCliInProcess([...argv, "--no-cache"].filter((a, i, all) => a !== "--cache-dir" && all[i - 1] !== "--cache-dir"), tmp);
      expect(viaDaemon.code).toBe(0);
      expect(viaDaemon.stdout).toBe(direct.stdout);
    }
    const index = await forwarded(args("index", "--format", "json"));
    expect(JSON.parse(index.stdout)).toMatchObject({ files: 19, parsed: 0, reused: 19 });
  });

  it("an edited, an added and a deleted file are seen by the next command, and the index on disk follows", async () => {
    daemon = await startHere();
    appendFileSync(join(root, "src/auth/tokens.ts"), "\nexport function rotateSigningKeys(): number { return 1; }\n");
    writeFileSync(join(root, "src/auth/revocation.ts"), 'import { rotateSigningKeys } from "./tokens";\nexport const revokeAll = () => rotateSigningKeys();\n');
    rmSync(join(root, "src/notifications/mailer.ts"));
    const graph = await forwarded(args("graph", "--format", "json"));
    expect(graph.code).toBe(0);
    const direct = await runCliInProcess(["graph", "--format", "json", "--root", root, "--no-cache"], tmp);
    expect(JSON.parse(graph.stdout)).toEqual(JSON.parse(direct.stdout));
    expect(graph.stdout).toContain("src/auth/tokens.ts#rotateSigningKeys");
    expect(graph.stdout).not.toContain("src/notifications/mailer.ts");
    // the write after the answer: a run without the daemon finds the index up to date
    await daemon.stop();
    daemon = undefined;
    const fromDisk = await runCliInProcess(args("index", "--format", "json"), tmp);
    expect(JSON.parse(fromDisk.stdout)).toMatchObject({ parsed: 0 });
  });

  it("a new commit is seen by the next command: the history it ranks with has it", async () => {
    const env = { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };
    const git = (...a: string[]) => spawnSync("git", a, { cwd: root, env, encoding: "utf8" });
    git("init", "-q");
    git("add", "-A");
    git("commit", "-q", "-m", "initial");
    daemon = await startHere();
    const before = JSON.parse((await forwarded(args(TASK, "--format", "json"))).stdout) as { stats: { history?: { commits: number } } };
    expect(before.stats.history?.commits).toBe(1);
    appendFileSync(join(root, "src/auth/tokens.ts"), "\n// expiry in seconds\n");
    git("commit", "-q", "-am", "token expiry in seconds");
    const after = JSON.parse((await forwarded(args(TASK, "--format", "json"))).stdout) as { stats: { history?: { commits: number } }; files: Array<{ path: string; reason: string }> };
    expect(after.stats.history?.commits).toBe(2);
    expect(after.files.find((f) => f.path === "src/auth/tokens.ts")?.reason).toContain("past changes to this file say");
  });

  it("an edit is refreshed in memory as the watch sees it, before any command asks; without the watch the command does it", async () => {
    daemon = await startHere();
    const status = async () => (await forwardedStatus()) as { watching: number; refreshes: number };
    expect((await status()).watching).toBeGreaterThan(1); // the root and the folders of its files
    // the first watch of each folder is followed by a refresh that looks at every file (what changed before it began was not seen)
    for (let i = 0; i < 100 && (await status()).refreshes === 0; i++) await new Promise((done) => setTimeout(done, 50));
    const started = (await status()).refreshes;
    appendFileSync(join(root, "src/auth/tokens.ts"), "\nexport function rotateSigningKeys(): number { return 1; }\n");
    // wait for the refresh (no command asked)
    for (let i = 0; i < 100 && (await status()).refreshes === started; i++) await new Promise((done) => setTimeout(done, 50));
    expect((await status()).refreshes).toBeGreaterThan(started);
    const index = await forwarded(args("index", "--format", "json"));
    expect(JSON.parse(index.stdout)).toMatchObject({ parsed: 0, reused: 19 });
    const graph = await forwarded(args("graph", "--format", "json"));
    expect(graph.stdout).toContain("src/auth/tokens.ts#rotateSigningKeys");
    // a new file is no file of the last scan: that refresh scans the root, and finds it
    const before = (await status()).refreshes;
    writeFileSync(join(root, "src/auth/keys.ts"), "export const signingKeys: string[] = [];\n");
    for (let i = 0; i < 100 && (await status()).refreshes === before; i++) await new Promise((done) => setTimeout(done, 50));
    const added = await forwarded(args("index", "--format", "json"));
    expect(JSON.parse(added.stdout)).toMatchObject({ files: 20, parsed: 0, reused: 20 });
    await daemon.stop();

    daemon = await startDaemon({ root, cacheDir, idleMinutes: 30, scan: {}, log: () => undefined, run: runCli, watch: false });
    appendFileSync(join(root, "src/auth/tokens.ts"), "\nexport function rotateAgain(): number { return 2; }\n");
    await new Promise((done) => setTimeout(done, 300));
    expect(await status()).toMatchObject({ watching: 0, refreshes: 0, watchNote: "--no-watch" });
    const unwatched = await forwarded(args("index", "--format", "json"));
    expect(JSON.parse(unwatched.stdout)).toMatchObject({ parsed: 1 });
  });

  it("where the watch is trusted, a command sees an edit made just before it: in a folder of no indexed file, and through a symlink", async () => {
    mkdirSync(join(root, "docs"));
    writeFileSync(join(root, "docs", "notes.md"), "notes\n");
    mkdirSync(join(root, "shared"));
    writeFileSync(join(root, "shared", "clock.ts.txt"), "export const skew = 1;\n");
    symlinkSync(join("..", "..", "shared", "clock.ts.txt"), join(root, "src", "auth", "clock.ts"));
    daemon = await startHere();
    const status = (await forwardedStatus()) as { trusted: boolean };
    expect(status.trusted).toBe(watchIsReliable(root));
    const symbolsOf = async () => (JSON.parse((await forwarded(args("graph", "--format", "json"))).stdout) as { nodes: Array<{ id: string }> }).nodes.map((n) => n.id);
    expect(await symbolsOf()).toContain("src/auth/clock.ts#skew");
    // each edit, then the command at once: no wait for the watch's refresh
    for (let round = 0; round < 3; round++) {
      writeFileSync(join(root, "docs", `example${round}.ts`), `export const example${round} = ${round};\n`);
      writeFileSync(join(root, "shared", "clock.ts.txt"), `export const skew${round} = ${round};\n`);
      const ids = await symbolsOf();
      expect(ids).toContain(`docs/example${round}.ts#example${round}`);
      expect(ids).toContain(`src/auth/clock.ts#skew${round}`);
      const direct = await runCliInProcess(["graph", "--format", "json", "--root", root, "--no-cache"], tmp);
      expect((await forwarded(args("graph", "--format", "json"))).stdout).toBe(direct.stdout);
    }
    await daemon.stop();

    // a link into a folder the walk leaves out (ignored): its edits raise no event of the watch, which is not trusted
    mkdirSync(join(root, "ignored"));
    writeFileSync(join(root, ".gitignore"), "ignored/\n");
    writeFileSync(join(root, "ignored", "zone.ts.txt"), "export const zone = 1;\n");
    symlinkSync(join("..", "..", "ignored", "zone.ts.txt"), join(root, "src", "auth", "zone.ts"));
    daemon = await startHere();
    expect(await symbolsOf()).toContain("src/auth/zone.ts#zone");
    expect(((await forwardedStatus()) as { trusted: boolean }).trusted).toBe(false);
    writeFileSync(join(root, "ignored", "zone.ts.txt"), "export const zoneMoved = 2;\n");
    expect(await symbolsOf()).toContain("src/auth/zone.ts#zoneMoved");
  });

  it("a folder removed and made again is watched again: an edit in it later is seen", async () => {
    daemon = await startHere();
    const ids = async () => (await forwarded(args("graph", "--format", "json"))).stdout;
    expect(await ids()).toContain("src/auth/tokens.ts");
    const saved = join(tmp, "auth-saved");
    cpSync(join(root, "src", "auth"), saved, { recursive: true });
    rmSync(join(root, "src", "auth"), { recursive: true });
    expect(await ids()).not.toContain("src/auth/tokens.ts");
    cpSync(saved, join(root, "src", "auth"), { recursive: true });
    expect(await ids()).toContain("src/auth/tokens.ts");
    // the new folder's own edits: its old watch died with it
    for (let round = 0; round < 3; round++) {
      appendFileSync(join(root, "src", "auth", "tokens.ts"), `\nexport const revived${round} = ${round};\n`);
      expect(await ids()).toContain(`src/auth/tokens.ts#revived${round}`);
    }
    const direct = await runCliInProcess(["graph", "--format", "json", "--root", root, "--no-cache"], tmp);
    expect(await ids()).toBe(direct.stdout);
  });

  it("a bad command is answered with the CLI's own usage error and exit code", async () => {
    daemon = await startHere();
    const run = await forwarded(args(TASK, "--strategy", "fastest"));
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe('graph-retrieve: --strategy must be one of graph, bm25, pagerank, got "fastest"\n');
  });

  it("without a daemon, with a stale socket, for help or --no-cache, nothing is forwarded", async () => {
    expect((await forwarded(args(TASK))).code).toBeUndefined();
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(join(cacheDir, SOCKET_FILE), ""); // a file, as a killed daemon may leave one: nobody answers
    expect((await forwarded(args(TASK))).code).toBeUndefined();
    rmSync(join(cacheDir, SOCKET_FILE));
    daemon = await startHere();
    expect((await forwarded(args(TASK, "--no-cache"))).code).toBeUndefined();
    expect((await forwarded(args("--help"))).code).toBeUndefined();
    expect((await forwarded(args("daemon", "status"))).code).toBeUndefined();
    expect((await forwarded(args(TASK, "--timeout", "soon"))).code).toBeUndefined();
    expect((await forwarded(args(TASK, "--timeout", "30"))).code).toBe(0);
  });

  it("a client of another version is declined with one line, and runs the command itself", async () => {
    daemon = await startHere();
    const reply = await new Promise<string>((done) => {
      const socket = createConnection(join(cacheDir, SOCKET_FILE));
      let text = "";
      socket.on("connect", () => socket.write(encodeMessage({ type: "run", version: "0.0.0-old", root, argv: [TASK], cwd: tmp, env: {} })));
      socket.on("data", (chunk) => void (text += chunk.toString()));
      socket.on("close", () => done(text));
    });
    const message = JSON.parse(reply) as { type: string; reason: string };
    expect(message.type).toBe("decline");
    expect(message.reason).toMatch(/^graph-retrieve: the daemon for this root runs version .*, not 0\.0\.0-old; ran without it \(restart it: graph-retrieve daemon stop, then start\)$/);
  });

  it("a second daemon for the same index folder is refused; one stops by itself after its idle time", async () => {
    daemon = await startHere();
    await expect(startHere()).rejects.toThrow(/^graph-retrieve daemon: one already serves .* \(graph-retrieve daemon status; stop it with graph-retrieve daemon stop\)$/);
    await daemon.stop();
    const idle = await startDaemon({ root, cacheDir, idleMinutes: 0.002, scan: {}, log: () => undefined, run: runCli });
    await idle.stopped;
    expect(existsSync(join(cacheDir, SOCKET_FILE))).toBe(false);
    daemon = undefined;
  });

  it("a folder holding a daemon.log or daemon.sock that is someone else's is refused, the file untouched", async () => {
    mkdirSync(cacheDir, { recursive: true });
    writeFileSync(join(cacheDir, "daemon.log"), "my notes\n");
    const start = spawnSync(process.execPath, [MAIN, "daemon", "start", ...args()], { cwd: tmp, encoding: "utf8" });
    expect(start.status).toBe(1);
    expect(start.stderr).toBe(`graph-retrieve daemon: ${join(cacheDir, "daemon.log")} was not written by graph-retrieve (not overwritten; pass another --cache-dir, or --no-cache)\n`);
    expect(readdirSync(cacheDir)).toEqual(["daemon.log"]);
    rmSync(join(cacheDir, "daemon.log"));
    writeFileSync(join(cacheDir, SOCKET_FILE), "not a socket\n");
    await expect(startHere()).rejects.toThrow(/daemon\.sock was not written by graph-retrieve/);
    expect(readdirSync(cacheDir)).toEqual([SOCKET_FILE]);
  });

  it("the bin: start in the background, status, commands served from it, stop", () => {
    const bin = (...argv: string[]) => spawnSync(process.execPath, [MAIN, ...argv], { cwd: tmp, encoding: "utf8" });
    const idle = bin("daemon", "status", ...args());
    expect(idle.status).toBe(1);
    expect(idle.stdout).toBe(`graph-retrieve daemon: none serves ${root}\n`);
    const start = bin("daemon", "start", ...args());
    expect(start.stderr).toBe("");
    expect(start.status).toBe(0);
    expect(start.stdout).toMatch(/^graph-retrieve daemon: pid \d+ serves .*\(commands run there answer from memory; log: .*daemon\.log; stop: graph-retrieve daemon stop\)\n$/);
    expect(bin("daemon", "start", ...args()).stdout).toMatch(/already serves/);
    const query = bin(TASK, ...args("--format", "json"));
    expect(query.status).toBe(0);
    const direct = spawnSync(process.execPath, [MAIN, TASK, "--root", root, "--format", "json", "--no-cache"], { cwd: tmp, encoding: "utf8" });
    expect(query.stdout).toBe(direct.stdout);
    const status = JSON.parse(bin("daemon", "status", ...args("--format", "json")).stdout) as { running: boolean; requests: number; pid: number };
    expect(status).toMatchObject({ running: true, requests: 1 });
    const stop = bin("daemon", "stop", ...args());
    expect(stop.stdout).toBe(`graph-retrieve daemon: stopped pid ${status.pid} (${root})\n`);
    expect(bin("daemon", "status", ...args()).status).toBe(1);
    expect(existsSync(join(cacheDir, SOCKET_FILE))).toBe(false);
    expect(bin("daemon", "stop", ...args()).stdout).toBe(`graph-retrieve daemon: none serves ${root}\n`);
  });

  it.each([
    [["daemon"], 2, /^graph-retrieve daemon: say what to do: start, stop, status, run/],
    [["daemon", "start", "--strategy", "bm25"], 2, /^graph-retrieve daemon: --strategy does not apply to the daemon/],
    [["daemon", "status", "--idle-minutes", "5"], 2, /^graph-retrieve daemon status: --idle-minutes applies to start and run only/],
    [[TASK, "--idle-minutes", "5"], 2, /^graph-retrieve: --idle-minutes applies to graph-retrieve daemon start only/],
    [["daemon", "stop", "--no-watch"], 2, /^graph-retrieve daemon stop: --no-watch applies to start and run only/],
    [["index", "--no-watch"], 2, /^graph-retrieve: --no-watch applies to graph-retrieve daemon start only/],
    [["daemon", "start", "--root", "no/such/folder"], 1, /^graph-retrieve daemon: no folder at no\/such\/folder \(pass --root DIR\)\n$/],
  ])("%j is refused with one line (exit %i)", async (argv, code, message) => {
    const run = await runCliInProcess(argv as string[], tmp);
    expect(run.code).toBe(code);
    expect(run.stdout).toBe("");
    expect(run.stderr.split("\n").filter(Boolean)).toHaveLength(1);
    expect(run.stderr).toMatch(message);
  });
});
