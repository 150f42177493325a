/**
 * A file's neighbourhood in the code graph: what it imports, who imports it,
 * the symbols it defines and the symbols it uses from other files. Pure:
 * reads the graph, returns plain data sorted for a stable answer.
 *
 * @example
 * describeNeighbors(retriever.codeGraph, "src/auth/tokens.ts").importers; // [{ path: "src/auth/auth.ts", … }]
 */
import type { CodeGraph } from "../index.js";

export interface NeighborImport {
  /** A root-relative file, or `pkg:<name>` for an external package. */
  target: string;
  /** The names brought in (`*` for a namespace or star). */
  names: string[];
  kind: "import" | "reexport";
  typeOnly: boolean;
  /** Barrel file(s) the import passed through, when it was followed to the defining file. */
  via?: string[];
}

export interface NeighborImporter {
  path: string;
  names: string[];
  kind: "import" | "reexport";
  typeOnly: boolean;
  via?: string[];
}

export interface DefinedSymbol {
  name: string;
  kind: string;
  exported: boolean;
  /** `start-end`, 1-based. */
  lines: string;
}

export interface ReferencedSymbol {
  name: string;
  /** The file that defines it. */
  definedIn: string;
  count: number;
}

export interface Neighbors {
  path: string;
  tokens: number;
  lines: number;
  imports: NeighborImport[];
  importers: NeighborImporter[];
  definedSymbols: DefinedSymbol[];
  referencedSymbols: ReferencedSymbol[];
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The neighbourhood of `path` (a file node of the graph; the caller checks it exists). */
export function describeNeighbors(codeGraph: CodeGraph, path: string): Neighbors {
  const { graph } = codeGraph;
  const imports: NeighborImport[] = [];
  const definedSymbols: DefinedSymbol[] = [];
  const referencedSymbols: ReferencedSymbol[] = [];
  graph.forEachOutEdge(path, (_edge, attributes, _source, target, _sa, targetAttributes) => {
    if (attributes.kind === "import" || attributes.kind === "reexport") {
      imports.push({
        target,
        names: [...(attributes.names ?? [])],
        kind: attributes.kind,
        typeOnly: attributes.typeOnly ?? false,
        ...(attributes.via ? { via: [...attributes.via] } : {}),
      });
    } else if (attributes.kind === "defines" && targetAttributes.kind === "symbol") {
      definedSymbols.push({
        name: targetAttributes.name,
        kind: targetAttributes.symbolKind,
        exported: targetAttributes.exported,
        lines: `${targetAttributes.startLine}-${targetAttributes.endLine}`,
      });
    } else if (attributes.kind === "references" && targetAttributes.kind === "symbol" && targetAttributes.file !== path) {
      referencedSymbols.push({ name: targetAttributes.name, definedIn: targetAttributes.file, count: attributes.count ?? 1 });
    }
  });
  const importers: NeighborImporter[] = [];
  graph.forEachInEdge(path, (_edge, attributes, source, _target, sourceAttributes) => {
    if ((attributes.kind === "import" || attributes.kind === "reexport") && sourceAttributes.kind === "file") {
      importers.push({
        path: source,
        names: [...(attributes.names ?? [])],
        kind: attributes.kind,
        typeOnly: attributes.typeOnly ?? false,
        ...(attributes.via ? { via: [...attributes.via] } : {}),
      });
    }
  });
  const facts = codeGraph.files.get(path);
  return {
    path,
    tokens: facts?.tokens ?? 0,
    lines: facts?.lines ?? 0,
    imports: imports.sort((a, b) => compare(a.target, b.target) || compare(a.kind, b.kind)),
    importers: importers.sort((a, b) => compare(a.path, b.path) || compare(a.kind, b.kind)),
    definedSymbols: definedSymbols.sort((a, b) => Number(a.lines.split("-")[0]) - Number(b.lines.split("-")[0]) || compare(a.name, b.name)),
    referencedSymbols: referencedSymbols.sort((a, b) => compare(a.definedIn, b.definedIn) || compare(a.name, b.name)),
  };
}
