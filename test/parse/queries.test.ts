import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import Parser from "tree-sitter";
import { describe, expect, test } from "vitest";
import { GRAMMARS, grammarsDir, loadGrammar, readQuerySource } from "../../src/parse/index.js";
import type { LanguageId } from "../../src/types.js";

const languages = Object.keys(GRAMMARS) as LanguageId[];

/** Every .scm file under grammars/, with the language whose folder holds it. */
function queryFiles(): { file: string; language: LanguageId }[] {
  const root = grammarsDir();
  const found: { file: string; language: LanguageId }[] = [];
  for (const dir of readdirSync(root)) {
    if (!statSync(join(root, dir)).isDirectory()) continue;
    const language = languages.find((id) => GRAMMARS[id].grammarDir === dir);
    for (const file of readdirSync(join(root, dir))) {
      if (file.endsWith(".scm")) found.push({ file: `${dir}/${file}`, language: language as LanguageId });
    }
  }
  return found;
}

describe("grammars/", () => {
  const files = queryFiles();

  test("holds query files, each in a folder that GRAMMARS names", () => {
    expect(files.length).toBeGreaterThan(0);
    for (const { file, language } of files) expect(language, `${file}: no GRAMMARS row for its folder`).toBeDefined();
  });

  test.each(files)("$file compiles against its grammar", ({ file, language }) => {
    const source = readFileSync(join(grammarsDir(), file), "utf8");
    expect(() => new Parser.Query(loadGrammar(language), source)).not.toThrow();
  });

  test.each(languages)("the %s query set compiles as one query", (language) => {
    expect(() => new Parser.Query(loadGrammar(language), readQuerySource(language))).not.toThrow();
  });

  test("each grammar folder has a README with origin and licence", () => {
    for (const language of languages) {
      const readme = readFileSync(join(grammarsDir(), GRAMMARS[language].grammarDir, "README.md"), "utf8");
      expect(readme).toMatch(/licen[cs]e/i);
    }
  });

  test("an unsupported predicate is a query error", () => {
    expect(() => new Parser.Query(loadGrammar("typescript"), '((identifier) @a (#strip! @a "x"))')).toThrow();
  });
});
