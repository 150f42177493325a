/**
 * The identifier scan reads the words of the code outside the skip spans
 * (src/parse/scan-identifiers.ts). A word is what the regex
 * /(?<![\w$#])#?[A-Za-z_$][\w$]*\/ matches; the scan reads it character by
 * character, and must find the same words as that regex, cut at the skip
 * spans the same way.
 */
import { describe, expect, test } from "vitest";
import { normaliseSpans, scanIdentifiers, type SkipSpans } from "../../src/parse/scan-identifiers.js";

type Word = [start: number, name: string, isProperty: boolean];

function scan(text: string, skip: SkipSpans = { starts: [], ends: [] }, keywords: string[] = []): Word[] {
  const words: Word[] = [];
  scanIdentifiers(text, skip, new Set(keywords), (start, name, isProperty) => words.push([start, name, isProperty]));
  return words;
}

/** The words as the regex reads them, each cut at the skip span it runs into (spans sorted and disjoint). */
function scanByRegex(text: string, skip: SkipSpans): string[] {
  const words: string[] = [];
  const word = /(?<![\w$#])#?[A-Za-z_$][\w$]*/g;
  let from = 0;
  const upTo = (to: number): void => {
    word.lastIndex = from;
    for (let m = word.exec(text); m !== null && m.index < to; m = word.exec(text)) {
      const end = m.index + m[0].length;
      const name = end > to ? m[0].slice(0, to - m.index) : m[0];
      if (!(name === "$" && text.charCodeAt(end) === 123)) words.push(`${m.index}:${name}`);
      if (end > to) break;
    }
  };
  for (let i = 0; i < skip.starts.length; i++) {
    if (skip.starts[i]! > from) upTo(skip.starts[i]!);
    from = Math.max(from, skip.ends[i]!);
  }
  upTo(text.length);
  return words;
}

describe("scanIdentifiers", () => {
  test("reads words, private names and properties; not what follows a digit (`12ab`, `é9z`), `#` inside words, keywords or `${`", () => {
    expect(scan("a.b(c1, _d$, $) #p this.#q x#y 12ab é9z `${v}`", undefined, ["this"])).toEqual([
      [0, "a", false],
      [2, "b", true],
      [4, "c1", false],
      [8, "_d$", false],
      [13, "$", false],
      [16, "#p", false],
      [24, "#q", true],
      [27, "x", false],
      [43, "v", false],
    ]);
  });

  test("a word running into a skipped span stops at its start; none starts right after a word char before it", () => {
    const text = 'abc"def"ghi jk';
    // the string is skipped: "ghi" follows a quote, so it is a word
    expect(scan(text, normaliseSpans([3], [8]))).toEqual([
      [0, "abc", false],
      [8, "ghi", false],
      [12, "jk", false],
    ]);
    // a span cutting a word: its head is read, its tail after the span is not a word (a word char precedes it)
    expect(scan("abcdef gh", normaliseSpans([3], [5]))).toEqual([
      [0, "abc", false],
      [7, "gh", false],
    ]);
  });

  test("finds the same words as the regex on code of every kind", () => {
    const samples = [
      "export function f(a, b) { return a.b?.c ?? #x in this; }",
      "const $ = 1, _ = $$, é = ü, a1b2 = 3e10, x = 0x1f;",
      "class C { #p = 1; m() { return this.#p + C.#q; } }",
      "`a ${b} c${d}e` + '${f}' + $ {g}",
      "#!/usr/bin/env node\nlet a#b = 1; a# b; #1a; ##c",
    ];
    // random texts over a small alphabet hit the boundaries the samples miss
    let seed = 7;
    const random = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const alphabet = "ab_$#1. {}é\n";
    for (let n = 0; n < 300; n++) {
      let text = "";
      for (let i = 0; i < 30; i++) text += alphabet[Math.floor(random() * alphabet.length)];
      samples.push(text);
    }
    for (const text of samples) {
      const starts: number[] = [];
      const ends: number[] = [];
      for (let i = 0; i < 3; i++) {
        const start = Math.floor(random() * text.length);
        starts.push(start);
        ends.push(Math.min(text.length, start + Math.floor(random() * 6)));
      }
      for (const skip of [normaliseSpans([], []), normaliseSpans(starts, ends)]) {
        expect(scan(text, skip).map(([start, name]) => `${start}:${name}`), JSON.stringify(text)).toEqual(scanByRegex(text, skip));
      }
    }
  });
});
