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
  | "import-statement"
  | "export-statement"
  | "import-dynamic"
  | "import-require"
  | "import-reference"
  | "ignore";

const ROLES_BY_CAPTURE: Readonly<Record<string, Role>> = {
  skip: "skip",
  "term.comment": "term-comment",
  "term.string": "term-string",
  "literal.string": "literal-string",
  "literal.concat": "literal-concat",
  "import.statement": "import-statement",
  "export.statement": "export-statement",
  "import.dynamic": "import-dynamic",
  "import.require": "import-require",
  "import.reference": "import-reference",
};

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

/**
 * Read every fact of a tree with the language's compiled query; `keywords`
 * are never identifiers. `typeOnlyExportStarts`: export statements whose
 * `type` keyword the tree does not hold; `blankedSpans`: text a repair
 * blanked in the tree, never read for identifiers (an import type's
 * `import("./x").`, whose path is no name); see parse/repair-grammar-gaps.ts.
 */
export function extractTreeFacts(
  tree: Parser.Tree,
  query: Parser.Query,
  text: string,
  keywords: ReadonlySet<string>,
  typeOnlyExportStarts?: ReadonlySet<number>,
  blankedSpans: ReadonlyArray<{ start: number; end: number }> = [],
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
    for (const capture of match.captures) {
      if (capture.name === "name") nameNode = capture.node;
      else if (capture.name === "container") body = capture.node;
      else if (capture.name === "import.source") source = capture.node;
      else if (capture.name !== "import.callee") {
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
        if (!seen || (seen.kind === "variable" && kind !== "variable")) {
          // one object shape for every candidate (body or not): a second shape would cost a recompile of this loop
          candidates.set(start, { kind, declaration: outer, name: nameNode, body });
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
        if (isProseString(value)) prose.push(value);
        break;
      }
      case "literal-string":
        literalNodes.push(outer);
        break;
      case "literal-concat":
        concatNodes.push(outer);
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
      default:
        break;
    }
  }

  scanIdentifiers(text, normaliseSpans(skipStarts, skipEnds), keywords, (start, name, isProperty) => {
    bump(identifierCounts, name, 1);
    // every binding is known by now: a name bound here (a key, a parameter) is no use, so not even recorded
    if (!isProperty && !tally.bound.has(start)) addUse(tally, start, name, "identifier");
  });

  const index = indexModuleLevel(tree.rootNode, text);
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
