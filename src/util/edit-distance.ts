/**
 * Levenshtein distance (insert, delete, substitute: one edit each), for
 * "did you mean" hints on command names, flags and paths. Two rows, no
 * matrix: the strings compared are short.
 *
 * @example
 * editDistance("indx", "index");      // 1
 * editDistance("foramt", "format");   // 2
 */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitute = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitute));
    }
    previous = current;
  }
  return previous[b.length] as number;
}

/**
 * The candidates closest to `word` within `maxEdits`, closest first (ties in
 * the candidates' order); none when nothing is that close.
 *
 * @example
 * closestWords("--foramt", ["--format", "--force", "--root"], 2); // ["--format"]
 */
export function closestWords(word: string, candidates: readonly string[], maxEdits: number): string[] {
  return candidates
    .map((candidate, order) => ({ candidate, order, distance: editDistance(word, candidate) }))
    .filter((c) => c.distance <= maxEdits)
    .sort((a, b) => a.distance - b.distance || a.order - b.order)
    .map((c) => c.candidate);
}
