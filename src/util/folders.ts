import { posix } from "node:path";
import { byCodeUnit } from "./sort.js";

/**
 * Every folder that holds one of the files or holds such a folder, up to the
 * root ("" stands for the root), sorted.
 *
 * @example
 * foldersOf(["src/a/b.ts", "lib/c.ts"]); // ["", "lib", "src", "src/a"]
 */
export function foldersOf(filePaths: readonly string[]): string[] {
  const dirs = new Set<string>([""]);
  for (const file of filePaths) {
    let dir = posix.dirname(file);
    while (dir !== "." && dir !== "" && !dirs.has(dir)) {
      dirs.add(dir);
      dir = posix.dirname(dir);
    }
  }
  return [...dirs].sort(byCodeUnit);
}
