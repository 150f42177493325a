/**
 * One definition capture (`@definition.<kind>` + `@name`) → a Definition,
 * or undefined when the declaration is not at module level (a helper inside
 * a function body is a local, not something another file can use).
 */
import type Parser from "tree-sitter";
import { endOf, lineOf, startOf, textOf } from "./node-span.js";
import type { Definition, DefinitionKind } from "../types.js";
import type { ModuleLevelIndex } from "./index-module-level.js";
import { type CommentSpans, docCommentBefore, readDocString } from "./read-doc-comment.js";

/** Longest signature kept, in characters. */
export const MAX_SIGNATURE_CHARS = 200;

const DEFINITION_KINDS: ReadonlySet<string> = new Set<DefinitionKind>([
  "function",
  "class",
  "method",
  "interface",
  "type",
  "enum",
  "variable",
  "namespace",
]);

/** The definition kind named by a capture (`definition.method` → `method`), or undefined. */
export function definitionKindOf(captureName: string): DefinitionKind | undefined {
  const kind = captureName.slice("definition.".length);
  return DEFINITION_KINDS.has(kind) ? (kind as DefinitionKind) : undefined;
}

/** The first line of a span of text, trimmed, at most MAX_SIGNATURE_CHARS. */
export function signatureOf(text: string, start: number, end: number): string {
  const newline = text.indexOf("\n", start);
  const lineEnd = newline === -1 || newline > end ? end : newline;
  return text.slice(start, lineEnd).trim().slice(0, MAX_SIGNATURE_CHARS);
}

/** What the query matched for one definition. */
export interface DefinitionCapture {
  kind: DefinitionKind;
  declaration: Parser.SyntaxNode;
  name: Parser.SyntaxNode;
  /** For members: the class_body / interface_body holding them. */
  body: Parser.SyntaxNode | undefined;
  /** The docstring opening the definition's body (Python), read as its doc before any comment above it. */
  doc: Parser.SyntaxNode | undefined;
}

/**
 * Read a definition. Members (methods, class fields) take their container's
 * name and export state and need a module-level container; anything else
 * must be a module-level declaration.
 */
export function readDefinition(
  capture: DefinitionCapture,
  index: ModuleLevelIndex,
  comments: CommentSpans,
  text: string,
): Definition | undefined {
  let outer: Parser.SyntaxNode;
  let exported: boolean;
  let container: string | undefined;
  if (capture.body) {
    const owner = index.containers.get(startOf(capture.body));
    if (!owner) return undefined;
    outer = capture.declaration;
    exported = owner.exported;
    container = owner.name;
  } else {
    const entry = index.declarations.get(startOf(capture.declaration));
    if (!entry) return undefined;
    outer = entry.outer;
    exported = entry.exported;
  }
  const start = startOf(outer);
  const definition: Definition = {
    name: textOf(capture.name, text),
    kind: capture.kind,
    exported,
    startLine: lineOf(outer),
    endLine: outer.endPosition.row + 1,
    signature: signatureOf(text, start, endOf(outer)),
  };
  const doc = capture.doc ? readDocString(textOf(capture.doc, text)) : docCommentBefore(comments, text, start);
  if (doc) definition.doc = doc;
  if (container !== undefined) definition.container = container;
  return definition;
}
