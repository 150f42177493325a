/**
 * renderContextPack: the header, files best first with line numbers, the
 * reductions (matched definitions whole, then signatures, then names), and
 * the budget: a property test over budgets from 1k to 200k tokens on both
 * pattern fixtures and a generated project whose top file is large.
 */
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, describe, expect, it } from "vitest";
import { buildContextPack, createRetriever, formatRelevance, renderContextPack, UsageError, type CodeGraph, type Definition, type ParsedFile, type RetrievalResult, type RetrievedFile } from "../../src/index.js";
import { bigFileRetrieval, fixtureRetrieval, removeGeneratedRoots, TASKS, type Retrieval } from "./helpers.js";

afterAll(removeGeneratedRoots);

interface PackSection {
  /** The file's rank among the ranked files (0: a supporting file, headed "Also read"). */
  rank: number;
  path: string;
  status: string;
  /** Numbered code lines: line number → text as shown. */
  code: Map<number, string>;
}

/** Split a pack into its file sections (`## <rank>. <path>`), reading the status line and the numbered code lines. */
function readSections(pack: string): PackSection[] {
  const sections: PackSection[] = [];
  let current: PackSection | undefined;
  let fence: string | undefined;
  for (const line of pack.split("\n")) {
    const heading = /^## (?:(\d+)\.|Also read:) (.+)$/.exec(line);
    if (heading && fence === undefined) {
      current = { rank: Number(heading[1] ?? 0), path: heading[2]!, status: "", code: new Map() };
      sections.push(current);
      continue;
    }
    if (!current) continue;
    if (current.status === "" && / · (entered in cycle \d+|read beside the context) · /.test(line)) current.status = line;
    const fenceMatch = /^(`{3,})(\w*)$/.exec(line);
    if (fenceMatch && (fence === undefined ? fenceMatch[2] !== "" : fenceMatch[1] === fence)) {
      fence = fence === undefined ? fenceMatch[1] : undefined;
      continue;
    }
    if (fence === undefined) continue;
    const numbered = /^ *(\d+) \|(?: (.*))?$/.exec(line);
    if (numbered) current.code.set(Number(numbered[1]), numbered[2] ?? "");
    else expect(line, `a code line that is neither numbered nor a left-out marker: ${line}`).toMatch(/^ +\| …$/);
  }
  return sections;
}

/** Tokens as the models using o200k_base count them (special tokens in code are text). */
function tokensOf(text: string): number {
  return countTokens(text, { disallowedSpecial: new Set() });
}

async function fileLines(retrieval: Retrieval, path: string): Promise<string[]> {
  const lines = (await retrieval.readFile(path)).split(/\r?\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

async function pack(retrieval: Retrieval, budgetTokens?: number): Promise<string> {
  return renderContextPack(retrieval.result, { codeGraph: retrieval.codeGraph, readFile: retrieval.readFile, budgetTokens });
}

describe("renderContextPack on the pattern fixtures", () => {
  it("auth-service at the default budget: header, the context's files whole best first, its supporting files as signatures, then the next candidates by name", async () => {
    const retrieval = await fixtureRetrieval("auth-service");
    const { result } = retrieval;
    const text = await pack(retrieval);
    expect(tokensOf(text)).toBeLessThanOrEqual(20_000);
    expect(text.startsWith(`# Context pack: ${TASKS["auth-service"]}\n`)).toBe(true);
    expect(text).toContain("Budget: 20000 tokens, counted with the o200k_base (gpt-tokenizer) tokenizer");
    const n = result.context.length;
    expect(text).toContain(`The context, ${n} file${n === 1 ? "" : "s"} best first (${result.decision.replace(/ \((.*)\)$/, ", $1")}), as code`);
    expect(text).toMatch(/^- Cycle 1: searched "authentic", "token", "expir", "src", "auth"; \d+ candidates; context: /m);
    expect(text).toMatch(/^- Cycle 2: \d+ candidates/m);
    expect(result.context.length).toBeGreaterThan(0);
    expect(result.supporting.length).toBeGreaterThan(0);
    const sections = readSections(text);
    expect(sections.map((s) => s.path)).toEqual([...result.context, ...result.supporting.map((s) => s.path)]);
    for (const [i, path] of result.context.entries()) {
      const section = sections[i]!;
      const file = result.files.find((f) => f.path === path)!;
      expect(section.status).toContain(`${formatRelevance(file.relevance)} ${file.band} · in the context`);
      expect(section.status).toMatch(/ · whole \(\d+ lines\)$/);
      expect(text).toContain(`Why: ${file.reason}`);
      const lines = await fileLines(retrieval, file.path);
      expect([...section.code.keys()]).toEqual(lines.map((_l, n) => n + 1));
      expect([...section.code.values()]).toEqual(lines);
    }
    for (const [i, supporting] of result.supporting.entries()) {
      const section = sections[result.context.length + i]!;
      expect(section.status).toMatch(/read beside the context · signatures/);
      // the signature line of each name used, and nothing but signature lines
      const definitions = retrieval.codeGraph.files.get(supporting.path)!.definitions;
      const shown = new Set(section.code.keys());
      for (const name of supporting.names) {
        const d = definitions.find((d) => d.name === name);
        if (d && supporting.tie === "defines") expect(shown.has(d.startLine), `${supporting.path} ${name}`).toBe(true);
      }
      const starts = new Set(definitions.map((d) => d.startLine));
      for (const n of shown) expect(starts.has(n)).toBe(true);
    }
    // the next candidates, one line each
    const next = result.files.filter((f, i) => !result.context.includes(f.path) && !result.supporting.some((s) => s.path === f.path) && (i < 5 || f.relevance >= 0.2));
    expect(next.length).toBeGreaterThan(0);
    expect(text).toContain("## Next candidates, by name only");
    for (const file of next) expect(text).toMatch(new RegExp(`^- \\d+\\. ${file.path.replace(/[.]/g, "\\.")} · ${formatRelevance(file.relevance)} ${file.band} · .+$`, "m"));
    expect(text).not.toContain("Left out for the budget");
  });

  it("a tight budget reduces the top file to its matched definitions and signatures, never cutting a line", async () => {
    const retrieval = await bigFileRetrieval();
    const top = retrieval.result.files[0]!;
    expect(top.path).toBe("src/billing/invoice-engine.ts");
    const text = await pack(retrieval, 3000);
    expect(tokensOf(text)).toBeLessThanOrEqual(3000);
    const section = readSections(text)[0]!;
    expect(section.path).toBe(top.path);
    expect(section.status).toMatch(/ · reduced: \d+ matched definitions? whole, other definitions as signatures/);
    const lines = await fileLines(retrieval, top.path);
    for (const [n, shown] of section.code) expect(shown).toBe(lines[n - 1]);
    // an invoice function whole (matched), the ledger helpers by their signature line only
    const definitions = retrieval.codeGraph.files.get(top.path)!.definitions;
    const wholeInvoice = definitions.filter((d) => d.name.startsWith("invoiceTotalStep") && isWhole(section, d));
    expect(wholeInvoice.length).toBeGreaterThan(0);
    for (const d of definitions.filter((d) => d.name.startsWith("ledgerHelper"))) {
      expect(section.code.has(d.startLine), d.name).toBe(true);
      expect(section.code.has(d.startLine + 1), d.name).toBe(false);
    }
  });

  it("falls to signatures, then names, as the budget shrinks; a budget too small for the header is a usage error", async () => {
    const retrieval = await bigFileRetrieval();
    const forms = [];
    for (const budget of [1000, 600, 300]) {
      const text = await pack(retrieval, budget);
      expect(tokensOf(text)).toBeLessThanOrEqual(budget);
      forms.push(readSections(text)[0]!.status.split(" · ")[3]!.split(/[ :(]/)[0]);
    }
    expect(forms).toEqual(["signatures", "names", "names"]);
    await expect(pack(retrieval, 20)).rejects.toThrow(UsageError);
    await expect(pack(retrieval, 20)).rejects.toThrow(/^renderContextPack: a budget of 20 tokens cannot hold/);
  });

  it("property: over budgets from 1k to 200k the pack never exceeds the budget and always holds the top file, at least as signatures", async () => {
    const retrievals = [await fixtureRetrieval("auth-service"), await fixtureRetrieval("api-gateway"), await bigFileRetrieval()];
    const texts = new Map<string, string[]>();
    for (const r of retrievals) {
      for (const f of r.result.files) texts.set(`${r.name}:${f.path}`, await fileLines(r, f.path));
    }
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: retrievals.length - 1 }),
        fc.oneof(fc.constantFrom(1000, 1001, 200_000), fc.integer({ min: 1000, max: 200_000 }), fc.integer({ min: 1000, max: 6000 })),
        async (index, budget) => {
          const retrieval = retrievals[index]!;
          const text = await pack(retrieval, budget);
          expect(tokensOf(text)).toBeLessThanOrEqual(budget);
          const sections = readSections(text);
          const top = retrieval.result.files[0]!;
          expect(sections[0]?.path).toBe(top.path);
          expect(sections[0]!.status).toMatch(/ · (whole|reduced|signatures only)\b/);
          // best first, each file once, and every shown line exactly the file's line
          const ranks = sections.filter((s) => s.rank > 0).map((s) => s.rank);
          expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
          for (const section of sections) {
            const lines = texts.get(`${retrieval.name}:${section.path}`)!;
            for (const [n, shown] of section.code) expect(shown).toBe(lines[n - 1]);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

function isWhole(section: PackSection, d: Definition): boolean {
  for (let n = d.startLine; n <= d.endLine; n++) if (!section.code.has(n)) return false;
  return true;
}

describe("renderContextPack on a made-up result", () => {
  const parsed = (path: string, definitions: Definition[]): ParsedFile =>
    ({ path, definitions, language: "typescript", isDeclaration: false, tokens: 0, lines: 0, imports: [], exports: [], references: [], vocabulary: { definitions: { terms: [], counts: [] }, identifiers: { terms: [], counts: [] }, comments: { terms: [], counts: [] } }, literals: [], hasSyntaxErrors: false }) as ParsedFile;
  const ranked = (path: string, relevance: number): RetrievedFile => ({
    path,
    relevance,
    band: relevance >= 0.8 ? "high" : relevance >= 0.5 ? "medium" : "low",
    reason: `reason of ${path}`,
    missingContext: [],
    tokens: 0,
    cycle: 1,
    matchedTerms: ["token"],
  });
  const texts: Record<string, string> = {
    "src/a.ts": "export const a = 1;\n",
    // large, no definitions: only its names section (none) can fit
    "src/big.ts": `${"// filler line of the big file\n".repeat(2000)}`,
    "src/c.ts": "/** Has a fence inside. */\nexport const doc = `\n```ts\nx\n```\n`;\n",
  };
  const result: RetrievalResult = {
    schemaVersion: 2,
    task: "Fix the token",
    root: ".",
    files: [ranked("src/a.ts", 0.9), ranked("src/big.ts", 0.8), ranked("src/c.ts", 0.75)],
    context: ["src/a.ts", "src/big.ts", "src/c.ts"],
    supporting: [],
    decision: "3 files at 0.7 or more",
    cycles: [],
    gaps: [],
    stats: { strategy: "graph", files: 3, candidates: 3, cycles: 1, stoppedEarly: false, contextFiles: 3, contextTokens: 0, supportingFiles: 0, totalTokens: 0, meanRelevance: 0.8, budgetTokens: 20000 },
    diagnostics: [],
  };
  const codeGraph = { files: new Map(Object.keys(texts).map((p) => [p, parsed(p, [])])) } as unknown as CodeGraph;
  const readFile = async (path: string): Promise<string> => texts[path] ?? Promise.reject(new Error(`no ${path}`));

  it("keeps adding smaller files after a large one does not fit, and fences code that holds backticks", async () => {
    const text = await renderContextPack(result, { codeGraph, readFile, budgetTokens: 2000 });
    expect(tokensOf(text)).toBeLessThanOrEqual(2000);
    const sections = readSections(text);
    expect(sections.map((s) => [s.path, s.status.split(" · ")[3]])).toEqual([
      ["src/a.ts", "whole (1 lines)"],
      ["src/big.ts", "names only (2000 lines)"],
      ["src/c.ts", "whole (6 lines)"],
    ]);
    expect(text).toContain("No definitions (2000 lines).");
    expect(text).toContain("````ts\n1 | /** Has a fence inside. */");
    expect(sections[2]!.code.get(3)).toBe("```ts");
  });

  it("a file that cannot be read is named, not fatal", async () => {
    const text = await renderContextPack(
      { ...result, files: [...result.files, ranked("src/gone.ts", 0.7)], context: [...result.context, "src/gone.ts"] },
      { codeGraph, readFile, budgetTokens: 20000 },
    );
    expect(text).toContain("## 4. src/gone.ts");
    expect(text).toContain("(could not be read: no src/gone.ts)");
  });

  it("escapes control characters, and counts them escaped", async () => {
    const hostile: Record<string, string> = { ...texts, "src/a.ts": "export const bell = '\u0007\u001b[31m';\n" };
    const text = await renderContextPack(result, { codeGraph, readFile: async (p) => hostile[p] ?? "", budgetTokens: 1000 });
    expect(text).toContain("export const bell = '\\x07\\x1b[31m';");
    expect(text).not.toMatch(/[\u0007\u001b]/);
    expect(tokensOf(text)).toBeLessThanOrEqual(1000);
  });
});

describe("renderContextPack counts tokens with o200k_base, not characters / 4", () => {
  const roots: string[] = [];
  afterAll(() => {
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  /** A project whose top file is commented in Chinese: about one token a character, where characters / 4 sees a quarter of that. */
  async function chineseRetrieval(): Promise<Retrieval> {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "graph-retrieve-pack-zh-")));
    roots.push(root);
    mkdirSync(join(root, "src"), { recursive: true });
    const lines = ["/** 会话令牌：签发、校验与过期处理。 */"];
    for (let i = 0; i < 60; i++) {
      lines.push(`/** 第${i}步：检查会话令牌是否过期，过期则拒绝请求并记录日志，同时通知用户重新登录。 */`);
      lines.push(`export function checkSessionTokenExpiry${i}(expiresAt: number, now: number): boolean {`, "  return now < expiresAt;", "}");
    }
    writeFileSync(join(root, "src", "session-token.ts"), `${lines.join("\n")}\n`);
    writeFileSync(join(root, "src", "log.ts"), "export function log(message: string): void {\n  console.log(message);\n}\n");
    const retriever = await createRetriever({ root });
    const result = await retriever.retrieve("Fix the session token expiry check");
    return { name: "zh", root, result, codeGraph: retriever.codeGraph, readFile: async (path) => readFileSync(join(root, path), "utf8") };
  }

  it("keeps a pack of Chinese-commented code within the budget under the tokenizer's count", async () => {
    const retrieval = await chineseRetrieval();
    expect(retrieval.result.files[0]?.path).toBe("src/session-token.ts");
    const source = await retrieval.readFile("src/session-token.ts");
    // the premise: characters / 4 misjudges this file by far
    expect(tokensOf(source)).toBeGreaterThan(1.25 * Math.ceil(source.length / 4));
    for (const budget of [1500, 3000, 6000]) {
      const pack = await buildContextPack(retrieval.result, { codeGraph: retrieval.codeGraph, readFile: retrieval.readFile, budgetTokens: budget });
      expect(tokensOf(pack.text)).toBeLessThanOrEqual(budget);
      expect(pack.tokens).toBe(tokensOf(pack.text));
      expect(pack.tokenizer).toBe("o200k_base (gpt-tokenizer)");
      expect(pack.text).toContain(`Budget: ${budget} tokens, counted with the o200k_base (gpt-tokenizer) tokenizer`);
      // the budget is used, not wasted: at least half of it holds the pack
      expect(pack.tokens).toBeGreaterThan(budget / 2);
    }
  });

  it("an empty context hands over no code: the header says why, and the best candidates are listed by name", async () => {
    const retrieval = await fixtureRetrieval("api-gateway");
    const empty: RetrievalResult = { ...retrieval.result, context: [], supporting: [], decision: "no file is plausible: the best, x.ts, is at 0.10, below the low band (0.2)" };
    const built = await buildContextPack(empty, { codeGraph: retrieval.codeGraph, readFile: retrieval.readFile });
    expect(readSections(built.text)).toEqual([]);
    expect(built.text).toContain(`Nothing handed over: ${empty.decision}.`);
    const five = retrieval.result.files.slice(0, 5).map((f) => f.path);
    expect(built.files.map((f) => f.form)).toEqual(built.files.map(() => "listed"));
    expect(built.files.map((f) => f.path).slice(0, 5)).toEqual(five);
    for (const file of built.files.slice(5)) expect(file.relevance).toBeGreaterThanOrEqual(0.2);
  });

  it("minFiles lists the best files whatever their relevance, and none past them below minRelevance", async () => {
    const retrieval = await fixtureRetrieval("api-gateway");
    const options = { codeGraph: retrieval.codeGraph, readFile: retrieval.readFile };
    const none = await buildContextPack(retrieval.result, { ...options, minFiles: 0 });
    const eight = await buildContextPack(retrieval.result, { ...options, minFiles: 8 });
    const shown = new Set([...retrieval.result.context, ...retrieval.result.supporting.map((s) => s.path)]);
    const rest = retrieval.result.files.filter((f) => !shown.has(f.path));
    const listed = (p: typeof none) => p.files.filter((f) => f.form === "listed").map((f) => f.path);
    expect(listed(none)).toEqual(rest.filter((f) => f.relevance >= 0.2).map((f) => f.path));
    const ranks = new Map(retrieval.result.files.map((f, i) => [f.path, i + 1]));
    expect(listed(eight)).toEqual(rest.filter((f) => ranks.get(f.path)! <= 8 || f.relevance >= 0.2).map((f) => f.path));
    expect(listed(eight).length).toBeGreaterThan(listed(none).length);
  });
});
