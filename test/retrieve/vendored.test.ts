/**
 * Vendored third-party code is left out of the ranking unless the task
 * speaks of it: a project that carries a copy of a library (pip's
 * `_vendor/rich`) must not have the copy crowd out its own files when a
 * task names the library's words.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { retrieve } from "../../src/index.js";

const FILES: Record<string, string> = {
  "src/tool/__init__.py": "",
  "src/tool/cli.py": [
    "import logging",
    "",
    "from tool.runner import run",
    "",
    "",
    "def main(argv):",
    '    """Run the command line; in debug mode an error prints its traceback."""',
    "    try:",
    "        return run(argv)",
    "    except Exception:",
    '        logging.getLogger("tool").exception("failed")',
    "        return 1",
    "",
  ].join("\n"),
  "src/tool/runner.py": ["def run(argv):", '    """Run the steps the arguments name."""', "    return 0", ""].join("\n"),
  "src/tool/_vendor/__init__.py": "",
  "src/tool/_vendor/rich/__init__.py": "",
  "src/tool/_vendor/rich/traceback.py": [
    "class Traceback:",
    '    """A rich traceback: the frames of an exception, rendered with their source."""',
    "",
    "    def __init__(self, trace, debug=False):",
    "        self.trace = trace",
    "        self.debug = debug",
    "",
    "",
    "def install(debug=False):",
    '    """Install the rich traceback handler for uncaught exceptions in debug mode."""',
    "    return Traceback(None, debug)",
    "",
  ].join("\n"),
};

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "gr-vendored-"));
  for (const [path, text] of Object.entries(FILES)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const VENDORED = "src/tool/_vendor/rich/traceback.py";

describe("vendored code", () => {
  it("is not ranked for a task that names the library's words", async () => {
    const result = await retrieve("Use rich traceback in debug mode", { root, history: false });
    expect(result.files.map((f) => f.path)).not.toContain(VENDORED);
    expect(result.files[0]?.path).toBe("src/tool/cli.py");
  });

  it("is ranked, first here, when the task speaks of the vendored copy", async () => {
    for (const task of ["Update the vendored rich traceback for debug mode", "Patch the third-party rich traceback in debug mode"]) {
      const result = await retrieve(task, { root, history: false });
      expect(result.files[0]?.path, task).toBe(VENDORED);
    }
  });

  it("is ranked when the caller's globs name the vendored folder", async () => {
    for (const globs of [{ include: ["src/tool/_vendor/**"] }, { alsoInclude: ["src/tool/_vendor/rich/**"] }]) {
      const result = await retrieve("Use rich traceback in debug mode", { root, history: false, ...globs });
      expect(result.files[0]?.path, JSON.stringify(globs)).toBe(VENDORED);
      const bm25 = await retrieve("Use rich traceback in debug mode", { root, history: false, strategy: "bm25", ...globs });
      expect(bm25.files.map((f) => f.path), JSON.stringify(globs)).toContain(VENDORED);
    }
  });

  it("is left out by the bm25 strategy too", async () => {
    const result = await retrieve("Use rich traceback in debug mode", { root, history: false, strategy: "bm25" });
    expect(result.files.map((f) => f.path)).not.toContain(VENDORED);
  });
});
