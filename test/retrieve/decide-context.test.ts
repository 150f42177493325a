/**
 * The context as a decision over calibrated chances (decide-context.ts):
 * the expected F1 it maximises is exact (checked against every outcome of a
 * few files), and the decision on hand-made chances is the one a reader
 * would make: nothing when nothing is plausible, the first two of 0.41 and
 * 0.27, every file at 0.7 or more, within the budget and the cap.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countDistribution, decideContext, expectedF1OfPrefixes, type ContextCandidate } from "../../src/retrieve/decide-context.js";

/** E[F1] of handing over the first k, by summing over all 2^n outcomes (n small). */
function bruteForce(chances: readonly number[], k: number): number {
  const n = chances.length;
  let expected = 0;
  for (let outcome = 0; outcome < 1 << n; outcome++) {
    let p = 1;
    let needed = 0;
    let hit = 0;
    for (let i = 0; i < n; i++) {
      const isNeeded = (outcome >> i) & 1;
      p *= isNeeded ? chances[i]! : 1 - chances[i]!;
      needed += isNeeded;
      if (isNeeded && i < k) hit++;
    }
    expected += p * ((2 * hit) / (k + needed));
  }
  return expected;
}

const files = (...chances: number[]): ContextCandidate[] => chances.map((chance, i) => ({ path: `src/f${i}.ts`, chance, tokens: 100 }));
const LIMITS = { maxFiles: 8, budgetTokens: 20_000 };

describe("expectedF1OfPrefixes", () => {
  it("is exact: it equals the sum over every outcome of up to 9 files", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 9 }), fc.integer({ min: 1, max: 9 }), (raw, upTo) => {
        const chances = [...raw].sort((a, b) => b - a);
        const expected = expectedF1OfPrefixes(chances, upTo);
        expect(expected).toHaveLength(Math.min(upTo, chances.length));
        expected.forEach((value, i) => expect(value).toBeCloseTo(bruteForce(chances, i + 1), 10));
      }),
      { numRuns: 300 },
    );
  });

  it("counts the needed files beyond the set: a likely file left out lowers every prefix's F1", () => {
    const alone = expectedF1OfPrefixes([0.9], 1)[0]!;
    const withAnother = expectedF1OfPrefixes([0.9, 0.6], 1)[0]!;
    expect(alone).toBeCloseTo(0.9, 10);
    expect(withAnother).toBeLessThan(alone);
  });

  it("keeps the count's distribution whole: it sums to 1, past the cells it keeps", () => {
    const many = Array.from({ length: 200 }, (_, i) => (i % 7) / 7);
    const dist = countDistribution(many);
    expect(dist.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 10);
  });
});

describe("decideContext", () => {
  it("all tiny: empty, and the reason names the best file and the low band", () => {
    const decision = decideContext(files(0.12, 0.08, 0.03), LIMITS);
    expect(decision.paths).toEqual([]);
    expect(decision.reason).toBe("no file is plausible: the best, src/f0.ts, is at 0.12, below the low band (0.2)");
  });

  it("one at 0.41, one at 0.27, then small ones: both", () => {
    const decision = decideContext(files(0.41, 0.27, 0.06, 0.04, 0.02, 0.01), LIMITS);
    expect(decision.paths).toEqual(["src/f0.ts", "src/f1.ts"]);
    expect(decision.reason).toMatch(/^the best 2 by expected F1 \(expected F1 0\.\d\d\)$/);
    expect(decision.expectedF1).toBeCloseTo(expectedF1OfPrefixes([0.41, 0.27, 0.06, 0.04, 0.02, 0.01], 2)[1]!, 10);
  });

  it("the pattern's chances (0.41, 0.27, 0.19, 0.13, 0.06): the first few, never none", () => {
    const decision = decideContext(files(0.41, 0.27, 0.19, 0.13, 0.06), LIMITS);
    expect(decision.paths.length).toBeGreaterThanOrEqual(2);
    expect(decision.paths.length).toBeLessThanOrEqual(4);
    expect(decision.paths.slice(0, 2)).toEqual(["src/f0.ts", "src/f1.ts"]);
  });

  it("one sure file and a long tail: the sure file alone", () => {
    expect(decideContext(files(0.95, 0.05, 0.05, 0.05), LIMITS).paths).toEqual(["src/f0.ts"]);
  });

  it("every file at 0.7 or more is in it, even where expected F1 would stop sooner, and the reason says so", () => {
    const decision = decideContext(files(0.99, 0.72, 0.71, 0.7, 0.1), LIMITS);
    expect(decision.paths).toEqual(["src/f0.ts", "src/f1.ts", "src/f2.ts", "src/f3.ts"]);
    expect(decision.reason).toMatch(/^4 files at 0.7 or more/);
  });

  it("is a set of best files, the expected-F1 best among them", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 12 }), (raw) => {
        const chances = [...raw].sort((a, b) => b - a);
        const decision = decideContext(files(...chances), LIMITS);
        if (chances[0]! < 0.2) {
          expect(decision.paths).toEqual([]);
          return;
        }
        const k = decision.paths.length;
        expect(decision.paths).toEqual(files(...chances).slice(0, k).map((f) => f.path));
        const sure = chances.filter((c) => c >= 0.7).length;
        expect(k).toBeGreaterThanOrEqual(Math.max(1, sure));
        const all = expectedF1OfPrefixes(chances, Math.min(chances.length, Math.max(sure, 8)));
        // no other prefix (from the sure ones on) does better
        for (let size = Math.max(1, sure); size <= all.length; size++) expect(all[size - 1]!).toBeLessThanOrEqual(decision.expectedF1 + 1e-9);
      }),
      { numRuns: 300 },
    );
  });

  it("holds the budget: a file that does not fit is passed over, a smaller one after it taken, a sure one left out is named", () => {
    const ranked: ContextCandidate[] = [
      { path: "src/a.ts", chance: 0.9, tokens: 600 },
      { path: "src/big.ts", chance: 0.8, tokens: 5000 },
      { path: "src/c.ts", chance: 0.75, tokens: 300 },
    ];
    const decision = decideContext(ranked, { maxFiles: 8, budgetTokens: 1000 });
    expect(decision.paths).toEqual(["src/a.ts", "src/c.ts"]);
    expect(decision.overBudget).toEqual(["src/big.ts"]);
    expect(decision.reason).toContain("1 file at 0.7 or more over the 1000-token budget");
  });

  it("never passes over the best file for its size: it is the one to read first, and the reason says it is over the budget", () => {
    const ranked: ContextCandidate[] = [
      { path: "src/huge.ts", chance: 0.6, tokens: 50_000 },
      { path: "src/b.ts", chance: 0.3, tokens: 200 },
    ];
    const decision = decideContext(ranked, { maxFiles: 8, budgetTokens: 20_000 });
    expect(decision.paths[0]).toBe("src/huge.ts");
    expect(decision.reason).toContain("src/huge.ts alone is over the 20000-token budget");
  });

  it("takes at most maxFiles below 0.7", () => {
    const decision = decideContext(files(0.45, 0.45, 0.45, 0.45, 0.45, 0.45), { maxFiles: 3, budgetTokens: 20_000 });
    expect(decision.paths).toHaveLength(3);
  });

  it("is deterministic", () => {
    const a = decideContext(files(0.41, 0.27, 0.19, 0.13), LIMITS);
    const b = decideContext(files(0.41, 0.27, 0.19, 0.13), LIMITS);
    expect(b).toEqual(a);
  });
});
