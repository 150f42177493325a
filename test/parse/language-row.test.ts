import { describe, expect, it } from "vitest";
import { LANGUAGES, languageRowForPath } from "../../src/parse/languages.js";

/** The lookup as it was: the first row one of whose extensions the lower-cased path ends with. */
const byScan = (path: string) => {
  const lower = path.toLowerCase();
  return LANGUAGES.find((row) => row.extensions.some((ext) => lower.endsWith(ext)));
};

describe("a path's language row", () => {
  it("is the row whose extension the path ends with, case aside, as a scan of the table finds it", () => {
    const endings = [...LANGUAGES.flatMap((row) => row.extensions), ".d.ts", ".d.mts", ".json", ".md", ".TS", ".Py", ".PYI", ".tsx.bak", ".ts~", ".", "", ".jsx ", ".es6", ".ts.map"];
    const stems = ["src/a", "a", "src/a.b/c", "src/v1.2/index", ".hidden", "src/.eslintrc", "weird.ts/inside", "x.py/y"];
    let compared = 0;
    for (const stem of stems) {
      for (const ending of endings) {
        const path = `${stem}${ending}`;
        expect(languageRowForPath(path), path).toBe(byScan(path));
        compared++;
      }
    }
    expect(compared).toBe(stems.length * endings.length);
    expect(languageRowForPath("src/App.TSX")?.language).toBe("tsx");
    expect(languageRowForPath("pkg/__init__.pyi")?.language).toBe("python");
    expect(languageRowForPath("src/types.d.ts")?.language).toBe("typescript");
    expect(languageRowForPath("src/v1.2/README")).toBeUndefined();
  });
});
