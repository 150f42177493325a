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
  // each parent cut at its last "/" (root-relative paths: posix.dirname normalised each again, ~8 ms on rollup)
  for (const file of filePaths) {
    let dir = folderOf(file);
    while (dir !== "" && !dirs.has(dir)) {
      dirs.add(dir);
      dir = folderOf(dir);
    }
  }
  return [...dirs].sort(byCodeUnit);
}

/**
 * The folder of a root-relative path ("" for a file at the root).
 *
 * @example
 * folderOf("src/a/b.ts"); // "src/a"
 * folderOf("b.ts");       // ""
 */
export function folderOf(path: string): string {
  return path.slice(0, Math.max(0, path.lastIndexOf("/")));
}

/**
 * The root-relative path of `name` inside `folder` ("" for the root).
 *
 * @example
 * pathIn("src", "a.ts"); // "src/a.ts"
 * pathIn("", "a.ts");    // "a.ts"
 */
export function pathIn(folder: string, name: string): string {
  return folder === "" ? name : `${folder}/${name}`;
}

/**
 * True when a path of the list, sorted by code unit, lies inside `folder`
 * ("" holds every path): such paths sit together, from the first one not
 * below `folder + "/"`, so a binary search finds them.
 *
 * @example
 * holdsPathIn(["src/a-b/c.ts", "src/a/b.ts"], "src/a"); // true
 * holdsPathIn(["src/a-b/c.ts"], "src/a");               // false
 */
export function holdsPathIn(sortedPaths: readonly string[], folder: string): boolean {
  if (folder === "") return sortedPaths.length > 0;
  const prefix = `${folder}/`;
  let low = 0;
  let high = sortedPaths.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (sortedPaths[mid]! < prefix) low = mid + 1;
    else high = mid;
  }
  return low < sortedPaths.length && sortedPaths[low]!.startsWith(prefix);
}
