/**
 * The pattern's two worked examples on fixtures of our own (three layouts
 * each, tasks in English and in Chinese): every file the pattern lists is
 * in the context or among its supporting files (jwt-utils, which the token
 * module calls, among the supporting files, by the gap it fills), and the
 * distractors (a model the auth flow imports, a mailer or invite store whose
 * links "expire", a cache or key-value store with its own entry expiry, a
 * page-size or body-size cap) are in neither. The same two examples are
 * also written in Python (auth-service-py, throttle-flask). Each fixture's ANSWER.md
 * lists its answer; nothing here names a benchmark's file.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { retrieve, type RetrievalResult } from "../../src/index.js";
import { buildGraph } from "../../src/index.js";
import { createRetrievalContext } from "../../src/retrieve/retrieval-context.js";
import { supportingFiles } from "../../src/retrieve/supporting-files.js";

const TOKEN = ["Fix the authentication token expiry bug", "修复身份验证令牌过期 bug"] as const;
const RATE = ["Add rate limiting to the API endpoints", "为 API 端点添加速率限制"] as const;

/** The files a fixture's ANSWER.md lists under "## Answer". */
function answerOf(fixture: string): string[] {
  const text = readFileSync(join("fixtures", fixture, "ANSWER.md"), "utf8");
  const section = text.split("## Answer")[1]!.split("\n## ")[0]!;
  return [...section.matchAll(/^- `([^`]+)`/gm)].map((m) => m[1]!);
}

const handedOver = (result: RetrievalResult) => new Set([...result.context, ...result.supporting.map((s) => s.path)]);

const CASES: Array<{ fixture: string; tasks: readonly string[]; distractors: string[] }> = [
  { fixture: "auth-service", tasks: TOKEN, distractors: ["src/models/user.ts", "src/cache/lru-cache.ts", "src/notifications/mailer.ts", "src/utils/date.ts"] },
  { fixture: "token-expiry-lib", tasks: TOKEN, distractors: ["src/models/user.ts", "src/lib/lru-cache.ts", "src/mail/mailer.ts"] },
  { fixture: "token-expiry-renamed", tasks: TOKEN, distractors: ["src/domain/account.ts", "src/persistence/kv.ts", "src/persistence/invites.ts", "src/notify/email-outbox.ts"] },
  { fixture: "api-gateway", tasks: RATE, distractors: ["src/utils/pagination.ts", "src/queue/job-queue.ts", "src/db/client.ts"] },
  { fixture: "throttle-express", tasks: RATE, distractors: ["src/db/client.ts", "src/services/user-service.ts", "src/services/order-service.ts"] },
  // the same two examples written in Python (a Flask auth app, a Flask API that calls it "throttle")
  { fixture: "auth-service-py", tasks: TOKEN, distractors: ["auth_service/models/user.py", "auth_service/cache/lru_cache.py", "auth_service/notifications/mailer.py", "auth_service/utils/dates.py"] },
  { fixture: "throttle-flask", tasks: RATE, distractors: ["parcelhub/db/client.py", "parcelhub/services/user_service.py", "parcelhub/services/order_service.py"] },
];

describe.each(CASES)("the pattern's example on $fixture", ({ fixture, tasks, distractors }) => {
  it.each([...tasks])("%s: every file the pattern lists is handed over, no distractor is", async (task) => {
    const result = await retrieve(task, { root: join("fixtures", fixture) });
    const given = handedOver(result);
    for (const path of answerOf(fixture)) expect(given.has(path), `${path} in the context or its supporting files`).toBe(true);
    for (const path of distractors) expect(given.has(path), `${path} (a distractor) handed over`).toBe(false);
    // a context of a few files, not the codebase
    expect(result.context.length).toBeGreaterThan(0);
    expect(result.context.length).toBeLessThanOrEqual(4);
  });
});

describe("the pattern's second example where the endpoints live apart from the wiring (throttle-koa)", () => {
  it("in Chinese: the throttle, where it is registered and where the endpoints are defined", async () => {
    const result = await retrieve(RATE[1], { root: "fixtures/throttle-koa" });
    const given = handedOver(result);
    for (const path of answerOf("throttle-koa")) expect(given.has(path), path).toBe(true);
    expect(given.has("src/plugins/body-parser.ts")).toBe(false);
  });

  it("in English: the throttle and where it is registered (the routes file, two steps from the throttle, is ranked fourth and not handed over)", async () => {
    const result = await retrieve(RATE[0], { root: "fixtures/throttle-koa" });
    const given = handedOver(result);
    expect(result.context[0]).toBe("src/plugins/throttler.ts");
    expect(given.has("src/plugins/register.ts")).toBe(true);
    expect(result.supporting.find((s) => s.path === "src/plugins/register.ts")).toMatchObject({ tie: "uses", names: expect.arrayContaining(["throttler"]) });
    expect(given.has("src/plugins/body-parser.ts")).toBe(false);
  });
});

describe("supporting files", () => {
  it("name the helper the token module calls, with the names it calls, and not the model half the codebase uses", async () => {
    const result = await retrieve(TOKEN[0], { root: "fixtures/token-expiry-lib" });
    expect(result.context).toContain("src/auth/tokens.ts");
    const jwt = result.supporting.find((s) => s.path === "src/lib/jwt-utils.ts");
    expect(jwt).toMatchObject({ tie: "defines", for: ["src/auth/tokens.ts"] });
    expect(jwt!.names).toEqual(expect.arrayContaining(["signJwt", "verifyJwt", "nowInSeconds"]));
    // the context's own gaps toward it are what named it
    const tokens = result.files.find((f) => f.path === "src/auth/tokens.ts")!;
    expect(tokens.missingContext.some((g) => g.endsWith("(src/lib/jwt-utils.ts)"))).toBe(true);
    expect(result.supporting.map((s) => s.path)).not.toContain("src/models/user.ts");
    expect(result.supporting.map((s) => s.path)).not.toContain("src/logger.ts");
  });

  it("are chosen from the graph's uses by who else uses them and by the ranking's chance, each way round", async () => {
    const context = createRetrievalContext(await buildGraph("fixtures/auth-service"));
    const none = () => 0;
    // with no chances to read: only what the context alone leans on (jwt-utils is used by the token module only)
    const leaned = supportingFiles(context, ["src/auth/tokens.ts"], none);
    expect(leaned.map((s) => s.path)).toContain("src/auth/jwt-utils.ts");
    expect(leaned.find((s) => s.path === "src/auth/jwt-utils.ts")).toMatchObject({ tie: "defines", for: ["src/auth/tokens.ts"] });
    // the config module is used across the codebase: not named without a chance to say otherwise
    expect(leaned.map((s) => s.path)).not.toContain("src/config/index.ts");
    // a file the ranking holds plausible that uses the context is named the other way round, with the names it uses
    const chance = (path: string) => (path === "src/auth/session-manager.ts" ? 0.3 : 0);
    const users = supportingFiles(context, ["src/auth/tokens.ts"], chance);
    expect(users.find((s) => s.path === "src/auth/session-manager.ts")).toMatchObject({ tie: "uses", for: ["src/auth/tokens.ts"], names: expect.arrayContaining(["issueTokenPair"]) });
    // a path test leaves files out
    expect(supportingFiles(context, ["src/auth/tokens.ts"], none, (p) => !p.includes("jwt")).map((s) => s.path)).not.toContain("src/auth/jwt-utils.ts");
    // an empty context has none
    expect(supportingFiles(context, [], none)).toEqual([]);
  });
});
