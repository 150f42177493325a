// bench:tokenizer: what a token count costs, and how far characters / 4 is from it.
//
// The text is a ~20k-token context pack's worth of this repository's own TypeScript (src/, read in
// sorted order, cut at 80,000 characters), and a Chinese-commented sample. For the tokenizer
// graph-retrieve uses (gpt-tokenizer's o200k_base) it prints the load time in a fresh process and the
// median of 20 counts; `--with DIR` also measures the others where DIR/node_modules has them
// (`npm install gpt-tokenizer js-tiktoken tiktoken @anthropic-ai/tokenizer` in an empty folder), so the
// figures in docs/benchmarks.md can be made again. Nothing is downloaded or written.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const withIndex = process.argv.indexOf("--with");
const withDir = withIndex > 0 ? path.resolve(process.argv[withIndex + 1] ?? ".") : undefined;

function sourceText(limit) {
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith(".ts")) files.push(full);
    }
  };
  walk(path.join(root, "src"));
  let text = "";
  for (const file of files) {
    if (text.length >= limit) break;
    text += readFileSync(file, "utf8");
  }
  return text.slice(0, limit);
}

const CODE = sourceText(80_000);
const CHINESE = Array.from({ length: 200 }, (_, i) => `/** 第${i}步：检查会话令牌是否过期，过期则拒绝请求。 */\nexport function checkExpiry${i}(at: number): boolean {\n  return Date.now() < at;\n}\n`).join("");

// [label, module specifier, make a counter from the module]
const CANDIDATES = [
  ["gpt-tokenizer 4.0.0 o200k_base (used)", "gpt-tokenizer/encoding/o200k_base", (m) => (t) => m.countTokens(t, { disallowedSpecial: new Set() })],
  ["gpt-tokenizer cl100k_base", "gpt-tokenizer/encoding/cl100k_base", (m) => (t) => m.countTokens(t, { disallowedSpecial: new Set() })],
  ["js-tiktoken o200k_base", "js-tiktoken", (m) => { const e = m.getEncoding("o200k_base"); return (t) => e.encode(t, [], []).length; }],
  ["tiktoken (wasm) o200k_base", "tiktoken", (m) => { const e = m.get_encoding("o200k_base"); return (t) => e.encode(t, [], []).length; }],
  ["@anthropic-ai/tokenizer (pre-Claude-3)", "@anthropic-ai/tokenizer", (m) => (t) => m.countTokens(t)],
];

function resolveIn(specifier) {
  try {
    if (!withDir) return import.meta.resolve(specifier);
    return pathToFileURL(createRequire(path.join(withDir, "package.json")).resolve(specifier)).href;
  } catch {
    return undefined;
  }
}

// child mode: load one tokenizer, count, print JSON
if (process.argv[2] === "--child") {
  const [, , , index, url] = process.argv;
  const [, , make] = CANDIDATES[Number(index)];
  const started = performance.now();
  const count = make(await import(url));
  count("warm up");
  const loadMs = performance.now() - started;
  for (let i = 0; i < 3; i++) count(CODE);
  const times = [];
  let tokens = 0;
  for (let i = 0; i < 20; i++) {
    const t = performance.now();
    tokens = count(CODE);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(JSON.stringify({ loadMs, medianMs: times[10], maxMs: times[19], tokens, chineseTokens: count(CHINESE) }));
  process.exit(0);
}

console.log(`node ${process.version}; code: ${CODE.length} characters (characters / 4: ${Math.ceil(CODE.length / 4)}); Chinese sample: ${CHINESE.length} characters (characters / 4: ${Math.ceil(CHINESE.length / 4)})`);
console.log("| tokenizer | load (fresh process) | count of the code, median of 20 (max) | code tokens | vs characters / 4 | Chinese sample tokens |");
console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
for (const [index, [label, specifier]] of CANDIDATES.entries()) {
  const url = resolveIn(specifier);
  if (!url) continue;
  let out;
  try {
    out = JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url), "--child", String(index), url], { encoding: "utf8" }));
  } catch {
    continue;
  }
  const ratio = ((out.tokens / Math.ceil(CODE.length / 4) - 1) * 100).toFixed(1);
  console.log(`| ${label} | ${out.loadMs.toFixed(0)} ms | ${out.medianMs.toFixed(1)} ms (${out.maxMs.toFixed(1)}) | ${out.tokens} | ${ratio >= 0 ? "+" : ""}${ratio} % | ${out.chineseTokens} |`);
}
