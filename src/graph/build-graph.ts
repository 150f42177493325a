/**
 * The script of the graph stages: scan → parse → resolve → assemble.
 * Reads files (inside the root only, as the scan found them); everything it
 * calls after reading is a function of data.
 */
import { readFile } from "node:fs/promises";
import { parseSource } from "../parse/index.js";
import { createResolver } from "../resolve/index.js";
import { scanFiles } from "../scan/index.js";
import type { Diagnostic, ParsedFile, ScanOptions, ScannedFile } from "../types.js";
import { byCodeUnit } from "../util/sort.js";
import { assembleGraph } from "./assemble-graph.js";
import type { CodeGraph, EdgeKind, GraphStats } from "./code-graph.js";

export interface BuildGraphOptions extends ScanOptions {
  /** Called with each parsed file count, for progress display. */
  onProgress?: (done: number, total: number) => void;
}

/** Read and parse one scanned file; an unreadable file becomes a diagnostic. */
async function readAndParse(file: ScannedFile, diagnostics: Diagnostic[]): Promise<ParsedFile | undefined> {
  let text: string;
  try {
    text = await readFile(file.absPath, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    diagnostics.push({ kind: "skipped", path: file.path, message: `skipped: cannot read the file (${code})` });
    return undefined;
  }
  const parsed = parseSource(file.path, text, file.language, file.isDeclaration);
  if (parsed.hasSyntaxErrors) {
    diagnostics.push({
      kind: "parse-error",
      path: file.path,
      message: "parse-error: syntax errors; facts completed with the TypeScript parser (check the file compiles)",
    });
  }
  return parsed;
}

/**
 * Build the import and symbol graph of a codebase.
 *
 * @example
 * import { buildGraph } from "graph-retrieve";
 * const { graph, stats, diagnostics } = await buildGraph("./my-project");
 * console.log(stats.files, graph.outNeighbors("src/index.ts"));
 */
export async function buildGraph(root: string, options: BuildGraphOptions = {}): Promise<CodeGraph> {
  const started = performance.now();
  const scan = await scanFiles(root, options);
  const scanned = performance.now();
  const diagnostics: Diagnostic[] = [...scan.diagnostics];

  const parsedFiles: ParsedFile[] = [];
  let done = 0;
  for (const file of scan.files) {
    const parsed = await readAndParse(file, diagnostics);
    if (parsed) parsedFiles.push(parsed);
    options.onProgress?.(++done, scan.files.length);
  }
  const parsedAt = performance.now();

  const resolver = createResolver(scan.root, parsedFiles.map((f) => f.path));
  const resolved = new Map<string, Array<string | undefined>>();
  let specifiers = 0;
  let unresolved = 0;
  let external = 0;
  for (const file of parsedFiles) {
    const targets: Array<string | undefined> = [];
    for (const fact of file.imports) {
      specifiers++;
      const resolution = resolver.resolve(file.path, fact.specifier, fact.kind);
      targets.push(resolution.target);
      if (resolution.external) external++;
      else if (!resolution.target) {
        unresolved++;
        const diagnostic = resolver.diagnose(resolution);
        if (diagnostic) diagnostics.push({ ...diagnostic, message: `${diagnostic.message} on line ${fact.line}` });
      }
    }
    resolved.set(file.path, targets);
  }
  diagnostics.push(...resolver.diagnostics);
  const resolvedAt = performance.now();

  const graph = assembleGraph(parsedFiles, resolved);
  const finished = performance.now();

  const edges: Record<EdgeKind, number> = { import: 0, reexport: 0, defines: 0, references: 0 };
  graph.forEachEdge((_key, attributes) => {
    edges[attributes.kind]++;
  });
  let symbols = 0;
  let packages = 0;
  graph.forEachNode((_id, attributes) => {
    if (attributes.kind === "symbol") symbols++;
    else if (attributes.kind === "package") packages++;
  });
  const stats: GraphStats = {
    files: parsedFiles.length,
    symbols,
    packages,
    edges,
    specifiers,
    resolvedSpecifiers: specifiers - unresolved - external,
    unresolvedSpecifiers: unresolved,
    externalSpecifiers: external,
    parseErrors: parsedFiles.filter((f) => f.hasSyntaxErrors).length,
    skippedFiles: scan.diagnostics.filter((d) => d.kind === "skipped").length,
    millis: {
      scan: Math.round(scanned - started),
      parse: Math.round(parsedAt - scanned),
      resolve: Math.round(resolvedAt - parsedAt),
      graph: Math.round(finished - resolvedAt),
      total: Math.round(finished - started),
    },
  };
  diagnostics.sort((a, b) => byCodeUnit(a.path ?? "", b.path ?? "") || byCodeUnit(a.message, b.message));
  return {
    root: scan.root,
    graph,
    files: new Map(parsedFiles.map((f) => [f.path, f])),
    diagnostics,
    stats,
  };
}
