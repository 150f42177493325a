/**
 * The whole file-level graph as Graphviz DOT: files clustered by folder,
 * external packages apart, import and re-export edges, and with history the
 * co-change edges (dashed orange, no arrow). Symbols stay out of the
 * picture (they are in the JSON dump). Pure and deterministic.
 */
import type { CodeGraph } from "../graph/code-graph.js";
import type { CochangeEdge } from "../history/file-history.js";
import { byCodeUnit } from "../util/sort.js";
import { dotAttributes, folderLabelOf, quoteDot } from "./dot-syntax.js";

/** How a co-change edge is drawn, here and in the retrieval's picture: dashed orange, no arrow. */
export const COCHANGE_STYLE = { style: "dashed", color: "#e07b00", dir: "none", constraint: "false" } as const;

/**
 * @example
 * const dot = renderGraphDot(await buildGraph("fixtures/graph-basics"));
 * // digraph "graph-retrieve" { … }  → pipe to `dot -Tsvg`
 */
export function renderGraphDot(codeGraph: CodeGraph, cochange: readonly CochangeEdge[] = []): string {
  const { graph } = codeGraph;
  const files: string[] = [];
  const packages: string[] = [];
  graph.forEachNode((id, attributes) => {
    if (attributes.kind === "file") files.push(id);
    else if (attributes.kind === "package") packages.push(id);
  });
  files.sort(byCodeUnit);
  packages.sort(byCodeUnit);

  const byFolder = new Map<string, string[]>();
  for (const file of files) {
    const folder = folderLabelOf(file);
    const list = byFolder.get(folder) ?? [];
    list.push(file);
    byFolder.set(folder, list);
  }

  const lines: string[] = [
    'digraph "graph-retrieve" {',
    "  rankdir=LR;",
    '  graph [fontname="Helvetica", fontsize=10];',
    '  node [shape=box, style="rounded,filled", fillcolor="#ffffff", fontname="Helvetica", fontsize=10];',
    '  edge [color="#555555", arrowsize=0.6];',
  ];
  let clusterIndex = 0;
  for (const folder of [...byFolder.keys()].sort(byCodeUnit)) {
    lines.push(`  subgraph ${quoteDot(`cluster_${clusterIndex++}`)} {`);
    lines.push(`    label=${quoteDot(folder === "." ? "(root)" : folder)}; style="rounded"; color="#999999";`);
    for (const file of byFolder.get(folder) ?? []) {
      const label = file.slice(file.lastIndexOf("/") + 1);
      lines.push(`    ${quoteDot(file)}${dotAttributes({ label, tooltip: file })};`);
    }
    lines.push("  }");
  }
  for (const pkg of packages) {
    lines.push(`  ${quoteDot(pkg)}${dotAttributes({ label: pkg.slice(4), shape: "ellipse", fillcolor: "#eeeeee" })};`);
  }

  const edges: string[] = [];
  graph.forEachEdge((_key, attributes, source, target) => {
    if (attributes.kind !== "import" && attributes.kind !== "reexport") return;
    const style =
      attributes.kind === "reexport"
        ? { style: "bold", color: "#1f6feb" }
        : attributes.importKind === "dynamic"
          ? { style: "dashed" }
          : attributes.via
            ? { style: "dotted" }
            : {};
    edges.push(
      `  ${quoteDot(source)} -> ${quoteDot(target)}${dotAttributes({ ...style, tooltip: `${attributes.kind} ${(attributes.names ?? []).join(", ")}`.trim() })};`,
    );
  });
  const known = new Set(files);
  for (const edge of cochange) {
    if (!known.has(edge.source) || !known.has(edge.target)) continue;
    edges.push(`  ${quoteDot(edge.source)} -> ${quoteDot(edge.target)}${dotAttributes({ ...COCHANGE_STYLE, tooltip: `changed together (weight ${edge.weight})` })};`);
  }
  edges.sort(byCodeUnit);
  lines.push(...edges, "}", "");
  return lines.join("\n");
}
