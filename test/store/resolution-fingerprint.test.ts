/**
 * The resolution fingerprint: the scanned file set and the config files of
 * their folders and ancestors. The scan's walk hands over the config file
 * names of the folders it reads, so a warm run does not read them again;
 * the fingerprint must be the same either way.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { scanFiles } from "../../src/scan/index.js";
import { configFileNames, resolutionFingerprint, type ConfigHash, type KnownConfigs } from "../../src/store/index.js";
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

  it("told the walk's names hold every folder, looks only at folders with a config file and a scanned file below, and still equals the full read", async () => {
    // folders with a config file and no scanned file below: one whose name sorts just before a file folder's
    // ("app-docs" < "app/"), one inside a file folder
    mkdirSync(join(root, "packages/app-docs"), { recursive: true });
    writeFileSync(join(root, "packages/app-docs/package.json"), '{"name":"docs"}\n');
    mkdirSync(join(root, "packages/core/assets"), { recursive: true });
    writeFileSync(join(root, "packages/core/assets/tsconfig.json"), "{}\n");
    const { realRoot, paths, names } = await scanWithConfigs();
    expect(names.get("packages/app-docs")).toEqual(["package.json"]);
    const full = await resolutionFingerprint(realRoot, paths, names);
    expect(resolutionFingerprint(realRoot, paths, names, true)).toBe(full);
    expect(resolutionFingerprint(realRoot, paths, undefined)).toBe(full);
    // a file in the config-only folder makes its config part of the fingerprint, either way
    writeFileSync(join(root, "packages/app-docs/page.ts"), "export const page = 1;\n");
    const after = await scanWithConfigs();
    const withFile = resolutionFingerprint(after.realRoot, after.paths, after.names, true);
    expect(withFile).not.toBe(full);
    expect(withFile).toBe(resolutionFingerprint(after.realRoot, after.paths));
    // the names of a walk that missed the root: the root's configs are read all the same
    const withoutRoot = new Map([...after.names].filter(([dir]) => dir !== ""));
    expect(resolutionFingerprint(after.realRoot, after.paths, withoutRoot, true)).toBe(withFile);
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

  it("a Python project's config (pyproject.toml, setup.cfg, setup.py) is part of it: it says where the packages are", async () => {
    writeFileSync(join(root, "pyproject.toml"), '[project]\nname = "tools"\n');
    const before = await scanWithConfigs();
    expect(before.names.get("")).toContain("pyproject.toml");
    const fingerprint = resolutionFingerprint(before.realRoot, before.paths, before.names);
    writeFileSync(join(root, "pyproject.toml"), '[project]\nname = "tools"\n\n[tool.setuptools.packages.find]\nwhere = ["src"]\n');
    expect(resolutionFingerprint(before.realRoot, before.paths, before.names)).not.toBe(fingerprint);
  });

  it("reuses a config file's hash taken before while its stat is the same and was set 2 s or more before that, else reads it", async () => {
    const { realRoot, paths, names } = await scanWithConfigs();
    const full = resolutionFingerprint(realRoot, paths, names, true);
    const found: ConfigHash[] = [];
    expect(resolutionFingerprint(realRoot, paths, names, true, { found })).toBe(full);
    expect(found.map((hash) => hash[0])).toEqual(expect.arrayContaining(["package.json", "tsconfig.json", "packages/app/tsconfig.json"]));
    // a hash said for the root's tsconfig.json is taken on its stat (the files were written an hour ago): another
    // hash, another fingerprint
    const said = (hashes: ConfigHash[], takenAt: number): KnownConfigs => ({ hashes, takenAt });
    const other = found.map((hash): ConfigHash => (hash[0] === "tsconfig.json" ? [hash[0], hash[1], hash[2], "0".repeat(40)] : hash));
    expect(resolutionFingerprint(realRoot, paths, names, true, { known: said(other, Date.now()) })).not.toBe(full);
    expect(resolutionFingerprint(realRoot, paths, names, true, { known: said(found, Date.now()) })).toBe(full);
    // not when the hash was taken within 2 s of the file's last change (it may have changed in the same tick)
    const mtime = found.find((hash) => hash[0] === "tsconfig.json")![2];
    expect(resolutionFingerprint(realRoot, paths, names, true, { known: said(other, mtime + 1000) })).toBe(full);
    // nor once the file's stat moved: edited, it is read
    writeFileSync(join(root, "tsconfig.json"), `${readFileSync(join(root, "tsconfig.json"), "utf8")}\n`);
    const edited = resolutionFingerprint(realRoot, paths, names, true);
    expect(edited).not.toBe(full);
    expect(resolutionFingerprint(realRoot, paths, names, true, { known: said(found, Date.now()) })).toBe(edited);
  });
});
