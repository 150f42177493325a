/**
 * Kept trees (src/parse/kept-trees.ts): a resident process keeps the tree of
 * a file's last parse, and the next parse of that file starts from it. The
 * facts must be those of a parse from scratch, edit after edit, on each path
 * of parseWithFallback: a clean text, a text parsed repaired straight away
 * (variance modifiers), a text parsed clean only once repaired (overload
 * signatures), and edits that break the text and mend it again.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { parseSource } from "../../src/parse/index.js";
import { createTreeKeeper, type KeptTree } from "../../src/parse/kept-trees.js";
import { preloadParser } from "../../src/parse/parse-files.js";
import { describeEdit, parseText } from "../../src/parse/parse-tree.js";
import { loadLanguage } from "../../src/parse/load-language.js";
import type { LanguageId } from "../../src/types.js";

const FIXTURES = join(import.meta.dirname, "../../fixtures");

function fixtureFiles(): Array<{ path: string; text: string; language: LanguageId }> {
  const files: Array<{ path: string; text: string; language: LanguageId }> = [];
  for (const name of readdirSync(FIXTURES).sort()) {
    for (const entry of readdirSync(join(FIXTURES, name), { recursive: true, encoding: "utf8" }).sort()) {
      if (!/\.tsx?$/.test(entry) || entry.endsWith(".d.ts")) continue;
      files.push({ path: `${name}/${entry}`, text: readFileSync(join(FIXTURES, name, entry), "utf8"), language: entry.endsWith(".tsx") ? "tsx" : "typescript" });
    }
  }
  return files;
}

/** A small deterministic generator (the same edits on every run). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

const INSERTS = [
  "\nexport function added(a: number): number { return a; }\n",
  "\n/** é 😀 */\nexport const émoji = '😀';\n",
  "\ntype Pair<in out A> = { a: A };\n",
  "\nexport type * from './x';\n",
  "{",
  "(",
  "`${",
  "",
];

describe("a parse from a kept tree", () => {
  test("gives the facts of a parse from scratch, over 600 random edits of the fixtures' files, each one that leaves the text clean incremental", () => {
    const files = fixtureFiles();
    expect(files.length).toBeGreaterThan(30);
    const next = random(11);
    const trees = createTreeKeeper({ files: 8, chars: 1_000_000 });
    let edits = 0;
    for (let round = 0; round < 200; round++) {
      const file = files[Math.floor(next() * files.length)] as (typeof files)[number];
      let text = file.text;
      parseSource(file.path, text, file.language, false, trees);
      for (let step = 0; step < 3; step++) {
        const at = Math.floor(next() * (text.length + 1));
        const removed = next() < 0.3 ? Math.floor(next() * 30) : 0;
        text = text.slice(0, at) + (INSERTS[Math.floor(next() * INSERTS.length)] as string) + text.slice(at + removed);
        const kept = parseSource(file.path, text, file.language, false, trees);
        expect(kept, `${file.path} after edit ${step + 1} of round ${round}`).toEqual(parseSource(file.path, text, file.language));
        edits++;
      }
    }
    expect(edits).toBe(600);
    // the edits that leave the text clean (or clean once repaired) start from the kept tree
    expect(trees.reused).toBeGreaterThan(60);
  });

  test("each path of the parse: clean, repaired at once, repaired after a failed parse", () => {
    const trees = createTreeKeeper();
    const cases: Array<[string, string]> = [
      ["graph-basics/src/main.ts", "\nexport const later = 1;\n"],
      ["grammar-gaps/src/variance.ts", "\nexport interface Later<in out A> { a: A }\n"],
      ["grammar-gaps/src/overloads.ts", "\nexport const later = 2;\n"],
    ];
    for (const [path, appended] of cases) {
      const text = readFileSync(join(FIXTURES, path), "utf8");
      parseSource(path, text, "typescript", false, trees);
      const before = trees.reused;
      const edited = parseSource(path, text + appended, "typescript", false, trees);
      expect(trees.reused, path).toBe(before + 1);
      expect(edited).toEqual(parseSource(path, text + appended, "typescript"));
      expect(edited.definitions.map((d) => d.name)).toContain(appended.includes("Later") ? "Later" : "later");
    }
  });

  test("a text broken by an edit is parsed in full, and the next clean edit starts from a kept tree again", () => {
    const trees = createTreeKeeper();
    const path = "graph-basics/src/main.ts";
    const text = readFileSync(join(FIXTURES, path), "utf8");
    parseSource(path, text, "typescript", false, trees);
    const broken = parseSource(path, `${text}\nexport function oops( {\n`, "typescript", false, trees);
    expect(broken).toEqual(parseSource(path, `${text}\nexport function oops( {\n`, "typescript"));
    expect(trees.reused).toBe(0);
    expect(trees.size).toBe(0); // a tree with errors is not kept
    parseSource(path, text, "typescript", false, trees);
    parseSource(path, `${text}\nexport function fine() {}\n`, "typescript", false, trees);
    expect(trees.reused).toBe(1);
  });

  test("preloadParser keeps the trees of its samples", async () => {
    const trees = createTreeKeeper();
    const samples = fixtureFiles().slice(0, 3);
    await preloadParser(samples, trees);
    expect(trees.size).toBe(3);
    parseSource(samples[0]!.path, `${samples[0]!.text}\nexport const x = 1;\n`, samples[0]!.language, false, trees);
    expect(trees.reused).toBe(1);
  });
});

describe("the keeper's budget", () => {
  const tree = (text: string): KeptTree => ({ language: "typescript", text, tree: parseText(loadLanguage("typescript").parser, text) });

  test("drops the least recently used over its number of files, and a take hands a tree out once", () => {
    const trees = createTreeKeeper({ files: 2, chars: 1000 });
    trees.keep("a", tree("const a = 1;"));
    trees.keep("b", tree("const b = 1;"));
    expect(trees.take("a")?.text).toBe("const a = 1;");
    expect(trees.take("a")).toBeUndefined();
    trees.keep("a", tree("const a = 2;"));
    trees.keep("c", tree("const c = 1;")); // b is now the oldest
    expect(trees.size).toBe(2);
    expect(trees.take("b")).toBeUndefined();
    expect(trees.take("a")?.text).toBe("const a = 2;");
  });

  test("holds at most its characters, and never a tree larger than them all", () => {
    const trees = createTreeKeeper({ files: 10, chars: 30 });
    trees.keep("a", tree("const a = 1;")); // 12
    trees.keep("b", tree("const b = 1;")); // 24
    trees.keep("c", tree("const c = 1;")); // 36: a goes
    expect(trees.chars).toBe(24);
    expect(trees.take("a")).toBeUndefined();
    trees.keep("big", tree(`const big = "${"x".repeat(40)}";`));
    expect(trees.take("big")).toBeUndefined();
    expect(trees.size).toBe(2);
  });
});

describe("describeEdit", () => {
  test("the changed span between the common start and end, with rows and columns", () => {
    expect(describeEdit("a;\nb;\n", "a;\nb;\n")).toBeUndefined();
    expect(describeEdit("a;\nb;\n", "a;\nxy;\nb;\n")).toEqual({
      startIndex: 3,
      oldEndIndex: 3,
      newEndIndex: 7,
      startPosition: { row: 1, column: 0 },
      oldEndPosition: { row: 1, column: 0 },
      newEndPosition: { row: 2, column: 0 },
    });
    expect(describeEdit("let abc = 1;", "let c = 1;")).toMatchObject({ startIndex: 4, oldEndIndex: 6, newEndIndex: 4 });
  });

  test("never splits a surrogate pair", () => {
    // 😀 and 😁 share their high surrogate: the edit starts before it
    const edit = describeEdit("x = '😀';", "x = '😁';");
    expect(edit).toMatchObject({ startIndex: 5, oldEndIndex: 7, newEndIndex: 7 });
    // U+1F600 and U+10600 share their low surrogate: the edit ends after it
    expect(describeEdit("'\u{1F600}'", "'\u{10600}'")).toMatchObject({ startIndex: 1, oldEndIndex: 3, newEndIndex: 3 });
  });
});
