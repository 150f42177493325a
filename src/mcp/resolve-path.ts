/**
 * A path as a model writes it (`./src/a.ts`, `src\a.ts`, an absolute path
 * inside the root) → the graph's root-relative POSIX path, or a one-line
 * error naming close matches.
 *
 * @example
 * resolveFilePath(codeGraph, "./src/auth/tokens.ts"); // { path: "src/auth/tokens.ts" }
 */
import { isAbsolute, relative } from "node:path";
import type { CodeGraph } from "../index.js";

export type PathLookup = { path: string } | { error: string };

const MAX_SUGGESTIONS = 5;

export function resolveFilePath(codeGraph: CodeGraph, input: string): PathLookup {
  let path = input.trim();
  if (isAbsolute(path)) path = relative(codeGraph.root, path);
  path = path.split("\\").join("/").replace(/^(\.\/)+/, "");
  if (codeGraph.files.has(path)) return { path };
  const base = path.split("/").pop() ?? path;
  const stem = base.replace(/\.[^.]+$/, "");
  const known = [...codeGraph.files.keys()];
  const close = known.filter((p) => p.endsWith(`/${base}`) || p === base);
  const similar = close.length > 0 ? close : known.filter((p) => stem.length >= 3 && (p.split("/").pop() ?? "").includes(stem));
  const hint = similar.length > 0 ? `did you mean ${similar.sort().slice(0, MAX_SUGGESTIONS).join(", ")}?` : "paths are root-relative, e.g. src/index.ts; retrieve_context lists the files for a task";
  return { error: `"${input}" is not a source file under the root ${codeGraph.root} (${hint})` };
}
