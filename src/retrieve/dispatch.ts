/**
 * DISPATCH: the broad first query, and each later cycle's grown pool. The
 * first cycle scores every file lexically against the task's words (in the
 * codebase's own terms) and keeps the best, the files the task names and
 * the graph neighbours of the best (features/candidate-pool.ts); a later
 * cycle adds the files REFINE reached over the graph. Either way every
 * pool file comes with its feature vector, ready for EVALUATE.
 */
import { extendPool, extractTaskFeatures, type ExtractOptions, type TaskFeatures } from "./features/extract.js";
import type { RetrievalContext } from "./retrieval-context.js";

/**
 * @example
 * const features = dispatch(context, "Fix the token expiry check", { isAllowed: () => true });
 * features.pool.length; // the candidates of cycle 1
 */
export function dispatch(context: RetrievalContext, task: string, options: ExtractOptions): TaskFeatures {
  return extractTaskFeatures(context, task, options);
}

/** The next cycle's pool: the last one's and the files REFINE reached. */
export function dispatchAgain(context: RetrievalContext, features: TaskFeatures, expansions: ReadonlyArray<{ path: string; via: string }>): TaskFeatures {
  return extendPool(context, features, expansions);
}
