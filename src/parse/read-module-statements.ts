/**
 * Import and export statements (tree-sitter nodes) → ImportFact / ExportFact.
 * Each reads the few children of one statement; nothing walks the tree.
 */
import type Parser from "tree-sitter";
import { endOf, lineOf, startOf, textOf } from "./node-span.js";
import type { ExportFact, ImportFact, ImportedName } from "../types.js";

/** What one export statement says: the names it exports and, for `export … from`, the import it implies. */
export interface ExportStatementFacts {
  exports: ExportFact[];
  reexport?: ImportFact;
}

const REFERENCE_DIRECTIVE = /<reference\s+(path|types)\s*=\s*["']([^"']*)["']/;

/** The contents of a string node, without its quotes. */
function stringValue(node: Parser.SyntaxNode, text: string): string {
  return text.slice(startOf(node) + 1, endOf(node) - 1);
}

/** True when a node has an anonymous `type` keyword child (`import type`, `{ type A }`). */
function hasTypeKeyword(node: Parser.SyntaxNode): boolean {
  for (const child of node.children) if (!child.isNamed && child.type === "type") return true;
  return false;
}

/** `name as alias` of an import or export specifier; `typeOnly` when it is marked `type`. */
function readSpecifier(node: Parser.SyntaxNode, text: string): ImportedName & { typeOnly: boolean } {
  const nameNode = node.childForFieldName("name");
  const aliasNode = node.childForFieldName("alias");
  const name = nameNode ? textOf(nameNode, text) : textOf(node, text);
  return { name, alias: aliasNode ? textOf(aliasNode, text) : name, typeOnly: hasTypeKeyword(node) };
}

/**
 * `import x, { a as b, type C } from "m"`, `import * as ns from "m"`,
 * `import "m"`, `import type …`, `import x = require("m")`.
 */
export function readImportStatement(node: Parser.SyntaxNode, text: string): ImportFact | undefined {
  const names: ImportedName[] = [];
  let everyNameTyped = true;
  let source = node.childForFieldName("source");
  for (const child of node.namedChildren) {
    if (child.type === "import_require_clause") {
      source = child.childForFieldName("source");
      const local = child.namedChildren.find((c) => c.type === "identifier");
      if (local) names.push({ name: "*", alias: textOf(local, text) });
      everyNameTyped = false;
    } else if (child.type === "import_clause") {
      for (const part of child.namedChildren) {
        if (part.type === "identifier") {
          names.push({ name: "default", alias: textOf(part, text) });
          everyNameTyped = false;
        } else if (part.type === "namespace_import") {
          const local = part.namedChildren.find((c) => c.type === "identifier");
          names.push({ name: "*", alias: local ? textOf(local, text) : "*" });
          everyNameTyped = false;
        } else if (part.type === "named_imports") {
          for (const spec of part.namedChildren) {
            if (spec.type !== "import_specifier") continue;
            const { name, alias, typeOnly } = readSpecifier(spec, text);
            names.push({ name, alias });
            if (!typeOnly) everyNameTyped = false;
          }
        }
      }
    }
  }
  if (!source || source.type !== "string") return undefined;
  return {
    specifier: stringValue(source, text),
    kind: "static",
    names,
    typeOnly: hasTypeKeyword(node) || (names.length > 0 && everyNameTyped),
    line: lineOf(node),
  };
}

/** The names a declaration after `export` binds: its name, or each variable (destructuring included). */
function declaredNames(declaration: Parser.SyntaxNode, text: string): string[] {
  if (declaration.type === "ambient_declaration") {
    const inner = declaration.namedChildren[0];
    return inner ? declaredNames(inner, text) : [];
  }
  if (declaration.type === "lexical_declaration" || declaration.type === "variable_declaration") {
    const names: string[] = [];
    for (const declarator of declaration.namedChildren) {
      if (declarator.type !== "variable_declarator") continue;
      const name = declarator.childForFieldName("name");
      if (name) collectBindingNames(name, text, names);
    }
    return names;
  }
  const name = declaration.childForFieldName("name");
  return name && name.type !== "string" ? [textOf(name, text)] : [];
}

/** Names bound by a binding pattern: `a`, `{ a, b: c }` → a, c; `[x, ...y]` → x, y. */
export function collectBindingNames(pattern: Parser.SyntaxNode, text: string, into: string[]): void {
  switch (pattern.type) {
    case "identifier":
    case "shorthand_property_identifier_pattern":
      into.push(textOf(pattern, text));
      return;
    case "pair_pattern": {
      const value = pattern.childForFieldName("value");
      if (value) collectBindingNames(value, text, into);
      return;
    }
    case "object_pattern":
    case "array_pattern":
    case "rest_pattern":
    case "assignment_pattern":
    case "object_assignment_pattern":
      for (const child of pattern.namedChildren) {
        if (child.type === "property_identifier") continue;
        collectBindingNames(child, text, into);
        if (pattern.type === "assignment_pattern" || pattern.type === "object_assignment_pattern") return;
      }
      return;
    default:
      return;
  }
}

/**
 * `export function f`, `export default x`, `export { a as b }`, `export = x`,
 * and the re-exports `export { a } from "m"`, `export * from "m"`,
 * `export * as X from "m"`, `export type { T } from "m"`.
 */
export function readExportStatement(node: Parser.SyntaxNode, text: string): ExportStatementFacts {
  const source = node.childForFieldName("source");
  const from = source && source.type === "string" ? stringValue(source, text) : undefined;
  const exports: ExportFact[] = [];
  const names: ImportedName[] = [];
  let everyNameTyped = true;
  let isDefault = false;
  let isExportEquals = false;
  for (const child of node.children) {
    if (child.isNamed) continue;
    if (child.type === "default") isDefault = true;
    else if (child.type === "=") isExportEquals = true;
  }
  const declaration = node.childForFieldName("declaration");
  const value = node.childForFieldName("value");
  for (const child of node.namedChildren) {
    if (child.type === "export_clause") {
      for (const spec of child.namedChildren) {
        if (spec.type !== "export_specifier") continue;
        const { name: local, alias: exported, typeOnly } = readSpecifier(spec, text);
        const fact: ExportFact = { name: exported, kind: exported === "default" ? "default" : "named" };
        if (local !== exported) fact.local = local;
        if (from !== undefined) fact.from = from;
        exports.push(fact);
        names.push({ name: local, alias: exported });
        if (!typeOnly) everyNameTyped = false;
      }
    } else if (child.type === "namespace_export") {
      const alias = child.namedChildren[0];
      const exported = alias ? textOf(alias, text) : "*";
      const fact: ExportFact = { name: exported, kind: "named", local: "*" };
      if (from !== undefined) fact.from = from;
      exports.push(fact);
      names.push({ name: "*", alias: exported });
      everyNameTyped = false;
    }
  }
  if (from !== undefined && exports.length === 0) {
    exports.push({ name: "*", kind: "star", from });
    names.push({ name: "*", alias: "*" });
    everyNameTyped = false;
  }
  if (from === undefined) {
    if (declaration) {
      const declared = declaredNames(declaration, text);
      if (isDefault) {
        const fact: ExportFact = { name: "default", kind: "default" };
        if (declared[0]) fact.local = declared[0];
        exports.push(fact);
      } else {
        for (const name of declared) exports.push({ name, kind: "named" });
      }
    } else if (isDefault || isExportEquals) {
      const expression = value ?? node.namedChildren.find((c) => c.type !== "comment");
      const fact: ExportFact = { name: "default", kind: "default" };
      if (expression && expression.type === "identifier") fact.local = textOf(expression, text);
      exports.push(fact);
    }
  }
  if (from === undefined) return { exports };
  return {
    exports,
    reexport: {
      specifier: from,
      kind: "reexport",
      names,
      typeOnly: hasTypeKeyword(node) || (names.length > 0 && everyNameTyped),
      line: lineOf(node),
    },
  };
}

/** `import("x")` / `require("x")` → ImportFact; a require's bindings are read from `const x = require(…)` / `const { a } = require(…)`. */
export function readCallImport(
  call: Parser.SyntaxNode,
  source: Parser.SyntaxNode,
  kind: "dynamic" | "require",
  text: string,
): ImportFact {
  const names: ImportedName[] = [];
  const declarator = call.parent;
  if (kind === "require" && declarator?.type === "variable_declarator") {
    const binding = declarator.childForFieldName("name");
    if (binding?.type === "identifier") names.push({ name: "*", alias: textOf(binding, text) });
    else if (binding?.type === "object_pattern") {
      for (const part of binding.namedChildren) {
        if (part.type === "shorthand_property_identifier_pattern") {
          const name = textOf(part, text);
          names.push({ name, alias: name });
        } else if (part.type === "pair_pattern") {
          const key = part.childForFieldName("key");
          const local = part.childForFieldName("value");
          if (key && local?.type === "identifier") names.push({ name: textOf(key, text), alias: textOf(local, text) });
        }
      }
    }
  }
  return {
    specifier: textOf(source, text),
    kind,
    names,
    typeOnly: false,
    line: lineOf(call),
  };
}

/**
 * `/// <reference path="x" />` or `/// <reference types="x" />` → ImportFact
 * of kind `reference`; undefined for other directives (`lib`, `no-default-lib`).
 *
 * @example
 * readReferenceDirective('/// <reference types="node" />', 1) // { specifier: "node", kind: "reference", … }
 */
export function readReferenceDirective(comment: string, line: number): ImportFact | undefined {
  const match = REFERENCE_DIRECTIVE.exec(comment);
  if (!match || !match[2]) return undefined;
  return { specifier: match[2], kind: "reference", names: [], typeOnly: match[1] === "types", line };
}
