/**
 * ParsedFile[] + where each import leads → the graphology graph.
 *
 * Pure: takes facts, returns a graph. Barrel re-exports are followed here, so
 * a named import through an `index.ts` also links the importing file to the
 * file that defines the name (an `import` edge with `via`), and references
 * land on the defining file's symbol node.
 */
import type { ImportFact, ImportKind, ParsedFile } from "../types.js";
import {
  createEmptyGraph,
  edgeKey,
  symbolId,
  type EdgeAttributes,
  type EdgeKind,
  type Graph,
} from "./code-graph.js";

/** For each file, the target of each of its imports (same order as `imports`): a file path, `pkg:<name>`, or undefined. */
export type ResolvedImports = ReadonlyMap<string, ReadonlyArray<string | undefined>>;

const IMPORT_KIND_STRENGTH: Record<ImportKind, number> = {
  static: 5,
  reexport: 4,
  require: 3,
  dynamic: 2,
  reference: 1,
};

/** Where an exported name of a file is really defined. */
interface ExportOrigin {
  file: string;
  /** The name in the defining file (after `export { a as b }` renames). */
  name: string;
  /** Barrels passed through on the way, in order. */
  via: string[];
}

/** Follows re-export chains; memoised per (file, name). */
export class ExportIndex {
  private readonly memo = new Map<string, ExportOrigin | null>();
  /** How many times a lookup met a (file, name) already on its way: a re-export cycle. */
  private cycleCuts = 0;

  constructor(
    private readonly files: ReadonlyMap<string, ParsedFile>,
    private readonly resolved: ResolvedImports,
  ) {}

  /** The file and local name that define `name` as exported by `file`, or undefined when unknown. */
  origin(file: string, name: string, seen: Set<string> = new Set()): ExportOrigin | undefined {
    const key = `${file}\u0000${name}`;
    const cached = this.memo.get(key);
    if (cached !== undefined) return cached ?? undefined;
    if (seen.has(key)) {
      this.cycleCuts++; // re-export cycle
      return undefined;
    }
    const isOutermost = seen.size === 0;
    const cutsBefore = this.cycleCuts;
    seen.add(key);
    const found = this.compute(file, name, seen);
    // A miss reached by cutting a cycle short is not final: the call on the cycle goes on to
    // its other re-exports, which this one never tried. Only such a miss at the outermost call is.
    if (found || isOutermost || this.cycleCuts === cutsBefore) this.memo.set(key, found ?? null);
    return found;
  }

  private compute(file: string, name: string, seen: Set<string>): ExportOrigin | undefined {
    const parsed = this.files.get(file);
    if (!parsed) return undefined;
    // 1. defined here (exported declaration, or `export { local as name }` of a local declaration)
    const local = localNameOfExport(parsed, name);
    if (local !== undefined && parsed.definitions.some((d) => d.name === local)) {
      return { file, name: local, via: [] };
    }
    const targets = this.resolved.get(file) ?? [];
    // 2. named re-export: export { a as name } from "./x"
    for (const [index, fact] of parsed.imports.entries()) {
      if (fact.kind !== "reexport") continue;
      const target = targets[index];
      if (!target || target.startsWith("pkg:")) continue;
      for (const imported of fact.names) {
        if (imported.alias !== name) continue;
        if (imported.name === "*") return { file: target, name: "*", via: [file] }; // export * as name
        const deeper = this.origin(target, imported.name, seen);
        if (deeper) return { ...deeper, via: [file, ...deeper.via] };
      }
    }
    // 3. imported then exported: import { a } from "./x"; export { a }
    if (local !== undefined) {
      for (const [index, fact] of parsed.imports.entries()) {
        if (fact.kind !== "static") continue;
        const target = targets[index];
        if (!target || target.startsWith("pkg:")) continue;
        const imported = fact.names.find((n) => n.alias === local);
        if (!imported || imported.name === "*") continue;
        const deeper = this.origin(target, imported.name, seen);
        if (deeper) return { ...deeper, via: [file, ...deeper.via] };
      }
    }
    // 4. export * from "./x"
    if (name !== "default") {
      for (const [index, fact] of parsed.imports.entries()) {
        if (fact.kind !== "reexport" || !isStarReexport(fact)) continue;
        const target = targets[index];
        if (!target || target.startsWith("pkg:")) continue;
        const deeper = this.origin(target, name, seen);
        if (deeper) return { ...deeper, via: [file, ...deeper.via] };
      }
    }
    return undefined;
  }
}

/** `export * from "x"` (not `export * as X from "x"`). */
export function isStarReexport(fact: ImportFact): boolean {
  return fact.names.length === 0 || fact.names.some((n) => n.name === "*" && (n.alias === "*" || n.alias === ""));
}

/** The local binding behind an exported name of a file, when the file itself exports it. */
function localNameOfExport(parsed: ParsedFile, name: string): string | undefined {
  for (const exp of parsed.exports) {
    if (exp.from !== undefined) continue;
    if (exp.name === name) return exp.local ?? exp.name;
  }
  const def = parsed.definitions.find((d) => d.exported && d.name === name && d.kind !== "method");
  return def ? def.name : undefined;
}

function addOrMergeImportEdge(
  graph: Graph,
  kind: EdgeKind,
  source: string,
  target: string,
  attributes: EdgeAttributes,
): void {
  const key = edgeKey(kind, source, target);
  if (!graph.hasEdge(key)) {
    graph.addDirectedEdgeWithKey(key, source, target, attributes);
    return;
  }
  const existing = graph.getEdgeAttributes(key);
  const names = new Set([...(existing.names ?? []), ...(attributes.names ?? [])]);
  const via = new Set([...(existing.via ?? []), ...(attributes.via ?? [])]);
  const strongest =
    IMPORT_KIND_STRENGTH[attributes.importKind ?? "reference"] > IMPORT_KIND_STRENGTH[existing.importKind ?? "reference"]
      ? attributes.importKind
      : existing.importKind;
  graph.mergeEdgeAttributes(key, {
    names: [...names].sort(),
    typeOnly: Boolean(existing.typeOnly) && Boolean(attributes.typeOnly),
    ...(strongest ? { importKind: strongest } : {}),
    ...(via.size > 0 ? { via: [...via].sort() } : {}),
  });
}

/**
 * Build the graph from parsed files and resolved imports.
 *
 * @example
 * const graph = assembleGraph(parsedFiles, resolvedImports);
 * graph.outNeighbors("src/app.ts"); // files and packages it imports
 */
export function assembleGraph(parsedFiles: readonly ParsedFile[], resolved: ResolvedImports): Graph {
  const graph = createEmptyGraph();
  const files = new Map(parsedFiles.map((f) => [f.path, f]));
  const sorted = [...parsedFiles].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

  // file and symbol nodes, defines edges
  for (const file of sorted) {
    graph.addNode(file.path, {
      kind: "file",
      language: file.language,
      isDeclaration: file.isDeclaration,
      tokens: file.tokens,
      lines: file.lines,
      hasSyntaxErrors: file.hasSyntaxErrors,
    });
  }
  for (const file of sorted) {
    for (const def of file.definitions) {
      const name = def.container && def.kind === "method" ? `${def.container}.${def.name}` : def.name;
      const id = symbolId(file.path, name);
      if (graph.hasNode(id)) continue; // overloads, declaration merging: one node
      graph.addNode(id, {
        kind: "symbol",
        name,
        file: file.path,
        symbolKind: def.kind,
        exported: def.exported,
        startLine: def.startLine,
        endLine: def.endLine,
      });
      graph.addDirectedEdgeWithKey(edgeKey("defines", file.path, id), file.path, id, { kind: "defines" });
    }
  }

  const exportIndex = new ExportIndex(files, resolved);

  // import / reexport edges, and the bindings each file brings in
  for (const file of sorted) {
    const targets = resolved.get(file.path) ?? [];
    /** local name → symbol it stands for */
    const bindings = new Map<string, string>();
    /** files whose exports a member access may reach (namespace imports, star) */
    const namespaceTargets: string[] = [];
    for (const [index, fact] of file.imports.entries()) {
      const target = targets[index];
      if (!target) continue;
      if (!graph.hasNode(target)) {
        if (!target.startsWith("pkg:")) continue; // resolved to a file we did not parse
        graph.addNode(target, { kind: "package", name: target.slice(4) });
      }
      const kind: EdgeKind = fact.kind === "reexport" ? "reexport" : "import";
      addOrMergeImportEdge(graph, kind, file.path, target, {
        kind,
        names: [...new Set(fact.names.map((n) => n.name))].sort(),
        typeOnly: fact.typeOnly,
        importKind: fact.kind,
      });
      if (target.startsWith("pkg:")) continue;
      // follow barrels: link to the file that defines each named import
      for (const imported of fact.names) {
        if (imported.name === "*") {
          namespaceTargets.push(target);
          continue;
        }
        const origin = exportIndex.origin(target, imported.name);
        if (!origin) continue;
        if (origin.name !== "*") bindings.set(imported.alias || imported.name, symbolId(origin.file, origin.name));
        else namespaceTargets.push(origin.file);
        if (origin.file !== target && origin.file !== file.path) {
          addOrMergeImportEdge(graph, "import", file.path, origin.file, {
            kind: "import",
            names: [origin.name],
            typeOnly: fact.typeOnly,
            importKind: fact.kind,
            via: origin.via,
          });
        }
      }
    }

    // references edges: file → the symbol it uses
    const ownNames = new Set(file.definitions.map((d) => d.name));
    for (const ref of file.references) {
      let symbol = bindings.get(ref.name);
      if (!symbol && ownNames.has(ref.name)) continue; // a use of its own definition
      if (!symbol && (ref.kind === "member-call" || ref.kind === "identifier" || ref.kind === "type")) {
        for (const ns of namespaceTargets) {
          const origin = exportIndex.origin(ns, ref.name);
          if (origin && origin.name !== "*") {
            symbol = symbolId(origin.file, origin.name);
            break;
          }
        }
      }
      if (!symbol || !graph.hasNode(symbol)) continue;
      const key = edgeKey("references", file.path, symbol);
      if (graph.hasEdge(key)) {
        graph.updateEdgeAttribute(key, "count", (c) => (c ?? 0) + ref.count);
      } else {
        graph.addDirectedEdgeWithKey(key, file.path, symbol, { kind: "references", count: ref.count });
      }
    }
  }
  return graph;
}
