/**
 * renderDot / renderSvg on real retrievals of both pattern fixtures: the
 * drawn files and edges, colours by band, the cycle each file entered, gap
 * edges, the legend; Graphviz's `dot` and the built-in WASM renderer both lay
 * the DOT out; a golden file for one retrieval.
 */
import { describe, expect, it } from "vitest";
import { BAND_COLOURS, formatRelevance, createRetriever, readRetrievalSubgraph, renderDot, renderDotAsSvg, renderSvg, type RetrievalResult } from "../../src/index.js";
import { textWidthPt } from "../../src/render/text-width.js";
import { fixtureRetrieval, hasDot, renderWithDot, svgNodes, TASKS } from "./helpers.js";

const FIXTURES = Object.keys(TASKS) as Array<keyof typeof TASKS>;

/** Every statement line's ids are quoted: `"a" [..];`, `"a" -> "b" [..];`. */
function unquotedIds(dot: string): string[] {
  return dot
    .split("\n")
    .filter((line) => /^\s+"/.test(line) || /->/.test(line))
    .filter((line) => !/^\s*("([^"\\]|\\.)*"( -> "([^"\\]|\\.)*")*)( \[.*\])?;( "([^"\\]|\\.)*"( \[.*\])?;)*$/.test(line));
}

describe.each(FIXTURES)("renderDot on %s", (name) => {
  it("draws the context and the near candidates, each id quoted, the same bytes every time", async () => {
    const { result, codeGraph } = await fixtureRetrieval(name);
    const dot = renderDot(result, codeGraph);
    expect(renderDot(result, codeGraph)).toBe(dot);
    expect(dot.startsWith('digraph "graph-retrieve retrieval" {\n')).toBe(true);
    expect(dot.endsWith("}\n")).toBe(true);
    expect(dot).not.toContain("\r");
    expect(unquotedIds(dot)).toEqual([]);
    const supporting = new Set(result.supporting.map((s) => s.path));
    for (const file of result.files.filter((f) => f.relevance >= 0.2 || result.context.includes(f.path))) {
      // the file's name (its folder is the cluster's label), relevance, band, what it is to the answer, cycle
      const name = file.path.slice(file.path.lastIndexOf("/") + 1);
      const role = result.context.includes(file.path) ? " · context" : supporting.has(file.path) ? " · read beside" : "";
      expect(dot).toContain(`  ${JSON.stringify(file.path)} [label="${name}\\n${formatRelevance(file.relevance)} ${file.band}${role} · c${file.cycle}", fillcolor="${BAND_COLOURS[file.band]}"`);
    }
    // context files have a thick border, supporting files a dashed one
    expect(result.context.length).toBeGreaterThan(0);
    for (const path of result.context) expect(dot).toMatch(new RegExp(`"${path.replace(/[.]/g, "\\.")}" \\[[^\\n]*penwidth=2.5`));
    for (const path of supporting) expect(dot).toMatch(new RegExp(`"${path.replace(/[.]/g, "\\.")}" \\[[^\\n]*style="rounded,filled,dashed"`));
  });

  it("renders with the built-in WASM Graphviz: every drawn file a node with its band's fill, and the legend", async () => {
    const { result, codeGraph } = await fixtureRetrieval(name);
    const svg = await renderSvg(result, codeGraph);
    expect(svg).toContain("<svg");
    const nodes = svgNodes(svg);
    const drawn = readRetrievalSubgraph(result, codeGraph).files;
    expect(drawn.length).toBeGreaterThan(3);
    for (const file of drawn) {
      const node = nodes.get(file.path);
      expect(node, file.path).toBeDefined();
      const fill = file.file ? BAND_COLOURS[file.file.band] : BAND_COLOURS.gap;
      expect(node, file.path).toContain(`fill="${fill}"`);
    }
    // legend: under the title, one coloured cell per band, then the borders and the edge kinds
    const texts = [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => (m[1] ?? "").replace(/&#45;/g, "-").replace(/&lt;/g, "<"));
    // the bands' ranges as every output writes them (bands.ts)
    for (const [band, label] of [["high", "high [0.8, 1]"], ["medium", "medium [0.5, 0.8)"], ["low", "low [0.2, 0.5)"], ["excluded", "excluded [0, 0.2)"]] as const) {
      expect(texts, band).toContain(label);
      expect(svg, band).toContain(`<polygon fill="${BAND_COLOURS[band]}" stroke="none"`);
    }
    expect(texts).toContain("gap target, not a candidate");
    expect(texts).toContain("━▶ re-export");
  });

  it("renders with Graphviz's dot -Tsvg without a warning", async (ctx) => {
    if (!hasDot()) ctx.skip("Graphviz `dot` is not on PATH: the built-in renderer was checked, dot was not");
    const { result, codeGraph } = await fixtureRetrieval(name);
    const run = renderWithDot(renderDot(result, codeGraph));
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    const nodes = svgNodes(run.svg);
    for (const file of result.files.filter((f) => result.context.includes(f.path))) {
      expect(nodes.get(file.path), file.path).toContain(`fill="${BAND_COLOURS[file.band]}"`);
    }
    expect(run.svg).toContain("thick border: the context (the files to read)");
  });
});

describe("renderDot: what the picture says", () => {
  it("auth-service: the context file's gap toward the token module is one dashed edge; api-gateway: re-exports bold, folders as clusters", async () => {
    const auth = await fixtureRetrieval("auth-service");
    const top = auth.result.files[0]!;
    // the auth flow is the context, and what it uses from the token module is a gap
    expect(top.path).toBe("src/auth/auth.ts");
    expect(top.relevance).toBeGreaterThanOrEqual(0.7);
    expect(top.missingContext).toContain("checkToken (src/auth/tokens.ts)");
    const gap = renderDot(auth.result, auth.codeGraph).split("\n").filter((l) => l.startsWith('  "src/auth/auth.ts" -> "src/auth/tokens.ts"'));
    expect(gap).toHaveLength(1);
    expect(gap[0]).toContain('style="dashed"');
    expect(gap[0]).toMatch(/label="[^"]*checkToken/);
    const { result, codeGraph } = await fixtureRetrieval("api-gateway");
    const dot = renderDot(result, codeGraph);
    // the barrel's re-exports are bold; one toward a file the context lacks is drawn once, as that gap, and still says it re-exports
    const fromBarrel = dot.split("\n").filter((l) => l.startsWith('  "src/middleware/index.ts" -> '));
    const reexports = fromBarrel.filter((l) => l.includes('tooltip="re-export '));
    expect(reexports.length).toBeGreaterThan(0);
    for (const line of reexports) expect(line).toContain('style="bold", color="#1f6feb"');
    const toThrottle = fromBarrel.filter((l) => l.startsWith('  "src/middleware/index.ts" -> "src/middleware/throttle.ts"'));
    expect(toThrottle).toHaveLength(1);
    expect(toThrottle[0]).toMatch(/re-export [^"]*throttle/);
    expect(dot).toContain('label="src/middleware/";');
    expect(dot).toContain('label="src/http/";');
  });

  it("shows the cycle a file entered: c2 in the label and a double border", async () => {
    // fixtures/cycle-two: the cents module comes in over the graph in the second cycle
    const retriever = await createRetriever({ root: "fixtures/cycle-two" });
    const result = await retriever.retrieve("Fix the invoice total rounding");
    const codeGraph = retriever.codeGraph;
    const late = result.files.find((f) => f.cycle === 2);
    expect(late).toBeDefined();
    const sub = readRetrievalSubgraph(result, codeGraph, { minRelevance: 0 });
    expect(sub.files.map((f) => f.path)).toContain(late!.path);
    const line = renderDot(result, codeGraph, { minRelevance: 0 }).split("\n").find((l) => l.startsWith(`    "${late!.path}" [`));
    expect(line).toContain(`· c2"`);
    expect(line).toContain("peripheries=2");
  });

  it("draws a gap target the retrieval never ranked as a small grey dashed node", async () => {
    const { result, codeGraph } = await fixtureRetrieval("auth-service");
    const top = result.files[0]!;
    const changed: RetrievalResult = {
      ...result,
      files: [{ ...top, missingContext: [...top.missingContext, "renewToken (src/auth/renewal.ts)"] }, ...result.files.slice(1)],
    };
    const dot = renderDot(changed, codeGraph);
    expect(dot).toMatch(/ {4}"src\/auth\/renewal\.ts" \[label="renewal\.ts\\ngap target", fillcolor="#ffffff", [^\n]*style="rounded,filled,dashed"/);
    expect(dot).toMatch(new RegExp(`"${top.path.replace(/[.]/g, "\\.")}" -> "src/auth/renewal\\.ts" \\[style="dashed"[^\\n]*label="renewToken"`));
    expect(renderWithDotOk(dot)).toBe(true);
  });

  it("caps the drawn files", async () => {
    const { result, codeGraph } = await fixtureRetrieval("auth-service");
    const sub = readRetrievalSubgraph(result, codeGraph, { maxFiles: 3 });
    expect(sub.files).toHaveLength(3);
    // the context first, then its supporting files, then the best candidates
    const order = [...new Set([...result.context, ...result.supporting.map((s) => s.path), ...result.files.map((f) => f.path)])];
    expect(sub.files.map((f) => f.path).sort()).toEqual(order.slice(0, 3).sort());
    // near candidates not drawn: those from 0.2 on or among the best eight, not excluded
    const drawn = new Set(sub.files.map((f) => f.path));
    expect(sub.omitted).toBe(result.files.filter((f, i) => (f.relevance >= 0.2 || i < 8) && !drawn.has(f.path)).length);
    expect(sub.omitted).toBeGreaterThan(0);
    expect(renderDot(result, codeGraph, { maxFiles: 3 })).toContain(`· ${sub.omitted} near candidates not drawn`);
  });

  it("golden file: the api-gateway retrieval", async () => {
    const { result, codeGraph } = await fixtureRetrieval("api-gateway");
    await expect(renderDot(result, codeGraph)).toMatchFileSnapshot("./__snapshots__/api-gateway-retrieval.dot");
  });

  it("the title and the legend fit the picture's width, for a long task and a Chinese one", async () => {
    const { result, codeGraph } = await fixtureRetrieval("api-gateway");
    const long = `${"Add rate limiting to the API endpoints so that clients sending too many requests get a 429 ".repeat(2)}with a Retry-After header`;
    for (const task of [long, "为 API 端点添加速率限制，超过限额的客户端收到 429 和 Retry-After 头"]) {
      const svg = await renderSvg({ ...result, task }, codeGraph);
      const width = Number(/<svg width="(\d+)pt"/.exec(svg)?.[1]);
      const shift = Number(/translate\(([\d.]+) /.exec(svg)?.[1] ?? 0);
      const texts = [...svg.matchAll(/<text[^>]*text-anchor="(start|middle|end)"[^>]*x="(-?[\d.]+)"[^>]*font-size="([\d.]+)"[^>]*>([^<]*)<\/text>/g)];
      expect(texts.length).toBeGreaterThan(5);
      for (const [, anchor, x, size, raw] of texts) {
        const text = raw!.replace(/&#45;/g, "-").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
        const w = textWidthPt(text, Number(size));
        const left = Number(x) + shift - (anchor === "middle" ? w / 2 : anchor === "end" ? w : 0);
        expect(left, `"${text}" starts left of the picture`).toBeGreaterThanOrEqual(-1);
        expect(left + w, `"${text}" ends right of the picture (${width} pt)`).toBeLessThanOrEqual(width + 1);
      }
    }
  });

  it("renderDotAsSvg reports invalid DOT as an error naming Graphviz's complaint", async () => {
    await expect(renderDotAsSvg("digraph { a -> }")).rejects.toThrow(/^renderDotAsSvg: Graphviz could not lay out the graph: .*syntax error/);
  });
});

function renderWithDotOk(dot: string): boolean {
  if (!hasDot()) return true;
  const run = renderWithDot(dot);
  return run.status === 0 && run.stderr === "";
}
