/**
 * ParsedFile[] + where each import leads → the code graph (built in its
 * compact form, restored to graphology when read).
 *
 * Pure: takes facts, returns a graph. Barrel re-exports are followed here, so
 * a named import through an `index.ts` also links the importing file to the
 * file that defines the name (an `import` edge with `via`), and references
 * land on the defining file's symbol node.
 */
import type { ImportFact, ImportKind, ParsedFile } from "../types.js";
import { edgeKey, symbolId, type EdgeAttributes, type EdgeKind, type Graph, type NodeAttributes } from "./code-graph.js";
import { CompactGraphBuilder, lazyGraph, type CompactGraph, type GraphSink, type LazyGraph } from "./serialize-graph.js";

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

/** A memoised lookup: its result and every file whose facts it read. */
interface MemoEntry {
  origin: ExportOrigin | null;
  reads: ReadonlySet<string>;
}

/**
 * Follows re-export chains; memoised per (file, name). Between
 * {@link ExportIndex.beginReads} and {@link ExportIndex.endReads} it also
 * records every file whose facts the lookups read, so that an edit of one
 * file recomputes only the edges of the files that looked at it.
 */
export class ExportIndex {
  /** file → name → lookup (two levels: no key string to build on each of the ~200k lookups of effect) */
  private readonly memo = new Map<string, Map<string, MemoEntry>>();
  /** How many times a lookup met a (file, name) already on its way: a re-export cycle. */
  private cycleCuts = 0;
  /** The files of the lookups on the way of each cut (see {@link cycleFiles}). */
  private readonly cutFiles = new Set<string>();
  /** Read sets of the lookups in progress, innermost last; the first is the caller's (beginReads). */
  private readonly reading: Array<Set<string>> = [];
  private readonly shapes = new Map<string, ExportShape>();

  constructor(
    private readonly files: ReadonlyMap<string, ParsedFile>,
    private readonly resolved: ResolvedImports,
  ) {}

  /**
   * Re-export cycles met so far. With none, every lookup is a function of
   * the facts alone; a cycle can make a result depend on which lookup ran
   * first (the memo), so an incremental update must not trust it.
   */
  get cyclesCut(): number {
    return this.cycleCuts;
  }

  /**
   * The files of every lookup that was on its way when a cycle was cut. A
   * result that may depend on which lookup ran first is one of theirs, or
   * one that read one of theirs: its reads hold one of these files.
   */
  get cycleFiles(): ReadonlySet<string> {
    return this.cutFiles;
  }

  /** Start recording the files the next lookups read. */
  beginReads(): void {
    this.reading.length = 0;
    this.reading.push(new Set());
  }

  /** The files read since {@link beginReads}. */
  endReads(): Set<string> {
    const reads = this.reading[0] ?? new Set<string>();
    this.reading.length = 0;
    return reads;
  }

  /** The file and local name that define `name` as exported by `file`, or undefined when unknown. */
  origin(file: string, name: string, seen?: Set<string>): ExportOrigin | undefined {
    const cached = this.memo.get(file)?.get(name);
    if (cached !== undefined) {
      this.noteReads(cached.reads);
      return cached.origin ?? undefined;
    }
    // the lookups on the way, made only on a miss (a hit is most lookups)
    seen ??= new Set();
    const key = `${file}\u0000${name}`;
    if (seen.has(key)) {
      this.cycleCuts++; // re-export cycle
      for (const on of seen) this.cutFiles.add(on.slice(0, on.indexOf("\u0000")));
      return undefined;
    }
    const isOutermost = seen.size === 0;
    const cutsBefore = this.cycleCuts;
    seen.add(key);
    const reads = new Set<string>([file]);
    this.reading.push(reads);
    const found = this.compute(file, name, seen);
    this.reading.pop();
    this.noteReads(reads);
    // A miss reached by cutting a cycle short is not final: the call on the cycle goes on to
    // its other re-exports, which this one never tried. Only such a miss at the outermost call is.
    if (found || isOutermost || this.cycleCuts === cutsBefore) {
      // fetched again: a lookup on the way may have made this file's map
      let byName = this.memo.get(file);
      if (byName === undefined) this.memo.set(file, (byName = new Map()));
      byName.set(name, { origin: found ?? null, reads });
    }
    return found;
  }

  /**
   * False when `file` cannot export `name` at all (no export, re-export or
   * star re-export that could give it): {@link origin} would miss, reading
   * only `file`, which this notes as read. True when a lookup is needed.
   * Most of a file's references are locals, asked of every namespace it
   * imports: ~200k lookups on effect, nearly all such misses.
   */
  mayExport(file: string, name: string): boolean {
    const shape = this.shapeOf(file);
    if (shape && (shape.localOf.has(name) || shape.reexported.has(name) || (shape.stars.length > 0 && name !== "default"))) return true;
    this.reading.at(-1)?.add(file);
    return false;
  }

  /** Add a lookup's reads to the enclosing one's (when reads are being recorded). */
  private noteReads(reads: ReadonlySet<string>): void {
    const outer = this.reading.at(-1);
    if (outer === undefined || outer === reads) return;
    for (const file of reads) outer.add(file);
  }

  /** A file's exports and re-exports as lookup tables (built on first use). */
  private shapeOf(file: string): ExportShape | undefined {
    let shape = this.shapes.get(file);
    if (shape === undefined) {
      const parsed = this.files.get(file);
      if (!parsed) return undefined;
      shape = shapeExports(parsed, this.resolved.get(file) ?? []);
      this.shapes.set(file, shape);
    }
    return shape;
  }

  private compute(file: string, name: string, seen: Set<string>): ExportOrigin | undefined {
    const shape = this.shapeOf(file);
    if (!shape) return undefined;
    // 1. defined here (exported declaration, or `export { local as name }` of a local declaration)
    const local = shape.localOf.get(name);
    if (local !== undefined && shape.defined.has(local)) {
      return { file, name: local, via: [] };
    }
    // 2. named re-export: export { a as name } from "./x"
    for (const link of shape.reexported.get(name) ?? []) {
      if (link.name === "*") return { file: link.target, name: "*", via: [file] }; // export * as name
      const deeper = this.origin(link.target, link.name, seen);
      if (deeper) return { ...deeper, via: [file, ...deeper.via] };
    }
    // 3. imported then exported: import { a } from "./x"; export { a }
    if (local !== undefined) {
      for (const link of shape.imported.get(local) ?? []) {
        const deeper = this.origin(link.target, link.name, seen);
        if (deeper) return { ...deeper, via: [file, ...deeper.via] };
      }
    }
    // 4. export * from "./x"
    if (name !== "default") {
      for (const target of shape.stars) {
        const deeper = this.origin(target, name, seen);
        if (deeper) return { ...deeper, via: [file, ...deeper.via] };
      }
    }
    return undefined;
  }
}

/** A name in another file: `target`'s export `name`. */
interface ExportLink {
  target: string;
  name: string;
}

/** What an origin lookup needs of one file, indexed by name (same order of preference as the facts). */
interface ExportShape {
  /** Exported name → local binding (export declarations first, then exported definitions). */
  localOf: Map<string, string>;
  /** Names of the file's own definitions. */
  defined: Set<string>;
  /** Exported name → named re-exports of it, in fact order (`name` "*" for `export * as x`). */
  reexported: Map<string, ExportLink[]>;
  /** Local name → the static imports binding it, in fact order (namespace imports left out). */
  imported: Map<string, ExportLink[]>;
  /** Targets of `export * from`, in fact order. */
  stars: string[];
}

/** Index one file's exports for {@link ExportIndex}: the lookups read these tables instead of scanning the facts. */
function shapeExports(parsed: ParsedFile, targets: ReadonlyArray<string | undefined>): ExportShape {
  const localOf = localExportsOf(parsed);
  const reexported = new Map<string, ExportLink[]>();
  const imported = new Map<string, ExportLink[]>();
  const stars: string[] = [];
  const push = (map: Map<string, ExportLink[]>, key: string, link: ExportLink) => {
    const list = map.get(key);
    if (list) list.push(link);
    else map.set(key, [link]);
  };
  for (const [index, fact] of parsed.imports.entries()) {
    const target = targets[index];
    if (!target || target.startsWith("pkg:")) continue;
    if (fact.kind === "reexport") {
      for (const name of fact.names) push(reexported, name.alias, { target, name: name.name });
      if (isStarReexport(fact)) stars.push(target);
    } else if (fact.kind === "static") {
      // the first name bound to each local in this fact (a namespace import is not followed)
      const firsts = new Set<string>();
      for (const name of fact.names) {
        if (firsts.has(name.alias)) continue;
        firsts.add(name.alias);
        if (name.name !== "*") push(imported, name.alias, { target, name: name.name });
      }
    }
  }
  return { localOf, defined: new Set(parsed.definitions.map((d) => d.name)), reexported, imported, stars };
}

/** Exported name → local binding (export declarations first, then exported definitions): {@link ExportShape.localOf}. */
function localExportsOf(parsed: ParsedFile): Map<string, string> {
  const localOf = new Map<string, string>();
  for (const exp of parsed.exports) {
    if (exp.from === undefined && !localOf.has(exp.name)) localOf.set(exp.name, exp.local ?? exp.name);
  }
  for (const def of parsed.definitions) {
    if (def.exported && def.kind !== "method" && !localOf.has(def.name)) localOf.set(def.name, def.name);
  }
  return localOf;
}

/** The symbol node id of a definition, less the file (a method is `Container.name`). */
function symbolNameOf(def: ParsedFile["definitions"][number]): string {
  return def.container && def.kind === "method" ? `${def.container}.${def.name}` : def.name;
}

/**
 * After an edit of one file, the names whose lookups in it
 * ({@link ExportIndex.origin}, {@link ExportIndex.mayExport}) can answer
 * differently: each exported name whose local binding, or that binding's
 * definition or symbol node, came or went. Undefined when any name can: its
 * imports or re-exports changed, or where they lead. A file that read the
 * edited one keeps its edges when it asks none of these names (see
 * {@link asksAnyOf}).
 *
 * @example
 * // a.ts gains `export function later() {}`, its imports as they were:
 * changedExportNames(before, after, targets, targets); // Set { "later" }
 */
export function changedExportNames(
  before: ParsedFile,
  after: ParsedFile,
  beforeTargets: ReadonlyArray<string | null | undefined>,
  afterTargets: ReadonlyArray<string | null | undefined>,
): Set<string> | undefined {
  const links = (file: ParsedFile, targets: ReadonlyArray<string | null | undefined>) =>
    JSON.stringify(file.imports.map((fact, index) => [fact.kind, fact.names, targets[index] ?? null]));
  if (links(before, beforeTargets) !== links(after, afterTargets)) return undefined;
  const answers = (file: ParsedFile) => {
    const localOf = localExportsOf(file);
    const defined = new Set(file.definitions.map((d) => d.name));
    const nodes = new Set(file.definitions.map(symbolNameOf));
    const byName = new Map<string, string>();
    for (const [name, local] of localOf) byName.set(name, `${local}\u0000${defined.has(local)}\u0000${nodes.has(local)}`);
    return byName;
  };
  const was = answers(before);
  const is = answers(after);
  const changed = new Set<string>();
  for (const [name, answer] of was) if (is.get(name) !== answer) changed.add(name);
  for (const [name, answer] of is) if (was.get(name) !== answer) changed.add(name);
  return changed;
}

/**
 * True when a file can ask one of `names` of the files it reads: among its
 * imported names and the names of its references (a barrel's re-exported
 * names are among its imports). A lookup in an edited file asks it a name
 * of the reader or of a barrel on the way, all in the reader's reads.
 *
 * @example
 * asksAnyOf(reader, new Set(["later"])); // true when reader imports or uses `later`
 */
export function asksAnyOf(file: ParsedFile, names: ReadonlySet<string>): boolean {
  for (const fact of file.imports) {
    for (const name of fact.names) if (names.has(name.name) || (name.alias !== undefined && names.has(name.alias))) return true;
  }
  for (const ref of file.references) if (names.has(ref.name)) return true;
  return false;
}

/** `export * from "x"` (not `export * as X from "x"`). */
export function isStarReexport(fact: ImportFact): boolean {
  return fact.names.length === 0 || fact.names.some((n) => n.name === "*" && (n.alias === "*" || n.alias === ""));
}

function addOrMergeImportEdge(
  graph: GraphSink,
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

/** A graph and what each file's edges were computed from. */
export interface AssembledGraph {
  /** The graph in its compact form, as assembled (what the index stores and the retriever reads), restored to graphology when read. */
  lazy: LazyGraph;
  /** The graphology graph: `lazy.graph()`. */
  readonly graph: Graph;
  /**
   * For the i-th file in path order, the indexes (same order) of the other
   * files whose facts its edges read: the barrels and defining files its
   * imports were followed through. An edit of file j changes the edges of j
   * and of the files whose reads hold j, and of no other.
   */
  reads: number[][];
  /** Re-export cycles met (see {@link ExportIndex.cyclesCut}): with any, reads alone do not bound what an edit changes. */
  cyclesCut: number;
  /**
   * The indexes (path order) of the files on the way of a cut (see
   * {@link ExportIndex.cycleFiles}): an edit whose recomputed files neither
   * are nor read any of them can still be updated in place.
   */
  cycleFiles: number[];
}

/** What an incremental assembly keeps from the previous graph of the same file set. */
export interface PreviousAssembly {
  /** The previous graph in its compact form (its edges are copied from there, in their insertion order). */
  graph: CompactGraph;
  /** Its reads (see {@link AssembledGraph.reads}), for the same files in the same order. */
  reads: ReadonlyArray<readonly number[]>;
  /** Files whose edges are computed again; every other file keeps its previous outgoing edges. */
  affected: ReadonlySet<string>;
  /**
   * Files whose facts changed. When given, every other file's symbol nodes
   * are copied from the previous graph instead of being made again from its
   * definitions (the same nodes: an unchanged file defines the same symbols).
   */
  changed?: ReadonlySet<string>;
}

/**
 * Build the graph from parsed files and resolved imports.
 *
 * @example
 * const graph = assembleGraph(parsedFiles, resolvedImports);
 * graph.outNeighbors("src/app.ts"); // files and packages it imports
 */
export function assembleGraph(parsedFiles: readonly ParsedFile[], resolved: ResolvedImports): Graph {
  return assembleGraphWithReads(parsedFiles, resolved).graph;
}

/**
 * {@link assembleGraph}, with the reads of each file's edges; given the
 * previous assembly of the same file set, only the `affected` files' edges
 * are computed and the others are copied. Either way the graph is built in
 * the same order (file nodes, symbol nodes, then each file's edges in path
 * order), so it equals, insertion order included, a full assembly.
 * Undefined when the previous graph does not fit the facts (a copied edge
 * lands on a missing node): assemble in full then.
 *
 * @example
 * const { graph, reads } = assembleGraphWithReads(parsedFiles, resolved);
 * // after editing src/a.ts (same file set):
 * const next = assembleGraphWithReads(parsedFiles2, resolved2, { graph: lazy.compact, reads, affected: new Set(["src/a.ts", …readers]) });
 */
export function assembleGraphWithReads(parsedFiles: readonly ParsedFile[], resolved: ResolvedImports): AssembledGraph;
export function assembleGraphWithReads(
  parsedFiles: readonly ParsedFile[],
  resolved: ResolvedImports,
  previous: PreviousAssembly,
): AssembledGraph | undefined;
export function assembleGraphWithReads(
  parsedFiles: readonly ParsedFile[],
  resolved: ResolvedImports,
  previous?: PreviousAssembly,
): AssembledGraph | undefined {
  const graph = new CompactGraphBuilder();
  const files = new Map(parsedFiles.map((f) => [f.path, f]));
  const sorted = [...parsedFiles].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const indexOf = new Map(sorted.map((f, i) => [f.path, i]));

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
  // an unchanged file's symbol nodes: the same run of the previous graph's nodes, or none when it had none (its
  // definitions not asked for: rollup, a fixture edited, ~30 ms of the update reading the facts of the files that
  // define nothing)
  const runs = previous?.changed ? updateIndexesOf(previous.graph).runs : undefined;
  for (const file of sorted) {
    if (runs && previous && !previous.changed?.has(file.path)) {
      const run = runs.get(file.path);
      const { nodes, attributes } = previous.graph;
      if (run) for (let i = run[0]; i < run[1]; i++) graph.addCopiedSymbol(nodes[i] as string, attributes[i] as NodeAttributes);
      continue;
    }
    for (const def of file.definitions) {
      const name = symbolNameOf(def);
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

  // the previous outgoing edges (the compact form holds no `defines`) of each file, by its previous node index,
  // in insertion order; a kept file's are copied as they are, their ends moved to the new node indexes
  let kept: Map<string, readonly number[]> | undefined;
  let nodeNow: (previousIndex: number) => number = () => -1;
  if (previous) {
    if (previous.reads.length !== sorted.length) return undefined;
    const before = previous.graph;
    const { bySource } = updateIndexesOf(before);
    kept = new Map();
    for (const [index, list] of bySource) {
      const id = before.nodes[index];
      if (id !== undefined && !previous.affected.has(id)) kept.set(id, list);
    }
    const moved = new Int32Array(before.nodes.length).fill(-1);
    nodeNow = (index) => {
      let now = moved[index] as number;
      if (now === -1) {
        const id = before.nodes[index] as string;
        if (!graph.hasNode(id) && id.startsWith("pkg:")) graph.addNode(id, { kind: "package", name: id.slice(4) });
        now = graph.indexOf(id) ?? -2;
        moved[index] = now;
      }
      return now;
    };
  }

  const exportIndex = new ExportIndex(files, resolved);
  const reads: number[][] = [];

  for (const [position, file] of sorted.entries()) {
    if (kept && previous && !previous.affected.has(file.path)) {
      const edges = previous.graph.edges;
      for (const index of kept.get(file.path) ?? []) {
        const [source, target, attributes] = edges[index] as [number, number, EdgeAttributes];
        const s = nodeNow(source);
        const t = nodeNow(target);
        if (s < 0 || t < 0) return undefined; // an edge to a node that is gone
        graph.addKeptEdge(s, t, attributes);
      }
      reads.push([...(previous.reads[position] ?? [])]);
      continue;
    }
    exportIndex.beginReads();
    addFileEdges(graph, file, resolved.get(file.path) ?? [], exportIndex);
    const read = exportIndex.endReads();
    const list: number[] = [];
    for (const path of read) {
      const index = indexOf.get(path);
      if (index !== undefined && index !== position) list.push(index);
    }
    reads.push(list.sort((a, b) => a - b));
  }
  const lazy = lazyGraph(graph.toCompact());
  return {
    lazy,
    get graph() {
      return lazy.graph();
    },
    reads,
    cyclesCut: exportIndex.cyclesCut,
    cycleFiles: [...exportIndex.cycleFiles].map((path) => indexOf.get(path) ?? -1).filter((i) => i >= 0).sort((a, b) => a - b),
  };
}

/** What an update in place reads of the previous graph, beyond the graph itself. */
interface UpdateIndexes {
  /** Each source node's outgoing edges, by their indexes, in insertion order. */
  bySource: ReadonlyMap<number, readonly number[]>;
  /** See {@link symbolRuns} (undefined: not a form this code made, no run is copied). */
  runs: ReadonlyMap<string, [number, number]> | undefined;
}

/** Made once a graph (a graph is never changed: an update makes a new one). */
const updateIndexes = new WeakMap<CompactGraph, UpdateIndexes>();

function updateIndexesOf(compact: CompactGraph): UpdateIndexes {
  let indexes = updateIndexes.get(compact);
  if (!indexes) {
    const bySource = new Map<number, number[]>();
    for (const [index, [source]] of compact.edges.entries()) {
      const list = bySource.get(source);
      if (list) list.push(index);
      else bySource.set(source, [index]);
    }
    indexes = { bySource, runs: symbolRuns(compact) };
    updateIndexes.set(compact, indexes);
  }
  return indexes;
}

/**
 * Make now what an update in place of `compact` will read (its edges by
 * source, its files' runs of symbol nodes), so that the update does not.
 * A resident process calls it while idle (see prepareIndexMemory): on
 * effect, ~5–10 ms off the first edit after a build.
 *
 * @example
 * prepareGraphUpdate(lazy.compact);
 */
export function prepareGraphUpdate(compact: CompactGraph): void {
  updateIndexesOf(compact);
}

/**
 * Each file's symbol nodes in a compact form: file → [first index, end
 * index) (they are added file by file; a file that defines nothing has
 * none); undefined when they are not in runs.
 */
function symbolRuns(compact: CompactGraph): Map<string, [number, number]> | undefined {
  const runs = new Map<string, [number, number]>();
  const { attributes } = compact;
  for (let i = 0; i < attributes.length; i++) {
    const attrs = attributes[i] as NodeAttributes;
    if (attrs.kind !== "symbol") continue;
    const run = runs.get(attrs.file);
    if (run && run[1] === i) run[1] = i + 1;
    else if (run) return undefined; // not in runs: a form this code did not make, copy nothing
    else runs.set(attrs.file, [i, i + 1]);
  }
  return runs;
}

/** The import, reexport and references edges out of one file (every edge whose source it is, but `defines`). */
function addFileEdges(graph: GraphSink, file: ParsedFile, targets: ReadonlyArray<string | undefined>, exportIndex: ExportIndex): void {
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

  // references edges: file → the symbol it uses; each namespace asked once (a lookup is pure: asking the
  // same one again gives the same answer and reads, and effect's files name a namespace many times)
  const ownNames = new Set(file.definitions.map((d) => d.name));
  const namespaces = [...new Set(namespaceTargets)];
  for (const ref of file.references) {
    let symbol = bindings.get(ref.name);
    if (!symbol && ownNames.has(ref.name)) continue; // a use of its own definition
    if (!symbol && (ref.kind === "member-call" || ref.kind === "identifier" || ref.kind === "type")) {
      for (const ns of namespaces) {
        if (!exportIndex.mayExport(ns, ref.name)) continue;
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
