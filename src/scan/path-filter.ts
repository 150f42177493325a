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
import picomatch from "picomatch";
import { UsageError } from "../errors.js";

export interface PathFilter {
  /** True when no include globs were given or one matches `path`. */
  isIncluded(path: string): boolean;
  /** True when an exclude glob matches `path`. */
  isExcluded(path: string): boolean;
  /** True when the caller gave include globs. */
  hasInclude: boolean;
}

/**
 * Compile include and exclude globs. Throws {@link UsageError} on a pattern
 * picomatch cannot read (such as an empty string).
 *
 * @example
 * createPathFilter({ exclude: ["vendor"] }).isExcluded("vendor") // true
 */
export function createPathFilter(options: { include?: readonly string[]; exclude?: readonly string[] }): PathFilter {
  const include = compileGlobs("include", options.include ?? []);
  const exclude = compileGlobs("exclude", options.exclude ?? []);
  return {
    isIncluded: (path) => include === undefined || include(path),
    isExcluded: (path) => exclude !== undefined && exclude(path),
    hasInclude: include !== undefined,
  };
}

function compileGlobs(option: string, patterns: readonly string[]): ((path: string) => boolean) | undefined {
  if (patterns.length === 0) return undefined;
  const matchers = patterns.map((pattern) => {
    try {
      return picomatch(normalisePattern(pattern), { dot: true });
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
