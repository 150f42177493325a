#!/usr/bin/env node
// The README's examples, made by running them: each block between
// `<!-- readme-example NAME -->` and `<!-- /readme-example -->` in
// README.md is the output of the built CLI (dist/cli/main.js) for the
// example's arguments, and docs/api-gateway-retrieval.svg is the picture
// the README shows. The fixtures have no git history of their own, so the
// output is the same on every machine.
//
//   node scripts/readme-examples.mjs           write them (after npm run build)
//   node scripts/readme-examples.mjs --check   exit 1, naming each, when one differs from a fresh run
//
// test/docs/readme-examples.test.ts runs the check.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CLI = path.join(PROJECT_ROOT, "dist", "cli", "main.js");
const README = path.join(PROJECT_ROOT, "README.md");

/** The examples: a name, the CLI's arguments, how to show the output (`sh`: the command and its output; `md`: the output alone, as Markdown), at most how many lines. */
export const EXAMPLES = [
  { name: "quick-start", args: ["Fix the authentication token expiry bug", "--root", "fixtures/auth-service"], show: "sh", lines: 60 },
  { name: "rate-limiting-zh", args: ["为 API 端点添加速率限制", "--root", "fixtures/api-gateway"], show: "sh", lines: 60 },
  { name: "pack", args: ["Add rate limiting to the API endpoints", "--root", "fixtures/api-gateway", "--format", "md", "--budget", "8000"], show: "md", lines: 28 },
];

/** The picture the README shows, made from these arguments. */
export const PICTURE = { file: path.join("docs", "api-gateway-retrieval.svg"), args: ["Add rate limiting to the API endpoints", "--root", "fixtures/api-gateway", "--format", "svg", "-q"] };

function run(args) {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: PROJECT_ROOT, encoding: "utf8", env: { ...process.env, NO_COLOR: "1" } });
  if (result.status !== 0) throw new Error(`readme-examples: graph-retrieve ${args.join(" ")} exited ${result.status}: ${result.stderr.trim().split("\n").pop()}`);
  return result.stdout;
}

const quote = (arg) => (/^[\w./=-]+$/.test(arg) ? arg : `"${arg.replace(/(["\\$`])/g, "\\$1")}"`);

/** One example's block, as the README holds it between its markers. */
export function exampleBlock(example, stdout) {
  const all = stdout.replace(/\n$/, "").split("\n");
  const lines = all.length > example.lines ? [...all.slice(0, example.lines), "…"] : all;
  if (example.show === "md") return ["````md", ...lines, "````"].join("\n");
  return ["```console", `$ npx graph-retrieve ${example.args.map(quote).join(" ")}`, ...lines, "```"].join("\n");
}

const MARKER = /<!-- readme-example ([\w-]+) -->\n([\s\S]*?)<!-- \/readme-example -->/g;

/** README.md with every example block made anew; throws on a block the README lacks or names twice. */
export function freshReadme(readme) {
  const seen = new Set();
  const out = readme.replace(MARKER, (_all, name) => {
    const example = EXAMPLES.find((e) => e.name === name);
    if (!example) throw new Error(`readme-examples: README.md has a block for "${name}", which no example makes`);
    if (seen.has(name)) throw new Error(`readme-examples: README.md has two blocks for "${name}"`);
    seen.add(name);
    return `<!-- readme-example ${name} -->\n${exampleBlock(example, run(example.args))}\n<!-- /readme-example -->`;
  });
  for (const example of EXAMPLES) if (!seen.has(example.name)) throw new Error(`readme-examples: README.md lacks the block for "${example.name}" (<!-- readme-example ${example.name} -->)`);
  return out;
}

export function freshPicture() {
  return run(PICTURE.args);
}

function main() {
  const check = process.argv.includes("--check");
  if (!fs.existsSync(CLI)) {
    process.stderr.write("readme-examples: dist/cli/main.js is missing (run npm run build first)\n");
    process.exit(2);
  }
  const readme = fs.readFileSync(README, "utf8");
  const fresh = freshReadme(readme);
  const picturePath = path.join(PROJECT_ROOT, PICTURE.file);
  const picture = freshPicture();
  if (check) {
    const stale = [];
    if (fresh !== readme) stale.push("README.md");
    if (!fs.existsSync(picturePath) || fs.readFileSync(picturePath, "utf8") !== picture) stale.push(PICTURE.file);
    if (stale.length > 0) {
      process.stderr.write(`readme-examples: ${stale.join(" and ")} differ from a fresh run (run node scripts/readme-examples.mjs and commit)\n`);
      process.exit(1);
    }
    process.stdout.write(`readme-examples: ${EXAMPLES.length} examples and the picture are what the build prints\n`);
    return;
  }
  fs.writeFileSync(README, fresh);
  fs.writeFileSync(picturePath, picture);
  process.stdout.write(`readme-examples: wrote ${EXAMPLES.length} examples into README.md and ${PICTURE.file}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
