/**
 * The retrieval picture at 30 nodes, readable: rxjs@7.8.1's sources as
 * installed (251 files), a retrieval drawn with 30 files. No link between
 * two excluded files is drawn (the barrels' fan-out buried the rest). Every box holds
 * its text in DejaVu Sans (what a viewer without Helvetica or Arial draws
 * Helvetica with: most Linux desktops and browsers there); where Graphviz's
 * own `dot` is installed, no box is narrower than the one it sizes with the
 * installed fonts. The legend is a few lines under the title, not a second
 * graph, and the picture is about one screen.
 */
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createRetriever, readRetrievalSubgraph, renderDot, renderDotAsSvg, type CodeGraph, type RetrievalResult } from "../../src/index.js";
import { MAX_SUBGRAPH_FILES } from "../../src/render/retrieval-subgraph.js";
import { textWidthPt } from "../../src/render/text-width.js";
import { hasDot, REPO_ROOT, renderWithDot, svgNodes } from "./helpers.js";

const RXJS = realpathSync(join(REPO_ROOT, "node_modules", "rxjs"));
const TASK = "Fix the retry operator not resubscribing after an error";
const THIRTY = { minRelevance: 0, maxFiles: 30 };

interface Box {
  minX: number;
  maxX: number;
  texts: Array<{ x: number; size: number; text: string }>;
}

function unescapeXml(text: string): string {
  return text.replace(/&#45;/g, "-").replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&amp;/g, "&");
}

/** Each node's outline (its outermost path or polygon) and its text lines. */
function boxes(svg: string): Map<string, Box> {
  const out = new Map<string, Box>();
  for (const [id, body] of svgNodes(svg)) {
    const xs: number[] = [];
    for (const shape of body.matchAll(/<(?:path|polygon)[^>]*?(?:d|points)="([^"]*)"/g)) {
      for (const pair of (shape[1] ?? "").matchAll(/(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)/g)) xs.push(Number(pair[1]));
    }
    const texts = [...body.matchAll(/<text[^>]*x="(-?[\d.]+)"[^>]*font-size="([\d.]+)"[^>]*>([^<]*)<\/text>/g)].map((m) => ({
      x: Number(m[1]),
      size: Number(m[2]),
      text: unescapeXml(m[3] ?? ""),
    }));
    out.set(id, { minX: Math.min(...xs), maxX: Math.max(...xs), texts });
  }
  return out;
}

function sizeOf(svg: string): { width: number; height: number } {
  const match = /<svg width="(\d+)pt" height="(\d+)pt"/.exec(svg);
  return { width: Number(match?.[1]), height: Number(match?.[2]) };
}

let result: RetrievalResult;
let codeGraph: CodeGraph;
let svg: string;

beforeAll(async () => {
  const retriever = await createRetriever({ root: RXJS, include: ["src/**"], history: false });
  result = await retriever.retrieve(TASK);
  codeGraph = retriever.codeGraph;
  svg = await renderDotAsSvg(renderDot(result, codeGraph, THIRTY));
}, 120_000);

describe("the retrieval picture at 30 nodes", () => {
  it("draws 30 files, every box holding its text in DejaVu Sans", () => {
    expect(readRetrievalSubgraph(result, codeGraph, THIRTY).files).toHaveLength(30);
    const drawn = boxes(svg);
    expect(drawn.size).toBe(30);
    for (const [id, box] of drawn) {
      expect(box.texts.length, id).toBeGreaterThan(0);
      for (const { x, size, text } of box.texts) {
        const half = textWidthPt(text, size) / 2;
        expect(x - half, `${id}: "${text}" starts left of its box`).toBeGreaterThanOrEqual(box.minX + 2);
        expect(x + half, `${id}: "${text}" ends right of its box`).toBeLessThanOrEqual(box.maxX - 2);
      }
    }
  });

  it("no box is narrower than the one Graphviz's own dot sizes with the installed fonts", (ctx) => {
    if (!hasDot()) ctx.skip();
    const native = boxes(renderWithDot(renderDot(result, codeGraph, THIRTY)).svg);
    const ours = boxes(svg);
    for (const [id, box] of native) expect(ours.get(id)!.maxX - ours.get(id)!.minX, id).toBeGreaterThanOrEqual(box.maxX - box.minX - 1);
  });

  it("has a legend of a few lines under the title, and is about one screen", () => {
    expect(svg).not.toContain("cluster_legend");
    expect([...svgNodes(svg).keys()].filter((id) => id.startsWith("legend"))).toEqual([]);
    const texts = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => unescapeXml(m[1] ?? ""));
    for (const label of ["high [0.8, 1]", "excluded [0, 0.2)", "gap target, not a candidate", "━▶ re-export", "╌▶ gap: uses what the context lacks"]) {
      expect(texts, label).toContain(label);
    }
    const { width, height } = sizeOf(svg);
    // measured: 615 x 1430 pt (before: the legend a second graph, every edge drawn, 1,294 x 1,848 pt with the boxes fitted)
    expect(width).toBeLessThanOrEqual(1000);
    expect(height).toBeLessThanOrEqual(1600);
    expect(width * height).toBeLessThan(1_100_000);
  });

  it("draws no link between two excluded files, and every link of the others", () => {
    const sub = readRetrievalSubgraph(result, codeGraph, THIRTY);
    const excluded = new Set(sub.files.filter((f) => f.file?.band === "excluded").map((f) => f.path));
    const dot = renderDot(result, codeGraph, THIRTY);
    const gaps = new Set(sub.gaps.map((g) => `${g.source} ${g.target}`));
    let faint = 0;
    for (const link of sub.links) {
      const edge = `  ${JSON.stringify(link.source)} -> ${JSON.stringify(link.target)} [`;
      if (excluded.has(link.source) && excluded.has(link.target) && !gaps.has(`${link.source} ${link.target}`)) {
        faint++;
        expect(dot, edge).not.toContain(edge);
      } else {
        expect(dot, edge).toContain(edge);
      }
    }
    expect(faint).toBeGreaterThan(0);
  });

  it("draws at most 20 files by default", () => {
    expect(MAX_SUBGRAPH_FILES).toBe(20);
    expect(readRetrievalSubgraph(result, codeGraph, { minRelevance: 0 }).files).toHaveLength(20);
  });
});
