import { describe, expect, it } from "vitest";
import type { Evaluation } from "../../src/retrieve/evaluate.js";
import { orderBelowContext } from "../../src/retrieve/loop.js";
import { orderByConceptNovelty } from "../../src/retrieve/signals/concept-novelty.js";
import { pathTerms } from "../../src/retrieve/lexical-index.js";
import { pluralNameShare, pluralPartsOf } from "../../src/retrieve/signals/plural-name.js";
import { scopeNamesFolder, scopeNameShare, scopeTermsOf } from "../../src/retrieve/signals/scope-name.js";
import { compoundFilter, compoundsOf, definedCompounds } from "../../src/retrieve/signals/compound-name.js";
import { entryBarrels, speaksOfModuleBoundary } from "../../src/retrieve/signals/entry-barrel.js";

const weights = new Map([
  ["decode", 1],
  ["path", 1],
  ["perform", 0.2],
]);

function evaluation(path: string, relevance: number, definedConcepts: string[]): Evaluation {
  return { path, relevance, score: relevance, reason: "", missingContext: [], matchedTerms: [], definedConcepts };
}

describe("concept novelty below the context", () => {
  it("moves up a file that defines a concept the files above it do not", () => {
    const order = orderByConceptNovelty(
      [
        { path: "src/router.ts", relevance: 0.41, definedConcepts: ["path"] },
        { path: "src/route.ts", relevance: 0.4, definedConcepts: ["path"] },
        { path: "src/index.ts", relevance: 0.27, definedConcepts: [] },
        { path: "src/utils.ts", relevance: 0.2, definedConcepts: ["decode"] },
      ],
      weights,
      0.699,
    );
    expect(order.map((f) => f.path)).toEqual(["src/router.ts", "src/utils.ts", "src/route.ts", "src/index.ts"]);
    expect(order.map((f) => f.novel)).toEqual([["path"], ["decode"], [], []]);
  });

  it("gives relevances that fall with the order and stay below the ceiling", () => {
    const order = orderByConceptNovelty(
      [
        { path: "a.ts", relevance: 0.69, definedConcepts: ["decode"] },
        { path: "b.ts", relevance: 0.68, definedConcepts: ["path"] },
        { path: "c.ts", relevance: 0.1, definedConcepts: [] },
      ],
      weights,
      0.6,
    );
    const relevances = order.map((f) => f.relevance);
    expect(relevances[0]).toBeLessThanOrEqual(0.6);
    for (let i = 1; i < relevances.length; i++) expect(relevances[i]).toBeLessThan(relevances[i - 1]!);
  });

  it("keeps the incoming order when no file defines a task concept", () => {
    const tail = ["c.ts", "a.ts", "b.ts"].map((path, i) => ({ path, relevance: 0.5 - i * 0.1, definedConcepts: [] }));
    expect(orderByConceptNovelty(tail, weights, 0.699).map((f) => f.path)).toEqual(["c.ts", "a.ts", "b.ts"]);
  });

  it("leaves the best file and the context as they were", () => {
    const ranked = orderBelowContext(
      [
        evaluation("src/path.ts", 0.3, []),
        evaluation("src/router.ts", 0.2, []),
        evaluation("src/utils.ts", 0.05, ["decode", "path"]),
      ],
      weights,
    );
    expect(ranked.map((e) => e.path)).toEqual(["src/path.ts", "src/utils.ts", "src/router.ts"]);
    expect(ranked[1]!.reason).toContain("first below the context to define decode, path");
    expect(ranked[0]!.relevance).toBe(0.3);
    expect(ranked[1]!.relevance).toBeLessThan(0.3);
  });

  it("orders a file past the token budget with the files below the context", () => {
    const tokens = new Map([
      ["src/types.ts", 9000],
      ["src/query.ts", 9000],
      ["src/mutation.ts", 9000],
      ["src/queryObserver.ts", 9000],
      ["src/utils.ts", 500],
    ]);
    const ranked = orderBelowContext(
      [
        evaluation("src/types.ts", 0.85, []),
        evaluation("src/query.ts", 0.84, []),
        evaluation("src/mutation.ts", 0.8, []),
        evaluation("src/queryObserver.ts", 0.75, ["decode"]),
        evaluation("src/utils.ts", 0.6, []),
      ],
      weights,
      { budgetTokens: 20000, tokensOf: (path) => tokens.get(path) ?? 0 },
    );
    expect(ranked.map((e) => e.path)).toEqual(["src/types.ts", "src/query.ts", "src/queryObserver.ts", "src/mutation.ts", "src/utils.ts"]);
    expect(ranked.slice(2).every((e) => e.relevance < 0.7)).toBe(true);
    expect(ranked[2]!.reason).toContain("over the 20000-token budget");
    expect(ranked[2]!.reason).toContain("first below the context to define decode");
  });

  it("starts a file named for the task's scope higher", () => {
    const scope = scopeTermsOf(["subscribe"]);
    const share = (path: string) => scopeNameShare(pathTerms(path).name, scope);
    const ranked = orderBelowContext(
      [
        evaluation("src/observable/bindCallback.ts", 0.7, []),
        evaluation("src/types.ts", 0.26, []),
        evaluation("src/Observable.ts", 0.25, []),
        evaluation("src/Subscriber.ts", 0.09, []),
      ],
      new Map(),
      { scopeShare: share },
    );
    expect(ranked.map((e) => e.path)).toEqual(["src/observable/bindCallback.ts", "src/Subscriber.ts", "src/types.ts", "src/Observable.ts"]);
    expect(ranked[1]!.reason).toContain("named for the task's scope");
  });
});

describe("scope name", () => {
  it("is the share of the scope's terms the file's name holds", () => {
    const scope = scopeTermsOf(["useQueries"]);
    expect(scope).toHaveLength(2);
    expect(scopeNameShare(pathTerms("src/queriesObserver.ts").name, scope)).toBe(0.5);
    expect(scopeNameShare(pathTerms("src/hydration.ts").name, scope)).toBe(0);
    expect(scopeNameShare(pathTerms("src/hydration.ts").name, [])).toBe(0);
  });
});

describe("scope that names a folder", () => {
  it("is a scope whose terms are all in one file's folders", () => {
    const folders = ["src/internal/scheduler/AsyncAction.ts", "src/internal/operators/map.ts", "src/date-utils/format.ts"].map((p) => pathTerms(p).folder);
    expect(scopeNamesFolder(folders, scopeTermsOf(["Schedulers"]))).toBe(true);
    expect(scopeNamesFolder(folders, scopeTermsOf(["date-utils"]))).toBe(true);
    expect(scopeNamesFolder(folders, scopeTermsOf(["subscribe"]))).toBe(false);
    // every term in one file's folders: "scheduler" and "map" are in different files
    expect(scopeNamesFolder(folders, scopeTermsOf(["schedulerMap"]))).toBe(false);
    expect(scopeNamesFolder(folders, [])).toBe(false);
  });

  it("says so in the reason of the files it lifts", () => {
    const scope = scopeTermsOf(["parse"]);
    const ranked = orderBelowContext(
      [evaluation("src/cli/parse-command.ts", 0.9, []), evaluation("src/util/quote.ts", 0.4, []), evaluation("src/parse/strings.ts", 0.1, [])],
      new Map(),
      { scopeShare: (path) => scopeNameShare(pathTerms(path).folder, scope), scopeIsFolder: true },
    );
    expect(ranked.map((e) => e.path)).toEqual(["src/cli/parse-command.ts", "src/parse/strings.ts", "src/util/quote.ts"]);
    expect(ranked[1]!.reason).toContain("in the folder the task's scope names");
  });
});

describe("beside the best file", () => {
  it("starts a file in the best file's folder a little higher below the context", () => {
    const tail = [evaluation("src/api/handler.ts", 0.9, []), evaluation("src/db/pool.ts", 0.31, []), evaluation("src/api/routes.ts", 0.3, [])];
    expect(orderBelowContext(tail, new Map()).map((e) => e.path)).toEqual(["src/api/handler.ts", "src/api/routes.ts", "src/db/pool.ts"]);
    expect(orderBelowContext(tail, new Map(), { novelty: { folderWeight: 0 } }).map((e) => e.path)).toEqual([
      "src/api/handler.ts",
      "src/db/pool.ts",
      "src/api/routes.ts",
    ]);
    // a little: a clearly better file elsewhere keeps its place
    const clear = [evaluation("src/api/handler.ts", 0.9, []), evaluation("src/db/pool.ts", 0.4, []), evaluation("src/api/routes.ts", 0.3, [])];
    expect(orderBelowContext(clear, new Map()).map((e) => e.path)[1]).toBe("src/db/pool.ts");
  });
});

describe("plural name", () => {
  it("keeps the plural parts of the task's code words as written", () => {
    expect(pluralPartsOf(["useQueries", "setQueryData", "getRoutes"])).toEqual(["queries", "routes"]);
    // not plurals: -us, -ss, -is endings; too short to name a collection
    expect(pluralPartsOf(["readStatus", "assertClass", "parseAxis", "getIds"])).toEqual([]);
  });

  it("is the share of those plurals the file's base name holds, as written and not stemmed", () => {
    const plurals = pluralPartsOf(["useQueries"]);
    expect(pluralNameShare("src/queriesObserver.ts", plurals)).toBe(1);
    expect(pluralNameShare("src/queryObserver.ts", plurals)).toBe(0);
    // a folder named in the plural says nothing about the file
    expect(pluralNameShare("src/queries/cache.ts", plurals)).toBe(0);
    expect(pluralNameShare("src/queriesObserver.ts", [])).toBe(0);
  });

  it("starts a file named for the plural higher below the context, with a reason", () => {
    const plurals = pluralPartsOf(["useQueries"]);
    const ranked = orderBelowContext(
      [
        evaluation("src/types.ts", 0.9, []),
        evaluation("src/queryObserver.ts", 0.4, []),
        evaluation("src/utils.ts", 0.35, []),
        evaluation("src/queriesObserver.ts", 0.1, []),
      ],
      new Map(),
      { pluralShare: (path) => pluralNameShare(path, plurals) },
    );
    expect(ranked.map((e) => e.path)).toEqual(["src/types.ts", "src/queriesObserver.ts", "src/queryObserver.ts", "src/utils.ts"]);
    expect(ranked[1]!.reason).toContain("named for a plural the task names");
    expect(ranked[2]!.reason).not.toContain("plural");
  });
});

describe("compound name", () => {
  const stopwords = new Set(["a", "for", "of", "the", "in", "to", "some"]);
  const isStopword = (word: string) => stopwords.has(word);

  it("spells runs of two and three prose words as terms, function also as Fn", () => {
    const compounds = compoundsOf("Type mismatch for retry function", isStopword);
    expect([...compounds].sort()).toEqual(["retr fn", "retr function", "type mismatch"]);
    const names = ["PriceCache", "CacheState", "PriceCacheState", "StateCache", "Price"];
    expect(definedCompounds(names, compoundsOf("the price cache state", isStopword))).toEqual(["PriceCache", "CacheState", "PriceCacheState"]);
  });

  it("breaks a run at stopwords, punctuation, code words and backticks", () => {
    expect(compoundsOf("invoice. Line it", isStopword).has("invoic line")).toBe(false);
    expect(compoundsOf("invoice, line", isStopword).has("invoic line")).toBe(false);
    expect(compoundsOf("invoice of line", isStopword).size).toBe(0);
    expect(compoundsOf("invoice lineTotal line", isStopword).size).toBe(0);
    expect(compoundsOf("invoice `x` line", isStopword).size).toBe(0);
    expect(compoundsOf("invoice v2 line", isStopword).size).toBe(0);
    // a closing quote or bracket ends the clause as well
    expect(compoundsOf('the "invoice" line', isStopword).has("invoic line")).toBe(false);
    expect(compoundsOf('the "invoice line"', isStopword).has("invoic line")).toBe(true);
  });

  it("finds the names the compounds spell, plurals and inflections folded", () => {
    const compounds = compoundsOf("some amounts of the invoice lines in the store", isStopword);
    expect(definedCompounds(["InvoiceLine", "lineInvoices", "invoiceLineStore", "InvoiceLine"], compounds)).toEqual(["InvoiceLine"]);
    expect(definedCompounds(["RetryFn", "retry"], compoundsOf("the retry function", isStopword))).toEqual(["RetryFn"]);
    expect(definedCompounds(["InvoiceLine"], new Set())).toEqual([]);
  });

  it("spares the names of a file whose definitions lack a term of every compound", () => {
    const mayDefine = compoundFilter(compoundsOf("the retry function", isStopword));
    expect(mayDefine(new Map([["retr", 1], ["fn", 3]]))).toBe(true);
    expect(mayDefine(new Map([["retr", 1], ["function", 1]]))).toBe(true);
    expect(mayDefine(new Map([["retr", 1], ["delay", 1]]))).toBe(false);
    expect(compoundFilter(new Set())(new Map([["retr", 1]]))).toBe(false);
  });

  it("starts a file that exports such a name higher below the context, with a reason", () => {
    const compounds = compoundsOf("amounts of an invoice line", isStopword);
    const exported: Record<string, string[]> = { "src/InvoiceLine.ts": ["InvoiceLine", "isLine"], "src/totals.ts": ["lineInvoice"] };
    const ranked = orderBelowContext(
      [evaluation("src/billing.ts", 0.9, []), evaluation("src/totals.ts", 0.4, []), evaluation("src/store.ts", 0.35, []), evaluation("src/InvoiceLine.ts", 0.1, [])],
      new Map(),
      { compoundNames: (path) => definedCompounds(exported[path] ?? [], compounds) },
    );
    expect(ranked.map((e) => e.path)).toEqual(["src/billing.ts", "src/InvoiceLine.ts", "src/totals.ts", "src/store.ts"]);
    expect(ranked[1]!.reason).toContain("exports InvoiceLine, which the task's words spell");
    expect(ranked[2]!.reason).not.toContain("spell");
  });
});

describe("entry barrel", () => {
  it("hears imports, exports and exposing in any form, and nothing else", () => {
    for (const task of ["Keep Node-only modules out of the imports", "Export the parser's option types", "Expose `Lexer`", "helpers are re-exported", "importing from the top level", "从入口导出解析器类型"]) {
      expect(speaksOfModuleBoundary(task)).toBe(true);
    }
    for (const task of ["Fix the important flag", "Exporter crashes", "exposure time", "a reimplementation of retry"]) {
      expect(speaksOfModuleBoundary(task)).toBe(false);
    }
  });

  it("is the shallowest barrel, one per package of a monorepo", () => {
    expect(entryBarrels(["src/index.ts", "src/format/index.ts", "src/node/index.ts"])).toEqual(["src/index.ts"]);
    expect(entryBarrels(["packages/a/src/index.ts", "packages/b/src/index.ts", "packages/b/src/x/index.ts"])).toEqual([
      "packages/a/src/index.ts",
      "packages/b/src/index.ts",
    ]);
    // a top-level barrel of another name is no entry beside an index; alone, it is
    expect(entryBarrels(["src/index.ts", "src/FastCheck.ts", "src/mod.ts"])).toEqual(["src/index.ts", "src/mod.ts"]);
    expect(entryBarrels(["src/public-api.ts", "src/format/index.ts"])).toEqual(["src/public-api.ts"]);
    expect(entryBarrels([])).toEqual([]);
  });

  it("starts the entry barrel higher below the context, with a reason", () => {
    const ranked = orderBelowContext(
      [evaluation("src/node/files.ts", 0.9, []), evaluation("src/node/processes.ts", 0.3, []), evaluation("src/node/env.ts", 0.19, []), evaluation("src/index.ts", 0.05, [])],
      new Map(),
      { entryBarrels: new Set(["src/index.ts"]) },
    );
    expect(ranked.map((e) => e.path)).toEqual(["src/node/files.ts", "src/node/processes.ts", "src/index.ts", "src/node/env.ts"]);
    expect(ranked[2]!.reason).toContain("the package's entry");
  });
});
