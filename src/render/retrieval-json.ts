/**
 * The retrieval result as JSON: the contract ../shared/bench scores
 * (`files` best first, `context` the files handed over). Same input, same
 * bytes: no timings, no absolute paths.
 */
import type { RetrievalResult } from "../types.js";

/**
 * @example
 * process.stdout.write(renderJson(await retrieve("Fix the token expiry bug")));
 */
export function renderJson(result: RetrievalResult): string {
  return `${JSON.stringify(result, null, 2)}\n`;
}
