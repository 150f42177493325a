import { resolve } from "node:path";
import { buildGraph, GraphRetrieveError, refreshHistory, UsageError } from "../index.js";
import { readHistoryBesideBuild } from "../faces.js";
import { noSourceFilesError, withoutNoFilesWarning } from "./no-source-files.js";
import { withConfig } from "./config-options.js";
import { graphCacheOptions } from "./graph-cache-options.js";
import { reportDiagnostics } from "./report-diagnostics.js";
import { EXIT_OK, integerOption, type CliIo } from "./cli-io.js";
import type { CliValues } from "./options.js";

const INDEX_FORMATS = ["text", "json"] as const;

/**
 * `graph-retrieve index`: build or refresh the persistent index of a root
 * and print one line (or one JSON object) on stdout: files, parsed, reused, ms.
 */
export async function runIndexCommand(values: CliValues, extra: string[], io: CliIo): Promise<number> {
  if (extra.length > 0) throw new UsageError(`graph-retrieve index: unexpected argument "${extra[0]}" (see graph-retrieve --help)`);
  if (values["no-cache"]) throw new UsageError("graph-retrieve index: --no-cache leaves nothing to index (drop it, or pass --cache-dir DIR)");
  const format = values.format ?? "text";
  if (!(INDEX_FORMATS as readonly string[]).includes(format)) {
    throw new UsageError(`graph-retrieve index: --format must be one of ${INDEX_FORMATS.join(", ")}, got "${format}"`);
  }
  const rootArg = values.root ?? ".";
  const root = resolve(io.cwd, rootArg);
  const maxFileBytes = integerOption(values, "max-file-bytes");
  const maxCommits = integerOption(values, "history-commits");
  // the root's config file, checked as every command checks it: the same include / exclude as graph and a retrieval
  const { include, exclude, alsoInclude, history } = await withConfig(root, {
    include: values.include,
    exclude: values.exclude,
    alsoInclude: values["also-include"],
    ...(values["no-history"] ? { history: false } : {}),
  });
  const progress = graphCacheOptions(values, io, rootArg);
  const cacheDir = progress.options.cacheDir;
  // the history index beside the graph's, unless switched off: read while the graph is built, written after it
  const readHistory = (graphBuilt: Promise<boolean>) =>
    history === false ? Promise.resolve(undefined) : refreshHistory(root, { graphBuilt, ...(cacheDir !== undefined ? { cacheDir } : {}), ...(maxCommits !== undefined ? { maxCommits } : {}) });
  const indexGraph = async () => {
    let codeGraph;
    try {
      codeGraph = await buildGraph(root, { maxFileBytes, include, exclude, alsoInclude, ...progress.options });
    } finally {
      progress.finish();
    }
    if (!values.quiet) reportDiagnostics(withoutNoFilesWarning(codeGraph.diagnostics), io);
    const empty = noSourceFilesError(codeGraph.files.size, root, include, values.include !== undefined ? "--include" : "the config's include");
    if (empty) throw empty;
    // an index that was not written is no index: a summary would say the opposite
    const writeError = codeGraph.cache?.writeError;
    if (writeError !== undefined) throw new GraphRetrieveError("io", `graph-retrieve index: nothing was indexed: ${writeError.replace(/^store: /, "").replace(", or pass --no-cache)", ", or pass --cache-dir DIR)")}`);
    return codeGraph;
  };
  const { built: codeGraph, history: refreshed } = await readHistoryBesideBuild(indexGraph, readHistory);
  const cache = codeGraph.cache;
  const summary = {
    files: codeGraph.stats.files,
    parsed: cache?.parsed ?? codeGraph.stats.files,
    reused: cache?.reused ?? 0,
    resolved: cache?.resolved ?? codeGraph.stats.files,
    skipped: codeGraph.stats.skippedFiles,
    ms: codeGraph.stats.millis.total,
    cacheDir: cache?.dir ?? null,
    history: refreshed ? { commits: refreshed.history.commits.length, read: refreshed.read.read, how: refreshed.read.how, ms: refreshed.read.ms, shallow: refreshed.history.shallow, truncated: refreshed.history.truncated } : null,
  };
  io.stdout(
    format === "json"
      ? `${JSON.stringify(summary)}\n`
      : `indexed ${summary.files} files: ${summary.parsed} parsed, ${summary.reused} reused, ${summary.skipped} skipped in ${summary.ms} ms (${summary.cacheDir})\n` +
          (summary.history ? `history: ${summary.history.commits} commits (${summary.history.read} read, ${summary.history.how}) in ${summary.history.ms} ms${summary.history.shallow ? ", a shallow clone" : ""}${summary.history.truncated ? ", cut short by the time limit" : ""}\n` : ""),
  );
  return EXIT_OK;
}
