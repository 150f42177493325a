/**
 * A path as a person or a model writes it (`./src/a.ts`, `src\a.ts`, an
 * absolute path inside the root, `auth/tokens.ts` without its `src/`) → the
 * graph's root-relative POSIX path, or the closest files to suggest. The CLI's
 * --explain and the MCP server's explain_file and graph_neighbors all ask
 * here, so the same input gets the same suggestion everywhere.
 *
 * Suggestions, best first: files whose path ends with the whole input (the
 * input lacks a leading folder), then files of the same name ranked by how
 * many trailing folders they share with the input, then files whose name is
 * one or two edits away or contains the input's stem.
 *
 * @example
 * resolveFilePath(codeGraph, "./src/auth/tokens.ts"); // { path: "src/auth/tokens.ts" }
 * resolveFilePath(codeGraph, "auth/tokens.ts");       // { suggestions: ["src/auth/tokens.ts"] }
 */
import { isAbsolute, relative } from "node:path";
import { byCodeUnit } from "../util/sort.js";
import { editDistance } from "../util/edit-distance.js";
import type { CodeGraph } from "./code-graph.js";

export type FilePathLookup = { path: string } | { suggestions: string[] };

/** Suggestions a lookup returns at most. */
export const MAX_PATH_SUGGESTIONS = 5;

/**
 * A path as written, made plain: trimmed, `/`-separated, without leading `./`.
 *
 * @example
 * plainPath(".\\src\\a.ts"); // "src/a.ts"
 */
export function plainPath(input: string): string {
  return input.trim().split("\\").join("/").replace(/^(\.\/)+/, "");
}

export function resolveFilePath(codeGraph: Pick<CodeGraph, "root" | "files">, input: string): FilePathLookup {
  let path = input.trim();
  if (isAbsolute(path)) path = relative(codeGraph.root, path);
  path = plainPath(path);
  if (codeGraph.files.has(path)) return { path };
  return { suggestions: suggestFilePaths([...codeGraph.files.keys()], path) };
}

/**
 * The known paths closest to `path` (root-relative, POSIX), best first.
 *
 * @example
 * suggestFilePaths(["src/auth/tokens.ts", "src/cache/tokens.ts"], "auth/tokens.ts"); // ["src/auth/tokens.ts"]
 */
export function suggestFilePaths(known: readonly string[], path: string): string[] {
  const wanted = path.split("/").filter((s) => s !== "" && s !== ".");
  const base = wanted.at(-1) ?? "";
  if (base === "") return [];
  const tail = wanted.join("/");
  const endingWith = known.filter((p) => p.endsWith(`/${tail}`));
  if (endingWith.length > 0) return endingWith.sort(byShortest).slice(0, MAX_PATH_SUGGESTIONS);
  const sameName = known.filter((p) => nameOf(p) === base);
  if (sameName.length > 0) {
    return sameName
      .map((p) => ({ p, shared: sharedTrailingSegments(p.split("/"), wanted) }))
      .sort((a, b) => b.shared - a.shared || byShortest(a.p, b.p))
      .slice(0, MAX_PATH_SUGGESTIONS)
      .map((s) => s.p);
  }
  const stem = base.replace(/\.[^.]+$/, "").toLowerCase();
  return known
    .map((p) => ({ p, distance: editDistance(nameOf(p).toLowerCase(), base.toLowerCase()) }))
    .filter((s) => s.distance <= 2 || (stem.length >= 3 && nameOf(s.p).toLowerCase().includes(stem)))
    .sort((a, b) => a.distance - b.distance || byShortest(a.p, b.p))
    .slice(0, MAX_PATH_SUGGESTIONS)
    .map((s) => s.p);
}

function nameOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** Trailing segments two paths share (the names included). */
function sharedTrailingSegments(a: readonly string[], b: readonly string[]): number {
  let shared = 0;
  while (shared < a.length && shared < b.length && a[a.length - 1 - shared] === b[b.length - 1 - shared]) shared++;
  return shared;
}

/** Shorter paths first, then by code unit: a deterministic order. */
function byShortest(a: string, b: string): number {
  return a.length - b.length || byCodeUnit(a, b);
}
