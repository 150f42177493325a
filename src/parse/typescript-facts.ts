/**
 * The TypeScript compiler's parser as a second opinion for files where
 * tree-sitter found syntax errors (variance annotations `<in out T>`, some
 * overloads): imports, exports and module-level definitions (with class and
 * interface members) read from `ts.createSourceFile`. Only used on error
 * files, so tree-sitter stays the fast path.
 */
import { createRequire } from "node:module";
import type { ts } from "ts-morph";
import type { Definition, DefinitionKind, ExportFact, ImportFact, ImportedName } from "../types.js";
import { signatureOf } from "./read-definition.js";
import { isDirectiveComment, stripCommentMarkers } from "./read-doc-comment.js";
import { readReferenceDirective } from "./read-module-statements.js";

/** What the TypeScript parser found. */
/**
 * TypeScript, loaded on the first file that needs it: tree-sitter reads most
 * files alone, and loading ts-morph costs ~0.2 s of CPU per thread (a
 * one-file edit of a clean file, each parse worker).
 */
const require = createRequire(import.meta.url);
let typescript: typeof ts;
function loadTypescript(): void {
  typescript ??= (require("ts-morph") as typeof import("ts-morph")).ts;
}

export interface TypescriptFacts {
  definitions: Definition[];
  imports: ImportFact[];
  exports: ExportFact[];
  /** Syntax errors the TypeScript parser reports (0 when only tree-sitter's grammar fell short). */
  syntaxErrors: number;
}

/** The script kind of a path by its extension. */
export function scriptKindOf(path: string): ts.ScriptKind {
  loadTypescript();
  const lower = path.toLowerCase();
  if (lower.endsWith(".tsx")) return typescript.ScriptKind.TSX;
  if (lower.endsWith(".jsx")) return typescript.ScriptKind.JSX;
  if (/\.[mc]?js$/.test(lower)) return typescript.ScriptKind.JS;
  return typescript.ScriptKind.TS;
}

interface Context {
  sf: ts.SourceFile;
  text: string;
  definitions: Definition[];
  imports: ImportFact[];
  exports: ExportFact[];
}

function lineOf(ctx: Context, pos: number): number {
  return ctx.sf.getLineAndCharacterOfPosition(pos).line + 1;
}

function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  return typescript.canHaveModifiers(node) && (typescript.getModifiers(node)?.some((m) => m.kind === kind) ?? false);
}

/** The doc comment right above a node: a `/** *\/` block or a run of `//` lines. */
function docOf(ctx: Context, node: ts.Node): string | undefined {
  const ranges = typescript.getLeadingCommentRanges(ctx.text, node.pos);
  if (!ranges || ranges.length === 0) return undefined;
  const start = node.getStart(ctx.sf);
  const run: string[] = [];
  let nextLine = lineOf(ctx, start);
  for (let i = ranges.length - 1; i >= 0; i--) {
    const range = ranges[i]!;
    const raw = ctx.text.slice(range.pos, range.end);
    if (lineOf(ctx, range.end) < nextLine - 1 || isDirectiveComment(raw)) break;
    if (range.kind === typescript.SyntaxKind.MultiLineCommentTrivia) {
      if (run.length === 0 && raw.startsWith("/**")) run.push(raw);
      break;
    }
    run.unshift(raw);
    nextLine = lineOf(ctx, range.pos);
  }
  if (run.length === 0) return undefined;
  return stripCommentMarkers(run) || undefined;
}

function nameText(name: ts.Node | undefined): string | undefined {
  if (!name) return undefined;
  if (typescript.isIdentifier(name) || typescript.isPrivateIdentifier(name) || typescript.isStringLiteral(name)) return name.text;
  return undefined;
}

function addDefinition(
  ctx: Context,
  node: ts.Node,
  name: string,
  kind: DefinitionKind,
  exported: boolean,
  container?: string,
): void {
  // a name the parser had to invent for broken code (`const {"x");`) is empty: no symbol to define
  if (name === "") return;
  const start = node.getStart(ctx.sf);
  const definition: Definition = {
    name,
    kind,
    exported,
    startLine: lineOf(ctx, start),
    endLine: lineOf(ctx, node.end),
    signature: signatureOf(ctx.text, start, node.end),
  };
  const doc = docOf(ctx, node);
  if (doc) definition.doc = doc;
  if (container !== undefined) definition.container = container;
  ctx.definitions.push(definition);
}

function isFunctionValue(node: ts.Node | undefined): boolean {
  return node !== undefined && (typescript.isArrowFunction(node) || typescript.isFunctionExpression(node));
}

function bindingNames(name: ts.BindingName, into: string[]): void {
  if (typescript.isIdentifier(name)) into.push(name.text);
  else for (const element of name.elements) if (!typescript.isOmittedExpression(element)) bindingNames(element.name, into);
}

function addMembers(ctx: Context, members: ts.NodeArray<ts.ClassElement | ts.TypeElement>, container: string, exported: boolean): void {
  for (const member of members) {
    const name = nameText(member.name);
    if (typescript.isConstructorDeclaration(member)) addDefinition(ctx, member, "constructor", "method", exported, container);
    if (name === undefined) continue;
    if (typescript.isMethodDeclaration(member) || typescript.isMethodSignature(member) || typescript.isGetAccessor(member) || typescript.isSetAccessor(member)) {
      addDefinition(ctx, member, name, "method", exported, container);
    } else if (typescript.isPropertyDeclaration(member)) {
      addDefinition(ctx, member, name, isFunctionValue(member.initializer) ? "method" : "variable", exported, container);
    }
  }
}

function addExport(ctx: Context, fact: ExportFact): void {
  ctx.exports.push(fact);
}

/** Declarations of one statement list (the file, or a namespace body). */
function readStatements(ctx: Context, statements: ts.NodeArray<ts.Statement>): void {
  for (const statement of statements) {
    const exported = hasModifier(statement, typescript.SyntaxKind.ExportKeyword);
    const isDefault = hasModifier(statement, typescript.SyntaxKind.DefaultKeyword);
    const declare = (name: string | undefined, kind: DefinitionKind): void => {
      if (name === undefined) {
        if (exported && isDefault) addExport(ctx, { name: "default", kind: "default" });
        return;
      }
      addDefinition(ctx, statement, name, kind, exported);
      if (exported) addExport(ctx, isDefault ? { name: "default", kind: "default", local: name } : { name, kind: "named" });
    };
    if (typescript.isFunctionDeclaration(statement)) declare(nameText(statement.name), "function");
    else if (typescript.isClassDeclaration(statement)) {
      declare(nameText(statement.name), "class");
      const name = nameText(statement.name);
      if (name !== undefined) addMembers(ctx, statement.members, name, exported);
    } else if (typescript.isInterfaceDeclaration(statement)) {
      declare(statement.name.text, "interface");
      addMembers(ctx, statement.members, statement.name.text, exported);
    } else if (typescript.isTypeAliasDeclaration(statement)) declare(statement.name.text, "type");
    else if (typescript.isEnumDeclaration(statement)) declare(statement.name.text, "enum");
    else if (typescript.isModuleDeclaration(statement)) readModuleDeclaration(ctx, statement, exported);
    else if (typescript.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        const names: string[] = [];
        bindingNames(declaration.name, names);
        const kind = typescript.isIdentifier(declaration.name) && isFunctionValue(declaration.initializer) ? "function" : "variable";
        for (const name of names) declare(name, kind);
      }
    } else if (typescript.isImportDeclaration(statement)) readImportDeclaration(ctx, statement);
    else if (typescript.isImportEqualsDeclaration(statement)) readImportEquals(ctx, statement);
    else if (typescript.isExportDeclaration(statement)) readExportDeclaration(ctx, statement);
    else if (typescript.isExportAssignment(statement)) {
      const fact: ExportFact = { name: "default", kind: "default" };
      if (typescript.isIdentifier(statement.expression)) fact.local = statement.expression.text;
      addExport(ctx, fact);
    }
  }
}

/** `namespace A.B {}` → namespace "A.B"; `declare module "x" {}` and `declare global {}` only lend their bodies. */
function readModuleDeclaration(ctx: Context, node: ts.ModuleDeclaration, exported: boolean): void {
  let body = node.body;
  const parts: string[] = [];
  if (typescript.isIdentifier(node.name) && !(node.flags & typescript.NodeFlags.GlobalAugmentation)) parts.push(node.name.text);
  while (body && typescript.isModuleDeclaration(body)) {
    parts.push(body.name.text);
    body = body.body;
  }
  if (parts.length > 0) {
    const name = parts.join(".");
    addDefinition(ctx, node, name, "namespace", exported);
    if (exported) addExport(ctx, { name: parts[0]!, kind: "named" });
  }
  if (body && typescript.isModuleBlock(body)) {
    // Exports inside a namespace are the namespace's, not the file's.
    const exports = ctx.exports;
    ctx.exports = [];
    readStatements(ctx, body.statements);
    ctx.exports = exports;
  }
}

function moduleSpecifierOf(node: ts.Expression | undefined): string | undefined {
  return node && typescript.isStringLiteralLike(node) ? node.text : undefined;
}

function readImportDeclaration(ctx: Context, node: ts.ImportDeclaration): void {
  const specifier = moduleSpecifierOf(node.moduleSpecifier);
  if (specifier === undefined) return;
  const names: ImportedName[] = [];
  const clause = node.importClause;
  let everyNameTyped = true;
  if (clause?.name) {
    names.push({ name: "default", alias: clause.name.text });
    everyNameTyped = false;
  }
  const bindings = clause?.namedBindings;
  if (bindings && typescript.isNamespaceImport(bindings)) {
    names.push({ name: "*", alias: bindings.name.text });
    everyNameTyped = false;
  } else if (bindings) {
    for (const element of bindings.elements) {
      names.push({ name: element.propertyName?.text ?? element.name.text, alias: element.name.text });
      if (!element.isTypeOnly) everyNameTyped = false;
    }
  }
  ctx.imports.push({
    specifier,
    kind: "static",
    names,
    typeOnly: (clause?.isTypeOnly ?? false) || (names.length > 0 && everyNameTyped),
    line: lineOf(ctx, node.getStart(ctx.sf)),
  });
}

function readImportEquals(ctx: Context, node: ts.ImportEqualsDeclaration): void {
  if (!typescript.isExternalModuleReference(node.moduleReference)) return;
  const specifier = moduleSpecifierOf(node.moduleReference.expression);
  if (specifier === undefined) return;
  ctx.imports.push({
    specifier,
    kind: "static",
    names: [{ name: "*", alias: node.name.text }],
    typeOnly: node.isTypeOnly,
    line: lineOf(ctx, node.getStart(ctx.sf)),
  });
}

function readExportDeclaration(ctx: Context, node: ts.ExportDeclaration): void {
  const from = moduleSpecifierOf(node.moduleSpecifier);
  const names: ImportedName[] = [];
  let everyNameTyped = true;
  const clause = node.exportClause;
  if (!clause) {
    if (from !== undefined) addExport(ctx, { name: "*", kind: "star", from });
    names.push({ name: "*", alias: "*" });
    everyNameTyped = false;
  } else if (typescript.isNamespaceExport(clause)) {
    const fact: ExportFact = { name: clause.name.text, kind: "named", local: "*" };
    if (from !== undefined) fact.from = from;
    addExport(ctx, fact);
    names.push({ name: "*", alias: clause.name.text });
    everyNameTyped = false;
  } else {
    for (const element of clause.elements) {
      const exported = element.name.text;
      const local = element.propertyName?.text ?? exported;
      const fact: ExportFact = { name: exported, kind: exported === "default" ? "default" : "named" };
      if (local !== exported) fact.local = local;
      if (from !== undefined) fact.from = from;
      addExport(ctx, fact);
      names.push({ name: local, alias: exported });
      if (!element.isTypeOnly) everyNameTyped = false;
    }
  }
  if (from === undefined) return;
  ctx.imports.push({
    specifier: from,
    kind: "reexport",
    names,
    typeOnly: node.isTypeOnly || (names.length > 0 && everyNameTyped),
    line: lineOf(ctx, node.getStart(ctx.sf)),
  });
}

/** `import("x")` and `require("x")` anywhere in the file, and `import("x")` types. */
function readCallImports(ctx: Context): void {
  // Parents are not set (setParentNodes = false), so the walk carries them.
  const visit = (node: ts.Node, parent: ts.Node | undefined): void => {
    if (typescript.isCallExpression(node) && node.arguments.length >= 1) {
      const first = node.arguments[0]!;
      const isImport = node.expression.kind === typescript.SyntaxKind.ImportKeyword;
      const isRequire = typescript.isIdentifier(node.expression) && node.expression.text === "require" && node.arguments.length === 1;
      if ((isImport || isRequire) && typescript.isStringLiteral(first)) {
        const names: ImportedName[] = [];
        if (isRequire && parent && typescript.isVariableDeclaration(parent) && parent.initializer === node) {
          if (typescript.isIdentifier(parent.name)) names.push({ name: "*", alias: parent.name.text });
          else if (typescript.isObjectBindingPattern(parent.name)) {
            for (const element of parent.name.elements) {
              const key = nameText(element.propertyName) ?? (typescript.isIdentifier(element.name) ? element.name.text : undefined);
              if (key !== undefined && typescript.isIdentifier(element.name)) names.push({ name: key, alias: element.name.text });
            }
          }
        }
        ctx.imports.push({
          specifier: first.text,
          kind: isImport ? "dynamic" : "require",
          names,
          typeOnly: false,
          line: lineOf(ctx, node.getStart(ctx.sf)),
        });
      }
    }
    // `import("x").T` in a type: an import of x, as tree-sitter reads it on a clean file (a dynamic import)
    if (typescript.isImportTypeNode(node) && typescript.isLiteralTypeNode(node.argument) && typescript.isStringLiteral(node.argument.literal)) {
      ctx.imports.push({ specifier: node.argument.literal.text, kind: "dynamic", names: [], typeOnly: false, line: lineOf(ctx, node.getStart(ctx.sf)) });
    }
    typescript.forEachChild(node, (child) => visit(child, node));
  };
  visit(ctx.sf, undefined);
}

/** `/// <reference path>` and `/// <reference types>` directives. */
function readReferenceDirectives(ctx: Context): void {
  for (const ref of [...ctx.sf.referencedFiles, ...ctx.sf.typeReferenceDirectives]) {
    const line = lineOf(ctx, ref.pos);
    const lineStart = ctx.text.lastIndexOf("\n", ref.pos) + 1;
    const lineEnd = ctx.text.indexOf("\n", ref.pos);
    const fact = readReferenceDirective(ctx.text.slice(lineStart, lineEnd === -1 ? undefined : lineEnd), line);
    if (fact) ctx.imports.push(fact);
  }
}

/**
 * Facts of a file as the TypeScript parser sees them.
 *
 * @example
 * readTypescriptFacts("src/a.ts", "export class A<in out T> {}").definitions[0] // { name: "A", kind: "class", exported: true, … }
 */
export function readTypescriptFacts(path: string, text: string): TypescriptFacts {
  loadTypescript();
  // JSDoc is not parsed: no fact reads it (doc comments come from the comment ranges), its diagnostics are
  // not parseDiagnostics, and skipping it makes this parse ~30 % faster (same facts on 7,194 files of
  // effect, rxjs, monaco-editor, date-fns and the fixtures)
  const sf = typescript.createSourceFile(
    path,
    text,
    { languageVersion: typescript.ScriptTarget.Latest, jsDocParsingMode: typescript.JSDocParsingMode.ParseNone },
    false,
    scriptKindOf(path),
  );
  const ctx: Context = { sf, text, definitions: [], imports: [], exports: [] };
  readStatements(ctx, sf.statements);
  if (text.includes("import(") || text.includes("require(")) readCallImports(ctx);
  readReferenceDirectives(ctx);
  ctx.imports.sort((a, b) => a.line - b.line);
  // parseDiagnostics is internal to the compiler API but stable: the syntax errors TypeScript itself sees
  const syntaxErrors = (sf as unknown as { parseDiagnostics?: unknown[] }).parseDiagnostics?.length ?? 0;
  return { definitions: ctx.definitions, imports: ctx.imports, exports: ctx.exports, syntaxErrors };
}
