/**
 * Hostile input through the CLI (runCli in-process; the built bin once):
 * every case either exits 0 with a valid result and a warning for what was
 * skipped, or exits non-zero with one line; never a stack trace, never raw
 * control characters, never a path outside the root.
 *
 * test/graph/hostile-root.test.ts checks the graph of a similar root
 * (edges, one diagnostic per skipped file); this file adds what that one does
 * not: retrievals over a hostile root, a 3 MB file, a 200k-character line,
 * nesting 5,000 deep, unreadable files and folders, a FIFO, file names with
 * terminal escapes, unusable roots, and hostile tasks.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GraphJson, RetrievalResult } from "../../src/index.js";
import { cli, expectOrderly, expectRootRelative, expectValidRetrieval, IS_ROOT_USER, isolateUserCache, makeTmp, removeTmp, spawnCli } from "./helpers.js";

const SECRET = "OUTSIDE_SECRET_c0ffee";
const DEPTH = 5000;
const MIB = 1024 * 1024;
/** A file name that would retitle the terminal if printed raw. */
const EVIL_NAME = "evil\u001b]0;pwned\u0007.ts";

let base: string;
let root: string;
let outside: string;

/** 3 MB of plain TypeScript: definitions, one a line. */
function threeMegabytes(): string {
  const lines: string[] = ['import { issueToken } from "./token";'];
  let size = lines[0]!.length;
  for (let i = 0; size < 3 * MIB; i++) {
    const line = `export function handler${i}(input: number): number { return issueToken(input) + ${i}; }`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join("\n")}\n`;
}

let cacheHome: string;

beforeAll(() => {
  cacheHome = isolateUserCache();
  base = makeTmp("hostile-cli");
  root = join(base, "project");
  outside = join(base, "outside-private");
  mkdirSync(join(root, "src", "locked-dir"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, "secret.ts"), `export const ${SECRET} = "never read";\n`);
  const file = (path: string, content: string | Buffer) => writeFileSync(join(root, path), content);

  file("src/token.ts", "/** Issue an authentication token. */\nexport function issueToken(user: number): number {\n  return user + 1;\n}\nexport function tokenExpiry(): number {\n  return 3600;\n}\n");
  file("src/session.ts", 'import { issueToken, tokenExpiry } from "./token";\nexport function startSession(user: number) {\n  return { token: issueToken(user), expiry: tokenExpiry() };\n}\n');
  file("src/broken.ts", 'import { issueToken } from "./token";\nexport function broken( {\n  return issueToken(;\n');
  file("src/binary.ts", Buffer.concat([Buffer.from("export const x = 1;\n"), Buffer.from([0, 1, 2, 255, 0])]));
  file("src/bad-utf8.ts", Buffer.concat([Buffer.from('export const label = "'), Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]), Buffer.from('";\n')]));
  file("src/empty.ts", "");
  file("src/huge.ts", threeMegabytes());
  file("src/long-line.ts", `export const LONG_LINE = [${Array.from({ length: 40_000 }, (_, i) => i % 10_000).join(",")}]; export const tail = "${"x".repeat(20_000)}";`);
  file("src/deep-parens.ts", `export const parens = ${"(".repeat(DEPTH)}1${")".repeat(DEPTH)};\n`);
  file("src/deep-arrays.ts", `export const arrays = ${"[".repeat(DEPTH)}1${"]".repeat(DEPTH)};\n`);
  file("src/deep-functions.ts", `export ${"function nested() { ".repeat(DEPTH)}return 1;${" }".repeat(DEPTH)}\n`);
  file("src/deep-unclosed.ts", `import { issueToken } from "./token";\nexport const unclosed = ${"(".repeat(DEPTH)}issueToken(1);\n`);
  file("src/deep-braces.ts", `export function braces() {${"{".repeat(DEPTH)}\n`);
  file("src/deep-jsx.tsx", `export const Deep = () => ${"<div>".repeat(DEPTH)}${"</div>".repeat(DEPTH)};\n`);
  file(`src/${EVIL_NAME}`, 'import { issueToken } from "./token";\nexport const evil = issueToken(2);\n');
  file("src/locked.ts", "export const locked = 1;\n");
  file("src/locked-dir/inner.ts", "export const inner = 1;\n");
  symlinkSync("..", join(root, "src", "loop"));
  symlinkSync("ring-b.ts", join(root, "src", "ring-a.ts"));
  symlinkSync("ring-a.ts", join(root, "src", "ring-b.ts"));
  symlinkSync(outside, join(root, "src", "escape"));
  symlinkSync(join(outside, "secret.ts"), join(root, "src", "secret.ts"));
  execFileSync("mkfifo", [join(root, "src", "pipe.ts")]);
  chmodSync(join(root, "src", "locked.ts"), 0o000);
  chmodSync(join(root, "src", "locked-dir"), 0o000);
});

afterAll(() => {
  removeTmp(cacheHome);
  if (root) chmodSync(join(root, "src", "locked-dir"), 0o755);
  removeTmp(base);
});

/** What no output may ever contain: the outside folder, the temporary base (runs use --root project from there), the secret. */
const forbidden = () => [outside, base, SECRET, "outside-private"];

/** The run with the root's own absolute path (JSON's `root`, a message naming the root) masked: the root is no outside path. */
function withRootMasked<T extends { stdout: string; stderr: string }>(run: T): T {
  return { ...run, stdout: run.stdout.split(root).join("<root>"), stderr: run.stderr.split(root).join("<root>") };
}

describe("a hostile root through `graph`", () => {
  let run: Awaited<ReturnType<typeof cli>>;
  let json: GraphJson;
  beforeAll(async () => {
    run = await cli(["graph", "--root", "project", "--timeout", "60"], base);
    json = JSON.parse(run.stdout) as GraphJson;
  });

  it("exits 0 with valid JSON: every edge between existing nodes, every file path root-relative", () => {
    expect(run.code).toBe(0);
    expectOrderly(withRootMasked(run), forbidden());
    const ids = new Set(json.nodes.map((n) => n.id));
    for (const edge of json.edges) {
      expect(ids.has(edge.source)).toBe(true);
      expect(ids.has(edge.target)).toBe(true);
    }
    for (const node of json.nodes.filter((n) => n.kind === "file")) expectRootRelative(node.id);
  });

  it("keeps every readable source file, however odd, once", () => {
    const files = json.nodes.filter((n) => n.kind === "file").map((n) => n.id).sort();
    expect(files).toEqual(
      [
        "src/bad-utf8.ts",
        "src/broken.ts",
        "src/deep-arrays.ts",
        "src/deep-braces.ts",
        "src/deep-functions.ts",
        "src/deep-jsx.tsx",
        "src/deep-parens.ts",
        "src/deep-unclosed.ts",
        "src/empty.ts",
        `src/${EVIL_NAME}`,
        "src/long-line.ts",
        "src/session.ts",
        "src/token.ts",
        ...(IS_ROOT_USER ? ["src/locked-dir/inner.ts", "src/locked.ts"] : []),
      ].sort(),
    );
  });

  it("reads what deep nesting and a 200k-character line define", () => {
    const ids = new Set(json.nodes.map((n) => n.id));
    expect(ids.has("src/deep-functions.ts#nested")).toBe(true);
    expect(ids.has("src/deep-parens.ts#parens")).toBe(true);
    expect(ids.has("src/long-line.ts#LONG_LINE")).toBe(true);
    expect(ids.has("src/long-line.ts#tail")).toBe(true);
    // the TypeScript parser overflows on 5,000 unclosed brackets: tree-sitter's facts still give the import
    expect(json.edges).toContainEqual(expect.objectContaining({ source: "src/deep-unclosed.ts", target: "src/token.ts", kind: "import" }));
  });

  it("warns once for each skipped file, saying why, and names the files with syntax errors", () => {
    const skipped = run.errLines.filter((line) => line.includes("skipped:"));
    const expected = [
      /^warning: src\/binary\.ts: skipped: binary file/,
      /^warning: src\/escape: skipped: symlink points outside the root/,
      /^warning: src\/huge\.ts: skipped: 3\.0 MiB over the 1 MiB limit \(raise --max-file-bytes/,
      ...(IS_ROOT_USER ? [] : [/^warning: src\/locked-dir: skipped: folder cannot be read \(EACCES/, /^warning: src\/locked\.ts: skipped: file cannot be read \(EACCES/]),
      /^warning: src\/ring-a\.ts: skipped: broken symlink \(ELOOP/,
      /^warning: src\/ring-b\.ts: skipped: broken symlink \(ELOOP/,
      /^warning: src\/secret\.ts: skipped: symlink points outside the root/,
    ];
    expect(skipped).toEqual(expected.map((pattern) => expect.stringMatching(pattern)));
    const parseErrors = run.errLines.filter((line) => line.includes("parse-error")).map((line) => line.split(": ")[1]);
    expect(parseErrors).toEqual(["src/broken.ts", "src/deep-braces.ts", "src/deep-unclosed.ts"]);
  });

  it("ignores the FIFO with a source extension (never opened for reading, so never a hang)", () => {
    expect(run.stdout).not.toContain("pipe.ts");
    expect(run.stderr).not.toContain("pipe.ts");
  });

  it("prints the terminal-escape file name escaped, in JSON still the real name", () => {
    expect(run.stdout).toContain("evil\\u001b]0;pwned\\u0007.ts");
  });
});

describe("a hostile root through a retrieval", () => {
  it("--format json: exit 0, a valid result over the readable files, nothing from outside", async () => {
    const graph = JSON.parse((await cli(["graph", "--root", "project", "-q"], base)).stdout) as GraphJson;
    const known = new Set(graph.nodes.filter((n) => n.kind === "file").map((n) => n.id));
    const run = await cli(["fix the token expiry bug in startSession, and the outside secret escape", "--root", "project", "--format", "json"], base);
    expect(run.code).toBe(0);
    expectOrderly(withRootMasked(run), forbidden());
    const result = JSON.parse(run.stdout) as RetrievalResult;
    expectValidRetrieval(result, known);
    expect(result.files.map((f) => f.path).slice(0, 2).sort()).toEqual(["src/session.ts", "src/token.ts"]);
    expect(run.errLines.some((line) => /src\/huge\.ts: skipped/.test(line))).toBe(true);
  });

  it("--format text: exit 0, the terminal-escape name shown escaped", async () => {
    const run = await cli(["evil issueToken", "--root", "project", "--format", "text"], base);
    expect(run.code).toBe(0);
    expectOrderly(withRootMasked(run), forbidden());
    expect(run.stdout).toContain("evil\\u001b]0;pwned\\u0007.ts");
  });

  it("a 3 MB file under a raised --max-file-bytes is read, and the run stays bounded", async () => {
    const run = await cli(["token expiry", "--root", "project", "--max-file-bytes", String(4 * MIB), "--format", "json", "--timeout", "50"], base);
    expect(run.code).toBe(0);
    expectOrderly(withRootMasked(run), forbidden());
    const result = JSON.parse(run.stdout) as RetrievalResult;
    expectValidRetrieval(result);
    expect(run.stderr).not.toContain("huge.ts: skipped");
    expect(result.stats.files).toBeGreaterThanOrEqual(14);
  });

  it("the built bin, end to end: exit 0, warnings only, nothing from outside", async () => {
    const run = await spawnCli(["token expiry", "--root", "project", "--format", "json", "--timeout", "50"], { cwd: base });
    expect(run.code).toBe(0);
    expectOrderly(withRootMasked(run), forbidden());
    expectValidRetrieval(JSON.parse(run.stdout) as RetrievalResult);
  });
});

describe("unusable roots: exit 1, one line naming the problem", () => {
  // (a missing root and a file as the graph root are in test/cli/cli.test.ts)
  it.each([
    ["a source file as the root of a retrieval", () => join(root, "src", "token.ts"), /is a file, not a folder/],
    ["a character device as the root", () => "/dev/null", /is a file, not a folder/],
    ["a FIFO as the root", () => join(root, "src", "pipe.ts"), /is a file, not a folder/],
    ["a symlink loop as the root", () => join(root, "src", "ring-a.ts"), /cannot be read \(ELOOP/],
    ["a dangling symlink as the root", () => join(root, "src", "escape", "gone"), /does not exist/],
  ])("%s", async (_name, rootOf, message) => {
    const run = await cli(["fix the token expiry", "--root", rootOf()]);
    expect(run.code).toBe(1);
    expectOrderly(run);
    expect(run.errLines[0]).toMatch(message);
  });

  it.skipIf(IS_ROOT_USER)("an unreadable folder as the root (skipped as root: permissions do not stop root)", async () => {
    const run = await cli(["graph", "--root", join(root, "src", "locked-dir")]);
    expect(run.code).toBe(1);
    expectOrderly(run);
    expect(run.errLines[0]).toMatch(/cannot be read \(EACCES; check its permissions/);
  });
});

describe("hostile tasks", () => {
  const fixtureRoot = "fixtures/auth-service";

  it("a 100 KB task: exit 0, a valid result, in bounded time", async () => {
    const words = ["token", "expiry", "refresh", "session", "validate", "user", "login", "cache"];
    const task = Array.from({ length: 20_000 }, (_, i) => words[(i * 7) % words.length]).join(" ").slice(0, 100 * 1024);
    const run = await cli([task, "--root", fixtureRoot, "--format", "json", "--timeout", "50"]);
    expect(run.code).toBe(0);
    expectOrderly(run);
    const result = JSON.parse(run.stdout) as RetrievalResult;
    expectValidRetrieval(result);
    expect(result.task).toBe(task);
    expect(result.files.length).toBeGreaterThan(0);
  });

  it.each([
    ["emoji, ZWJ sequences and a flag", "🔥 fix the 👩‍💻 token expiry 🇫🇷 bug 🐛"],
    ["terminal escapes and other controls", "fix \u001b[31mtoken\u001b[0m expiry\u0007\u0000\u007f\u009b2J\r"],
    ["bidi overrides", "fix \u202etoken\u202c expiry \u2066bug\u2069"],
    ["a lone surrogate", "fix token \ud800 expiry"],
    ["only emoji (no word to search for)", "🔥🔥🔥"],
    ["only punctuation", "?!?.,;:()[]{}"],
  ])("%s: exit 0, the task kept as given, no raw control in the output", async (_name, task) => {
    for (const format of ["json", "text"]) {
      const run = await cli([task, "--root", fixtureRoot, "--format", format]);
      expect(run.code).toBe(0);
      expectOrderly(run);
      if (format === "json") {
        const result = JSON.parse(run.stdout) as RetrievalResult;
        expectValidRetrieval(result);
        expect(result.task).toBe(task.trim());
      }
    }
  });
});
