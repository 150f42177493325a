/**
 * Graphviz DOT building blocks shared by every DOT renderer: quoting and
 * attribute lists. "\n" line ends always, never os.EOL, so output is the
 * same on every platform.
 */
import { folderOf } from "../util/folders.js";

/** A DOT double-quoted string: every id and label goes through this. */
export function quoteDot(value: string): string {
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\r?\n/g, "\\n")}"`;
}

/** `[a="x", b="y"]` from a record, keys in the given order, undefined values left out. */
export function dotAttributes(attributes: Record<string, string | number | undefined>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    parts.push(`${key}=${typeof value === "number" ? String(value) : quoteDot(value)}`);
  }
  return parts.length > 0 ? ` [${parts.join(", ")}]` : "";
}

/** The folder of a root-relative path as a cluster shows it ("." for top-level files). */
export function folderLabelOf(path: string): string {
  return folderOf(path) || ".";
}
