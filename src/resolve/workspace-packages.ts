/**
 * Workspace packages: every package.json under the root (never inside
 * node_modules) that names a package, found among the folders holding
 * scanned files and their ancestors. Also the fallback that maps a
 * workspace package's entry points to its scanned sources when they point
 * at a build output that was not scanned (`main: "dist/index.js"`).
 */
import { posix } from "node:path";
import type { Diagnostic } from "../types.js";
import { foldersOf } from "../util/folders.js";
import type { RootHost } from "./root-host.js";
import { findSourceForBuildOutput, findSourceFileOrIndex } from "./source-twins.js";

/** One package.json under the root with a name. */
export interface WorkspacePackage {
  name: string;
  /** Root-relative folder ("" for the root itself). */
  dir: string;
  /** The manifest fields that point at entry files. */
  manifest: PackageManifest;
}

/** The fields of package.json this stage reads. */
export interface PackageManifest {
  name?: unknown;
  exports?: unknown;
  main?: unknown;
  module?: unknown;
  types?: unknown;
  typings?: unknown;
  source?: unknown;
}

/** Conditions tried first when a package's `exports` names several files. */
const PREFERRED_CONDITIONS = ["source", "development", "types", "import", "module", "default", "require", "node"];

/**
 * Finds the workspace packages among the folders of the scanned files.
 * @param root absolute real root, "/"-separated
 * @param filePaths scanned root-relative files
 * @example
 * findWorkspacePackages("/repo", ["packages/core/src/index.ts"], host).packages.get("@acme/core")?.dir // "packages/core"
 */
export function findWorkspacePackages(
  root: string,
  filePaths: readonly string[],
  host: Pick<RootHost, "fileExists" | "readFile">,
): { packages: Map<string, WorkspacePackage>; diagnostics: Diagnostic[] } {
  const packages = new Map<string, WorkspacePackage>();
  const diagnostics: Diagnostic[] = [];
  for (const dir of foldersOf(filePaths)) {
    if (dir.split("/").includes("node_modules")) continue;
    const manifestPath = dir === "" ? "package.json" : `${dir}/package.json`;
    const absPath = `${root}/${manifestPath}`;
    if (!host.fileExists(absPath)) continue;
    const manifest = readManifest(host.readFile(absPath));
    if (manifest === undefined) {
      diagnostics.push({ kind: "warning", path: manifestPath, message: "package.json is not valid JSON (its package name cannot be resolved to this folder)" });
      continue;
    }
    if (typeof manifest.name !== "string" || manifest.name === "") continue;
    const existing = packages.get(manifest.name);
    if (existing !== undefined) {
      diagnostics.push({
        kind: "warning",
        path: manifestPath,
        message: `package name ${manifest.name} is also used by ${existing.dir || "."}/package.json (imports of it resolve to the first; rename one)`,
      });
      continue;
    }
    packages.set(manifest.name, { name: manifest.name, dir, manifest });
  }
  return { packages, diagnostics };
}

function readManifest(text: string | undefined): PackageManifest | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null ? (value as PackageManifest) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The scanned file a workspace package's entry (`subpath` "." or "./x")
 * leads to, through `exports`, `types`/`main`/…, their `src/` twins, and at
 * last the package's `src/index`, `index` (or `src/x`, `x`, with a leading
 * build folder such as `dist/` mapped to `src/`). A subpath that an
 * `exports` map does not export stays unresolved, as in Node.
 * @example
 * resolveWorkspaceEntry({ name: "@acme/shared", dir: "packages/shared", manifest: { main: "dist/index.js" } }, ".", scanned)
 * // { target: "packages/shared/src/index.ts" }
 */
export function resolveWorkspaceEntry(
  pkg: WorkspacePackage,
  subpath: string,
  scanned: ReadonlySet<string>,
): { target: string } | { reason: string } {
  const exported = exportTargets(pkg.manifest.exports, subpath);
  if (exported === undefined) {
    return { reason: `"${subpath}" is not exported by ${pkg.name} (add it to the exports of ${pkg.dir || "."}/package.json)` };
  }
  const targets = [...exported];
  if (subpath === ".") {
    for (const field of ["source", "types", "typings", "module", "main"] as const) {
      const value = pkg.manifest[field];
      if (typeof value === "string") targets.push(value);
    }
  }
  for (const target of targets) {
    const found = findSourceForBuildOutput(pkg.dir, target, scanned);
    if (found !== undefined) return { target: found };
  }
  const inner = subpath === "." ? "index" : subpath.slice(2);
  const found =
    findSourceFileOrIndex(posix.join(pkg.dir, "src", inner), scanned) ?? findSourceForBuildOutput(pkg.dir, inner, scanned);
  if (found !== undefined) return { target: found };
  return { reason: `workspace package ${pkg.name} (${pkg.dir || "."}) has no scanned source for "${subpath}" (check its package.json exports/main)` };
}

/**
 * Every file path `exports` names for `subpath`, preferred conditions
 * first, `*` patterns expanded; undefined when an `exports` field exists
 * and does not export `subpath`.
 */
function exportTargets(exportsField: unknown, subpath: string): string[] | undefined {
  if (exportsField === undefined || exportsField === null) return [];
  const isSubpathMap =
    typeof exportsField === "object" && !Array.isArray(exportsField) && Object.keys(exportsField).some((key) => key.startsWith("."));
  if (!isSubpathMap) return subpath === "." ? flattenConditions(exportsField) : undefined;
  const map = exportsField as Record<string, unknown>;
  if (subpath in map) return flattenConditions(map[subpath]);
  for (const [key, value] of Object.entries(map)) {
    const star = key.indexOf("*");
    if (star === -1) continue;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    if (subpath.startsWith(prefix) && subpath.endsWith(suffix) && subpath.length >= prefix.length + suffix.length) {
      const match = subpath.slice(prefix.length, subpath.length - suffix.length);
      return flattenConditions(value).map((target) => target.split("*").join(match));
    }
  }
  return undefined;
}

function flattenConditions(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(flattenConditions);
  if (typeof value !== "object" || value === null) return [];
  const entries = Object.entries(value as Record<string, unknown>);
  const rank = (key: string) => {
    const index = PREFERRED_CONDITIONS.indexOf(key);
    return index === -1 ? PREFERRED_CONDITIONS.length : index;
  };
  entries.sort((a, b) => rank(a[0]) - rank(b[0]));
  return entries.flatMap(([, inner]) => flattenConditions(inner));
}
