/**
 * The pattern's relevance bands, in one place. A relevance is the ranker's
 * calibrated chance that the change needs the file (see model/ranker.ts),
 * so a band says how often its files are needed:
 * - high, 0.8–1: needed about 8 or 9 times in 10;
 * - medium, 0.5–0.8: about as often as not, or better;
 * - low, 0.2–0.5: worth a look;
 * - excluded, below 0.2: left out of later cycles unless tied to a likely file.
 * The context, handed over to be read, is every file from 0.7 on.
 */
import type { RelevanceBand } from "../types.js";

/** From here on a file is in the context. */
export const CONTEXT_THRESHOLD = 0.7;
/** Lower edges of the bands. */
export const HIGH_BAND = 0.8;
export const MEDIUM_BAND = 0.5;
export const LOW_BAND = 0.2;
/** Below this a file is excluded from later cycles (the pattern's). */
export const EXCLUDE_BELOW = LOW_BAND;

/**
 * @example
 * bandOf(0.85); // "high"
 * bandOf(0.1);  // "excluded"
 */
export function bandOf(relevance: number): RelevanceBand {
  if (relevance >= HIGH_BAND) return "high";
  if (relevance >= MEDIUM_BAND) return "medium";
  if (relevance >= LOW_BAND) return "low";
  return "excluded";
}
