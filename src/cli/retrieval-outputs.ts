/**
 * What a retrieval prints and writes: the report on stdout in the chosen
 * format (text, json, md context pack, dot, svg) or, with --explain, why one
 * file got its score; and the side files --dot FILE / --svg FILE. Options are
 * checked before the (slow) graph build.
 */
import { relative, resolve, sep } from "node:path";
import {
  DEFAULT_PACK_BUDGET_TOKENS,
  renderContextPack,
  renderDot,
  renderDotAsSvg,
  cochangeEdges,
  fileHistory,
  type HistoryIndex,
  renderExplanation,
  renderJson,
  renderText,
  plainPath,
  resolveFilePath,
  sourceReader,
  UsageError,
  type CodeGraph,
  type RetrievalResult,
} from "../index.js";
import { checkOutputFiles, writeOutputFile, type OutputFile } from "./output-files.js";
import type { CliIo } from "./cli-io.js";
import type { CliValues } from "./options.js";

export const RETRIEVAL_FORMATS = ["text", "json", "md", "dot", "svg"] as const;
export type RetrievalFormat = (typeof RETRIEVAL_FORMATS)[number];

export interface RetrievalOutputs {
  format: RetrievalFormat;
  explain?: string;
  files: OutputFile[];
  force: boolean;
}

/** Check --format, --explain, --dot, --svg and --force; a usage error names the flag. */
export async function checkRetrievalOutputs(values: CliValues, io: CliIo): Promise<RetrievalOutputs> {
  const format = (values.format ?? "text") as RetrievalFormat;
  if (!RETRIEVAL_FORMATS.includes(format)) {
    throw new UsageError(`graph-retrieve: --format must be one of ${RETRIEVAL_FORMATS.join(", ")}, got "${values.format}"`);
  }
  const explain = values.explain;
  if (explain !== undefined) {
    if (explain.trim() === "") throw new UsageError("graph-retrieve: --explain needs a file path (e.g. --explain src/auth/tokens.ts)");
    if (values.format !== undefined && format !== "text") {
      throw new UsageError(`graph-retrieve: --explain prints text; drop --format ${format} (or use --dot FILE / --svg FILE beside it)`);
    }
  }
  const force = values.force === true;
  const files = await checkOutputFiles(
    [
      { flag: "--dot", given: values.dot },
      { flag: "--svg", given: values.svg },
    ],
    io.cwd,
    force,
  );
  return { format, explain, files, force };
}

/** A path as the user gave it → root-relative: as is when the graph knows it, else taken from the current folder. */
function rootRelative(given: string, codeGraph: CodeGraph, io: CliIo): string {
  const plain = plainPath(given);
  if (codeGraph.files.has(plain)) return plain;
  const fromCwd = relative(codeGraph.root, resolve(io.cwd, given)).split(sep).join("/");
  return codeGraph.files.has(fromCwd) ? fromCwd : plain;
}

/** Print the report (or the explanation) and write the side files. */
export async function writeRetrievalOutputs(
  result: RetrievalResult,
  codeGraph: CodeGraph,
  outputs: RetrievalOutputs,
  io: CliIo,
  options: { budgetTokens?: number; quiet?: boolean; history?: HistoryIndex },
): Promise<void> {
  const needsDot = outputs.format === "dot" || outputs.format === "svg" || outputs.files.length > 0;
  const cochange = needsDot && options.history ? cochangeEdges(fileHistory(options.history, (path) => codeGraph.files.has(path))) : [];
  const dot = needsDot ? renderDot(result, codeGraph, { cochange }) : "";
  let svg: string | undefined;
  const svgOnce = async (): Promise<string> => (svg ??= await renderDotAsSvg(dot));

  let report: string;
  if (outputs.explain !== undefined) {
    const path = rootRelative(outputs.explain, codeGraph, io);
    if (!codeGraph.files.has(path)) {
      // the same suggestions as the MCP server's explain_file
      const found = resolveFilePath(codeGraph, path);
      const hint = "suggestions" in found && found.suggestions.length > 0 ? `did you mean ${found.suggestions.join(", ")}? ` : "";
      throw new UsageError(`graph-retrieve: --explain "${outputs.explain}" is not a source file under the root (${hint}give a path relative to the root or to the current folder)`);
    }
    report = renderExplanation(result, codeGraph, path);
  } else if (outputs.format === "json") {
    report = renderJson(result);
  } else if (outputs.format === "md") {
    report = await renderContextPack(result, {
      codeGraph,
      budgetTokens: options.budgetTokens ?? DEFAULT_PACK_BUDGET_TOKENS,
      // only files the scan found under the root are read
      readFile: sourceReader(codeGraph),
    });
  } else if (outputs.format === "dot") {
    report = dot;
  } else if (outputs.format === "svg") {
    report = await svgOnce();
  } else {
    report = renderText(result);
  }

  for (const file of outputs.files) {
    await writeOutputFile(file, file.flag === "--svg" ? await svgOnce() : dot, outputs.force);
    if (!options.quiet) io.stderr(`graph-retrieve: wrote ${file.given}\n`);
  }
  io.stdout(report);
}
