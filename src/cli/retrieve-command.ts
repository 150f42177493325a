import { resolve } from "node:path";
import { createRetriever, STRATEGIES, UsageError, type StrategyName } from "../index.js";
import { readTask } from "./task-input.js";
import { noSourceFilesError, withoutNoFilesWarning } from "./no-source-files.js";
import { withConfig } from "./config-options.js";
import { graphCacheOptions } from "./graph-cache-options.js";
import { reportDiagnostics } from "./report-diagnostics.js";
import { checkRetrievalOutputs, writeRetrievalOutputs } from "./retrieval-outputs.js";
import { EXIT_OK, integerOption, type CliIo } from "./cli-io.js";
import type { CliValues } from "./options.js";

/** Split repeatable, comma-separated values: --keywords a,b --keywords c → [a, b, c]. */
function listOption(values: readonly string[] | undefined): string[] | undefined {
  if (!values) return undefined;
  return values.flatMap((v) => v.split(",")).map((v) => v.trim()).filter((v) => v.length > 0);
}

/** `graph-retrieve "<task>"`: retrieve the context and print it. */
export async function runRetrieveCommand(values: CliValues, positionals: string[], io: CliIo): Promise<number> {
  const task = await readTask({ positionals, task: values.task, taskFile: values["task-file"] }, io);
  // --format, --explain, --dot/--svg (refused over an existing file without --force)
  const outputs = await checkRetrievalOutputs(values, io);
  const strategy = values.strategy as StrategyName | undefined;
  if (strategy !== undefined && !STRATEGIES.includes(strategy)) {
    throw new UsageError(`graph-retrieve: --strategy must be one of ${STRATEGIES.join(", ")}, got "${values.strategy}"`);
  }
  // every option is checked before the (slow) graph build, so a typo fails at once
  const maxFileBytes = integerOption(values, "max-file-bytes");
  const maxCycles = integerOption(values, "max-cycles");
  const budgetTokens = integerOption(values, "budget");
  const rootArg = values.root ?? ".";
  const root = resolve(io.cwd, rootArg);
  // the root's config file first, the flags given on top
  const options = await withConfig(root, {
    // globs are not split on commas: src/{a,b}/** is one glob
    include: values.include,
    exclude: values.exclude,
    alsoInclude: values["also-include"],
    maxFileBytes,
    maxCycles,
    budgetTokens,
    keywords: listOption(values.keywords),
    strategy,
    ...(values.model !== undefined ? { model: resolve(io.cwd, values.model) } : {}),
    ...(values["no-history"] ? { history: false } : {}),
    historyCommits: integerOption(values, "history-commits"),
  });
  const cache = graphCacheOptions(values, io, rootArg);
  const retriever = await createRetriever({ ...options, ...cache.options, root }).finally(cache.finish);
  const empty = noSourceFilesError(retriever.codeGraph.files.size, root, options.include, values.include !== undefined ? "--include" : "the config's include");
  if (empty) {
    if (!values.quiet) reportDiagnostics(withoutNoFilesWarning(retriever.codeGraph.diagnostics), io);
    throw empty;
  }
  const result = await retriever.retrieve(task);
  // the absolute root: a JSON result read later, or elsewhere, must not depend on the folder it was made in
  result.root = root;
  if (!values.quiet) reportDiagnostics(result.diagnostics, io);
  await writeRetrievalOutputs(result, retriever.codeGraph, outputs, io, { budgetTokens: options.budgetTokens, quiet: values.quiet, ...(retriever.history ? { history: retriever.history.index } : {}) });
  return EXIT_OK;
}
