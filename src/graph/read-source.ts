/**
 * Reading a source file of the graph: only files the scan found under the
 * root are read, whatever path a caller (a renderer, a context pack, an MCP
 * tool) asks for, so nothing outside the root is ever read through it.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { UsageError } from "../errors.js";
import type { CodeGraph } from "./code-graph.js";

/**
 * A reader of the graph's files by root-relative path; any other path is refused with a usage error.
 *
 * @example
 * const read = sourceReader(codeGraph);
 * await read("src/auth/tokens.ts"); // the file's text
 * await read("../secrets.env");     // rejects: not a source file under the root
 */
export function sourceReader(codeGraph: Pick<CodeGraph, "root" | "files">): (path: string) => Promise<string> {
  return async (path) => {
    if (!codeGraph.files.has(path)) throw new UsageError(`"${path}" is not a source file under the root ${codeGraph.root}`);
    return readFile(resolve(codeGraph.root, path), "utf8");
  };
}
