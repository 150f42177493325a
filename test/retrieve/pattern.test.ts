/**
 * The pattern's two worked examples, on codebases like them written for
 * these tests (fixtures/*), each in other names and layouts, each task in
 * English and in Chinese. What is checked is the behaviour the pattern
 * describes, not one file list: the file that holds the change is found
 * first, the codebase's own word stands in for the task's, distractors stay
 * out, a second cycle weighs the files the best ones depend on.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createRetriever, type RetrievalResult, type Retriever } from "../../src/index.js";

function rankOf(result: RetrievalResult, path: string): number {
  const i = result.files.findIndex((f) => f.path === path);
  return i < 0 ? Infinity : i + 1;
}

function relevanceOf(result: RetrievalResult, path: string): number {
  return result.files.find((f) => f.path === path)?.relevance ?? 0;
}

const TOKEN_EXPIRY = ["Fix the authentication token expiry bug", "修复身份验证令牌过期 bug"];

describe.each([
  { root: "fixtures/auth-service", tokens: "src/auth/tokens.ts", flow: "src/auth/auth.ts", jwt: "src/auth/jwt-utils.ts", distractors: ["src/models/user.ts", "src/notifications/mailer.ts", "src/cache/lru-cache.ts"] },
  { root: "fixtures/token-expiry-lib", tokens: "src/auth/tokens.ts", flow: "src/auth/login-flow.ts", jwt: "src/lib/jwt-utils.ts", distractors: ["src/models/user.ts", "src/mail/mailer.ts", "src/lib/lru-cache.ts"] },
  { root: "fixtures/token-expiry-renamed", tokens: "src/identity/access-tokens.ts", flow: "src/identity/credential-service.ts", jwt: "src/crypto/jws.ts", distractors: ["src/domain/account.ts", "src/notify/email-outbox.ts", "src/jobs/cleanup.ts"] },
])("example 1, token expiry: $root", ({ root, tokens, flow, jwt, distractors }) => {
  let retriever: Retriever;
  beforeAll(async () => {
    retriever = await createRetriever({ root });
  });

  it.each(TOKEN_EXPIRY)("%s: the token and auth-flow files first, the distractors below the medium band", async (task) => {
    const result = await retriever.retrieve(task);
    expect(rankOf(result, tokens)).toBeLessThanOrEqual(3);
    expect(rankOf(result, flow)).toBeLessThanOrEqual(3);
    for (const path of distractors) expect(relevanceOf(result, path)).toBeLessThan(0.5);
  });

  it("the JWT helper the token file imports is a candidate, weighed in a later cycle by its tie to the token file", async () => {
    const result = await retriever.retrieve(TOKEN_EXPIRY[0]!);
    expect(result.cycles.length).toBeGreaterThan(1);
    // its words barely say token or expiry: the graph is what ties it to the task
    const helper = result.files.find((f) => f.path === jwt)!;
    expect(helper.reason).toContain(`defines names used by ${tokens}`);
    expect(result.cycles.some((c) => c.excluded.includes(jwt))).toBe(false);
  });
});

const RATE_LIMIT = ["Add rate limiting to the API endpoints", "为 API 端点添加速率限制"];

describe.each([
  { root: "fixtures/api-gateway", throttle: "src/middleware/throttle.ts", chain: "src/middleware/index.ts" },
  { root: "fixtures/throttle-express", throttle: "src/middleware/throttle.ts", chain: "src/middleware/index.ts" },
  { root: "fixtures/throttle-koa", throttle: "src/plugins/throttler.ts", chain: "src/plugins/register.ts" },
])("example 2, rate limiting where the code says throttle: $root", ({ root, throttle, chain }) => {
  let retriever: Retriever;
  beforeAll(async () => {
    retriever = await createRetriever({ root });
  });

  it("learns the codebase's word first: the trace says throttle stands for rate", async () => {
    const result = await retriever.retrieve(RATE_LIMIT[0]!);
    expect(result.cycles[0]!.vocabulary?.some((v) => v.startsWith("throttl (thesaurus: rat"))).toBe(true);
    expect(result.cycles[0]!.keywords).toContain("throttl");
  });

  it.each(RATE_LIMIT)("%s: the throttle file among the first, never excluded", async (task) => {
    const result = await retriever.retrieve(task);
    expect(rankOf(result, throttle)).toBeLessThanOrEqual(5);
    expect(result.cycles.some((c) => c.excluded.includes(throttle))).toBe(false);
    expect(rankOf(result, chain)).toBeLessThan(Infinity);
  });
});

describe("a second cycle brings in what the first cycle's best file depends on", () => {
  it("the cents module, which shares no word with the task, comes in over the invoice file's uses", async () => {
    const retriever = await createRetriever({ root: "fixtures/cycle-two" });
    const result = await retriever.retrieve("Fix the invoice total rounding");
    expect(result.files[0]!.path).toBe("src/billing/invoice-total.ts");
    const [first, second] = result.cycles;
    expect(first!.expandedFrom).toEqual([]);
    expect(second!.expandedFrom).toContainEqual({ path: "src/units/cents.ts", via: "src/billing/invoice-total.ts" });
    const cents = result.files.find((f) => f.path === "src/units/cents.ts")!;
    expect(cents.cycle).toBe(2);
    expect(cents.reason).toMatch(/defines names used by src\/billing\/invoice-total\.ts/);
    expect(cents.reason).toMatch(/reached over the graph from src\/billing\/invoice-total\.ts/);
  });
});
