/**
 * The pattern's relevance bands, in one place. A relevance is the ranker's
 * calibrated chance that the change needs the file (see model/ranker.ts),
 * so a band says how often its files are needed:
 * - high, [0.8, 1]: needed about 8 or 9 times in 10;
 * - medium, [0.5, 0.8): about as often as not, or better;
 * - low, [0.2, 0.5): worth a look;
 * - excluded, [0, 0.2): left out of later cycles unless tied to a likely file.
 * Each band holds its lower edge and not its upper one (0.8 is high, 0.79
 * medium), so there is no gap between bands: 0.47 is low. Every output
 * labels the bands from {@link BANDS} (text, JSON's `band`, the DOT / SVG
 * legend) and the README says the same.
 * The context, handed over to be read, is every file from 0.7 on.
 */
import type { RelevanceBand } from "../types.js";

/** From here on a file is in the context. */
export const CONTEXT_THRESHOLD = 0.7;
/** Lower edges of the bands. */
export const HIGH_BAND = 0.8;
export const MEDIUM_BAND = 0.5;
export const LOW_BAND = 0.2;
/**
 * Below this a file is excluded from later cycles (the pattern's): the low band's lower edge, named as the pattern says it.
 * @alias
 */
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

/** The bands from the top with their edges: `from` is in the band, `to` is not (but 1 is high). */
export const BANDS: ReadonlyArray<{ band: RelevanceBand; from: number; to: number }> = [
  { band: "high", from: HIGH_BAND, to: 1 },
  { band: "medium", from: MEDIUM_BAND, to: HIGH_BAND },
  { band: "low", from: LOW_BAND, to: MEDIUM_BAND },
  { band: "excluded", from: 0, to: LOW_BAND },
];

/**
 * A band's range in interval notation, as every output writes it.
 *
 * @example
 * bandRange("high");   // "[0.8, 1]"
 * bandRange("medium"); // "[0.5, 0.8)"
 */
export function bandRange(band: RelevanceBand): string {
  const row = BANDS.find((b) => b.band === band) ?? { from: 0, to: 1 };
  return `[${row.from}, ${row.to}${row.to === 1 ? "]" : ")"}`;
}

/**
 * A relevance as the reports print it: cut, not rounded, to its digits, so a
 * printed number never crosses an edge the real one did not. Rounded, 0.699
 * printed as 0.70 under "Next candidates" while the context starts at 0.7,
 * and 0.796 as 0.80 "medium" while high starts at 0.8.
 *
 * @example
 * formatRelevance(0.699);    // "0.69"
 * formatRelevance(0.7);      // "0.70"
 * formatRelevance(0.6999, 3) // "0.699"
 */
export function formatRelevance(relevance: number, digits = 2): string {
  const scale = 10 ** digits;
  // the small lift keeps 0.29 (0.28999… in binary) at 0.29
  return (Math.floor(relevance * scale + 1e-9) / scale).toFixed(digits);
}
