import { describe, expect, test } from "vitest";
import { countLines, estimateTokens, MAX_FALLBACK_NESTING, nestingDepthOf, parseSource } from "../../src/parse/index.js";
import type { ImportFact, ParsedFile, TermCounts } from "../../src/types.js";

function ts(text: string, path = "src/a.ts"): ParsedFile {
  return parseSource(path, text, "typescript");
}

function importsOf(parsed: ParsedFile): Omit<ImportFact, "line">[] {
  return parsed.imports.map(({ line: _line, ...rest }) => rest);
}

/** Term → count, from a vocabulary field's parallel arrays. */
function countsOf(field: TermCounts): Record<string, number> {
  return Object.fromEntries(field.terms.map((term, i) => [term, field.counts[i] as number]));
}

describe("imports", () => {
  const source = [
    'import d, { a as b, c } from "./named";', // 1
    'import * as ns from "./ns";',
    'import "./side-effect";',
    'import type { T } from "./types";',
    'import { type U, type V } from "./inline-types";', // 5
    'import { type W, value } from "./mixed";',
    'import legacy = require("./legacy");',
    'const lazy = () => import("./lazy");',
    'const req = require("./req");',
    'const { x, y: z } = require("./destructured");', // 10
    'export { a as b2 } from "./re";',
    'export * from "./star";',
    'export * as Space from "./space";',
    'export type { Only } from "./type-only";',
    '/// <reference path="./globals.d.ts" />', // 15
    '/// <reference types="node" />',
    'const notAnImport = load("./x");',
  ].join("\n");
  const parsed = ts(source);

  test("every form, in order, with names and type-only state", () => {
    expect(importsOf(parsed)).toEqual([
      { specifier: "./named", kind: "static", names: [{ name: "default", alias: "d" }, { name: "a", alias: "b" }, { name: "c", alias: "c" }], typeOnly: false },
      { specifier: "./ns", kind: "static", names: [{ name: "*", alias: "ns" }], typeOnly: false },
      { specifier: "./side-effect", kind: "static", names: [], typeOnly: false },
      { specifier: "./types", kind: "static", names: [{ name: "T", alias: "T" }], typeOnly: true },
      { specifier: "./inline-types", kind: "static", names: [{ name: "U", alias: "U" }, { name: "V", alias: "V" }], typeOnly: true },
      { specifier: "./mixed", kind: "static", names: [{ name: "W", alias: "W" }, { name: "value", alias: "value" }], typeOnly: false },
      { specifier: "./legacy", kind: "static", names: [{ name: "*", alias: "legacy" }], typeOnly: false },
      { specifier: "./lazy", kind: "dynamic", names: [], typeOnly: false },
      { specifier: "./req", kind: "require", names: [{ name: "*", alias: "req" }], typeOnly: false },
      { specifier: "./destructured", kind: "require", names: [{ name: "x", alias: "x" }, { name: "y", alias: "z" }], typeOnly: false },
      { specifier: "./re", kind: "reexport", names: [{ name: "a", alias: "b2" }], typeOnly: false },
      { specifier: "./star", kind: "reexport", names: [{ name: "*", alias: "*" }], typeOnly: false },
      { specifier: "./space", kind: "reexport", names: [{ name: "*", alias: "Space" }], typeOnly: false },
      { specifier: "./type-only", kind: "reexport", names: [{ name: "Only", alias: "Only" }], typeOnly: true },
      { specifier: "./globals.d.ts", kind: "reference", names: [], typeOnly: false },
      { specifier: "node", kind: "reference", names: [], typeOnly: true },
    ]);
  });

  test("lines are 1-based statement lines", () => {
    expect(parsed.imports.map((i) => i.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]);
  });

  test("the TypeScript parser reads the same imports", () => {
    // Triple-slash directives count for TypeScript only above the first statement.
    const directivesFirst = [...source.split("\n").slice(14, 16), ...source.split("\n").slice(0, 14)].join("\n");
    const clean = ts(directivesFirst);
    // A trailing syntax error sends the file through the TypeScript fallback.
    const broken = ts(`${directivesFirst}\nconst = ;`);
    expect(clean.hasSyntaxErrors).toBe(false);
    expect(broken.hasSyntaxErrors).toBe(true);
    expect(broken.imports).toEqual(clean.imports);
  });

  test("an import type, `import(\"x\").T`, is an import of x on both parsers (dependency-cruiser's type-import)", () => {
    // tree-sitter reads `import("./a").B` as a dynamic import; with type arguments after it, `.T<A>`, it
    // errs and the TypeScript parser reads the file (date-fns's .d.ts files), which must find the same
    const clean = ts(`type T = import("./a").B;\nexport declare const f: typeof import("./c");\n`);
    const fallback = ts(`type T = import("./a").B<string>;\nexport declare const f: typeof import("./c");\n`);
    expect(clean.imports.map((i) => [i.specifier, i.kind, i.line])).toEqual([["./a", "dynamic", 1], ["./c", "dynamic", 2]]);
    expect(fallback.hasSyntaxErrors).toBe(false);
    expect(fallback.imports).toEqual(clean.imports);
  });
});

describe("exports", () => {
  test("named, default, local lists, star and re-exports", () => {
    const parsed = ts(
      [
        "export function f() {}",
        "export const c = 1, { d, e: g } = o;",
        "export class K {}",
        "export interface I {}",
        "export type T = string;",
        "export enum E { A }",
        "export namespace N { export const inner = 1; }",
        "const local = 1;",
        "export { local as renamed, local };",
        "export default K;",
        'export { a } from "./a";',
        'export * from "./b";',
        'export * as C from "./c";',
      ].join("\n"),
    );
    expect(parsed.exports).toEqual([
      { name: "f", kind: "named" },
      { name: "c", kind: "named" },
      { name: "d", kind: "named" },
      { name: "g", kind: "named" },
      { name: "K", kind: "named" },
      { name: "I", kind: "named" },
      { name: "T", kind: "named" },
      { name: "E", kind: "named" },
      { name: "N", kind: "named" },
      { name: "renamed", kind: "named", local: "local" },
      { name: "local", kind: "named" },
      { name: "default", kind: "default", local: "K" },
      { name: "a", kind: "named", from: "./a" },
      { name: "*", kind: "star", from: "./b" },
      { name: "C", kind: "named", local: "*", from: "./c" },
    ]);
  });

  test("export default of a declaration names its local", () => {
    expect(ts("export default function main() {}").exports).toEqual([{ name: "default", kind: "default", local: "main" }]);
    expect(ts("export default 42;").exports).toEqual([{ name: "default", kind: "default" }]);
  });
});

describe("definitions", () => {
  const source = [
    "/**", // 1
    " * Issue a token.",
    " * @param user who asks",
    " */",
    "export function issue(user: string): Token {", // 5
    "  function inner() {}",
    "  const local = 1;",
    "  return sign(user);",
    "}",
    "// The token shape.", // 10
    "// Second line.",
    "export interface Token { value: string; refresh(): Token }",
    "type Alias = Token;",
    "enum Color { Red }",
    "export const arrow = (x: number) => x;", // 15
    "let plain = 3;",
    "export abstract class Store<T> {",
    "  items: T[] = [];",
    "  handler = () => 1;",
    "  get(id: string): T { return this.items[0]; }", // 20
    "  abstract put(item: T): void;",
    "}",
    "namespace Space { export function nested() {} }",
    "export { plain };",
  ].join("\n");
  const parsed = ts(source);
  const brief = parsed.definitions.map((d) => [d.name, d.kind, d.exported, d.startLine, d.endLine, d.container ?? null]);

  test("module-level declarations and class / interface members, with kinds, lines and export state", () => {
    expect(brief).toEqual([
      ["issue", "function", true, 5, 9, null],
      ["Token", "interface", true, 12, 12, null],
      ["refresh", "method", true, 12, 12, "Token"],
      ["Alias", "type", false, 13, 13, null],
      ["Color", "enum", false, 14, 14, null],
      ["arrow", "function", true, 15, 15, null],
      ["plain", "variable", true, 16, 16, null],
      ["Store", "class", true, 17, 22, null],
      ["items", "variable", true, 18, 18, "Store"],
      ["handler", "method", true, 19, 19, "Store"],
      ["get", "method", true, 20, 20, "Store"],
      ["put", "method", true, 21, 21, "Store"],
      ["Space", "namespace", false, 23, 23, null],
      ["nested", "function", true, 23, 23, null],
    ]);
  });

  test("locals inside function bodies are not definitions", () => {
    expect(parsed.definitions.map((d) => d.name)).not.toContain("inner");
    expect(parsed.definitions.map((d) => d.name)).not.toContain("local");
  });

  test("signature is the first line, doc the leading comment without markers", () => {
    const issue = parsed.definitions.find((d) => d.name === "issue");
    expect(issue?.signature).toBe("export function issue(user: string): Token {");
    expect(issue?.doc).toBe("Issue a token.\n@param user who asks");
    expect(parsed.definitions.find((d) => d.name === "Token")?.doc).toBe("The token shape.\nSecond line.");
    expect(parsed.definitions.find((d) => d.name === "Alias")?.doc).toBeUndefined();
  });

  test("signatures are cut at 200 characters", () => {
    const long = ts(`export const ${"x".repeat(300)} = 1;`);
    expect(long.definitions[0]?.signature.length).toBe(200);
  });

  test("declaration files: declare forms and overloads", () => {
    const parsed = parseSource(
      "types/a.d.ts",
      'declare function f(a: string): void;\ndeclare function f(a: number): void;\nexport declare const v: number;\ndeclare module "m" { export function inModule(): void; }\n',
      "typescript",
      true,
    );
    expect(parsed.isDeclaration).toBe(true);
    expect(parsed.definitions.map((d) => [d.name, d.kind, d.exported, d.startLine])).toEqual([
      ["f", "function", false, 1],
      ["f", "function", false, 2],
      ["v", "variable", true, 3],
      ["inModule", "function", true, 4],
    ]);
    expect(parsed.exports).toEqual([{ name: "v", kind: "named" }]);
  });
});

describe("references", () => {
  test("calls, member calls, new, type references and identifiers, counted, sorted by name", () => {
    const parsed = ts(
      [
        'import { helper, Service } from "./lib";',
        "export function run(input: Input): Result<Input> {",
        "  helper(); helper();",
        "  const s = new Service(config);",
        "  s.start(); s.start(); api.client.start();",
        "  return wrap(s) as Result<Input>;",
        "}",
        "run(undefined as never);",
      ].join("\n"),
    );
    expect(parsed.references).toEqual([
      { name: "Input", kind: "type", count: 3 },
      { name: "Result", kind: "type", count: 2 },
      { name: "Service", kind: "new", count: 1 },
      { name: "api", kind: "identifier", count: 1 },
      { name: "config", kind: "identifier", count: 1 },
      { name: "helper", kind: "call", count: 2 },
      { name: "run", kind: "call", count: 1 },
      { name: "s", kind: "identifier", count: 3 },
      { name: "start", kind: "member-call", count: 3 },
      { name: "wrap", kind: "call", count: 1 },
    ]);
  });

  test("definition sites, parameters and import bindings are not references", () => {
    const parsed = ts('import { a as b } from "./x";\nexport class C<T> { m(p: T) { return p; } }\nexport { b };');
    const names = parsed.references.map((r) => r.name);
    expect(names).not.toContain("a");
    expect(names).not.toContain("C");
    expect(names).not.toContain("m");
    expect(names).toContain("b"); // used by the export list
    expect(parsed.references.find((r) => r.name === "p")).toEqual({ name: "p", kind: "identifier", count: 1 });
    expect(parsed.references.find((r) => r.name === "T")).toEqual({ name: "T", kind: "type", count: 1 });
  });

  test("plain identifiers: keys, properties, strings, comments and keywords are not uses; spread and shorthand are", () => {
    const parsed = ts('const o = { key: 1, short, ...spread, m() {} };\nconsole.log(o.prop, "word", /re/g, `t ${inTemplate}`); // note\ninterface I { field: string }');
    expect(parsed.references).toEqual([
      { name: "inTemplate", kind: "identifier", count: 1 },
      { name: "log", kind: "member-call", count: 1 },
      { name: "console", kind: "identifier", count: 1 },
      { name: "o", kind: "identifier", count: 1 },
      { name: "short", kind: "identifier", count: 1 },
      { name: "spread", kind: "identifier", count: 1 },
    ].sort((a, b) => (a.name < b.name ? -1 : 1)));
    expect(countsOf(parsed.vocabulary.identifiers)).toMatchObject({ key: 1, prop: 1, field: 1 });
  });

  test("escapes in strings, template strings and broken code are never words", () => {
    const words = (source: string) => ts(source).references.map((r) => r.name);
    expect(words('const s = "a\\u0041b\\x41c\\ndone";')).toEqual([]);
    expect(words("const t = `a\\u0041b ${inside} \\xffc\\nend`;")).toEqual(["inside"]);
    expect(words('const broken = ((( "\\u0041x\\nyes')).not.toContain("u0041x");
  });

  test("JSX elements in .tsx: capitalised and member names, closing tags and intrinsics not counted", () => {
    const parsed = parseSource(
      "src/app.tsx",
      'import { Layout } from "./layout";\nexport const App = () => <Layout><ui.Button onClick={go}/><div/><Header/></Layout>;',
      "tsx",
    );
    expect(parsed.language).toBe("tsx");
    expect(parsed.references).toEqual([
      { name: "Button", kind: "jsx", count: 1 },
      { name: "Header", kind: "jsx", count: 1 },
      { name: "Layout", kind: "jsx", count: 1 },
      { name: "go", kind: "identifier", count: 1 },
      { name: "ui", kind: "identifier", count: 1 },
    ]);
  });

  test("JSX in a .js file falls back to the tsx grammar", () => {
    const parsed = parseSource("src/app.js", 'import React from "react";\nexport function App() { return <Page title="x"><Item/></Page>; }\n', "typescript");
    expect(parsed.hasSyntaxErrors).toBe(false);
    expect(parsed.language).toBe("tsx");
    expect(parsed.references.filter((r) => r.kind === "jsx").map((r) => r.name)).toEqual(["Item", "Page"]);
  });

  test("a .ts file with a type assertion keeps the typescript grammar", () => {
    const parsed = ts("const n = <number>value;");
    expect(parsed.hasSyntaxErrors).toBe(false);
    expect(parsed.language).toBe("typescript");
  });
});

describe("vocabulary, tokens, lines", () => {
  const text = [
    "// Refresh expired tokens.",
    'import { fetchUser } from "./users";',
    "export function refreshToken(session: Session) {",
    '  log("token has expired");',
    '  log("/api/v2/refresh");',
    "  return fetchUser(session.userId);",
    "}",
    "",
  ].join("\n");
  const parsed = ts(text);

  test("definitions, identifiers and comments fields", () => {
    // parallel arrays, each term once, in the order first met
    expect(parsed.vocabulary.definitions).toEqual({ terms: ["refresh", "token"], counts: [1, 1] });
    expect(countsOf(parsed.vocabulary.identifiers)).toEqual({ fetch: 2, user: 3, session: 3, log: 2, id: 1 });
    expect(countsOf(parsed.vocabulary.comments)).toEqual({ refresh: 1, expir: 2, token: 2, has: 1 });
  });

  test("tokens are characters / 4 rounded up; lines are counted", () => {
    expect(parsed.tokens).toBe(Math.ceil(text.length / 4));
    expect(parsed.lines).toBe(7);
    expect(estimateTokens("abcde")).toBe(2);
    expect(countLines("")).toBe(0);
    expect(countLines("a\nb")).toBe(2);
  });
});

describe("syntax errors", () => {
  test("never throws; facts before and after the error are kept", () => {
    const parsed = ts(
      [
        'import { before } from "./before";',
        "export function first() { return before(); }",
        "const broken = ((( ;",
        'import { after } from "./after";',
        "export function last() { return after(); }",
      ].join("\n"),
    );
    expect(parsed.hasSyntaxErrors).toBe(true);
    expect(parsed.imports.map((i) => i.specifier)).toEqual(["./before", "./after"]);
    expect(parsed.definitions.map((d) => d.name)).toEqual(expect.arrayContaining(["first", "last"]));
    expect(parsed.exports.map((e) => e.name)).toEqual(expect.arrayContaining(["first", "last"]));
    expect(parsed.references.map((r) => r.name)).toEqual(expect.arrayContaining(["before", "after"]));
  });

  test("variance annotations and overloads: imports and definitions complete", () => {
    const parsed = ts(
      [
        'import type { Pipeable } from "./Pipeable";', // 1
        "/** A variance-annotated interface. */",
        "export interface Variance<in out A> { readonly _A: (_: A) => A }",
        "export declare const dual: {",
        "  <A, B>(self: A, that: B): B", // 5
        "};",
        "export function overload<A>(self: A): A;",
        "export function overload<A, B>(self: A, b: B): B;",
        "export function overload(...args: unknown[]) { return args[0]; }",
        "export class Box<in out T> implements Pipeable {", // 10
        "  get(): T { return undefined as T; }",
        "}",
        'import { late } from "./late";',
        "export const after = () => late();",
        'export * from "./more";', // 15
      ].join("\n"),
    );
    // tree-sitter trips on `<in out T>`, TypeScript does not: valid code is no syntax error
    expect(parsed.hasSyntaxErrors).toBe(false);
    expect(parsed.imports.map((i) => [i.specifier, i.kind, i.typeOnly, i.line])).toEqual([
      ["./Pipeable", "static", true, 1],
      ["./late", "static", false, 13],
      ["./more", "reexport", false, 15],
    ]);
    const defs = parsed.definitions.map((d) => [d.name, d.kind, d.exported, d.startLine, d.container ?? null]);
    expect(defs).toEqual([
      ["Variance", "interface", true, 3, null],
      ["dual", "variable", true, 4, null],
      ["overload", "function", true, 7, null],
      ["overload", "function", true, 8, null],
      ["overload", "function", true, 9, null],
      ["Box", "class", true, 10, null],
      ["get", "method", true, 11, "Box"],
      ["after", "function", true, 14, null],
    ]);
    expect(parsed.definitions[0]?.doc).toBe("A variance-annotated interface.");
    expect(parsed.exports.map((e) => e.name)).toEqual(["Variance", "dual", "overload", "Box", "after", "*"]);
  });
});

describe("large input", () => {
  function generate(targetChars: number): string {
    const parts: string[] = ['import { dep } from "./dep";\n'];
    let size = parts[0]!.length;
    for (let i = 0; size < targetChars; i++) {
      const chunk = `/** Function number ${i}: é😀 */\nexport function fn${i}(x: number): number { return dep(x) + ${i}; }\n`;
      parts.push(chunk);
      size += chunk.length;
    }
    return parts.join("");
  }

  test.each([100_000, 2_000_000])("a generated %i-character file parses whole", (chars) => {
    const text = generate(chars);
    const parsed = ts(text);
    const count = (text.match(/export function/g) ?? []).length;
    expect(parsed.hasSyntaxErrors).toBe(false);
    expect(parsed.definitions).toHaveLength(count);
    const last = parsed.definitions[count - 1]!;
    expect(last.name).toBe(`fn${count - 1}`);
    expect(last.startLine).toBe(parsed.lines);
    expect(last.doc).toBe(`Function number ${count - 1}: é😀`);
    expect(parsed.references.find((r) => r.name === "dep")).toEqual({ name: "dep", kind: "call", count });
  });
});

describe("nesting too deep for TypeScript's parser", () => {
  test("is measured from the text alone, brackets and chained arrows", () => {
    expect(nestingDepthOf("f([{ a: () => () => 1 }])")).toBe(5);
    expect(nestingDepthOf("const a = () => 1;\nconst b = () => 2;\n")).toBe(1);
    expect(nestingDepthOf(`x = ${"[".repeat(300)}`)).toBeGreaterThan(MAX_FALLBACK_NESTING);
    expect(nestingDepthOf(`x = ${"() => ".repeat(300)}1`)).toBeGreaterThan(MAX_FALLBACK_NESTING);
  });

  test("gives the same facts every time: the fallback is skipped by the text, not by the stack left", () => {
    const text = `export class Queue {}\nexport const f = ${"() => ".repeat(2000)}1 [[\n`;
    const first = parseSource("src/deep.ts", text, "typescript");
    const again = parseSource("src/deep.ts", text, "typescript");
    expect(again).toEqual(first);
    expect(first.definitions.map((d) => d.name)).toContain("Queue");
  });
});
