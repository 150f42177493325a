/**
 * A node's offsets, read through the binding's own getters called on the
 * node (not looked up on it). node-tree-sitter 0.21 makes one subclass of
 * SyntaxNode per node type, so `node.startIndex` in a loop over query
 * captures meets dozens of hidden classes: V8 optimises the loop for the
 * few it has seen, throws the code away at the next one ("wrong map") and
 * compiles it again, several times per file set. The getter called
 * directly is one call target whatever the node's class.
 */
import Parser from "tree-sitter";

type Getter = (this: Parser.SyntaxNode) => number;

/** The binding exports its node class at run time; its typings declare only the interface. */
const nodeClass = (Parser as unknown as { SyntaxNode?: { prototype: object } }).SyntaxNode;

function getterOf(name: "startIndex" | "endIndex"): Getter {
  const getter = nodeClass && Object.getOwnPropertyDescriptor(nodeClass.prototype, name)?.get;
  if (!getter) throw new Error(`tree-sitter: SyntaxNode has no ${name} getter (unsupported tree-sitter version)`);
  return getter as Getter;
}

const startGetter = getterOf("startIndex");
const endGetter = getterOf("endIndex");

/** The node's start offset in the text (UTF-16 code units), as `node.startIndex`. */
export function startOf(node: Parser.SyntaxNode): number {
  return startGetter.call(node);
}

/** The node's end offset in the text (UTF-16 code units), as `node.endIndex`. */
export function endOf(node: Parser.SyntaxNode): number {
  return endGetter.call(node);
}
