/**
 * A file's string literals as the code writes them: each string and
 * template literal once, and a chain of them joined into one (a `+` chain,
 * Python's strings side by side: a message split over two lines of code is
 * one message). A template literal's or an f-string's substitutions, and a
 * chain's operands that are not strings, are breaks ({@link LITERAL_BREAK}):
 * what is not one string in the code never reads as one. The nodes come
 * from the grammar's `@literal.*` captures (grammars/<lang>/tags.scm).
 */
import type Parser from "tree-sitter";
import { LITERAL_BREAK } from "../util/literal-shingles.js";

/** Literals shorter than this many characters say no message (a key, a path, a class name). */
const MIN_LITERAL_CHARS = 12;

/**
 * The parts of a string node, by the node types of the grammars read
 * (TypeScript's `string_fragment` and `template_substitution`, Python's
 * `string_content`, `interpolation`, `string_start` and `string_end`).
 */
const BREAK_PARTS = new Set(["template_substitution", "interpolation"]);
const QUOTE_PARTS = new Set(["string_start", "string_end"]);
/** Strings side by side that the language joins into one (Python's `"a" "b"`). */
const JOINED_STRINGS = "concatenated_string";
const LITERAL_TYPES = new Set(["string", "template_string", JOINED_STRINGS]);

/** A text part's text with its escapes as spaces (Python's `string_content` holds its escapes as children). */
function partText(part: Parser.SyntaxNode): string {
  const whole = part.text;
  if (part.namedChildCount === 0) return whole;
  let text = "";
  let at = 0;
  for (const child of part.namedChildren) {
    const start = child.startIndex - part.startIndex;
    text += whole.slice(at, start) + (child.type === "escape_sequence" ? " " : child.text);
    at = child.endIndex - part.startIndex;
  }
  return text + whole.slice(at);
}

/** A string, template literal or run of joined strings as text without its quotes; substitutions as breaks, escapes as spaces. */
function literalText(node: Parser.SyntaxNode): string {
  if (node.type === JOINED_STRINGS) return node.namedChildren.map(literalText).join("");
  let text = "";
  for (const part of node.namedChildren) {
    if (QUOTE_PARTS.has(part.type)) continue;
    if (part.type === "escape_sequence") text += " ";
    else if (BREAK_PARTS.has(part.type)) text += LITERAL_BREAK;
    else text += partText(part);
  }
  return text;
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
 * @param strings the string and template literal nodes, and runs of strings the language joins
 * @param concats the `+` binary expressions
 * @example
 * readLiterals(stringNodes, concatNodes); // ["Context is not finalized", "retry in \u0001 seconds"]
 */
export function readLiterals(strings: readonly Parser.SyntaxNode[], concats: readonly Parser.SyntaxNode[]): string[] {
  const concatIds = new Set(concats.map((n) => n.id));
  const isLiteral = (n: Parser.SyntaxNode) => LITERAL_TYPES.has(n.type);
  const joined = new Set<number>();
  // the strings of a run the language joins (each run is captured too, in a chain or not) are read with it, not alone
  for (const node of strings) if (node.type === JOINED_STRINGS) for (const part of node.namedChildren) joined.add(part.id);
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
  // a string standing alone as a statement is documentation or a directive (a docstring, "use strict"), no message
  for (const node of strings) if (!joined.has(node.id) && node.parent?.type !== "expression_statement") out.push(literalText(node));
  return out.filter((text) => text.replaceAll(LITERAL_BREAK, "").length >= MIN_LITERAL_CHARS);
}
