/**
 * Literal shingles: what a file's string literals say, as word trigrams, so
 * that a message an issue quotes ("Context is not finalized. Did you forget
 * to return a Response object?") is found where the code writes it, with
 * case and whitespace forgiven.
 *
 * A literal is its text as one string: a concatenation of strings
 * (`"Context is not " + "finalized"`) is joined, and a template literal is
 * its text with each substitution a break. No trigram spans a break, so
 * words that are not one string in the code never make one.
 * Trigrams are hashed (FNV-1a, 32 bits) and kept sorted: a file stores a
 * few numbers per message-like literal, and a lookup is a binary search.
 *
 * @example
 * const held = literalShingles(["Context is not finalized"]);
 * heldShare(held, messageShingles("context is  not FINALIZED")); // 1
 */
import { positionOf } from "./packed.js";

/** Marks where a literal's text is interrupted (a `${…}` substitution, a non-string operand). */
export const LITERAL_BREAK = "\u0001";

/** Shingle width in words. */
const WIDTH = 3;

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The words of a text: letters and digits, lower-cased. */
function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The trigram hashes of one run of words (no break inside), appended to `out`. */
function addTrigrams(words: readonly string[], out: number[]): void {
  for (let i = 0; i + WIDTH <= words.length; i++) out.push(fnv1a(words.slice(i, i + WIDTH).join(" ")));
}

/** The sorted, distinct trigram hashes of literals (each may hold {@link LITERAL_BREAK}s). */
export function literalShingles(literals: readonly string[]): number[] {
  const out: number[] = [];
  for (const literal of literals) for (const part of literal.split(LITERAL_BREAK)) addTrigrams(wordsOf(part), out);
  out.sort((a, b) => a - b);
  return out.filter((h, i) => i === 0 || h !== out[i - 1]);
}

/** A quoted message's trigram hashes (empty for fewer than three words). */
export function messageShingles(message: string): number[] {
  const out: number[] = [];
  addTrigrams(wordsOf(message), out);
  return [...new Set(out)];
}

/** The share of a message's trigrams a file's literals hold (0 for a message of fewer than three words). */
export function heldShare(sorted: readonly number[], shingles: readonly number[]): number {
  if (shingles.length === 0 || sorted.length === 0) return 0;
  let held = 0;
  for (const h of shingles) if (positionOf(sorted, h) >= 0) held++;
  return held / shingles.length;
}
