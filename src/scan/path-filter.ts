/**
 * The caller's include / exclude globs (root-relative, picomatch, dotfiles
 * matched). A glob that matches a folder covers everything under it, so
 * `legacy` and `legacy/**` both leave the whole folder out. Exclude beats
 * include.
 *
 * @example
 * const filter = createPathFilter({ include: ["src/**"], exclude: ["**\/*.test.ts"] });
 * filter.isExcluded("src/a.test.ts") // true
 * filter.isIncluded("src/a.ts")      // true
 * filter.isIncluded("docs/a.ts")     // false
 */
import { createRequire } from "node:module";
import { UsageError } from "../errors.js";

/**
 * picomatch, loaded by require when the first glob is compiled: a scan
 * without globs never loads it, and an ES import of a CommonJS package
 * pays the scan of its source for export names (with ignore's, ~4 ms of a
 * warm query on effect@4.1.0).
 */
const require = createRequire(import.meta.url);
let picomatchModule: typeof import("picomatch") | undefined;
const picomatch = (): typeof import("picomatch") => (picomatchModule ??= require("picomatch") as typeof import("picomatch"));

export interface PathFilter {
  /** True when no include globs were given or one matches `path`, or an also-include glob matches it. */
  isIncluded(path: string): boolean;
  /** True when an exclude glob matches `path`. */
  isExcluded(path: string): boolean;
  /** True when the caller gave include globs. */
  hasInclude: boolean;
  /**
   * True when an include glob names the folder at `path` by its own name
   * (`dist/**` or `dist` for `dist`, `packages/*\/dist/**` for
   * `packages/a/dist`, `**\/build/**` for any `build`): such a folder is read
   * although its name is one the scan leaves out by default. `**\/*.ts`
   * names no folder.
   */
  namesFolder(path: string): boolean;
}

/**
 * Compile include and exclude globs. Throws {@link UsageError} on a pattern
 * picomatch cannot read (such as an empty string).
 *
 * @example
 * createPathFilter({ exclude: ["vendor"] }).isExcluded("vendor") // true
 */
export function createPathFilter(options: { include?: readonly string[]; exclude?: readonly string[]; alsoInclude?: readonly string[] }): PathFilter {
  const include = compileGlobs("include", options.include ?? []);
  const exclude = compileGlobs("exclude", options.exclude ?? []);
  const also = compileGlobs("also-include", options.alsoInclude ?? []);
  const folderNamers = compileFolderNamers([...(options.include ?? []), ...(options.alsoInclude ?? [])]);
  return {
    isIncluded: (path) => include === undefined || include(path) || (also !== undefined && also(path)),
    isExcluded: (path) => exclude !== undefined && exclude(path),
    hasInclude: include !== undefined,
    namesFolder: (path) => {
      const name = path.slice(path.lastIndexOf("/") + 1);
      return folderNamers.get(name)?.some((matches) => matches(path)) ?? false;
    },
  };
}

/**
 * For each folder name an include glob writes as a whole literal segment,
 * matchers of the glob cut after that segment: `packages/*\/dist/**` gives
 * dist → `packages/*\/dist`.
 */
function compileFolderNamers(patterns: readonly string[]): Map<string, Array<(path: string) => boolean>> {
  const namers = new Map<string, Array<(path: string) => boolean>>();
  for (const pattern of patterns) {
    const segments = normalisePattern(pattern).split("/");
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i] as string;
      if (segment === "" || picomatch().scan(segment).isGlob) continue;
      let matches: (path: string) => boolean;
      try {
        matches = picomatch()(segments.slice(0, i + 1).join("/"), { dot: true });
      } catch {
        continue; // a cut through a brace group ("{a,b/c}/x"): that prefix names nothing
      }
      const list = namers.get(segment) ?? [];
      list.push(matches);
      namers.set(segment, list);
    }
  }
  return namers;
}

/** A glob that matches every root-relative path (dot files too): one picomatch asked of each of rollup's 12,724 paths took ~20 ms. */
const EVERY_PATH = "**";

function compileGlobs(option: string, patterns: readonly string[]): ((path: string) => boolean) | undefined {
  if (patterns.length === 0) return undefined;
  if (patterns.some((pattern) => normalisePattern(pattern) === EVERY_PATH)) return () => true;
  const matchers = patterns.map((pattern) => {
    try {
      return picomatch()(normalisePattern(pattern), { dot: true });
    } catch (error) {
      throw new UsageError(
        `scan: ${option} pattern ${JSON.stringify(pattern)} is not a valid glob (pass a root-relative pattern such as "src/**/*.ts")`,
        { cause: error },
      );
    }
  });
  return (path) => matchers.some((match) => match(path));
}

/** "./src/**" → "src/**": paths are root-relative without a leading "./". */
function normalisePattern(pattern: string): string {
  return pattern.replace(/^(?:\.\/)+/, "");
}
