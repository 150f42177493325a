/**
 * parseText's trees do not cache node objects (src/parse/parse-tree.ts):
 * the same node read twice is two objects with the same reading, and a
 * tree made by another user of tree-sitter in the process keeps its cache.
 */
import Parser from "tree-sitter";
import { describe, expect, test } from "vitest";
import { loadGrammar, loadLanguage } from "../../src/parse/load-language.js";
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
