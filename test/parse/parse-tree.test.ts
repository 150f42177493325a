/**
 * parseText's trees do not cache node objects (src/parse/parse-tree.ts):
 * the same node read twice is two objects with the same reading, and a
 * tree made by another user of tree-sitter in the process keeps its cache.
 * The spans of src/parse/node-span.ts read what the node getters read.
 */
import Parser from "tree-sitter";
import { describe, expect, test } from "vitest";
import { loadGrammar, loadLanguage } from "../../src/parse/load-language.js";
import { checkNodeLayout, endOf, lineOf, startOf } from "../../src/parse/node-span.js";
import { parseText } from "../../src/parse/parse-tree.js";

const TEXT = "export function f(a: number): number {\n  return a + 1;\n}\n";

describe("the node cache", () => {
  test("our trees hand out a new object for each read of a node, which reads the same", () => {
    const { parser, query } = loadLanguage("typescript");
    const tree = parseText(parser, TEXT);
    expect(tree.rootNode).not.toBe(tree.rootNode);
    expect(tree.rootNode.firstChild?.startIndex).toBe(0);
    expect(tree.rootNode.toString()).toBe(parseText(parser, TEXT).rootNode.toString());
    const names = query.matches(tree.rootNode).flatMap((m) => m.captures.filter((c) => c.name === "name").map((c) => c.node.text));
    expect(names).toContain("f");
  });

  test("a tree parsed by another user of tree-sitter keeps the binding's cache", () => {
    const parser = new Parser();
    parser.setLanguage(loadGrammar("typescript"));
    const tree = parser.parse(TEXT);
    expect(tree.rootNode).toBe(tree.rootNode);
  });
});

describe("node spans", () => {
  test("startOf, endOf and lineOf read what the node's getters read, past non-BMP characters and on every line", () => {
    const { parser } = loadLanguage("typescript");
    const text = '// é 😀\nimport { a } from "x";\n  export const b = "é😀" + 1; /* 😀 */ let c\r\n= `${"😀"}`;\n';
    const tree = parseText(parser, text);
    const seen: string[] = [];
    const visit = (node: Parser.SyntaxNode): void => {
      expect([startOf(node), endOf(node), lineOf(node)]).toEqual([node.startIndex, node.endIndex, node.startPosition.row + 1]);
      seen.push(node.type);
      for (const child of node.children) visit(child);
    };
    visit(tree.rootNode);
    expect(seen.length).toBeGreaterThan(40);
  });

  test("checkNodeLayout accepts the binding's nodes", () => {
    const { parser } = loadLanguage("typescript");
    expect(() => checkNodeLayout(parseText(parser, "// 😀\nconst a = 1;\n").rootNode)).not.toThrow();
  });
});
