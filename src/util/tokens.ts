/**
 * How graph-retrieve counts tokens, everywhere: characters / 4, rounded up.
 * No tokenizer is bundled; the estimate is what the token figures of the
 * results, the budgets and the benchmark all use.
 */

/** Default token budget of a context (the retrieval's and the context pack's). */
export const DEFAULT_BUDGET_TOKENS = 20_000;

/** Estimated tokens of a text: characters / 4, rounded up. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
