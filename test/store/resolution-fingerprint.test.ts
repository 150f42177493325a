/**
 * The resolution fingerprint: the scanned file set and the config files of
 * their folders and ancestors. The scan's walk hands over the config file
 * names of the folders it reads, so a warm run does not read them again;
 * the fingerprint must be the same either way.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { scanFiles } from "../../src/scan/index.js";
import { configFileNames, resolutionFingerprint } from "../../src/store/index.js";
import { copyFixture, makeTempDir } from "./helpers.js";

let tmp: { dir: string; cleanup: () => void };
let root: string;
beforeEach(() => {
  tmp = makeTempDir("gr-fingerprint-");
  root = copyFixture("monorepo", join(tmp.dir, "root"));
});
afterEach(() => tmp.cleanup());

/** The scan, and the config names of each folder its walk read. */
async function scanWithConfigs(): Promise<{ realRoot: string; paths: string[]; names: Map<string, string[]> }> {
  const names = new Map<string, string[]>();
  const scan = await scanFiles(root, {}, { onFolder: (path, entries) => void names.set(path, configFileNames(entries ?? [])) });
  return { realRoot: scan.root, paths: scan.files.map((f) => f.path), names };
}

describe("resolution fingerprint", () => {
  it("from the config names the walk saw, equals the one that reads the folders again", async () => {
    const { realRoot, paths, names } = await scanWithConfigs();
    expect(names.get("")).toEqual(["package.json", "tsconfig.base.json", "tsconfig.json"]);
    expect(names.get("packages/app")).toEqual(["package.json", "tsconfig.json"]);
    expect(await resolutionFingerprint(realRoot, paths, names)).toBe(await resolutionFingerprint(realRoot, paths));
  });

  it("a config file added to a folder of the scanned files changes it; the names given for a folder are the ones used", async () => {
    const before = await scanWithConfigs();
    const fingerprint = await resolutionFingerprint(before.realRoot, before.paths, before.names);
    writeFileSync(join(root, "packages/core/jsconfig.json"), "{}\n");
    const after = await scanWithConfigs();
    expect(after.names.get("packages/core")).toContain("jsconfig.json");
    expect(await resolutionFingerprint(after.realRoot, after.paths, after.names)).not.toBe(fingerprint);
    // given the names from before the write, the new file is not looked for
    expect(await resolutionFingerprint(after.realRoot, after.paths, before.names)).toBe(fingerprint);
  });
});
