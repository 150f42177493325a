/**
 * Where a checkout's Python packages start: the folders that would be on
 * `sys.path` when the project runs from its checkout. A project's config
 * (`pyproject.toml`, `setup.cfg`, `setup.py`) names its package folder
 * (`package-dir`, `where`, poetry's `from`, hatch's `packages`,
 * `find_packages("src")`…); without one, its folder and a `src/` holding
 * packages are used. The root always counts: a checkout is run from there.
 *
 * The configs are read as text with a few patterns, not parsed: what they
 * say about package folders is written in a handful of ways, and a config
 * that says it otherwise only loses its declared folder (the project's own
 * folder and `src/` still count).
 */
import { posix } from "node:path";
import { folderOf, pathIn } from "../util/folders.js";
import { createRootHost } from "./root-host.js";

/** The config files that name a project's package folders. */
export const PYTHON_PROJECT_FILES: readonly string[] = ["pyproject.toml", "setup.cfg", "setup.py"];

/** Patterns of each config file that name a package folder (group 1), relative to the config's folder. */
const DECLARED_FOLDERS: Readonly<Record<string, readonly RegExp[]>> = {
  "pyproject.toml": [
    // setuptools: package-dir = {"" = "src"}
    /package-dir\s*=\s*\{[^}]*?["']{2}\s*=\s*["']([^"']+)["']/g,
    // pdm: package-dir = "src"; maturin: python-source = "python"
    /(?:package-dir|python-source)\s*=\s*["']([^"']+)["']/g,
    // setuptools packages.find: where = ["src"]
    /^\s*where\s*=\s*\[\s*["']([^"']+)["']/gm,
    // poetry: packages = [{ include = "app", from = "src" }]
    /\{[^}]*\binclude\s*=\s*["'][^"']+["'][^}]*\bfrom\s*=\s*["']([^"']+)["']/g,
    // hatch: packages = ["src/app"]: the folder holding the package
    /^\s*packages\s*=\s*\[\s*["']([^"']+)\/[^"'/]+["']/gm,
  ],
  "setup.cfg": [
    // [options] package_dir = =src  (or on the next line)
    /^\s*package_dir\s*=\s*(?:\n\s*)?=\s*(\S+)/gm,
    // [options.packages.find] where = src
    /^\s*where\s*=\s*(\S+)/gm,
  ],
  "setup.py": [
    // package_dir={"": "src"}
    /package_dir\s*=\s*\{\s*["']{2}\s*:\s*["']([^"']+)["']/g,
    // find_packages("src"), find_namespace_packages(where="src")
    /find_(?:namespace_)?packages\(\s*(?:where\s*=\s*)?["']([^"']+)["']/g,
  ],
};

/**
 * The package folders a config's text names, relative to its folder.
 *
 * @example
 * declaredPackageFolders("pyproject.toml", '[tool.setuptools.packages.find]\nwhere = ["src"]\n') // ["src"]
 */
export function declaredPackageFolders(fileName: string, text: string): string[] {
  const found: string[] = [];
  for (const pattern of DECLARED_FOLDERS[fileName] ?? []) {
    for (const match of text.matchAll(pattern)) {
      const folder = posix.normalize((match[1] ?? "").replace(/\/+$/, ""));
      if (folder !== "" && folder !== "." && !folder.startsWith("../") && folder !== ".." && !posix.isAbsolute(folder) && !found.includes(folder)) found.push(folder);
    }
  }
  return found;
}

/** What the roots are found from: the scanned Python files and the folders holding them. */
export interface PythonLayout {
  /** Scanned Python files (`.py`, `.pyi`), root-relative. */
  files: ReadonlySet<string>;
  /** Every folder holding a scanned Python file, or such a folder ("" for the root). */
  folders: ReadonlySet<string>;
}

/** True when a folder is a regular package: it holds `__init__.py` or `__init__.pyi`. */
export function isRegularPackage(layout: PythonLayout, folder: string): boolean {
  return layout.files.has(pathIn(folder, "__init__.py")) || layout.files.has(pathIn(folder, "__init__.pyi"));
}

/**
 * The folders where projects may keep a config: the root, the folder of a
 * scanned `setup.py`, and the folder holding each top-level package (a
 * regular package whose parent is none) and that folder's parent (a
 * `src/` layout keeps its config one level up).
 */
function projectFolderCandidates(layout: PythonLayout): string[] {
  const candidates = new Set<string>([""]);
  for (const file of layout.files) {
    if (file === "setup.py" || file.endsWith("/setup.py")) candidates.add(folderOf(file));
  }
  for (const folder of layout.folders) {
    if (folder === "" || !isRegularPackage(layout, folder)) continue;
    const parent = folderOf(folder);
    if (parent !== "" && isRegularPackage(layout, parent)) continue;
    candidates.add(parent);
    if (parent !== "") candidates.add(folderOf(parent));
  }
  return [...candidates].sort();
}

/** Folder names of tests and their data, at any depth. */
const TEST_DATA_FOLDERS: ReadonlySet<string> = new Set(["tests", "test", "testing", "fixtures", "__fixtures__", "test_data", "testdata"]);

/** True when a folder is, or lies in, a folder of tests or test data. */
function isTestDataFolder(folder: string): boolean {
  return folder !== "" && folder.split("/").some((name) => TEST_DATA_FOLDERS.has(name));
}

/**
 * The import roots of a checkout, in the order they are searched: the
 * folders its configs declare, then each project's own folder and its
 * `src/` (when `src/` is no package itself), the root last. A project in
 * a folder of tests or test data is no root.
 *
 * @param rootPath absolute real path of the root, "/"-separated
 * @param readFile reads a file inside the root (the resolver's root host: nothing outside the root is read)
 * @example
 * findPythonRoots("/repo", layout) // ["src", ""] for a src/ layout declared in /repo/pyproject.toml
 */
export function findPythonRoots(rootPath: string, layout: PythonLayout, readFile: (absPath: string) => string | undefined = createRootHost(rootPath, new Map()).readFile): string[] {
  const declared: string[] = [];
  const projects: string[] = [];
  for (const folder of projectFolderCandidates(layout)) {
    // a project kept as test data (tests/fixtures/app/pyproject.toml) is no root of the checkout's imports: poetry's
    // 45 fixture projects made `from build import …` in its source lead to tests/fixtures/extended_project/build.py
    if (isTestDataFolder(folder)) continue;
    let isProject = false;
    for (const name of PYTHON_PROJECT_FILES) {
      const text = readFile(`${rootPath}/${pathIn(folder, name)}`);
      if (text === undefined) continue;
      isProject = true;
      for (const inner of declaredPackageFolders(name, text)) declared.push(pathIn(folder, inner));
    }
    if (isProject && folder !== "") projects.push(folder);
  }
  const roots: string[] = [];
  const add = (folder: string) => {
    if (layout.folders.has(folder) && !roots.includes(folder)) roots.push(folder);
  };
  for (const folder of declared) add(folder);
  for (const project of [...projects, ""]) {
    const src = pathIn(project, "src");
    if (!isRegularPackage(layout, src)) add(src);
    add(project);
  }
  if (!roots.includes("")) roots.push("");
  return roots;
}
