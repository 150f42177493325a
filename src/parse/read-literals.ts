/**
 * A file's string literals as the code writes them: each string and
 * template literal once, and a `+` chain of them joined into one (a message
 * split over two lines of code is one message). A template literal's
 * substitutions, and a chain's operands that are not strings, are breaks
 * ({@link LITERAL_BREAK}): what is not one string in the code never reads
 * as one. The nodes come from the grammar's `@literal.*` captures
 * (grammars/<lang>/tags.scm).
 */
import type Parser from "tree-sitter";
import { LITERAL_BREAK } from "../util/literal-shingles.js";

/** Literals shorter than this many characters say no message (a key, a path, a class name). */
const MIN_LITERAL_CHARS = 12;

/** A string or template literal's text without its quotes; substitutions as breaks, escapes as spaces. */
function literalText(node: Parser.SyntaxNode): string {
  if (node.type === "template_string") {
    let text = "";
    for (const child of node.namedChildren) {
      if (child.type === "string_fragment") text += child.text;
      else if (child.type === "escape_sequence") text += " ";
      else text += LITERAL_BREAK;
    }
    return text;
  }
  return node.namedChildren.map((c) => (c.type === "escape_sequence" ? " " : c.text)).join("");
}

/** The operands of a `+` chain, left to right. */
function operandsOf(node: Parser.SyntaxNode, concats: ReadonlySet<number>, out: Parser.SyntaxNode[]): void {
  if (concats.has(node.id)) {
    const left = node.childForFieldName("left");
    const right = node.childForFieldName("right");
    if (left) operandsOf(left, concats, out);
    if (right) operandsOf(right, concats, out);
  } else {
    out.push(node);
  }
}

/**
 * @param strings the string and template literal nodes
 * @param concats the `+` binary expressions
 * @example
 * readLiterals(stringNodes, concatNodes); // ["Context is not finalized", "retry in \u0001 seconds"]
 */
export function readLiterals(strings: readonly Parser.SyntaxNode[], concats: readonly Parser.SyntaxNode[]): string[] {
  const concatIds = new Set(concats.map((n) => n.id));
  const isLiteral = (n: Parser.SyntaxNode) => n.type === "string" || n.type === "template_string";
  const joined = new Set<number>();
  const out: string[] = [];
  for (const concat of concats) {
    if (concat.parent && concatIds.has(concat.parent.id)) continue; // inside a longer chain
    const operands: Parser.SyntaxNode[] = [];
    operandsOf(concat, concatIds, operands);
    if (!operands.some(isLiteral)) continue;
    const text = operands.map((o) => (isLiteral(o) ? literalText(o) : LITERAL_BREAK)).join("");
    for (const o of operands) if (isLiteral(o)) joined.add(o.id);
    out.push(text);
  }
  for (const node of strings) if (!joined.has(node.id)) out.push(literalText(node));
  return out.filter((text) => text.replaceAll(LITERAL_BREAK, "").length >= MIN_LITERAL_CHARS);
}
