/**
 * readIssue on real-shaped issue texts: a Node trace through dist/, a
 * Chrome trace, a Firefox one, a Python traceback, a quoted message, an
 * issue template with empty sections and an environment table, image and
 * repository links. A commit message reads back as itself.
 */
import { describe, expect, it } from "vitest";
import { ISSUE_PROSE_WEIGHT } from "../../src/retrieve/parameters.js";
import { parseTask, TERM_WEIGHTS } from "../../src/retrieve/query.js";
import { framePath, readIssue, repositoryPath } from "../../src/retrieve/read-issue.js";

const NODE_TRACE = `Crash when the config has no plugins

I upgraded and now the CLI crashes on start.

\`\`\`
TypeError: Cannot read properties of undefined (reading 'map')
    at loadPlugins (/home/me/proj/node_modules/some-tool/dist/config/load-plugins.js:42:18)
    at async resolveConfig (/home/me/proj/node_modules/some-tool/dist/config/index.js:88:3)
    at Object.<anonymous> (/home/me/proj/node_modules/some-tool/dist/cli.js:12:1)
\`\`\`
`;

const CHROME_TRACE = `Uncaught TypeError: e.getGeometry is not a function
    at VectorLayer.renderFeature (https://cdn.example.com/ol@7.1.0/dist/ol.js:2:31337)
    at https://cdn.example.com/ol@7.1.0/dist/ol.js:2:4096`;

const FIREFOX_TRACE = `Rendering fails in Firefox

renderFeature@webpack:///./src/ol/renderer/canvas/VectorLayer.js:120:7
forEach@[native code]`;

const PYTHON_TRACE = `Traceback (most recent call last):
  File "/usr/lib/python3.11/site-packages/app/cli.py", line 41, in main
    run(args)
  File "app/runner.py", line 7, in run
    raise ValueError("no   such\\n  task")
ValueError: no such task`;

const TEMPLATE = `Typed start event can be pasted onto a sub process

__Describe the Bug__

Creating typed start events is not allowed within a subprocess, but they can be pasted onto one.

![06-08-2020](https://user-images.githubusercontent.com/1/2.gif)

__Steps to Reproduce__

1. Copy a typed start event
2. Paste onto a subprocess

__Expected Behavior__

Pasting is not allowed.

### Screenshots

### Environment

 - Browser: Chrome 84
 - OS: macOS 10.15.6
 - Library version: v7.3.0

- [ ] I searched the existing issues
<!-- Please describe the bug above -->
`;

describe("readIssue", () => {
  it("a Node trace: the message, each frame with its function and line, the paths as written", () => {
    const issue = readIssue(NODE_TRACE);
    expect(issue.isIssue).toBe(true);
    expect(issue.title).toBe("Crash when the config has no plugins");
    expect(issue.messages).toContain("Cannot read properties of undefined (reading 'map')");
    expect(issue.frames).toEqual([
      { path: "/home/me/proj/node_modules/some-tool/dist/config/load-plugins.js", line: 42, fn: "loadPlugins", format: "node" },
      { path: "/home/me/proj/node_modules/some-tool/dist/config/index.js", line: 88, fn: "resolveConfig", format: "node" },
      { path: "/home/me/proj/node_modules/some-tool/dist/cli.js", line: 12, fn: "Object.<anonymous>", format: "node" },
    ]);
    expect(issue.prose).toEqual(["I upgraded and now the CLI crashes on start."]);
  });

  it("a Chrome trace outside a fence: frames from URLs, and a frame without a function", () => {
    const issue = readIssue(CHROME_TRACE);
    expect(issue.messages).toEqual(["e.getGeometry is not a function"]);
    expect(issue.frames.map((f) => [framePath(f.path), f.fn])).toEqual([
      ["ol@7.1.0/dist/ol.js", "VectorLayer.renderFeature"],
      ["ol@7.1.0/dist/ol.js", undefined],
    ]);
  });

  it("a Firefox trace: fn@file, webpack's URL read as the source path", () => {
    const issue = readIssue(FIREFOX_TRACE);
    expect(issue.frames[0]).toMatchObject({ fn: "renderFeature", line: 120, format: "firefox" });
    expect(framePath(issue.frames[0]!.path)).toBe("src/ol/renderer/canvas/VectorLayer.js");
    expect(issue.paths).toContain("src/ol/renderer/canvas/VectorLayer.js");
  });

  it("a Python traceback: File, line and function; the final error's message", () => {
    const issue = readIssue(PYTHON_TRACE);
    expect(issue.frames.map((f) => [f.path, f.line, f.fn, f.format])).toEqual([
      ["/usr/lib/python3.11/site-packages/app/cli.py", 41, "main", "python"],
      ["app/runner.py", 7, "run", "python"],
    ]);
    expect(issue.messages).toContain("no such task");
  });

  it("a template: headings, empty sections, the environment, checkboxes, images and HTML comments are taken out", () => {
    const issue = readIssue(TEMPLATE);
    expect(issue.isIssue).toBe(true);
    expect(issue.title).toBe("Typed start event can be pasted onto a sub process");
    expect(issue.prose).toEqual([
      "Creating typed start events is not allowed within a subprocess, but they can be pasted onto one.",
      "1. Copy a typed start event",
      "2. Paste onto a subprocess",
      "Pasting is not allowed.",
    ]);
    const words = issue.prose.join(" ");
    for (const noise of ["Describe", "Expected", "Environment", "Chrome", "macOS", "searched", "Please", "gif"]) expect(words).not.toContain(noise);
    expect(issue.dropped.images).toBe(1);
    expect(issue.dropped.headings).toBe(5);
  });

  it("quoted messages and inline code of several words are messages, as written; repository links name their file; versions are dropped", () => {
    const issue = readIssue(
      'Context error after upgrade\n\nI get "Context is not finalized.  Did you forget to return a Response object?" since 4.2.1, see https://github.com/acme/web/blob/main/src/hono-base.ts#L120 and `c.res is undefined`.',
    );
    expect([...issue.messages].sort()).toEqual(["Context is not finalized.  Did you forget to return a Response object?", "c.res is undefined"]);
    expect(issue.paths).toEqual(["src/hono-base.ts"]);
    expect(issue.prose.join(" ")).not.toMatch(/4\.2\.1|https?:/);
    expect(issue.dropped.versions).toBe(1);
  });

  it("a commit message reads back as itself", () => {
    const issue = readIssue("router: keep the trailing slash when mounting a sub-app");
    expect(issue.isIssue).toBe(false);
    expect(issue.title).toBeUndefined();
    expect(issue.prose).toEqual(["router: keep the trailing slash when mounting a sub-app"]);
    expect(issue.frames).toEqual([]);
  });
});

describe("repositoryPath", () => {
  it("keeps what a dependency's own repository holds, or the last segments of an absolute path", () => {
    expect(repositoryPath("/home/me/app/node_modules/@acme/tool/dist/config/load.js")).toBe("dist/config/load.js");
    expect(repositoryPath("/home/me/proj/node_modules/some-tool/dist/cli.js")).toBe("dist/cli.js");
    expect(repositoryPath("/usr/src/app/lib/router.js")).toBe("app/lib/router.js");
    expect(repositoryPath("webpack:///./src/ol/Map.js")).toBe("src/ol/Map.js");
    expect(repositoryPath("app/runner.py")).toBe("app/runner.py");
  });
});

describe("parseTask on an issue", () => {
  it("searches the title, the prose and what the code names, not the template, the environment or the links", () => {
    const query = parseTask(`${NODE_TRACE}\n${TEMPLATE.split("\n").slice(1).join("\n")}`);
    const terms = query.terms.map((t) => t.term);
    for (const noise of ["describ", "expect", "environ", "chrome", "maco", "browser", "githubusercontent", "gif"]) expect(terms, noise).not.toContain(noise);
    // the frames' functions and files, and the error message
    expect(query.identifiers).toEqual(expect.arrayContaining(["loadPlugins", "resolveConfig"]));
    expect(query.paths).toEqual(expect.arrayContaining(["dist/config/load-plugins.js", "dist/cli.js"]));
    expect(query.phrases).toContain("Cannot read properties of undefined (reading 'map')");
    expect(terms).toEqual(expect.arrayContaining(["plugin", "crash", "typ", "start", "subprocess"]));
  });

  it("weighs the body's plain words below the title's, and not its code", () => {
    const query = parseTask(TEMPLATE);
    const weight = (term: string) => query.terms.find((t) => t.term === term)?.weight;
    // in the title (and the body): the title's weight
    expect(weight("start")).toBe(TERM_WEIGHTS.task);
    expect(weight("past")).toBe(TERM_WEIGHTS.task);
    // only in the body's prose: less
    expect(weight("creat")).toBe(TERM_WEIGHTS.task * ISSUE_PROSE_WEIGHT);
    expect(weight("subprocess")).toBe(TERM_WEIGHTS.task * ISSUE_PROSE_WEIGHT);
    // code in the body keeps its weight: a frame's function, a span in backticks
    const traced = parseTask(`${NODE_TRACE}\nIt happens when \`usePlugins\` is empty.`);
    expect(traced.terms.find((t) => t.term === "load")?.weight).toBe(TERM_WEIGHTS.verbatim);
    expect(traced.terms.filter((t) => t.original === "usePlugins").map((t) => t.weight)).toEqual([TERM_WEIGHTS.verbatim]);
    expect(traced.terms.find((t) => t.term === "upgrad")?.weight).toBe(TERM_WEIGHTS.task * ISSUE_PROSE_WEIGHT);
  });

  it("reads a commit message as before", () => {
    const task = "useQueries: Prevent infinite render loops when useSuspenseQueries has duplicate queryKeys";
    expect(parseTask(task).identifiers).toEqual(["useQueries", "useSuspenseQueries", "queryKeys"]);
  });
});
