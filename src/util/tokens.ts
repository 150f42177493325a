/**
 * How graph-retrieve counts tokens.
 *
 * - What an agent reads (the context pack, the MCP server's answers) is
 *   counted with a real tokenizer: OpenAI's o200k_base BPE (the GPT-4o /
 *   GPT-5 vocabulary) as implemented by the gpt-tokenizer package, its data
 *   bundled in the package, so nothing is downloaded. It is loaded on first
 *   use (`loadTokenCounter`, ~0.2–0.4 s once), so a run that renders no pack
 *   never pays for it. Claude's tokenizer is not published; on code it counts
 *   roughly 10–15 % more than o200k_base (docs/benchmarks.md).
 * - The index's size figure of each file (`tokens` of a parsed file and of a
 *   ranked file, a feature of the ranker and the retrieval's budget) stays
 *   the cheap estimate, characters / 4 rounded up: the ranker was trained on
 *   it, and it is computed for every file of every index.
 */

/** Default token budget of a context (the retrieval's and the context pack's). */
export const DEFAULT_BUDGET_TOKENS = 20_000;

/** The tokenizer that counts packs and MCP answers, as the outputs name it. */
export const TOKENIZER_NAME = "o200k_base (gpt-tokenizer)";

/** Estimated tokens of a text: characters / 4, rounded up (the index's size figure). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Counts tokens with the tokenizer named by `name`. */
export interface TokenCounter {
  readonly name: string;
  /** Tokens of `text`, every character counted as text (a `<|endoftext|>` in code is not a special token). */
  count(text: string): number;
  /** Whether `text` takes at most `limit` tokens; stops counting past the limit. */
  fits(text: string, limit: number): boolean;
}

// special tokens written in code are plain text to us
const AS_TEXT = { disallowedSpecial: new Set<string>() };

let loading: Promise<TokenCounter> | undefined;

/**
 * The o200k_base counter, loaded once per process.
 *
 * @example
 * const counter = await loadTokenCounter();
 * counter.count("export const a = 1;\n"); // 7
 */
export function loadTokenCounter(): Promise<TokenCounter> {
  loading ??= import("gpt-tokenizer/encoding/o200k_base").then(({ countTokens, isWithinTokenLimit }) => ({
    name: TOKENIZER_NAME,
    count: (text: string) => countTokens(text, AS_TEXT),
    fits: (text: string, limit: number) => limit >= 0 && isWithinTokenLimit(text, limit, AS_TEXT) !== false,
  }));
  return loading;
}
