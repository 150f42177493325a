/**
 * The README's examples are what the built CLI prints today
 * (scripts/readme-examples.mjs makes them; run it after a change that moves
 * them), and the quick start shows the tool doing its job: a context of
 * files, not "0 files".
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../render/helpers.js";

describe("README.md's examples", () => {
  it("equal a fresh run of the built CLI, the picture included", () => {
    const run = spawnSync(process.execPath, [join(REPO_ROOT, "scripts", "readme-examples.mjs"), "--check"], { cwd: REPO_ROOT, encoding: "utf8" });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });

  it("the quick start's retrieval hands over a context and its supporting files, and its command is the one the README gives", () => {
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
    const quickStart = readme.slice(readme.indexOf("## Quick start"), readme.indexOf("## Retrieve"));
    const command = /^npm ci && npx (graph-retrieve .+)$/m.exec(quickStart)?.[1];
    expect(command).toBeDefined();
    const block = /<!-- readme-example quick-start -->\n([\s\S]*?)<!-- \/readme-example -->/.exec(quickStart)?.[1] ?? "";
    expect(block).toContain(`$ npx ${command}\n`);
    const files = Number(/^Final context: (\d+) files?, /m.exec(block)?.[1]);
    expect(files).toBeGreaterThan(0);
    expect(block).toMatch(/^Also read \(as signatures\):$/m);
    expect(block).not.toMatch(/High relevance/);
  });
});
