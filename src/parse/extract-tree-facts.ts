/**
 * Run a language's one query over a tree and sort its captures into facts:
 * definitions, imports, exports, references and vocabulary material. The
 * capture names are the contract with the .scm files (see grammars/*\/README.md).
 */
import type Parser from "tree-sitter";
import type { Definition, ExportFact, ImportFact, ReferenceFact } from "../types.js";
import { isProseString } from "./build-vocabulary.js";
import { addUse, createReferenceTally, referenceKindOf, summariseReferences } from "./count-references.js";
import { indexModuleLevel } from "./index-module-level.js";
import { type DefinitionCapture, definitionKindOf, readDefinition } from "./read-definition.js";
import { type CommentSpans, sortCommentSpans } from "./read-doc-comment.js";
import { readLiterals } from "./read-literals.js";
import { endOf, lineOf, startOf, textOf } from "./node-span.js";
import { normaliseSpans, scanIdentifiers } from "./scan-identifiers.js";
import { readCallImport, readExportStatement, readImportStatement, readReferenceDirective } from "./read-module-statements.js";
import { type CapturedImportRules, createImportCaptures } from "./read-import-captures.js";

/** Facts read from one tree. */
export interface TreeFacts {
  definitions: Definition[];
  imports: ImportFact[];
  exports: ExportFact[];
  references: ReferenceFact[];
  /** Identifier and property names that are not definition sites → occurrences. */
  identifierCounts: Map<string, number>;
  /** Comment texts and prose string literals. */
  prose: string[];
  /** String literals as the code writes them, `+` chains joined (read-literals.ts). */
  literals: string[];
}

type Role =
  | "definition"
  | "reference"
  | "local"
  | "skip"
  | "term-comment"
  | "term-string"
  | "literal-string"
  | "literal-concat"
  | "term-doc"
  | "import-statement"
  | "export-statement"
  | "import-dynamic"
  | "import-require"
  | "import-reference"
  | "import-captured"
  | "import-type-only"
  | "ignore";

const ROLES_BY_CAPTURE: Readonly<Record<string, Role>> = {
  skip: "skip",
  "term.comment": "term-comment",
  "term.string": "term-string",
  "literal.string": "literal-string",
  "literal.concat": "literal-concat",
  "term.doc": "term-doc",
  "import.statement": "import-statement",
  "export.statement": "export-statement",
  "import.dynamic": "import-dynamic",
  "import.require": "import-require",
  "import.reference": "import-reference",
  "import.module": "import-captured",
  "import.from": "import-captured",
  "import.type-only": "import-type-only",
};

/** Captures inside a match that are parts of its outer node, not the node itself. */
const INNER_CAPTURES: ReadonlySet<string> = new Set(["import.callee", "import.name", "import.alias", "import.condition", "object"]);

const roleCache = new Map<string, Role>();

/** The role of a capture name, from its prefix (`definition.`, `reference.`, `local.`) or the table. */
function roleOf(captureName: string): Role {
  let role = roleCache.get(captureName);
  if (role === undefined) {
    if (captureName.startsWith("definition.")) role = "definition";
    else if (captureName.startsWith("reference.")) role = "reference";
    else if (captureName.startsWith("local.")) role = "local";
    else role = ROLES_BY_CAPTURE[captureName] ?? "ignore";
    roleCache.set(captureName, role);
  }
  return role;
}

function bump(counts: Map<string, number>, name: string, by: number): void {
  counts.set(name, (counts.get(name) ?? 0) + by);
}

/** What a language's rows say about reading its facts (see `GrammarRow` and `LanguageRow` in languages.ts). */
export interface FactRules extends CapturedImportRules {
  /** Every module-level name is exported (Python), not only those an `export` marks. */
  exportsEveryModuleName: boolean;
}

/** TypeScript's and JavaScript's rules: exports are marked, imports are statements read whole. */
const MARKED_EXPORTS: FactRules = { exportsEveryModuleName: false, reexportsImports: false, namesMayBeModules: false };

/**
 * Read every fact of a tree with the language's compiled query; `keywords`
 * are never identifiers. `typeOnlyExportStarts`: export statements whose
 * `type` keyword the tree does not hold; `blankedSpans`: text a repair
 * blanked in the tree, never read for identifiers (an import type's
 * `import("./x").`, whose path is no name); see parse/repair-grammar-gaps.ts.
 * `rules`: what the language's rows say (TypeScript's by default).
 */
export function extractTreeFacts(
  tree: Parser.Tree,
  query: Parser.Query,
  text: string,
  keywords: ReadonlySet<string>,
  typeOnlyExportStarts?: ReadonlySet<number>,
  blankedSpans: ReadonlyArray<{ start: number; end: number }> = [],
  rules: FactRules = MARKED_EXPORTS,
): TreeFacts {
  const tally = createReferenceTally();
  const candidates = new Map<number, DefinitionCapture>();
  const identifierCounts = new Map<string, number>();
  const prose: string[] = [];
  const imports: ImportFact[] = [];
  const exports: ExportFact[] = [];
  const comments: CommentSpans = { starts: [], ends: [] };
  const exportStatements: Parser.SyntaxNode[] = [];
  const literalNodes: Parser.SyntaxNode[] = [];
  const concatNodes: Parser.SyntaxNode[] = [];
  const captured = createImportCaptures(rules);
  // docstrings: their text is prose once, as a doc, not again as a string's (see the end of the loop)
  const docStarts: number[] = [];
  const docEnds: number[] = [];
  // each prose string's index in `prose` and start offset
  const stringAt: number[] = [];
  const stringStarts: number[] = [];
  // filled by push only, so they keep one elements kind (Array.map makes holey arrays, a second kind)
  const skipStarts: number[] = [];
  const skipEnds: number[] = [];
  for (const span of blankedSpans) {
    skipStarts.push(span.start);
    skipEnds.push(span.end);
  }

  for (const match of query.matches(tree.rootNode)) {
    let outer: Parser.SyntaxNode | undefined;
    let outerName = "";
    let nameNode: Parser.SyntaxNode | undefined;
    let source: Parser.SyntaxNode | undefined;
    let body: Parser.SyntaxNode | undefined;
    let doc: Parser.SyntaxNode | undefined;
    let importedName: Parser.SyntaxNode | undefined;
    let importedAlias: Parser.SyntaxNode | undefined;
    for (const capture of match.captures) {
      if (capture.name === "name") nameNode = capture.node;
      else if (capture.name === "container") body = capture.node;
      else if (capture.name === "import.source") source = capture.node;
      else if (capture.name === "doc") doc = capture.node;
      else if (capture.name === "import.name") importedName = capture.node;
      else if (capture.name === "import.alias") importedAlias = capture.node;
      else if (!INNER_CAPTURES.has(capture.name)) {
        outer = capture.node;
        outerName = capture.name;
      }
    }
    if (!outer) continue;
    switch (roleOf(outerName)) {
      case "definition": {
        const kind = definitionKindOf(outerName);
        if (!kind || !nameNode) break;
        const start = startOf(nameNode);
        tally.bound.add(start);
        const seen = candidates.get(start);
        // a member's capture wins over a plain one of the same name (a Python method is also a function_definition)
        if (!seen || (seen.kind === "variable" && kind !== "variable") || (body && !seen.body)) {
          // one object shape for every candidate (body or not): a second shape would cost a recompile of this loop
          candidates.set(start, { kind, declaration: outer, name: nameNode, body, doc });
        }
        break;
      }
      case "reference": {
        const kind = referenceKindOf(outerName);
        if (!kind) break;
        const node = nameNode ?? outer;
        const start = startOf(node);
        addUse(tally, start, text.slice(start, endOf(node)), kind);
        break;
      }
      case "local":
        tally.bound.add(startOf(outer));
        break;
      case "skip":
        skipStarts.push(startOf(outer));
        skipEnds.push(endOf(outer));
        break;
      case "term-comment": {
        const start = startOf(outer);
        const end = endOf(outer);
        comments.starts.push(start);
        comments.ends.push(end);
        skipStarts.push(start);
        skipEnds.push(end);
        prose.push(text.slice(start, end));
        break;
      }
      case "term-string": {
        const value = textOf(outer, text);
        if (isProseString(value)) {
          stringAt.push(prose.length);
          stringStarts.push(startOf(outer));
          prose.push(value);
        }
        break;
      }
      case "literal-string":
        literalNodes.push(outer);
        break;
      case "literal-concat":
        concatNodes.push(outer);
        break;
      case "term-doc":
        docStarts.push(startOf(outer));
        docEnds.push(endOf(outer));
        prose.push(textOf(outer, text));
        break;
      case "import-statement": {
        const fact = readImportStatement(outer, text);
        if (fact) imports.push(fact);
        break;
      }
      case "export-statement":
        exportStatements.push(outer);
        break;
      case "import-dynamic":
      case "import-require":
        if (source) imports.push(readCallImport(outer, source, outerName === "import.dynamic" ? "dynamic" : "require", text));
        break;
      case "import-reference": {
        const fact = readReferenceDirective(textOf(outer, text), lineOf(outer));
        if (fact) imports.push(fact);
        break;
      }
      case "import-captured": {
        if (!source) break;
        captured.add({
          form: outerName === "import.module" ? "module" : "from",
          start: startOf(outer),
          line: lineOf(outer),
          source: textOf(source, text),
          ...(importedName ? { name: textOf(importedName, text) } : {}),
          ...(importedAlias ? { alias: textOf(importedAlias, text) } : {}),
        });
        break;
      }
      case "import-type-only":
        captured.markTypeOnly(startOf(outer), endOf(outer));
        break;
      default:
        break;
    }
  }

  scanIdentifiers(text, normaliseSpans(skipStarts, skipEnds), keywords, (start, name, isProperty) => {
    bump(identifierCounts, name, 1);
    // every binding is known by now: a name bound here (a key, a parameter) is no use, so not even recorded
    if (!isProperty && !tally.bound.has(start)) addUse(tally, start, name, "identifier");
  });

  // a string's prose that is a docstring's, already read as the doc (matches need not come in text order)
  if (docStarts.length > 0 && stringAt.length > 0) dropDocStrings(prose, stringAt, stringStarts, docStarts, docEnds);
  const fromCaptures = captured.finish();
  imports.push(...fromCaptures.imports);
  exports.push(...fromCaptures.exports);

  const index = indexModuleLevel(tree.rootNode, text, rules.exportsEveryModuleName);
  // Exports inside a namespace or `declare module "x"` are not the file's.
  for (const statement of exportStatements) {
    if (!index.topLevel.has(startOf(statement))) continue;
    const facts = readExportStatement(statement, text);
    exports.push(...facts.exports);
    if (facts.reexport && typeOnlyExportStarts?.has(startOf(statement))) facts.reexport.typeOnly = true;
    if (facts.reexport) imports.push(facts.reexport);
  }
  const sortedComments = sortCommentSpans(comments);
  const definitions: Definition[] = [];
  for (const candidate of candidates.values()) {
    const definition = readDefinition(candidate, index, sortedComments, text);
    if (!definition) continue;
    definitions.push(definition);
    if (!definition.name.includes(".")) bump(identifierCounts, definition.name, -1);
  }
  imports.sort((a, b) => a.line - b.line);
  return {
    definitions,
    imports,
    exports,
    references: summariseReferences(tally),
    identifierCounts,
    prose,
    literals: readLiterals(literalNodes, concatNodes),
  };
}

/** Remove from `prose` the strings (at their index there, starting where said) that lie inside a docstring's span. */
function dropDocStrings(prose: string[], stringAt: readonly number[], stringStarts: readonly number[], docStarts: readonly number[], docEnds: readonly number[]): void {
  const inDoc = new Set<number>();
  for (let s = 0; s < stringAt.length; s++) {
    const start = stringStarts[s]!;
    for (let i = 0; i < docStarts.length; i++) {
      if (start >= docStarts[i]! && start < docEnds[i]!) {
        inDoc.add(stringAt[s]!);
        break;
      }
    }
  }
  if (inDoc.size === 0) return;
  const kept = prose.filter((_, i) => !inDoc.has(i));
  prose.length = 0;
  prose.push(...kept);
}
