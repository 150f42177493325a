/**
 * A command whose scan found no source file has nothing true to say: it
 * fails (exit 1) with one line naming why, rather than a retrieval that
 * "matched nothing". The likeliest causes first: an absolute --include glob
 * (globs are relative to the root), include globs that match nothing, a root
 * of no TypeScript / JavaScript sources.
 */
import { isAbsolute, relative } from "node:path";
import { GraphRetrieveError, type Diagnostic } from "../index.js";

/** Where the include globs came from, for the message: the flag, or the config file. */
export type IncludeSource = "--include" | "the config's include";

/**
 * Undefined when the graph has files, else the error to throw.
 *
 * @example
 * noSourceFilesError(0, "/repo", ["/repo/src/**"], "--include")?.message;
 * // graph-retrieve: --include '/repo/src/**' is an absolute path: globs are relative to the root /repo (write 'src/**')
 */
export function noSourceFilesError(files: number, root: string, include: readonly string[] | undefined, source: IncludeSource): GraphRetrieveError | undefined {
  if (files > 0) return undefined;
  const absolute = include?.find((glob) => isAbsolute(glob) || /^[A-Za-z]:[\\/]/.test(glob));
  if (absolute !== undefined) {
    const inside = relative(root, absolute).split("\\").join("/");
    const fix = inside !== "" && !inside.startsWith("..") && !isAbsolute(inside) ? `write '${inside}'` : "e.g. 'src/**'";
    return new GraphRetrieveError("root", `graph-retrieve: ${source} '${absolute}' is an absolute path: globs are relative to the root ${root} (${fix})`);
  }
  if (include !== undefined && include.length > 0) {
    const globs = include.map((glob) => `'${glob}'`).join(", ");
    return new GraphRetrieveError("root", `graph-retrieve: no source file under the root ${root} matches ${source} ${globs} (globs are relative to the root, e.g. 'src/**'; check the spelling)`);
  }
  return new GraphRetrieveError(
    "root",
    `graph-retrieve: no TypeScript, JavaScript or Python source file under the root ${root} (pass --root with the project folder; node_modules, dist and build output are read only when --include names them, e.g. --include 'dist/**')`,
  );
}

/** The scan's own "no source file" warning: the error above says it, once. */
export function withoutNoFilesWarning(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => !(d.kind === "warning" && d.path === undefined && d.message.startsWith("no source file under the root")));
}
