/**
 * A path as a model writes it → the graph's root-relative path, or a one-line
 * error naming close matches. The lookup and its suggestions are the
 * library's resolveFilePath, the one the CLI's --explain uses too.
 *
 * @example
 * lookUpPath(codeGraph, "./src/auth/tokens.ts"); // { path: "src/auth/tokens.ts" }
 */
import { resolveFilePath, type CodeGraph } from "../index.js";

export type PathLookup = { path: string } | { error: string };

export function lookUpPath(codeGraph: CodeGraph, input: string): PathLookup {
  const found = resolveFilePath(codeGraph, input);
  if ("path" in found) return found;
  const hint = found.suggestions.length > 0 ? `did you mean ${found.suggestions.join(", ")}?` : "paths are root-relative, e.g. src/index.ts; retrieve_context lists the files for a task";
  return { error: `"${input}" is not a source file under the root ${codeGraph.root} (${hint})` };
}
