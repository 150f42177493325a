/**
 * Which declarations are at module level, found by reading the file's top
 * statements (and namespace bodies) once. tree-sitter's `parent` and
 * `previousSibling` rescan from the root, which is quadratic on files with
 * thousands of statements, so the rest of parse/ looks things up here.
 *
 * The node types are those of both grammars: TypeScript's, and Python's
 * (`class_definition`, `decorated_definition`, and the `block`s of a
 * module-level `if`, `try` or `with`, which hold module-level statements;
 * a TypeScript `if` holds a `statement_block`, whose declarations are not).
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

/** Python statements whose `block`s (and their clauses' blocks: `elif`, `else`, `except`, `finally`) stay at module level. */
const MODULE_LEVEL_COMPOUNDS: ReadonlySet<string> = new Set(["if_statement", "try_statement", "with_statement"]);

/** Add the statements of a compound statement's Python blocks (none in a TypeScript one). */
function addBlocks(index: ModuleLevelIndex, compound: Parser.SyntaxNode, text: string, everyExported: boolean): void {
  for (const child of compound.namedChildren) {
    if (child.type === "block") addStatements(index, child.namedChildren, text, everyExported);
    else if (child.type.endsWith("_clause")) {
      for (const inner of child.namedChildren) if (inner.type === "block") addStatements(index, inner.namedChildren, text, everyExported);
    }
  }
}

function addContainer(index: ModuleLevelIndex, owner: Parser.SyntaxNode, name: string, exported: boolean): void {
  const body = owner.childForFieldName("body");
  if (body) index.containers.set(startOf(body), { name, exported });
}

/** `everyExported`: every module-level name is exported (Python), not only what `export` marks. */
function addStatements(index: ModuleLevelIndex, statements: Parser.SyntaxNode[], text: string, everyExported: boolean): void {
  for (const statement of statements) addDeclaration(index, statement, statement, text, everyExported);
}

/** Register one declaration, unwrapping `export`, `declare`, expression statements and Python's decorators. */
function addDeclaration(index: ModuleLevelIndex, node: Parser.SyntaxNode, outer: Parser.SyntaxNode, text: string, everyExported: boolean): void {
  const exported = everyExported || outer.type === "export_statement";
  switch (node.type) {
    case "export_statement": {
      for (const field of DECLARATION_FIELDS) {
        const inner = node.childForFieldName(field);
        if (inner) addDeclaration(index, inner, outer, text, everyExported);
      }
      return;
    }
    case "ambient_declaration":
    case "expression_statement":
      for (const inner of node.namedChildren) {
        if (inner.type === "statement_block") addStatements(index, inner.namedChildren, text, everyExported);
        else addDeclaration(index, inner, outer, text, everyExported);
      }
      return;
    case "decorated_definition": {
      // the definition stands for itself: its lines and signature start at `def` / `class`, not at a decorator
      const inner = node.childForFieldName("definition");
      if (inner) addDeclaration(index, inner, inner, text, everyExported);
      return;
    }
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
    case "class":
    case "class_definition": {
      index.declarations.set(startOf(node), { outer, exported });
      const name = node.childForFieldName("name");
      if (name) addContainer(index, node, textOf(name, text), exported);
      return;
    }
    case "internal_module":
    case "module": {
      index.declarations.set(startOf(node), { outer, exported });
      const body = node.childForFieldName("body");
      if (body) addStatements(index, body.namedChildren, text, everyExported);
      return;
    }
    default:
      index.declarations.set(startOf(node), { outer, exported });
      if (MODULE_LEVEL_COMPOUNDS.has(node.type)) addBlocks(index, node, text, everyExported);
  }
}

/**
 * Read the top statements of a tree (and of its namespaces) into an index;
 * `everyExported`: every module-level name is exported (Python).
 */
export function indexModuleLevel(root: Parser.SyntaxNode, text: string, everyExported = false): ModuleLevelIndex {
  const index: ModuleLevelIndex = { declarations: new Map(), containers: new Map(), topLevel: new Set() };
  const statements = root.namedChildren;
  for (const statement of statements) index.topLevel.add(startOf(statement));
  addStatements(index, statements, text, everyExported);
  return index;
}
