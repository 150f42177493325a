/**
 * From a file TypeScript (or a package.json) points at to the source file
 * the scan found: `x.js` → `x.ts`, `x.d.ts` → `x.ts`, `dist/x.js` →
 * `src/x.ts`. Pure path arithmetic over the set of scanned paths.
 */
import { posix } from "node:path";

/** Endings stripped before looking for a twin, longest first. */
const STRIPPED_ENDINGS = [
  ".d.ts", ".d.mts", ".d.cts",
  ".ts", ".tsx", ".mts", ".cts",
  ".js", ".jsx", ".mjs", ".cjs",
] as const;

/** Endings tried for a twin, sources before declarations before JavaScript. */
export const SOURCE_ENDINGS = [
  ".ts", ".tsx", ".mts", ".cts",
  ".d.ts", ".d.mts", ".d.cts",
  ".js", ".jsx", ".mjs", ".cjs",
] as const;

/** Build-output folders that usually mirror `src/`. */
const BUILD_DIRS = new Set(["dist", "lib", "build", "out", "esm", "cjs", "types", "typings"]);

/**
 * `a/b.d.ts` → `a/b`; a path without a known ending comes back whole.
 * @example stripSourceEnding("src/view.d.mts") // "src/view"
 */
export function stripSourceEnding(path: string): string {
  const lower = path.toLowerCase();
  const ending = STRIPPED_ENDINGS.find((end) => lower.endsWith(end));
  return ending === undefined ? path : path.slice(0, -ending.length);
}

/**
 * The scanned file for `path`: itself, or a twin with another source ending.
 * @example findSourceTwin("src/a.js", new Set(["src/a.ts"])) // "src/a.ts"
 */
export function findSourceTwin(path: string, scanned: ReadonlySet<string>): string | undefined {
  if (scanned.has(path)) return path;
  const stem = stripSourceEnding(path);
  for (const ending of SOURCE_ENDINGS) {
    const candidate = stem + ending;
    if (scanned.has(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Like {@link findSourceTwin}, also trying `<stem>/index.*`.
 * @example findSourceFileOrIndex("src/models", new Set(["src/models/index.ts"])) // "src/models/index.ts"
 */
export function findSourceFileOrIndex(path: string, scanned: ReadonlySet<string>): string | undefined {
  return findSourceTwin(path, scanned) ?? findSourceTwin(posix.join(stripSourceEnding(path), "index"), scanned);
}

/**
 * The source a build output comes from, inside one package folder:
 * `dist/esm/x.js` → `src/x.ts`, then `x.ts` at the package root.
 * @param packageDir root-relative package folder ("" for the root)
 * @param target package-relative path as written in package.json ("./dist/x.js")
 * @example findSourceForBuildOutput("packages/a", "./dist/esm/x.js", new Set(["packages/a/src/x.ts"])) // "packages/a/src/x.ts"
 */
export function findSourceForBuildOutput(
  packageDir: string,
  target: string,
  scanned: ReadonlySet<string>,
): string | undefined {
  const relative = posix.normalize(target).replace(/^\.\//, "");
  if (relative.startsWith("../")) return undefined;
  const parts = relative.split("/");
  let start = 0;
  while (start < parts.length - 1 && BUILD_DIRS.has(parts[start] ?? "")) start += 1;
  const inner = parts.slice(start).join("/");
  const candidates = [relative, `src/${inner}`, inner];
  for (const candidate of candidates) {
    const found = findSourceFileOrIndex(posix.join(packageDir, candidate), scanned);
    if (found !== undefined) return found;
  }
  return undefined;
}
