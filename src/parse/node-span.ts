/**
 * A node's offsets and lines, read with as few calls into the binding as
 * possible.
 *
 * Starts cost no call at all: node-tree-sitter 0.21 copies onto every node
 * object the TSNode it stands for, six numbers indexed 0-5 (see
 * `unmarshalNode` in tree-sitter/index.js): [0, 1] its id, [2] its start
 * byte, [3] its start row, [4] its start column, [5] its alias; every
 * getter copies them back to the binding, which answers from them. The text
 * is parsed as UTF-16, two bytes a code unit, and `startIndex` is that byte
 * halved in C++. `checkNodeLayout` verifies this once per language, so a
 * binding that lays its nodes out otherwise fails loudly instead of
 * reading wrong offsets.
 *
 * Ends are not on the node: they are read through the binding's own getter
 * called on the node (not looked up on it). node-tree-sitter 0.21 makes one
 * subclass of SyntaxNode per node type, so `node.endIndex` in a loop over
 * query captures meets dozens of hidden classes: V8 optimises the loop for
 * the few it has seen, throws the code away at the next one ("wrong map")
 * and compiles it again, several times per file set. The getter called
 * directly is one call target whatever the node's class.
 */
import Parser from "tree-sitter";

type Getter<T> = (this: Parser.SyntaxNode) => T;

/** The TSNode numbers a node object holds (see the module comment). */
type NodeFields = Readonly<Record<2 | 3, number>>;

const START_BYTE = 2;
const START_ROW = 3;

/** The binding exports its node class at run time; its typings declare only the interface. */
const nodeClass = (Parser as unknown as { SyntaxNode?: { prototype: object } }).SyntaxNode;

function getterOf<T>(name: "startIndex" | "endIndex" | "startPosition"): Getter<T> {
  const getter = nodeClass && Object.getOwnPropertyDescriptor(nodeClass.prototype, name)?.get;
  if (!getter) throw new Error(`tree-sitter: SyntaxNode has no ${name} getter (unsupported tree-sitter version)`);
  return getter as Getter<T>;
}

const startGetter = getterOf<number>("startIndex");
const endGetter = getterOf<number>("endIndex");
const startPositionGetter = getterOf<Parser.Point>("startPosition");

/** The node's start offset in the text (UTF-16 code units), as `node.startIndex`. */
export function startOf(node: Parser.SyntaxNode): number {
  return (node as unknown as NodeFields)[START_BYTE] >>> 1;
}

/** The node's end offset in the text (UTF-16 code units), as `node.endIndex`. */
export function endOf(node: Parser.SyntaxNode): number {
  return endGetter.call(node);
}

/** The node's text: its span of `text`, the text it was parsed from. */
export function textOf(node: Parser.SyntaxNode, text: string): string {
  return text.slice(startOf(node), endOf(node));
}

/** The node's first line, 1-based, as `node.startPosition.row + 1`. */
export function lineOf(node: Parser.SyntaxNode): number {
  return (node as unknown as NodeFields)[START_ROW] + 1;
}

/**
 * Throw when the binding does not keep start offsets and rows where
 * `startOf` and `lineOf` read them; `root` is any parsed tree's root (the
 * check reads its first node on a later line).
 */
export function checkNodeLayout(root: Parser.SyntaxNode): void {
  for (let node: Parser.SyntaxNode | null = root; node; node = node.lastChild) {
    if (startOf(node) !== startGetter.call(node) || lineOf(node) !== startPositionGetter.call(node).row + 1) {
      throw new Error("tree-sitter: nodes do not hold their start where parse/node-span.ts reads it (unsupported tree-sitter version)");
    }
  }
}
