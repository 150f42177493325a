import { resolve } from "node:path";
import { buildGraph, cochangeEdges, fileHistory, refreshHistory, renderGraphDot, renderGraphJson, UsageError } from "../index.js";
import { readHistoryBesideBuild } from "../faces.js";
import { EXIT_OK, integerOption, type CliIo } from "./cli-io.js";
import type { CliValues } from "./options.js";
import { withConfig } from "./config-options.js";
import { graphCacheOptions } from "./graph-cache-options.js";
import { reportDiagnostics } from "./report-diagnostics.js";
import { noSourceFilesError, withoutNoFilesWarning } from "./no-source-files.js";

const GRAPH_FORMATS = ["json", "dot"] as const;
/** Options that only mean something to a retrieval: given to `graph`, they are a mistake, not a no-op. */
const RETRIEVAL_ONLY = ["task", "task-file", "max-cycles", "budget", "keywords", "strategy", "model", "dot", "svg", "force", "explain"] as const;

/** `graph-retrieve graph`: build the graph and print it as JSON or DOT. */
export async function runGraphCommand(values: CliValues, extra: string[], io: CliIo): Promise<number> {
  if (extra.length > 0) throw new UsageError(`graph-retrieve graph: unexpected argument "${extra[0]}" (see graph-retrieve --help)`);
  const misplaced = RETRIEVAL_ONLY.find((name) => values[name] !== undefined);
  if (misplaced) {
    throw new UsageError(`graph-retrieve graph: --${misplaced} applies to a retrieval only (drop it, or run graph-retrieve "<task>" --${misplaced} …)`);
  }
  const format = values.format ?? "json";
  if (!(GRAPH_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`graph-retrieve graph: --format must be one of ${GRAPH_FORMATS.join(", ")}, got "${format}"`);
  }
  const rootArg = values.root ?? ".";
  const maxFileBytes = integerOption(values, "max-file-bytes");
  const root = resolve(io.cwd, rootArg);
  // include/exclude (and history) from the root's config file unless given as flags
  const { include, exclude, alsoInclude, history } = await withConfig(root, {
    include: values.include,
    exclude: values.exclude,
    alsoInclude: values["also-include"],
    ...(values["no-history"] ? { history: false } : {}),
  });
  const cache = graphCacheOptions(values, io, rootArg);
  // the history read beside the build (git on the other core while the scan and parse run), as `index` reads it
  const { built: codeGraph, history: refreshed } = await readHistoryBesideBuild(
    async () => {
      const codeGraph = await buildGraph(root, { maxFileBytes, include, exclude, alsoInclude, ...cache.options }).finally(cache.finish);
      if (!values.quiet) reportDiagnostics(withoutNoFilesWarning(codeGraph.diagnostics), io);
      const empty = noSourceFilesError(codeGraph.files.size, root, include, values.include !== undefined ? "--include" : "the config's include");
      if (empty) throw empty;
      return codeGraph;
    },
    (graphBuilt) => (history === false ? Promise.resolve(undefined) : refreshHistory(root, { graphBuilt, ...(cache.options.cacheDir !== undefined ? { cacheDir: cache.options.cacheDir } : {}) })),
  );
  const cochange = refreshed ? cochangeEdges(fileHistory(refreshed.history, (path) => codeGraph.files.has(path))) : [];
  io.stdout(format === "dot" ? renderGraphDot(codeGraph, cochange) : renderGraphJson(codeGraph, root, cochange));
  return EXIT_OK;
}
