import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRetriever, renderJson, retrieve, type Retriever } from "../../src/index.js";

const AUTH = "fixtures/auth-service";
const GATEWAY = "fixtures/api-gateway";
const AUTH_ANSWER = ["src/auth/auth.ts", "src/auth/jwt-utils.ts", "src/auth/session-manager.ts", "src/auth/tokens.ts"];
const GATEWAY_ANSWER = ["src/http/router-setup.ts", "src/middleware/index.ts", "src/middleware/throttle.ts"];

function contextOf(result: { files: Array<{ path: string; relevance: number }> }): string[] {
  return result.files.filter((f) => f.relevance >= 0.7).map((f) => f.path).sort();
}

describe("the pattern's first example: token expiry in an auth service", () => {
  let retriever: Retriever;
  beforeAll(async () => {
    retriever = await createRetriever({ root: AUTH });
  });

  it.each([["Fix the authentication token expiry bug"], ["修复身份验证令牌过期 bug"]])("%s → the auth, token, session and JWT modules", async (task) => {
    const result = await retriever.retrieve(task);
    expect(contextOf(result)).toEqual(AUTH_ANSWER);
    // the distractors stay out of the context
    for (const path of ["src/models/user.ts", "src/cache/lru-cache.ts", "src/utils/date.ts", "src/notifications/mailer.ts"]) {
      expect(result.files.find((f) => f.path === path)?.relevance ?? 0).toBeLessThan(0.5);
    }
  });

  it("explains every file: relevance in [0, 1], a band, a reason, its gaps", async () => {
    const result = await retriever.retrieve("Fix the authentication token expiry bug");
    for (const file of result.files) {
      expect(file.relevance).toBeGreaterThanOrEqual(0);
      expect(file.relevance).toBeLessThanOrEqual(1);
      expect(file.reason.length).toBeGreaterThan(0);
    }
    const auth = result.files.find((f) => f.path === "src/auth/auth.ts")!;
    expect(auth.band).toBe("high");
    expect(auth.reason).toMatch(/token/);
    // auth.ts uses the user repository, which is not in the context: a gap
    expect(auth.missingContext).toContain("userRepository (src/db/user-repository.ts)");
    expect(result.stats.contextFiles).toBe(4);
    expect(result.stats.contextTokens).toBe(result.files.filter((f) => f.relevance >= 0.7).reduce((s, f) => s + f.tokens, 0));
  });

  it("the expansion step: files reached over import edges are named in the trace", async () => {
    const result = await retriever.retrieve("Fix the authentication token expiry bug");
    const expanded = result.cycles.flatMap((c) => c.expandedFrom.map((e) => `${e.path}<-${e.via}`));
    expect(expanded).toContain("src/auth/jwt-utils.ts<-src/auth/tokens.ts");
  });
});

describe("the pattern's second example: rate limiting where the code says throttle", () => {
  let retriever: Retriever;
  beforeAll(async () => {
    retriever = await createRetriever({ root: GATEWAY });
  });

  it.each([["Add rate limiting to the API endpoints"], ["为 API 端点添加速率限制"]])("%s → throttle middleware, middleware index, router setup", async (task) => {
    const result = await retriever.retrieve(task);
    expect(contextOf(result)).toEqual(GATEWAY_ANSWER);
  });

  it("reaches the answer over cycles: the vocabulary step, then the import edges", async () => {
    const result = await retriever.retrieve("Add rate limiting to the API endpoints");
    const [first, second] = result.cycles;
    // cycle 1: the task's words find nothing high; refine learns the codebase's word
    expect(first!.high).toEqual([]);
    expect(first!.addedKeywords.some((k) => k.startsWith("throttl (thesaurus"))).toBe(true);
    expect(first!.gaps.some((g) => g.includes('"rate"'))).toBe(true);
    // cycle 2: the throttle vocabulary finds the middleware; the rest joins over import edges
    expect(second!.keywords).toContain("throttl");
    expect(second!.expandedFrom.map((e) => e.path)).toEqual(expect.arrayContaining(["src/http/router-setup.ts", "src/middleware/throttle.ts"]));
  });
});

describe("the loop", () => {
  it("gives byte-identical JSON for the same codebase and task", async () => {
    const a = renderJson(await retrieve("Add rate limiting to the API endpoints", { root: GATEWAY }));
    const b = renderJson(await retrieve("Add rate limiting to the API endpoints", { root: GATEWAY }));
    expect(a).toBe(b);
  });

  it("runs at most maxCycles cycles", async () => {
    const result = await retrieve("Add rate limiting to the API endpoints", { root: GATEWAY, maxCycles: 1 });
    expect(result.cycles).toHaveLength(1);
    expect(result.cycles[0]!.stop).toMatch(/cycle limit/);
  });

  describe("early exit", () => {
    let root: string;
    beforeAll(() => {
      // three files that each cover the whole task and depend on nothing: enough context after one cycle
      root = mkdtempSync(join(tmpdir(), "gr-early-"));
      mkdirSync(join(root, "src"));
      for (const name of ["invoice-total", "invoice-tax", "invoice-discount"]) {
        writeFileSync(
          join(root, "src", `${name}.ts`),
          `/** Invoice rounding for ${name}. */\nexport function ${name.replace(/-(\w)/g, (_m, c: string) => c.toUpperCase())}Rounding(amount: number): number {\n  return Math.round(amount * 100) / 100;\n}\n`,
        );
      }
      writeFileSync(join(root, "src", "mailer.ts"), "export function sendMail(to: string): string {\n  return to;\n}\n");
    });
    afterAll(() => rmSync(root, { recursive: true, force: true }));

    it("stops once 3 files reach 0.7 with no critical gap", async () => {
      const result = await retrieve("invoice rounding", { root });
      expect(result.cycles).toHaveLength(1);
      expect(result.cycles[0]!.stop).toMatch(/3 files at 0.7 or more and no critical gap/);
      expect(result.stats.stoppedEarly).toBe(true);
      expect(contextOf(result)).toEqual(["src/invoice-discount.ts", "src/invoice-tax.ts", "src/invoice-total.ts"]);
    });
  });

  it("keeps the context inside the token budget, the best file always in", async () => {
    const result = await retrieve("Fix the authentication token expiry bug", { root: AUTH, budgetTokens: 1500 });
    const context = result.files.filter((f) => f.relevance >= 0.7);
    expect(context.length).toBeGreaterThanOrEqual(1);
    expect(context[0]!.path).toBe(result.files[0]!.path);
    const used = context.reduce((sum, f) => sum + f.tokens, 0);
    expect(context.length === 1 || used <= 1500).toBe(true);
    expect(result.files.some((f) => f.reason.includes("over the 1500-token budget"))).toBe(true);
  });

  it("rejects an empty task and bad numbers as the caller's mistake", async () => {
    await expect(retrieve("   ", { root: AUTH })).rejects.toThrow(/task is empty/);
    await expect(retrieve("token", { root: AUTH, maxCycles: 0 })).rejects.toThrow(/maxCycles/);
  });

  it("honours include and exclude globs", async () => {
    const result = await retrieve("Fix the authentication token expiry bug", { root: AUTH, exclude: ["src/auth/tokens.ts"] });
    expect(result.files.map((f) => f.path)).not.toContain("src/auth/tokens.ts");
    const only = await retrieve("Fix the authentication token expiry bug", { root: AUTH, include: ["src/routes/**"] });
    expect(only.files.every((f) => f.path.startsWith("src/routes/"))).toBe(true);
  });
});

/** A throwaway codebase in the OS temp folder: each file's path is relative to its src/. */
function makeCodebase(prefix: string, files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, "src", name, ".."), { recursive: true });
    writeFileSync(join(root, "src", name), text);
  }
  return root;
}

describe("an entity the task's words spell", () => {
  // billing, totals and store talk of invoices, lines, amounts and totals all along; only InvoiceLine.ts exports
  // the InvoiceLine that "an invoice line" names, and it says nothing else
  let root: string;
  beforeAll(() => {
    root = makeCodebase("gr-compound-", {
      "billing.ts": "import type { InvoiceLine } from \"./InvoiceLine\";\nimport { formatAmount, lineTotal } from \"./totals\";\nimport { storeAmounts } from \"./store\";\n\n/** Billing: it totals the lines of an invoice, stores the amounts and formats them. */\nexport class Billing {\n  lines: InvoiceLine[] = [];\n  /** Total every line of the invoice and store the amounts. */\n  total(): number {\n    const amounts = this.lines.map((line) => lineTotal(line));\n    storeAmounts(amounts);\n    return amounts.reduce((sum, amount) => sum + amount, 0);\n  }\n  /** Format the invoice total as an amount. */\n  format(): string {\n    return formatAmount(this.total());\n  }\n}\n",
      "totals.ts": "import type { InvoiceLine } from \"./InvoiceLine\";\n\n/** The total of an invoice line: every amount of the line, rounded. */\nexport function lineTotal(line: InvoiceLine): number {\n  return Math.round(line.quantity * line.price * 100) / 100;\n}\n\n/** Format an amount of an invoice; totals are rounded to cents. */\nexport function formatAmount(amount: number): string {\n  return amount.toFixed(2);\n}\n",
      "store.ts": "/** Store the amounts of the invoice totals; stored amounts are rounded floats. */\nexport function storeAmounts(amounts: number[]): number[] {\n  return amounts.map((amount) => Math.round(amount * 100) / 100);\n}\n",
      "InvoiceLine.ts": "export interface InvoiceLine {\n  quantity: number;\n  price: number;\n}\n",
    });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const task = "Rounding errors in the totals. Some amounts of an invoice line are stored as floats.";

  it("ranks the file exporting it right below the best file, and says why", async () => {
    const result = await retrieve(task, { root });
    expect(result.files.map((f) => f.path).slice(0, 2)).toEqual(["src/store.ts", "src/InvoiceLine.ts"]);
    expect(result.files[1]!.reason).toContain("exports InvoiceLine, which the task's words spell");
  });

  it("leaves it last without the compound (the words alone match the other files)", async () => {
    const result = await retrieve(task, { root, tuning: { novelty: { compoundWeight: 0 } } });
    expect(result.files.map((f) => f.path).at(-1)).toBe("src/InvoiceLine.ts");
  });
});

describe("a task about imports or exports", () => {
  // the Node modules hold the task's words; the entry barrel that imports them holds only names
  let root: string;
  beforeAll(() => {
    root = makeCodebase("gr-entry-", {
      "node/files.ts": "import { readFileSync } from \"node:fs\";\n\n/** Read a file with Node's fs; browsers have no such module. */\nexport function readText(path: string): string {\n  return readFileSync(path, \"utf8\");\n}\n",
      "node/processes.ts": "/** The Node process's arguments; the process global is Node-only. */\nexport function argumentsOf(): string[] {\n  return process.argv.slice(2);\n}\n",
      "platform/env.ts": "/** Environment variables of the running Node process. */\nexport function envValue(name: string): string | undefined {\n  return process.env[name];\n}\n",
      "format/pad.ts": "export function pad(text: string, width: number): string {\n  return text.padEnd(width);\n}\n",
      "format/index.ts": "export { pad } from \"./pad\";\n",
      "index.ts": "export { readText } from \"./node/files\";\nexport { argumentsOf } from \"./node/processes\";\nexport { envValue } from \"./platform/env\";\nexport { pad } from \"./format/index\";\n",
    });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("ranks the package's entry barrel above the files below the context it outweighs, and says why", async () => {
    const result = await retrieve("Keep Node-only modules out of the imports", { root });
    const paths = result.files.map((f) => f.path);
    expect(paths.indexOf("src/index.ts")).toBeLessThan(paths.indexOf("src/platform/env.ts"));
    expect(result.files.find((f) => f.path === "src/index.ts")!.reason).toContain("the package's entry, and the task speaks of imports or exports");
    // the barrel of a subfolder is no entry
    expect(result.files.find((f) => f.path === "src/format/index.ts")?.reason ?? "").not.toContain("the package's entry");
  });

  it("leaves it last when the task does not speak of imports or exports, or without the rule", async () => {
    for (const result of [
      await retrieve("Keep Node-only modules out of the types", { root }),
      await retrieve("Keep Node-only modules out of the imports", { root, tuning: { novelty: { entryWeight: 0 } } }),
    ]) {
      expect(result.files.map((f) => f.path).at(-1)).toBe("src/index.ts");
    }
  });
});

describe("a scope that names a folder", () => {
  // "parse:" is the src/parse/ folder: its files start higher below the context than a file outside it that
  // holds the same words
  let root: string;
  beforeAll(() => {
    root = makeCodebase("gr-scope-folder-", {
      "parse/strings.ts": "/** Read a string literal starting at `start`; returns the index after its closing quote. */\nexport function readStringLiteral(text: string, start: number): number {\n  let i = start + 1;\n  while (i < text.length && text[i] !== text[start]) i += text[i] === \"\\\\\" ? 2 : 1;\n  return i + 1;\n}\n",
      "parse/tokens.ts": "import { readStringLiteral } from \"./strings\";\n\n/** Split source text into tokens. */\nexport function tokenize(text: string): string[] {\n  const out: string[] = [];\n  for (let i = 0; i < text.length; ) {\n    const end = text[i] === '\"' ? readStringLiteral(text, i) : i + 1;\n    out.push(text.slice(i, end));\n    i = end;\n  }\n  return out;\n}\n",
      "cli/parse-command.ts": "import { tokenize } from \"../parse/tokens\";\nimport { quote } from \"../util/quote\";\n\n/** The parse command: prints each token of a file, quoted; an escaped quote in a string prints escaped. */\nexport function parseCommand(text: string): string {\n  return tokenize(text).map((token) => quote(token)).join(\"\\n\");\n}\n",
      "util/quote.ts": "/** Quote a string for the terminal: an escaped quote stays escaped, a quoted string ends at its quote. */\nexport function quote(text: string): string {\n  return JSON.stringify(text);\n}\n",
    });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const task = "parse: a quoted string with an escaped quote ends too early";

  it("ranks the folder's files above the others below the context, and says why", async () => {
    const result = await retrieve(task, { root });
    const paths = result.files.map((f) => f.path);
    expect(paths.indexOf("src/parse/strings.ts")).toBeLessThan(paths.indexOf("src/util/quote.ts"));
    expect(result.files.find((f) => f.path === "src/parse/strings.ts")!.reason).toContain("in the folder the task's scope names");
    expect(result.files.find((f) => f.path === "src/util/quote.ts")!.reason).not.toContain("scope");
  });

  it("leaves them in the lexical order without the scope", async () => {
    const result = await retrieve(task, { root, tuning: { novelty: { scopeWeight: 0 } } });
    expect(result.files.map((f) => f.path).at(-1)).toBe("src/parse/strings.ts");
  });
});

describe("plug points", () => {
  it("a custom evaluator rescores candidates", async () => {
    const seen: string[] = [];
    const result = await retrieve("Fix the authentication token expiry bug", {
      root: AUTH,
      maxCycles: 1,
      evaluator: async ({ candidates, readFile }) => {
        seen.push(...candidates.map((c) => c.path));
        // a deterministic judge: anything that mentions refresh tokens is essential
        const verdicts = [];
        for (const candidate of candidates) {
          const text = await readFile(candidate.path);
          verdicts.push({ path: candidate.path, relevance: /refresh/i.test(text) ? 0.99 : 0.1, reason: "judge" });
        }
        return verdicts;
      },
    });
    expect(seen.length).toBeGreaterThan(0);
    expect(result.files[0]!.relevance).toBe(0.99);
    expect(result.files[0]!.reason).toBe("judge");
    expect(result.files.filter((f) => f.relevance === 0.1).length).toBeGreaterThan(0);
  });

  it("a custom query expander adds the caller's words", async () => {
    const plain = await retrieve("Fix the expiry bug", { root: AUTH, maxCycles: 1 });
    const expanded = await retrieve("Fix the expiry bug", {
      root: AUTH,
      maxCycles: 1,
      expandQuery: async (query) => ({
        ...query,
        terms: [...query.terms, { term: "lru", weight: 2, source: "keyword", original: "lru" }],
      }),
    });
    expect(expanded.cycles[0]!.keywords).toContain("lru");
    expect(plain.cycles[0]!.keywords).not.toContain("lru");
    expect(expanded.files[0]!.path).toBe("src/cache/lru-cache.ts");
  });
});

describe("every strategy keeps the contract", () => {
  it.each([["graph"], ["bm25"], ["pagerank"]] as const)("%s", async (strategy) => {
    const result = await retrieve("Fix the authentication token expiry bug", { root: AUTH, strategy });
    expect(result.schemaVersion).toBe(1);
    expect(result.stats.strategy).toBe(strategy);
    expect(result.files.length).toBeGreaterThan(0);
    const paths = result.files.map((f) => f.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (let i = 1; i < result.files.length; i++) {
      expect(result.files[i - 1]!.relevance).toBeGreaterThanOrEqual(result.files[i]!.relevance);
    }
    expect(result.files.some((f) => f.relevance >= 0.7)).toBe(true);
  });
});
