/**
 * A retrieval as Graphviz DOT, for review: the files the retriever chose and
 * the candidates that came near, coloured by relevance band, labelled with
 * path, relevance and the cycle they entered (extra borders for later
 * cycles), clustered by folder; import, re-export and reference edges among
 * them; gap edges dashed toward the file that would fill the gap; a legend.
 * Pure and deterministic: every id quoted, nodes and edges sorted, "\n".
 */
import type { CodeGraph } from "../graph/code-graph.js";
import { bandRange, formatRelevance } from "../retrieve/bands.js";
import { shortTask } from "./short-task.js";
import type { CochangeEdge } from "../history/file-history.js";
import { COCHANGE_STYLE } from "./graph-dot.js";
import type { RetrievalResult } from "../types.js";
import { byCodeUnit } from "../util/sort.js";
import { dotAttributes, folderLabelOf, quoteDot } from "./dot-syntax.js";
import {
  CONTEXT_RELEVANCE,
  drawnBand,
  readRetrievalSubgraph,
  type RetrievalSubgraphOptions,
  type SubgraphFile,
} from "./retrieval-subgraph.js";

export interface RenderDotOptions extends RetrievalSubgraphOptions {
  /** Co-change edges to draw among the drawn files (`readCochangeEdges`; none without history). */
  cochange?: readonly CochangeEdge[];
}

/** Fill colours by band; the legend and the SVG test read the same table. */
export const BAND_COLOURS = {
  high: "#7fd18b",
  medium: "#ffd866",
  low: "#a9cdf5",
  excluded: "#e3e3e3",
  gap: "#ffffff",
} as const;

/** The legend's words: the bands' ranges as every output writes them (bands.ts). */
const BAND_LABELS: Record<keyof typeof BAND_COLOURS, string> = {
  high: `high ${bandRange("high")}`,
  medium: `medium ${bandRange("medium")}`,
  low: `low ${bandRange("low")}`,
  excluded: `excluded ${bandRange("excluded")}`,
  gap: "gap target, not a candidate",
};

const GAP_COLOUR = "#d1242f";
const REEXPORT_COLOUR = "#1f6feb";

function nodeLine(node: SubgraphFile): string {
  const band = drawnBand(node);
  const file = node.file;
  if (!file) {
    return `    ${quoteDot(node.path)}${dotAttributes({
      label: `${node.path}\ngap target`,
      fillcolor: BAND_COLOURS.gap,
      color: "#8c8c8c",
      fontcolor: "#6e6e6e",
      fontsize: 8,
      style: "rounded,filled,dashed",
      tooltip: `${node.path}: named in a gap, never a candidate`,
    })};`;
  }
  const inContext = file.relevance >= CONTEXT_RELEVANCE;
  return `    ${quoteDot(node.path)}${dotAttributes({
    label: `${node.path}\n${formatRelevance(file.relevance)} ${band} · c${file.cycle}`,
    fillcolor: BAND_COLOURS[band],
    fontcolor: band === "excluded" ? "#555555" : undefined,
    penwidth: inContext ? 2 : undefined,
    peripheries: file.cycle > 1 ? Math.min(file.cycle, 3) : undefined,
    tooltip: `#${node.rank} ${node.path} (${formatRelevance(file.relevance, 3)}, entered in cycle ${file.cycle}${inContext ? ", in the context" : ""}): ${file.reason}`,
  })};`;
}

function legendLines(): string[] {
  const lines = [
    `  subgraph ${quoteDot("cluster_legend")} {`,
    `    label="Legend"; style="rounded"; color="#999999"; fontsize=9;`,
    `    node [fontsize=8, width=0, height=0, margin="0.06,0.03"];`,
  ];
  for (const band of Object.keys(BAND_COLOURS) as Array<keyof typeof BAND_COLOURS>) {
    lines.push(
      `    ${quoteDot(`legend:${band}`)}${dotAttributes({
        label: BAND_LABELS[band],
        fillcolor: BAND_COLOURS[band],
        style: band === "gap" ? "rounded,filled,dashed" : undefined,
        color: band === "gap" ? "#8c8c8c" : undefined,
      })};`,
    );
  }
  lines.push(`    ${quoteDot("legend:context")}${dotAttributes({ label: `thick border: in the context (≥ ${CONTEXT_RELEVANCE})`, fillcolor: "#ffffff", penwidth: 2 })};`);
  lines.push(`    ${quoteDot("legend:cycle")}${dotAttributes({ label: "cN: entered in cycle N (double border: 2, triple: 3)", fillcolor: "#ffffff", peripheries: 2 })};`);
  const edgeKinds: Array<[string, Record<string, string | number>]> = [
    ["import", {}],
    ["re-export", { style: "bold", color: REEXPORT_COLOUR }],
    ["references only", { style: "dotted" }],
    ["gap: uses what the context lacks", { style: "dashed", color: GAP_COLOUR, fontcolor: GAP_COLOUR }],
    ["changed together before", { ...COCHANGE_STYLE, fontcolor: COCHANGE_STYLE.color }],
  ];
  edgeKinds.forEach(([label, style], index) => {
    const from = quoteDot(`legend:edge${index}:from`);
    const to = quoteDot(`legend:edge${index}:to`);
    lines.push(`    ${from} [shape=point, width=0.05, label=""]; ${to} [shape=point, width=0.05, label=""];`);
    lines.push(`    ${from} -> ${to}${dotAttributes({ label, fontsize: 8, ...style })};`);
  });
  // rankdir=LR: nodes of one rank stack, so the legend is a column of boxes beside a column of edge samples
  const boxes = [...Object.keys(BAND_COLOURS).map((b) => `legend:${b}`), "legend:context", "legend:cycle"];
  lines.push(`    { rank=same; ${boxes.map(quoteDot).join("; ")}; }`);
  lines.push(`    { rank=same; ${edgeKinds.map((_kind, i) => quoteDot(`legend:edge${i}:from`)).join("; ")}; }`);
  lines.push(`    ${quoteDot("legend:cycle")} -> ${quoteDot("legend:edge0:from")} [style=invis];`);
  lines.push("  }");
  return lines;
}

/**
 * The retrieved subgraph as DOT. `codeGraph` is the graph the result came
 * from (`createRetriever(…).codeGraph`).
 *
 * @example
 * const retriever = await createRetriever({ root: "./service" });
 * const result = await retriever.retrieve("Add rate limiting to the API endpoints");
 * const dot = renderDot(result, retriever.codeGraph); // | dot -Tsvg
 */
export function renderDot(result: RetrievalResult, codeGraph: CodeGraph, options: RenderDotOptions = {}): string {
  const sub = readRetrievalSubgraph(result, codeGraph, options);
  const byFolder = new Map<string, SubgraphFile[]>();
  for (const file of sub.files) {
    const folder = folderLabelOf(file.path);
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), file]);
  }
  const context = result.files.filter((f) => f.relevance >= CONTEXT_RELEVANCE).length;
  const title =
    `${shortTask(result.task)}\n${context} context file${context === 1 ? "" : "s"} · ${result.stats.cycles} cycle${result.stats.cycles === 1 ? "" : "s"} · ` +
    `${result.stats.candidates} candidates of ${result.stats.files} files` +
    (sub.omitted > 0 ? ` · ${sub.omitted} near candidates not drawn` : "");

  const lines: string[] = [
    'digraph "graph-retrieve retrieval" {',
    "  rankdir=LR;",
    `  graph${dotAttributes({ label: title, labelloc: "t", fontname: "Helvetica", fontsize: 11 })};`,
    '  node [shape=box, style="rounded,filled", fillcolor="#ffffff", fontname="Helvetica", fontsize=10];',
    '  edge [color="#555555", arrowsize=0.6, fontname="Helvetica", fontsize=8];',
  ];
  let clusterIndex = 0;
  for (const folder of [...byFolder.keys()].sort(byCodeUnit)) {
    lines.push(`  subgraph ${quoteDot(`cluster_${clusterIndex++}`)} {`);
    lines.push(`    label=${quoteDot(folder === "." ? "(root)" : `${folder}/`)}; style="rounded"; color="#999999"; fontsize=9;`);
    for (const file of byFolder.get(folder) ?? []) lines.push(nodeLine(file));
    lines.push("  }");
  }

  const gapKeys = new Set(sub.gaps.map((g) => `${g.source}\0${g.target}`));
  const linkTooltips = new Map<string, string>();
  for (const link of sub.links) {
    const kind = link.isReexport ? "re-export" : link.isImport || link.viaBarrels.length > 0 ? "import" : "references";
    const tooltip = [
      `${kind}${link.names.length > 0 ? ` ${link.names.join(", ")}` : ""}`,
      link.viaBarrels.length > 0 ? `through ${link.viaBarrels.join(", ")}` : "",
      link.references > 0 ? `${link.references} reference${link.references === 1 ? "" : "s"}` : "",
    ]
      .filter((p) => p !== "")
      .join("; ");
    const key = `${link.source}\0${link.target}`;
    // a gap edge stands for the link it runs along: one edge, not two
    if (gapKeys.has(key)) {
      linkTooltips.set(key, tooltip);
      continue;
    }
    const style = kind === "re-export" ? { style: "bold", color: REEXPORT_COLOUR } : kind === "references" ? { style: "dotted" } : {};
    lines.push(`  ${quoteDot(link.source)} -> ${quoteDot(link.target)}${dotAttributes({ ...style, tooltip })};`);
  }
  for (const gap of sub.gaps) {
    const along = linkTooltips.get(`${gap.source}\0${gap.target}`);
    lines.push(
      `  ${quoteDot(gap.source)} -> ${quoteDot(gap.target)}${dotAttributes({
        style: "dashed",
        color: GAP_COLOUR,
        fontcolor: GAP_COLOUR,
        label: gap.names.join(", "),
        tooltip: `gap: ${gap.source} uses ${gap.names.join(", ")} from ${gap.target}, which the context lacks${along ? ` (${along})` : ""}`,
      })};`,
    );
  }
  // files that changed together before, among the drawn ones (with history)
  const drawn = new Set(sub.files.map((f) => f.path));
  for (const edge of options.cochange ?? []) {
    if (!drawn.has(edge.source) || !drawn.has(edge.target)) continue;
    lines.push(`  ${quoteDot(edge.source)} -> ${quoteDot(edge.target)}${dotAttributes({ ...COCHANGE_STYLE, tooltip: `changed together before (weight ${edge.weight})` })};`);
  }
  lines.push(...legendLines(), "}", "");
  return lines.join("\n");
}
