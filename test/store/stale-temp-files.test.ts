import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { removeStaleTempFiles, STALE_TEMP_MS, writeFileAtomic } from "../../src/store/write-atomic.js";
import { hashContent } from "../../src/util/content-hash.js";

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

describe("writeFileAtomic in parts", () => {
  let dir = "";
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("writes the parts one after the other, as one file, and hashes them as their concatenation", async () => {
    dir = mkdtempSync(join(tmpdir(), "gr-parts-"));
    const parts = [Buffer.from("{\"header\":1}\n"), new Uint8Array([0, 1, 2, 255]), Buffer.alloc(0), Buffer.from("tail")];
    await writeFileAtomic(join(dir, "facts.bin"), parts);
    const whole = Buffer.concat(parts);
    expect(readFileSync(join(dir, "facts.bin")).equals(whole)).toBe(true);
    expect(hashContent(parts)).toBe(hashContent(whole));
    expect(hashContent(parts)).not.toBe(hashContent(parts.slice(1)));
    // no temp file left
    expect(readdirSync(dir)).toEqual(["facts.bin"]);
  });
});
