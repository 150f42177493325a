/**
 * The retrieval picture as SVG without a Graphviz install: the DOT of
 * {@link renderDot} laid out by @viz-js/viz, Graphviz compiled to
 * WebAssembly (chosen over @hpcc-js/wasm-graphviz by measurement: faster to
 * load and render, less memory; README "Pictures and packs"). The package
 * is imported, and its WASM module compiled, on the first render only (every
 * other command would pay ~15 ms to load it); once per process; no file or
 * network I/O.
 */
import type { Viz } from "@viz-js/viz";
import { GraphRetrieveError } from "../errors.js";
import type { CodeGraph } from "../graph/code-graph.js";
import type { RetrievalResult } from "../types.js";
import { renderDot, type RenderDotOptions } from "./retrieval-dot.js";

let loading: Promise<Viz> | undefined;

function loadViz(): Promise<Viz> {
  loading ??= import("@viz-js/viz").then(({ instance }) => instance());
  return loading;
}

/**
 * Lay out any DOT text as SVG with the bundled WASM Graphviz (`dot` engine).
 *
 * @example
 * const svg = await renderDotAsSvg('digraph { "a" -> "b" }');
 */
export async function renderDotAsSvg(dot: string): Promise<string> {
  const viz = await loadViz();
  const rendered = viz.render(dot, { format: "svg", engine: "dot" });
  if (rendered.status !== "success") {
    const reason = rendered.errors.map((e) => e.message.trim()).join("; ") || "no message";
    throw new GraphRetrieveError("internal", `renderDotAsSvg: Graphviz could not lay out the graph: ${reason} (the DOT text is invalid; check it with \`dot -Tsvg\`)`);
  }
  // Graphviz writes "\n"; keep it that way on every platform
  return rendered.output.replace(/\r\n/g, "\n");
}

/**
 * The retrieved subgraph ({@link renderDot}) as an SVG picture.
 *
 * @example
 * const retriever = await createRetriever({ root: "./service" });
 * const result = await retriever.retrieve("Add rate limiting to the API endpoints");
 * await writeFile("retrieval.svg", await renderSvg(result, retriever.codeGraph));
 */
export async function renderSvg(result: RetrievalResult, codeGraph: CodeGraph, options: RenderDotOptions = {}): Promise<string> {
  return renderDotAsSvg(renderDot(result, codeGraph, options));
}
