/**
 * A retrieval as Graphviz DOT, for review: the files the retriever chose and
 * the candidates that came near, coloured by relevance band, labelled with
 * file name (the cluster names the folder), relevance and the cycle they
 * entered (extra borders for later cycles), clustered by folder; import,
 * re-export and reference edges among them; gap edges dashed toward the file
 * that would fill the gap; a compact legend under the title. Boxes are sized
 * for their text in DejaVu Sans (text-width.ts), so that the text fits
 * whatever font the viewer draws Helvetica with.
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
import { textWidthPt } from "./text-width.js";
import {
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

/** The widest a title line is drawn, in points at the title's size: a longer task wraps (Graphviz clipped a wider one at the picture's right edge). */
const TITLE_LINE_PT = 560;

/** A line cut into lines of at most `maxPt` points in DejaVu Sans, at spaces (a run without one, such as Chinese, at any character). */
function wrapLine(line: string, fontSize: number, maxPt: number): string[] {
  const lines: string[] = [];
  let current = "";
  for (const piece of line.match(/\S+\s*|\s+/g) ?? []) {
    const next = current + piece;
    if (textWidthPt(next.trimEnd(), fontSize) <= maxPt) {
      current = next;
      continue;
    }
    if (current.trim() !== "") lines.push(current.trimEnd());
    current = "";
    // a piece wider than a line on its own is cut by characters
    for (const char of piece) {
      if (textWidthPt((current + char).trimEnd(), fontSize) > maxPt && current.trim() !== "") {
        lines.push(current.trimEnd());
        current = "";
      }
      current += char;
    }
  }
  if (current.trim() !== "") lines.push(current.trimEnd());
  return lines.length > 0 ? lines : [""];
}

/** Font sizes, points: file boxes, gap targets, the legend, the title. */
const NODE_FONT = 10;
const GAP_FONT = 8;
const LEGEND_FONT = 8;
const TITLE_FONT = 11;
/** Graphviz's default node margin (0.11 in) on each side, and the room each extra border takes. */
const NODE_MARGIN_PT = 8;
const PERIPHERY_GAP_PT = 4;

function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** The least width, in inches, a box needs for `label` at `fontSize` (Graphviz grows a box to its label, never shrinks it below this). */
function boxWidthIn(label: string, fontSize: number, peripheries = 1): number {
  const text = Math.max(...label.split("\n").map((line) => textWidthPt(line, fontSize)));
  return Math.ceil(((text + 2 * NODE_MARGIN_PT + 2 * PERIPHERY_GAP_PT * (peripheries - 1)) / 72) * 100) / 100;
}

/** What a drawn file is to the answer: in the context, read beside it, or a candidate. */
type Role = "context" | "supporting" | "candidate";

function nodeLine(node: SubgraphFile, role: Role): string {
  const band = drawnBand(node);
  const file = node.file;
  if (!file) {
    const label = `${baseName(node.path)}\ngap target`;
    return `    ${quoteDot(node.path)}${dotAttributes({
      label,
      fillcolor: BAND_COLOURS.gap,
      color: "#8c8c8c",
      fontcolor: "#6e6e6e",
      fontsize: GAP_FONT,
      width: boxWidthIn(label, GAP_FONT),
      style: "rounded,filled,dashed",
      tooltip: `${node.path}: named in a gap, never a candidate`,
    })};`;
  }
  const peripheries = file.cycle > 1 ? Math.min(file.cycle, 3) : undefined;
  const roleText = role === "context" ? " · context" : role === "supporting" ? " · read beside" : "";
  const label = `${baseName(node.path)}\n${formatRelevance(file.relevance)} ${band}${roleText} · c${file.cycle}`;
  return `    ${quoteDot(node.path)}${dotAttributes({
    label,
    fillcolor: BAND_COLOURS[band],
    fontcolor: band === "excluded" ? "#555555" : undefined,
    penwidth: role === "context" ? 2.5 : undefined,
    style: role === "supporting" ? "rounded,filled,dashed" : undefined,
    peripheries,
    width: boxWidthIn(label, NODE_FONT, peripheries),
    tooltip: `#${node.rank} ${node.path} (${formatRelevance(file.relevance, 3)}, entered in cycle ${file.cycle}${role === "context" ? ", in the context" : role === "supporting" ? ", read beside the context" : ""}): ${file.reason}`,
  })};`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/**
 * Graphviz places a line of text from its own estimate of its width, which
 * is narrower than DejaVu Sans: a line centred in its cell starts left of
 * where a DejaVu line would and ends past the cell. A legend cell (the
 * title's lines among them) is this much wider than its line, so that the
 * line's end stays inside the picture.
 */
const TEXT_SLACK = 1.12;

/** One cell of the legend's table: as wide as its text in DejaVu Sans, with {@link TEXT_SLACK}. */
function legendCell(text: string, attributes: string, fontSize = LEGEND_FONT, colour?: string): string {
  const width = Math.ceil(textWidthPt(text, fontSize) * TEXT_SLACK + 8);
  const body = colour ? `<FONT COLOR="${colour}">${escapeHtml(text)}</FONT>` : escapeHtml(text);
  return `<TD${attributes} WIDTH="${width}"><FONT POINT-SIZE="${fontSize}">${body}</FONT></TD>`;
}

/**
 * The title and the legend as one HTML-like label over the picture: the task
 * and the counts, a row of band colours, what borders mean, and the edge
 * kinds drawn as text (a few lines, not a second graph).
 */
function titleWithLegend(title: string): string {
  const bands = (Object.keys(BAND_COLOURS) as Array<keyof typeof BAND_COLOURS>).map((band) =>
    legendCell(BAND_LABELS[band], ` BGCOLOR="${BAND_COLOURS[band]}"${band === "gap" ? ' BORDER="1" STYLE="dashed" COLOR="#8c8c8c"' : ""}`),
  );
  const borders = "thick border: the context (the files to read) · dashed: read beside it · cN: entered in cycle N (double border: 2, triple: 3)";
  const edges: Array<[string, string | undefined]> = [
    ["→ import", undefined],
    ["━▶ re-export", REEXPORT_COLOUR],
    ["┈▶ references only", undefined],
    ["╌▶ gap: uses what the context lacks", GAP_COLOUR],
    ["╌╌ changed together before", COCHANGE_STYLE.color],
  ];
  const span = ` COLSPAN="${bands.length}"`;
  const rows = [
    ...title.split("\n").flatMap((line, i) => {
      const size = i === 0 ? TITLE_FONT : LEGEND_FONT + 1;
      return wrapLine(line, size, TITLE_LINE_PT).map((part) => `<TR>${legendCell(part, span, size)}</TR>`);
    }),
    `<TR>${bands.join("")}</TR>`,
    `<TR>${legendCell(borders, span)}</TR>`,
    `<TR><TD${span}><TABLE BORDER="0" CELLSPACING="0" CELLPADDING="1"><TR>${edges.map(([text, colour]) => legendCell(text, "", LEGEND_FONT, colour)).join("")}</TR></TABLE></TD></TR>`,
  ];
  return `<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="2" CELLPADDING="2">${rows.join("")}</TABLE>>`;
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
  const context = result.context.length;
  const supporting = new Set(result.supporting.map((s) => s.path));
  const roleOf = (path: string): Role => (result.context.includes(path) ? "context" : supporting.has(path) ? "supporting" : "candidate");
  const title =
    `${shortTask(result.task)}\n${context} context file${context === 1 ? "" : "s"}${supporting.size > 0 ? ` + ${supporting.size} read beside` : ""} · ${result.stats.cycles} cycle${result.stats.cycles === 1 ? "" : "s"} · ` +
    `${result.stats.candidates} candidates of ${result.stats.files} files` +
    (sub.omitted > 0 ? ` · ${sub.omitted} near candidates not drawn` : "");

  const lines: string[] = [
    'digraph "graph-retrieve retrieval" {',
    "  rankdir=LR;",
    `  graph [label=${titleWithLegend(title)}, labelloc="t", fontname="Helvetica", fontsize=${TITLE_FONT}, nodesep=0.15, ranksep=0.45];`,
    `  node [shape=box, style="rounded,filled", fillcolor="#ffffff", fontname="Helvetica", fontsize=${NODE_FONT}, height=0.3];`,
    '  edge [color="#555555", arrowsize=0.6, fontname="Helvetica", fontsize=8];',
  ];
  let clusterIndex = 0;
  for (const folder of [...byFolder.keys()].sort(byCodeUnit)) {
    lines.push(`  subgraph ${quoteDot(`cluster_${clusterIndex++}`)} {`);
    lines.push(`    label=${quoteDot(folder === "." ? "(root)" : `${folder}/`)}; style="rounded"; color="#999999"; fontsize=9;`);
    for (const file of byFolder.get(folder) ?? []) lines.push(nodeLine(file, roleOf(file.path)));
    lines.push("  }");
  }

  const gapKeys = new Set(sub.gaps.map((g) => `${g.source}\0${g.target}`));
  const linkTooltips = new Map<string, string>();
  // a link between two excluded files says little and, at 20 or 30 files, buries the rest (a barrel's fan-out)
  const excluded = new Set(sub.files.filter((f) => f.file?.band === "excluded").map((f) => f.path));
  const isFaint = (source: string, target: string) => excluded.has(source) && excluded.has(target);
  for (const link of sub.links) {
    if (isFaint(link.source, link.target) && !gapKeys.has(`${link.source}\0${link.target}`)) continue;
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
  lines.push("}", "");
  return lines.join("\n");
}
