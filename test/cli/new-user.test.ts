/**
 * What a new user hits on the command line (issue 20): tasks from stdin or a
 * file, exit codes and last lines that name the real cause, hints for a
 * mistyped command or flag, an absolute JSON root, -q hiding the progress
 * bar. Each runs the CLI in-process on a real fixture or a temporary folder.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { runCli, type CliIo } from "../../src/cli/run-cli.js";
import { graphCacheOptions } from "../../src/cli/graph-cache-options.js";
import { PROGRESS_DELAY_MS } from "../../src/cli/progress-bar.js";
import { buildGraph, suggestFilePaths, type RetrievalResult } from "../../src/index.js";
import { isAssetSpecifier } from "../../src/faces.js";
import { lookUpPath as resolveMcpPath } from "../../src/mcp/resolve-path.js";
import { fixtureRoot, REPO_ROOT } from "../support/fixtures.js";

const AUTH = fixtureRoot("auth-service");
const TASK = "fix the token expiry bug";
const scratch = mkdtempSync(join(tmpdir(), "graph-retrieve-new-user-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** stderr's lines without the final empty one. */
  errLines: string[];
}

/** The CLI in this process; `io` adds stdin (piped text or a terminal) and such. */
async function cli(argv: string[], io: Partial<CliIo> = {}): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    cwd: REPO_ROOT,
    isStderrTty: false,
    ...io,
  });
  return { code, stdout, stderr, errLines: stderr.split("\n").filter((line) => line !== "") };
}

/** stdin with `text` piped in. */
function piped(text: string): Partial<CliIo> {
  return { isStdinTty: false, readStdin: async () => text };
}

/** A fresh folder under the scratch folder with these files. */
function folder(name: string, files: Record<string, string>): string {
  const root = join(scratch, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  mkdirSync(root, { recursive: true });
  return root;
}

describe("the task from stdin, --task-file or --task (issue 20, point 3)", () => {
  it("`-` reads the task from stdin", async () => {
    const run = await cli(["-", "--root", AUTH, "--no-cache", "--format", "json"], piped(`${TASK}\n`));
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as RetrievalResult).task).toBe(TASK);
  });

  it("--task-file reads it from a file, outside the root too", async () => {
    const root = folder("task-file", { "issue.md": `# ${TASK}\n\nThe session ends early.\n` });
    const run = await cli(["--task-file", join(root, "issue.md"), "--root", AUTH, "--no-cache"]);
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")[0]).toBe(`## Context retrieval: # ${TASK} The session ends early.`);
  });

  it("--task takes a word as the task, never as a command", async () => {
    const run = await cli(["--task", "indx", "--root", AUTH, "--no-cache", "-q"]);
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")[0]).toBe("## Context retrieval: indx");
  });

  it.each([
    ["a missing --task-file: exit 1", ["--task-file", "no/such/issue.md"], {}, 1, /^graph-retrieve: cannot read --task-file "no\/such\/issue\.md": no such file \(check the path\)$/],
    ["an empty task on stdin: exit 2", ["-"], piped(" \n"), 2, /^graph-retrieve: the task read from stdin is empty/],
    ["`-` with stdin a terminal: exit 2", ["-"], { isStdinTty: true, readStdin: async () => "" }, 2, /"-" reads the task from stdin, but nothing is piped in/],
    ["no task while stdin is a pipe: says to add -", [], piped(TASK), 2, /^graph-retrieve: no task given .*to read it from stdin, add -: echo "…" \| graph-retrieve - --root DIR/],
    ["a task and --task-file both", [TASK, "--task-file", "issue.md"], {}, 2, /give the task once/],
  ])("%s", async (_name, argv, io, code, message) => {
    const run = await cli([...argv, "--root", AUTH, "--no-cache"], io);
    expect(run.code).toBe(code);
    expect(run.stdout).toBe("");
    expect(run.errLines).toEqual([expect.stringMatching(message)]);
  });

  it("an empty --task-file: exit 2", async () => {
    const root = folder("empty-task-file", { "issue.md": "\n\n" });
    const run = await cli(["--task-file", join(root, "issue.md"), "--root", AUTH, "--no-cache"]);
    expect(run.code).toBe(2);
    expect(run.errLines).toEqual([expect.stringMatching(/the task read from --task-file ".*issue\.md" is empty/)]);
  });

  it("a long task is shortened in the text heading and kept whole in JSON", async () => {
    const long = `${TASK} ${"and the session cookie is stale again ".repeat(2_500)}`.trim();
    const text = await cli(["-", "--root", AUTH, "--no-cache", "-q"], piped(long));
    expect(text.code).toBe(0);
    const heading = text.stdout.split("\n")[0] ?? "";
    expect(heading.length).toBeLessThan(250);
    expect(heading).toMatch(new RegExp(`^## Context retrieval: ${TASK} and the session .* … \\(${long.length} characters\\)$`));
    expect(text.stdout.length).toBeLessThan(20_000);
    const json = await cli(["-", "--root", AUTH, "--no-cache", "-q", "--format", "json"], piped(long));
    expect((JSON.parse(json.stdout) as RetrievalResult).task).toBe(long);
  });
});

describe("exit codes and last lines that tell the truth (issue 20, point 4)", () => {
  it("a root with no source file: exit 1, the last line says so", async () => {
    const root = folder("no-sources", { "docs/notes.md": "# notes\n", "README.md": "hi\n" });
    for (const argv of [[TASK], ["graph"], ["index"]]) {
      const run = await cli([...argv, "--root", root, "--cache-dir", join(scratch, "cache-no-sources")]);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.errLines.at(-1)).toMatch(/^graph-retrieve: no TypeScript, JavaScript or Python source file under the root .*no-sources \(pass --root with the project folder;/);
    }
  });

  it("an --include that matches nothing: exit 1, naming the glob", async () => {
    const run = await cli([TASK, "--root", AUTH, "--no-cache", "--include", "source/**"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.errLines.at(-1)).toMatch(/^graph-retrieve: no source file under the root .*auth-service matches --include 'source\/\*\*' \(globs are relative to the root/);
  });

  it("an absolute --include: exit 1, globs are relative to the root, with the relative glob to write", async () => {
    const run = await cli([TASK, "--root", AUTH, "--no-cache", "--include", `${AUTH}/src/**`]);
    expect(run.code).toBe(1);
    expect(run.errLines.at(-1)).toBe(`graph-retrieve: --include '${AUTH}/src/**' is an absolute path: globs are relative to the root ${AUTH} (write 'src/**')`);
  });

  it("index fails in one line when the index folder cannot be written", async () => {
    const blocker = folder("blocker", { "a-file": "not a folder\n" });
    const run = await cli(["index", "--root", AUTH, "--cache-dir", join(blocker, "a-file", "cache"), "-q"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.errLines).toEqual([expect.stringMatching(/^graph-retrieve index: nothing was indexed: could not write the index to .*a-file\/cache \(ENOTDIR; check the folder is writable, or pass --cache-dir DIR\)$/)]);
  });

  it("index reads the config's include / exclude as graph does", async () => {
    const root = folder("config-include", {
      "graph-retrieve.config.json": JSON.stringify({ include: ["src/**"], exclude: ["src/skip.ts"] }),
      "src/a.ts": "export const a = 1;\n",
      "src/skip.ts": "export const s = 1;\n",
      "scripts/tool.ts": "export const t = 1;\n",
    });
    const cacheDir = join(scratch, "cache-config-include");
    const index = await cli(["index", "--root", root, "--cache-dir", cacheDir, "--format", "json", "--no-history"]);
    expect(index.code).toBe(0);
    expect((JSON.parse(index.stdout) as { files: number }).files).toBe(1);
    const graph = await cli(["graph", "--root", root, "--cache-dir", cacheDir, "--no-history"]);
    const files = (JSON.parse(graph.stdout) as { nodes: Array<{ id: string; kind: string }> }).nodes.filter((n) => n.kind === "file");
    expect(files.map((n) => n.id)).toEqual(["src/a.ts"]);
  });

  it("index rejects an invalid config as the other commands do, before indexing anything", async () => {
    const root = folder("config-bad-strategy", { "graph-retrieve.config.json": JSON.stringify({ strategy: "fast" }), "src/a.ts": "export const a = 1;\n" });
    const cacheDir = join(scratch, "cache-bad-strategy");
    for (const argv of [["index"], ["graph"], [TASK]]) {
      const run = await cli([...argv, "--root", root, "--cache-dir", cacheDir]);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.errLines).toEqual([expect.stringMatching(/^graph-retrieve\.config\.json: "strategy" must be one of "graph", /)]);
      expect(existsSync(cacheDir)).toBe(false);
    }
  });

  it.each([
    ["indx", "index"],
    ["grap", "graph"],
    ["demon", "daemon"],
  ])("a lone word one edit from a command (%s) is a usage error naming the command", async (word, command) => {
    const run = await cli([word, "--root", AUTH, "--no-cache"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.errLines).toEqual([`graph-retrieve: "${word}" is not a command: did you mean graph-retrieve ${command}? (to retrieve for the word itself, pass --task "${word}")`]);
  });

  it("a task of several words near a command name, or a short word, is a task", async () => {
    expect((await cli(["indx cookies", "--root", AUTH, "--no-cache", "-q"])).code).toBe(0);
    expect((await cli(["map", "--root", AUTH, "--no-cache", "-q"])).code).toBe(0);
  });

  it("an unknown flag names the closest one, quotes balanced", async () => {
    const run = await cli([TASK, "--foramt", "json", "--root", AUTH]);
    expect(run.code).toBe(2);
    expect(run.errLines).toEqual(["graph-retrieve: unknown option --foramt (did you mean --format? see graph-retrieve --help)"]);
    const far = await cli(["graph", "--bogus"]);
    expect(far.errLines).toEqual(['graph-retrieve: unknown option --bogus (see graph-retrieve --help; a task that starts with "-" goes after --: graph-retrieve -- "--bogus …")']);
    for (const line of [...run.errLines, ...far.errLines]) {
      expect((line.match(/"/g) ?? []).length % 2).toBe(0);
      expect((line.match(/'/g) ?? []).length % 2).toBe(0);
    }
  });
});

describe("small ones (issue 20, point 11)", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("JSON's root is the absolute root, whatever --root was given as", async () => {
    const run = await cli([TASK, "--root", "fixtures/auth-service", "--no-cache", "--format", "json", "-q"]);
    expect((JSON.parse(run.stdout) as RetrievalResult).root).toBe(join(REPO_ROOT, "fixtures", "auth-service"));
    const graph = await cli(["graph", "--root", "fixtures/auth-service", "--no-cache", "-q"]);
    expect((JSON.parse(graph.stdout) as { root: string }).root).toBe(join(REPO_ROOT, "fixtures", "auth-service"));
  });

  it("-q hides the progress bar on a terminal", () => {
    vi.useFakeTimers();
    const drawn = (quiet: boolean): string => {
      let progress = "";
      const io: CliIo = { stdout: () => {}, stderr: () => {}, cwd: REPO_ROOT, isStderrTty: true, progress: (text) => void (progress += text) };
      const { options, finish } = graphCacheOptions({ quiet, "no-cache": true }, io, ".");
      options.onProgress?.(1, 10);
      vi.advanceTimersByTime(PROGRESS_DELAY_MS * 2);
      options.onProgress?.(5, 10);
      finish();
      return progress;
    };
    expect(drawn(false)).toMatch(/indexing \[#+-+\] 5\/10 files/);
    expect(drawn(true)).toBe("");
  });

  it("the README's --svg / --dot examples write new files: none names a committed file (a fresh clone refuses to replace it)", () => {
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
    const committed = new Set(execFileSync("git", ["ls-files"], { cwd: REPO_ROOT, encoding: "utf8" }).split("\n"));
    const commands = readme.split("\n").filter((line) => /^\s*(npx )?graph-retrieve .*--(svg|dot) /.test(line));
    expect(commands.length).toBeGreaterThan(0);
    for (const command of commands) {
      if (command.includes("--force")) continue;
      for (const [, file] of command.matchAll(/--(?:svg|dot) (\S+)/g)) expect(committed.has(file!), `${command}`).toBe(false);
    }
  });

  it("the help says how to give a task, what --include and --also-include do, and the exit codes", async () => {
    const { stdout } = await cli(["--help"]);
    for (const text of ["graph-retrieve - [options] < issue.md", "--task-file FILE", "--task TEXT", "--include GLOB        replaces what is read", "--also-include GLOB   adds to what is read", "1 the run could not do it", "2 usage"]) {
      expect(stdout).toContain(text);
    }
  });

  it("one candidate is '1 file'", async () => {
    const root = folder("one-file", { "src/session.ts": "export function refreshSession(token: string) { return token; }\n" });
    const run = await cli(["refresh the session token", "--root", root, "--no-cache", "--no-history", "-q"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("- Candidates: 1 file\n");
    expect(run.stdout).not.toMatch(/\b1 files\b/);
  });
});

describe("one suggestion for a path, in --explain and in MCP (issue 20, point 8)", () => {
  it("a path without its src/ prefix: --explain and explain_file both suggest the file it names", async () => {
    const run = await cli([TASK, "--root", AUTH, "--no-cache", "--explain", "auth/tokens.ts"]);
    expect(run.code).toBe(2);
    expect(run.errLines).toEqual(['graph-retrieve: --explain "auth/tokens.ts" is not a source file under the root (did you mean src/auth/tokens.ts? give a path relative to the root or to the current folder)']);
    const codeGraph = await buildGraph(AUTH);
    expect(resolveMcpPath(codeGraph, "auth/tokens.ts")).toEqual({ error: `"auth/tokens.ts" is not a source file under the root ${AUTH} (did you mean src/auth/tokens.ts?)` });
  });

  it("ranks by the folders a path shares, then by a name a typo away", () => {
    const known = ["src/auth/session.ts", "src/cache/session.ts", "src/cache/store.ts", "lib/session-store.ts"];
    expect(suggestFilePaths(known, "cache/session.ts")).toEqual(["src/cache/session.ts"]);
    expect(suggestFilePaths(known, "lib/cache/session.ts")).toEqual(["src/cache/session.ts", "src/auth/session.ts"]);
    expect(suggestFilePaths(known, "src/cache/stor.ts")).toEqual(["src/cache/store.ts", "lib/session-store.ts"]);
    expect(suggestFilePaths(known, "nothing/like-it.ts")).toEqual([]);
  });
});

describe("warnings worth reading (issue 20, point 6)", () => {
  it("unresolved asset imports are counted apart from code; alone they warn of nothing", async () => {
    const root = folder("assets", {
      "src/app.ts": [
        'import "./styles/app.scss";',
        'import "./styles/reset.css?inline";',
        'import font from "../fonts/inter.woff2";',
        'import logo from "./logo.svg";',
        'import data from "./data.json";',
        'import { gone } from "./gone";',
        "export const app = [font, logo, data, gone];",
        "",
      ].join("\n"),
      "lib/only-assets.ts": 'import "./theme.css";\nexport const theme = 1;\n',
    });
    const run = await cli(["graph", "--root", root, "--no-cache", "--no-history"]);
    expect(run.code).toBe(0);
    expect(run.errLines).toEqual([
      "warning: 1 import specifier(s) of code did not resolve to a file under the root (graph --format json lists them; 6 asset imports (.css, .woff2, .json…) are not code and not counted)",
    ]);
    const assetsOnly = await cli(["graph", "--root", root, "--no-cache", "--no-history", "--include", "lib/**"]);
    expect(assetsOnly.code).toBe(0);
    expect(assetsOnly.stderr).toBe("");
  });

  it("an asset is known by its ending, query and hash aside", () => {
    expect(["./a.css", "./a.module.scss", "../f/inter.woff2", "./i.PNG", "./d.json", "./raw.txt?raw", "./s.svg#icon"].map(isAssetSpecifier)).toEqual([true, true, true, true, true, true, true]);
    expect(["./tokens", "./tokens.ts", "lodash/fp.js", "@scope/pkg", "./v1.2/x", "./comp.vue"].map(isAssetSpecifier)).toEqual([false, false, false, false, false, false]);
  });
});

describe("default excludes and --include (issue 20, point 7)", () => {
  const graphFiles = (stdout: string): string[] => (JSON.parse(stdout) as { nodes: Array<{ id: string; kind: string }> }).nodes.filter((n) => n.kind === "file").map((n) => n.id);

  it("a committed build/ of scripts is read by default; build output is not", async () => {
    const root = folder("build-scripts", {
      "build/validate-exports.ts": "export function validateExports(names: string[]) { return names.length > 0; }\n",
      "packages/web/build/app.js": "export const app = 1;\n",
      "packages/web/build/app.js.map": "{}\n",
      "src/index.ts": "export const index = 1;\n",
    });
    const graph = await cli(["graph", "--root", root, "--no-cache", "--no-history", "-q"]);
    expect(graph.code).toBe(0);
    expect(graphFiles(graph.stdout)).toEqual(["build/validate-exports.ts", "src/index.ts"]);
    const run = await cli(["validate the exports", "--root", root, "--no-cache", "--no-history", "-q", "--format", "json"]);
    expect((JSON.parse(run.stdout) as RetrievalResult).files[0]?.path).toBe("build/validate-exports.ts");
  });

  it("--include replaces what is read; --also-include adds to it, into a left-out folder too", async () => {
    const root = folder("also-include", {
      "dist/bundle-helpers.js": "export function retryRequest() { return 1; }\n",
      "src/client.ts": "export function sendRequest() { return 2; }\n",
      "src/client.test.ts": "export const t = 1;\n",
    });
    const base = ["--root", root, "--no-cache", "--no-history", "-q"];
    expect(graphFiles((await cli(["graph", ...base])).stdout)).toEqual(["src/client.test.ts", "src/client.ts"]);
    expect(graphFiles((await cli(["graph", ...base, "--include", "dist/**"])).stdout)).toEqual(["dist/bundle-helpers.js"]);
    expect(graphFiles((await cli(["graph", ...base, "--also-include", "dist/**"])).stdout)).toEqual(["dist/bundle-helpers.js", "src/client.test.ts", "src/client.ts"]);
    expect(graphFiles((await cli(["graph", ...base, "--also-include", "dist/**", "--exclude", "**/*.test.ts"])).stdout)).toEqual(["dist/bundle-helpers.js", "src/client.ts"]);
    const index = await cli(["index", ...base.filter((a) => a !== "--no-cache"), "--cache-dir", join(scratch, "cache-also"), "--also-include", "dist/**", "--format", "json"]);
    expect((JSON.parse(index.stdout) as { files: number }).files).toBe(3);
    const run = await cli(["retry the request", ...base, "--also-include", "dist/**", "--format", "json"]);
    expect((JSON.parse(run.stdout) as RetrievalResult).files.map((f) => f.path)).toContain("dist/bundle-helpers.js");
  });
});
