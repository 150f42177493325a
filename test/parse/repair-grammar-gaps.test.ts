/**
 * Valid TypeScript tree-sitter-typescript 0.23 does not know, repaired in
 * place (src/parse/repair-grammar-gaps.ts), on the real snippets of
 * fixtures/grammar-gaps: the repairs found, what they leave alone, and facts
 * that match the TypeScript parser's without asking it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parseSource } from "../../src/parse/index.js";
import { dedupeExports } from "../../src/parse/merge-facts.js";
import { loadLanguage } from "../../src/parse/load-language.js";
import { parseText, parseWithFallback, releaseTree } from "../../src/parse/parse-tree.js";
import { ALWAYS_TRIPS, findGrammarGaps, mayHaveTrippingGap, repairGrammarGaps } from "../../src/parse/repair-grammar-gaps.js";
import { readTypescriptFacts } from "../../src/parse/typescript-facts.js";
import { FIXTURES } from "../support/fixtures.js";

const FIXTURE_FILES = ["import-types.ts", "index.ts", "overloads.ts", "template-type.ts", "untouched.ts", "variance.ts"] as const;

function source(name: string): string {
  return readFileSync(join(FIXTURES, "grammar-gaps", "src", name), "utf8");
}

/** Each repair as `rule line:"replaced text"`, lines 1-based. */
function describeRepairs(text: string): string[] {
  return findGrammarGaps(text).repairs.map(
    (r) => `${r.rule} ${text.slice(0, r.start).split("\n").length}:${JSON.stringify(text.slice(r.start, r.end))}`,
  );
}

function hasTreeSitterErrors(text: string): boolean {
  const tree = parseText(loadLanguage("typescript").parser, text);
  const broken = tree.rootNode.hasError;
  releaseTree(tree);
  return broken;
}

describe("the repairs found", () => {
  test("variance modifiers: one a line, several a list, before `const`, after `const`; `<in out>` names `out`", () => {
    expect(describeRepairs(source("variance.ts"))).toEqual([
      'variance-modifier 8:"out"',
      'variance-modifier 9:"in"',
      'variance-modifier 10:"in"',
      'variance-modifier 11:"out"',
      'variance-modifier 17:"out"',
      'variance-modifier 17:"in"',
      'variance-modifier 17:"in"',
      'variance-modifier 17:"out"',
      'variance-modifier 28:"in"',
      'variance-modifier 28:"out"',
      'variance-modifier 38:"in"',
      'variance-modifier 38:"out"',
      'variance-modifier 40:"in"',
      'variance-modifier 40:"out"',
    ]);
    expect(describeRepairs("interface A<in out> {}")).toEqual(['variance-modifier 1:"in"']);
    expect(describeRepairs("const C = class<out T> {}")).toEqual(['variance-modifier 1:"out"']);
  });

  test("`export type *`, also with `as X` and a comment between", () => {
    expect(describeRepairs(source("index.ts"))).toEqual(['type-only-export-star 1:"type"', 'type-only-export-star 2:"type"']);
  });

  test("import types with type arguments: `import(\"…\").` blanked, nested and qualified ones too; none without type arguments", () => {
    expect(describeRepairs(source("import-types.ts"))).toEqual([
      'import-type-generic 4:"import(\\"./types.js\\")."',
      'import-type-generic 5:"import(\\"./types.js\\")."',
      'import-type-generic 6:"import(\\"./types.js\\")."',
      'import-type-generic 8:"import(\\"./types.js\\")."',
    ]);
  });

  test("an import type written over several lines is left to the TypeScript parser (a repair never spans a line break)", () => {
    const text = 'export declare const x: import(\n  "./types.js"\n).Option<Date>;\n';
    expect(describeRepairs(text)).toEqual([]);
    const parsed = parseSource("src/x.ts", text, "typescript");
    expect(parsed.hasSyntaxErrors).toBe(false);
    expect(parsed.imports.map((i) => [i.specifier, i.kind])).toEqual([["./types.js", "dynamic"]]);
  });

  test("a blanked import type is still an import, in line order, and its path is no identifier", () => {
    const parsed = parseSource("src/import-types.ts", source("import-types.ts"), "typescript");
    expect(parsed.imports.map((i) => [i.specifier, i.kind, i.line])).toEqual([
      ["./types.js", "dynamic", 4],
      ["./types.js", "dynamic", 5],
      ["./types.js", "dynamic", 6],
      ["./types.js", "dynamic", 8],
      ["./types.js", "dynamic", 10],
      ["./types.js", "dynamic", 11],
    ]);
    expect(parsed.references.map((r) => r.name)).not.toContain("types");
    expect(parsed.references.map((r) => r.name)).toEqual(expect.arrayContaining(["Covariant", "Option", "Contravariant", "Box"]));
  });

  test("a `;` before each call signature that starts a line after a member ending in a type", () => {
    const text = source("overloads.ts");
    expect(describeRepairs(text)).toEqual(['signature-separator 17:" "', 'signature-separator 28:" "', 'signature-separator 34:" "']);
    const lines = repairGrammarGaps(text)!.text.split("\n");
    expect([lines[16], lines[27], lines[33]]).toEqual([
      " ;<R, L>(self: Option<R>, onNone: () => L): Either<R, L>",
      " ;<A, B>(self: ReadonlyArray<A>, f: (a: A) => B): Array<B>",
      " ;<",
    ]);
  });

  test("escapes in template literals, substitutions and all", () => {
    expect(describeRepairs(source("template-type.ts"))).toEqual([
      'template-escape 1:"\\\\`"',
      'template-escape 1:"\\\\`"',
      'template-escape 1:"\\\\`"',
      'template-escape 1:"\\\\`"',
      'template-escape 7:"\\\\`"',
      'template-escape 7:"\\\\`"',
    ]);
  });

  test("look-alikes are left alone: comments, strings, templates, regexes, `for … in`, mapped types, `<` in expressions, a parameter named `out`", () => {
    expect(describeRepairs(source("untouched.ts"))).toEqual(['variance-modifier 4:"out"']);
    for (const text of [
      "for (const key in record) {}",
      "type Keys<T> = { [K in keyof T]: K }",
      "interface Named<out> { value: out }",
      "interface Named<out = string> {}",
      "interface Named<out extends string> {}",
      "function f<T>(x: T) { return x }",
      'const s = "class A<in T> {}"',
      "const t = `interface A<out T> {}`",
      "const r = /class A<in out T>/",
      "// export type * from './x'",
      "/* interface A<in T> {} */",
      'export type { A } from "./a"',
      "function f(a: number, b: number) {\n  return a\n    < b\n}",
      "const identity =\n  <A>(a: A): A => a",
      "if (ready) {\n  go()\n  <T>cast\n}",
    ]) {
      expect(findGrammarGaps(text).repairs, text).toEqual([]);
    }
  });

  test("repairs keep the length and every line break; none for a text without gaps", () => {
    for (const name of FIXTURE_FILES) {
      const text = source(name);
      const repaired = repairGrammarGaps(text)!;
      expect(repaired.text).toHaveLength(text.length);
      expect([...repaired.text.matchAll(/\r?\n/g)].map((m) => m.index)).toEqual([...text.matchAll(/\r?\n/g)].map((m) => m.index));
    }
    expect(repairGrammarGaps(source("types.ts"))).toBeUndefined();
    expect(repairGrammarGaps(source("shapes.ts"))).toBeUndefined();
  });
});

describe("parsing a file with gaps", () => {
  test.each(FIXTURE_FILES)("%s: tree-sitter trips on it, reads it once repaired, and the file has no syntax errors", (name) => {
    const text = source(name);
    expect(hasTreeSitterErrors(text)).toBe(true);
    const chosen = parseWithFallback("typescript", text);
    expect(chosen.errors).toBe(0);
    expect(chosen.repaired?.repairs.length).toBeGreaterThan(0);
    releaseTree(chosen.tree);
    expect(parseSource(`src/${name}`, text, "typescript").hasSyntaxErrors).toBe(false);
  });

  test.each(FIXTURE_FILES)("%s: imports and exports as the TypeScript parser reads them; its definitions all there", (name) => {
    const text = source(name);
    const parsed = parseSource(`src/${name}`, text, "typescript");
    const typescript = readTypescriptFacts(`src/${name}`, text);
    expect(typescript.syntaxErrors).toBe(0);
    expect(parsed.imports).toEqual(typescript.imports);
    expect(parsed.exports).toEqual(dedupeExports(typescript.exports));
    const ours = new Set(parsed.definitions.map((d) => `${d.name} ${d.kind} ${d.startLine} ${d.exported}`));
    for (const d of typescript.definitions) expect(ours).toContain(`${d.name} ${d.kind} ${d.startLine} ${d.exported}`);
  });

  test("`export type * from` stays a type-only re-export", () => {
    const parsed = parseSource("src/index.ts", source("index.ts"), "typescript");
    expect(parsed.imports.map((i) => [i.specifier, i.kind, i.typeOnly, i.line])).toEqual([
      ["./types.js", "reexport", true, 1],
      ["./shapes.js", "reexport", true, 2],
      ["./variance.js", "reexport", false, 3],
      ["./overloads.js", "reexport", false, 4],
    ]);
    expect(parsed.exports).toEqual([
      { name: "*", kind: "star", from: "./types.js" },
      { name: "Shapes", kind: "named", local: "*", from: "./shapes.js" },
      { name: "*", kind: "star", from: "./variance.js" },
      { name: "fromOption", kind: "named", from: "./overloads.js" },
    ]);
  });

  test("facts are read from the original text: signatures keep their modifiers, strings their escapes", () => {
    const variance = parseSource("src/variance.ts", source("variance.ts"), "typescript");
    expect(variance.definitions.find((d) => d.name === "RefImpl")?.signature).toBe("class RefImpl<in out A> implements Types.Pipeable {");
    expect(variance.definitions.find((d) => d.name === "Variance")?.doc).toBe("@internal");
    const template = parseSource("src/template-type.ts", source("template-type.ts"), "typescript");
    expect(template.definitions.find((d) => d.name === "MissingSelfGeneric")?.signature).toContain("Missing \\`Self\\` generic");
    // the class named inside the string is no definition
    expect(template.definitions.map((d) => d.name)).toEqual(["MissingSelfGeneric", "Service", "describe"]);
  });

  test("the comparison on a new line stays a comparison, the generic arrow an arrow", () => {
    const text = source("untouched.ts");
    const chosen = parseWithFallback("typescript", text);
    expect(chosen.errors).toBe(0);
    const typeOf = (offset: number) => chosen.tree.rootNode.descendantForIndex(offset).parent?.type;
    expect(typeOf(text.indexOf("< b"))).toBe("binary_expression");
    expect(typeOf(text.indexOf("<A>(a: A): A => a"))).toBe("type_parameters");
    expect(chosen.tree.rootNode.descendantForIndex(text.indexOf("<A>(a: A): A => a")).parent?.parent?.type).toBe("arrow_function");
    releaseTree(chosen.tree);
  });

  test("the gaps tree-sitter always trips on: the text has errors as it is, and the hint finds it", () => {
    const snippets = [
      "interface A<in out T> { a: T }",
      "type F<out T> = () => T;",
      "export class C<T, in U> {}",
      "interface E<out A, out E = never, out R = never> {}",
      "interface W<in A extends string> {}",
      'export type * from "./x";',
      'export type * as X from "./x";',
    ];
    for (const text of [...snippets, source("variance.ts")]) {
      expect(findGrammarGaps(text).repairs.some((r) => ALWAYS_TRIPS.has(r.rule))).toBe(true);
      expect(hasTreeSitterErrors(text)).toBe(true);
      expect(mayHaveTrippingGap(text)).toBe(true);
    }
    for (const text of ["for (const k in o) {}", "const a = b < c;", "type M = { [K in keyof T]: T[K] };", "f(a, b)"]) {
      expect(mayHaveTrippingGap(text)).toBe(false);
    }
  });

  test("a text with such a gap is parsed repaired at once: the tree of its repaired text", () => {
    const text = source("variance.ts");
    const chosen = parseWithFallback("typescript", text);
    expect(chosen.errors).toBe(0);
    expect(chosen.repaired?.repairs).toEqual(findGrammarGaps(text).repairs);
    const fresh = parseText(loadLanguage("typescript").parser, repairGrammarGaps(text)!.text);
    expect(chosen.tree.rootNode.toString()).toBe(fresh.rootNode.toString());
    releaseTree(chosen.tree);
    releaseTree(fresh);
  });

  test("broken code still gets the TypeScript parser: a repair is kept only when the whole tree is clean", () => {
    const text = "interface A<in out T> { a: T }\nconst broken = ((( ;\n";
    const chosen = parseWithFallback("typescript", text);
    expect(chosen.repaired).toBeUndefined();
    expect(chosen.errors).toBeGreaterThan(0);
    releaseTree(chosen.tree);
    const parsed = parseSource("src/a.ts", text, "typescript");
    expect(parsed.hasSyntaxErrors).toBe(true);
    expect(parsed.definitions.map((d) => d.name)).toContain("A");
  });

  test("tsx is not repaired (its JSX text is not tokenized like code)", () => {
    const text = "export interface P<in out T> { t: T }\nexport const C = () => <div>it's</div>;\n";
    const chosen = parseWithFallback("tsx", text);
    expect(chosen.repaired).toBeUndefined();
    releaseTree(chosen.tree);
    expect(parseSource("src/c.tsx", text, "tsx").hasSyntaxErrors).toBe(false);
  });
});
