/**
 * The history read beside a graph's build: `index`, `graph` and
 * `createRetriever` start git when the build starts, so that git reads the
 * log on the other core while the build scans and parses, instead of after
 * it. The read is handed a promise that settles true once the build is done
 * (false when it failed): its time limit counts from there, it writes
 * nothing before it, and a failed build abandons it (see
 * `HistoryOptions.graphBuilt`).
 */

/**
 * Run `build` with `read` started beside it; the build's result and the
 * read's, once both are done. A build that throws abandons the read and
 * throws its error.
 *
 * @example
 * const { built: codeGraph, history } = await readHistoryBesideBuild(
 *   () => buildGraph(root, { cacheDir }),
 *   (graphBuilt) => refreshHistory(root, { cacheDir, graphBuilt }),
 * );
 */
export async function readHistoryBesideBuild<Built, History>(build: () => Promise<Built>, read: (graphBuilt: Promise<boolean>) => Promise<History>): Promise<{ built: Built; history: History }> {
  let settle: (built: boolean) => void = () => undefined;
  const graphBuilt = new Promise<boolean>((resolve) => (settle = resolve));
  const reading = read(graphBuilt);
  reading.catch(() => undefined); // awaited once the build is done; a build that fails first must not leave it unhandled
  let built: Built;
  try {
    built = await build();
  } catch (error) {
    settle(false);
    throw error;
  }
  settle(true);
  return { built, history: await reading };
}
