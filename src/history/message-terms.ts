/**
 * The terms of a commit message, as the history's vocabulary keeps them:
 * the code-aware terms of its words (util/terms.ts, the same as a file's)
 * and the pairs of its Chinese characters, each once, in order. Trailers
 * (`Co-authored-by:`, `Signed-off-by:`) and links say nothing of the code
 * and are left out.
 */
import { hanPairs, termsOf } from "../util/terms.js";

const TRAILER = /^[A-Za-z-]+-by:.*$/gm;
const LINK = /\bhttps?:\/\/\S+/g;
/** Most of a message read: a long body is mostly a changelog. */
const MAX_MESSAGE = 600;

/**
 * @example
 * messageTerms("fix(router): keep the hash on redirect\n\nCo-authored-by: A <a@b>"); // ["fix", "router", "keep", "the", "hash", "on", "redirect"]
 */
export function messageTerms(message: string): string[] {
  const text = message.replace(TRAILER, " ").replace(LINK, " ").slice(0, MAX_MESSAGE);
  return [...new Set([...termsOf(text), ...hanPairs(text)])];
}
