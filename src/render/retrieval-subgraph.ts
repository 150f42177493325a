/**
 * The part of the code graph a retrieval touched, as plain data for the
 * renderers: the files the result ranked (context files and the candidates
 * that came near), the file → file links among them (imports, re-exports,
 * references summed per file pair) and the gap links (a file's
 * missingContext entry `Name (path)` → that path). Pure: reads the result
 * and the graph, never the disk.
 */
import type { CodeGraph } from "../graph/code-graph.js";
import { LOW_BAND as NEAR_RELEVANCE } from "../retrieve/bands.js";
import type { RelevanceBand, RetrievalResult, RetrievedFile } from "../types.js";
import { byCodeUnit } from "../util/sort.js";

/** Relevance a file needs to be drawn as a near candidate (the low band starts here). */
export { LOW_BAND as NEAR_RELEVANCE } from "../retrieve/bands.js";
/** The best files drawn whatever their relevance: a calibrated relevance leaves few files at 0.2 or more, and a picture of three explains little. */
export const MIN_DRAWN_FILES = 8;
/** Most files drawn in a retrieval subgraph (gap targets outside the result included). */
export const MAX_SUBGRAPH_FILES = 20;

/** How one file is tied to another, summed over the graph's edges. */
export interface FileLink {
  source: string;
  target: string;
  /** A direct import (static, dynamic, require or reference). */
  isImport: boolean;
  /** A re-export (`export … from`). */
  isReexport: boolean;
  /** The link only exists through a barrel (`via` on every import edge): the barrel files passed through. */
  viaBarrels: string[];
  /** Names brought in, sorted. */
  names: string[];
  /** Uses of the target's symbols in the source (0 when none). */
  references: number;
}

/** A gap: `source` uses `names` from `target`, which the context lacks. */
export interface GapLink {
  source: string;
  target: string;
  names: string[];
}

export interface SubgraphFile {
  path: string;
  /** Undefined for a gap target the retrieval never ranked. */
  file?: RetrievedFile;
  /** 1-based rank in the result (undefined when not ranked). */
  rank?: number;
}

export interface RetrievalSubgraph {
  /** Sorted by path. */
  files: SubgraphFile[];
  /** Links among `files`, sorted by source then target. */
  links: FileLink[];
  /** Gap links whose both ends are in `files`, sorted. */
  gaps: GapLink[];
  /** Ranked files left out by the node cap. */
  omitted: number;
}

export interface RetrievalSubgraphOptions {
  /** Draw ranked files from this relevance on (default: from {@link NEAR_RELEVANCE}, and at least the best {@link MIN_DRAWN_FILES}). */
  minRelevance?: number;
  /** Cap on drawn files (default {@link MAX_SUBGRAPH_FILES}). */
  maxFiles?: number;
}

/** Parse a missingContext entry: `tooManyRequests (src/errors.ts)` → name and path. */
export function parseMissingContext(entry: string): { name: string; path: string } | undefined {
  const match = /^(.*) \(([^()]+)\)$/.exec(entry);
  if (!match) return undefined;
  return { name: match[1] ?? "", path: match[2] ?? "" };
}

/**
 * Every file → file link of the graph, keyed `source\0target`: import and
 * re-export edges, plus references edges (file → symbol) folded onto the
 * symbol's file.
 *
 * @example
 * const links = readFileLinks(codeGraph);
 * links.get("src/a.ts\0src/b.ts")?.names; // ["helper"]
 */
export function readFileLinks(codeGraph: CodeGraph): Map<string, FileLink> {
  const { graph } = codeGraph;
  const links = new Map<string, FileLink>();
  const linkOf = (source: string, target: string): FileLink => {
    const key = `${source}\0${target}`;
    let link = links.get(key);
    if (!link) {
      link = { source, target, isImport: false, isReexport: false, viaBarrels: [], names: [], references: 0 };
      links.set(key, link);
    }
    return link;
  };
  graph.forEachEdge((_key, attributes, source, target) => {
    if (attributes.kind === "import" || attributes.kind === "reexport") {
      if (graph.getNodeAttribute(target, "kind") !== "file") return;
      const link = linkOf(source, target);
      if (attributes.kind === "reexport") link.isReexport = true;
      else if (attributes.via && attributes.via.length > 0) link.viaBarrels.push(...attributes.via);
      else link.isImport = true;
      link.names.push(...(attributes.names ?? []));
    } else if (attributes.kind === "references") {
      const symbol = graph.getNodeAttributes(target);
      if (symbol.kind !== "symbol" || symbol.file === source) return;
      linkOf(source, symbol.file).references += attributes.count ?? 1;
    }
  });
  for (const link of links.values()) {
    link.names = [...new Set(link.names)].sort(byCodeUnit);
    link.viaBarrels = link.isImport || link.isReexport ? [] : [...new Set(link.viaBarrels)].sort(byCodeUnit);
  }
  return links;
}

/** The gap links of ranked files: missingContext entries grouped by target path. */
export function readGapLinks(files: readonly RetrievedFile[]): GapLink[] {
  const gaps = new Map<string, GapLink>();
  for (const file of files) {
    for (const entry of file.missingContext) {
      const parsed = parseMissingContext(entry);
      if (!parsed || parsed.path === file.path) continue;
      const key = `${file.path}\0${parsed.path}`;
      const gap = gaps.get(key) ?? { source: file.path, target: parsed.path, names: [] };
      if (!gap.names.includes(parsed.name)) gap.names.push(parsed.name);
      gaps.set(key, gap);
    }
  }
  return [...gaps.values()].sort((a, b) => byCodeUnit(a.source, b.source) || byCodeUnit(a.target, b.target));
}

/**
 * Choose the files to draw and the links among them: the context and its
 * supporting files, ranked files at `minRelevance` or more (best first, up
 * to the cap), the targets of their gaps, then excluded candidates tied by
 * a link to a context file; an excluded file tied to nothing drawn is left
 * out.
 *
 * @example
 * const sub = readRetrievalSubgraph(result, retriever.codeGraph);
 * sub.files.map((f) => f.path); // drawn files, sorted
 */
export function readRetrievalSubgraph(
  result: RetrievalResult,
  codeGraph: CodeGraph,
  options: RetrievalSubgraphOptions = {},
): RetrievalSubgraph {
  const minRelevance = options.minRelevance ?? NEAR_RELEVANCE;
  const maxFiles = Math.max(1, options.maxFiles ?? MAX_SUBGRAPH_FILES);
  const rankOf = new Map(result.files.map((file, index) => [file.path, { file, rank: index + 1 }]));
  const chosen = new Map<string, SubgraphFile>();
  const add = (path: string): void => {
    if (chosen.size >= maxFiles || chosen.has(path)) return;
    const ranked = rankOf.get(path);
    chosen.set(path, ranked ? { path, file: ranked.file, rank: ranked.rank } : { path });
  };

  // the context and its supporting files first, then the near candidates best first
  for (const path of result.context) add(path);
  for (const supporting of result.supporting) add(supporting.path);
  const near = result.files.filter((f, i) => f.relevance >= minRelevance || (options.minRelevance === undefined && i < MIN_DRAWN_FILES));
  for (const file of near) add(file.path);
  const allLinks = readFileLinks(codeGraph);
  const drawnNear = result.files.filter((f) => chosen.has(f.path));
  const gapLinks = readGapLinks(drawnNear);
  for (const gap of gapLinks) add(gap.target);

  // excluded candidates next to the context: why they fell out is worth a look
  const context = new Set(result.context);
  for (const file of result.files) {
    if (chosen.has(file.path)) continue;
    const tied = [...context].some((c) => allLinks.has(`${c}\0${file.path}`) || allLinks.has(`${file.path}\0${c}`));
    if (tied) add(file.path);
  }
  // an excluded file tied to no other drawn file says nothing: it is not drawn
  const isTied = (path: string) => [...chosen.keys()].some((other) => other !== path && (allLinks.has(`${path}\0${other}`) || allLinks.has(`${other}\0${path}`)));
  for (const [path, entry] of [...chosen]) {
    if (entry.file && entry.file.band === "excluded" && !context.has(path) && !isTied(path)) chosen.delete(path);
  }

  const files = [...chosen.values()].sort((a, b) => byCodeUnit(a.path, b.path));
  const links = [...allLinks.values()]
    .filter((l) => chosen.has(l.source) && chosen.has(l.target) && l.source !== l.target)
    // a barrel-derived link adds nothing when its barrel is drawn: source → barrel → target is
    .filter((l) => !(l.viaBarrels.length > 0 && l.viaBarrels.every((b) => chosen.has(b))))
    .sort((a, b) => byCodeUnit(a.source, b.source) || byCodeUnit(a.target, b.target));
  const gaps = gapLinks.filter((g) => chosen.has(g.source) && chosen.has(g.target));
  return { files, links, gaps, omitted: near.filter((f) => !chosen.has(f.path)).length };
}

/** The colour band of a drawn file ("gap" for a gap target the retrieval never ranked). */
export function drawnBand(file: SubgraphFile): RelevanceBand | "gap" {
  return file.file ? file.file.band : "gap";
}
