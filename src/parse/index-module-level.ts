/**
 * Which declarations are at module level, found by reading the file's top
 * statements (and namespace bodies) once. tree-sitter's `parent` and
 * `previousSibling` rescan from the root, which is quadratic on files with
 * thousands of statements, so the rest of parse/ looks things up here.
 */
import type Parser from "tree-sitter";
import { startOf, textOf } from "./node-span.js";

/** The statement a module-level declaration stands in, and its export state. */
export interface ModuleLevelEntry {
  /** The outermost statement (`export …`, `declare …`, or the declaration itself). */
  outer: Parser.SyntaxNode;
  exported: boolean;
}

/** Module-level declarations and member bodies of one tree, keyed by node start offset. */
export interface ModuleLevelIndex {
  /** Declaration node (function, class, variable_declarator, …) start → its statement. */
  declarations: Map<number, ModuleLevelEntry>;
  /** class_body / interface_body start → the name of the class / interface and its export state. */
  containers: Map<number, { name: string; exported: boolean }>;
  /** Start offsets of the file's top-level statements. */
  topLevel: Set<number>;
}

const DECLARATION_FIELDS = ["declaration", "value"] as const;

function addContainer(index: ModuleLevelIndex, owner: Parser.SyntaxNode, name: string, exported: boolean): void {
  const body = owner.childForFieldName("body");
  if (body) index.containers.set(startOf(body), { name, exported });
}

function addStatements(index: ModuleLevelIndex, statements: Parser.SyntaxNode[], text: string): void {
  for (const statement of statements) addDeclaration(index, statement, statement, text);
}

/** Register one declaration, unwrapping `export`, `declare` and expression statements. */
function addDeclaration(index: ModuleLevelIndex, node: Parser.SyntaxNode, outer: Parser.SyntaxNode, text: string): void {
  const exported = outer.type === "export_statement";
  switch (node.type) {
    case "export_statement": {
      for (const field of DECLARATION_FIELDS) {
        const inner = node.childForFieldName(field);
        if (inner) addDeclaration(index, inner, outer, text);
      }
      return;
    }
    case "ambient_declaration":
    case "expression_statement":
      for (const inner of node.namedChildren) {
        if (inner.type === "statement_block") addStatements(index, inner.namedChildren, text);
        else addDeclaration(index, inner, outer, text);
      }
      return;
    case "lexical_declaration":
    case "variable_declaration":
      for (const declarator of node.namedChildren) {
        if (declarator.type !== "variable_declarator") continue;
        index.declarations.set(startOf(declarator), { outer, exported });
        const value = declarator.childForFieldName("value");
        const name = declarator.childForFieldName("name");
        if (value?.type === "class" && name) addContainer(index, value, textOf(name, text), exported);
      }
      return;
    case "class_declaration":
    case "abstract_class_declaration":
    case "interface_declaration":
    case "class": {
      index.declarations.set(startOf(node), { outer, exported });
      const name = node.childForFieldName("name");
      if (name) addContainer(index, node, textOf(name, text), exported);
      return;
    }
    case "internal_module":
    case "module": {
      index.declarations.set(startOf(node), { outer, exported });
      const body = node.childForFieldName("body");
      if (body) addStatements(index, body.namedChildren, text);
      return;
    }
    default:
      index.declarations.set(startOf(node), { outer, exported });
  }
}

/** Read the top statements of a tree (and of its namespaces) into an index. */
export function indexModuleLevel(root: Parser.SyntaxNode, text: string): ModuleLevelIndex {
  const index: ModuleLevelIndex = { declarations: new Map(), containers: new Map(), topLevel: new Set() };
  const statements = root.namedChildren;
  for (const statement of statements) index.topLevel.add(startOf(statement));
  addStatements(index, statements, text);
  return index;
}
