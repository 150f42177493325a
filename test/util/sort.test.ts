import { describe, expect, it } from "vitest";
import { firstInOrder } from "../../src/util/sort.js";

/** A deterministic shuffle (a linear congruential generator), so that the test's inputs are the same every run. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

describe("firstInOrder", () => {
  it("gives what a whole sort and a slice give, for co-change rows (weight down, then path) and pool indices", () => {
    const byWeightThenPath = (x: [string, number], y: [string, number]) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1);
    // many partners share a weight: the path decides among them
    const partners: Array<[string, number]> = Array.from({ length: 500 }, (_, i) => [`src/f${(i * 7919) % 500}.py`, Math.round((i % 37) / 3) / 10]);
    for (const seed of [1, 2, 3]) {
      const input = shuffled(partners, seed);
      expect(firstInOrder(input, 30, byWeightThenPath)).toEqual([...input].sort(byWeightThenPath).slice(0, 30));
    }
    const indices = shuffled(Array.from({ length: 1000 }, (_, i) => i * 3), 7);
    expect(firstInOrder(new Set(indices), 40, (a, b) => a - b)).toEqual([...indices].sort((a, b) => a - b).slice(0, 40));
  });

  it("keeps them all, in order, when there are k or fewer; none for k of 0", () => {
    expect(firstInOrder([3, 1, 2], 5, (a, b) => a - b)).toEqual([1, 2, 3]);
    expect(firstInOrder([], 5, (a, b) => a - b)).toEqual([]);
    expect(firstInOrder([3, 1, 2], 0, (a, b) => a - b)).toEqual([]);
  });
});
