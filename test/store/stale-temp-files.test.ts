import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { removeStaleTempFiles, STALE_TEMP_MS } from "../../src/store/write-atomic.js";

describe("temp files a killed writer left", () => {
  let dir = "";
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("are removed once stale; a live writer's temp file and other files stay", async () => {
    dir = mkdtempSync(join(tmpdir(), "gr-stale-"));
    const stale = ".index.json.4242.deadbeef.tmp";
    const live = ".graph.json.4243.cafebabe.tmp";
    writeFileSync(join(dir, stale), "{");
    writeFileSync(join(dir, live), "{");
    writeFileSync(join(dir, "index.json"), "{}");
    writeFileSync(join(dir, "notes.tmp"), "user file");
    // another program's temp file of the same shape, in a folder given with --cache-dir
    const theirs = ".notes.md.4244.0badf00d.tmp";
    writeFileSync(join(dir, theirs), "draft");
    const old = (Date.now() - STALE_TEMP_MS - 60_000) / 1000;
    utimesSync(join(dir, stale), old, old);
    utimesSync(join(dir, "notes.tmp"), old, old);
    utimesSync(join(dir, theirs), old, old);

    expect(await removeStaleTempFiles(dir)).toEqual([stale]);
    expect(readdirSync(dir).sort()).toEqual([live, "index.json", "notes.tmp", theirs].sort());
  });

  it("a missing folder is no error", async () => {
    dir = mkdtempSync(join(tmpdir(), "gr-stale-"));
    expect(await removeStaleTempFiles(join(dir, "absent"))).toEqual([]);
  });
});
