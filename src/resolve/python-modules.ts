/**
 * Python's imports → scanned files, as Python finds them in a checkout.
 *
 * - An absolute module (`a.b.c`) is looked for under each import root (see
 *   python-roots.ts), then, for an importer outside the package roots (a
 *   script, a test), under its own base: the folder above its outermost
 *   regular package (its own folder when it is in none), which is where
 *   running it as a script or under pytest puts it on `sys.path`.
 *   `a/b/c.py` (or `.pyi`) is the module, `a/b/c/__init__.py` the package; a
 *   folder without `__init__.py` that holds Python files is a namespace
 *   package, which has no file to lead to.
 * - A relative module (`.`, `..a`) is found from the importer's folder, one
 *   folder up for each dot past the first, never up to the root (which is
 *   no package).
 * - `m:n`, what `from m import n` also imports (see
 *   parse/read-import-captures.ts): the submodule m.n when there is one,
 *   else nothing (n is then a name of m, which the import of m covers).
 * - A module whose first name is no module or package of the checkout's is
 *   external: the standard library or an installed package, `pkg:<first name>`.
 *
 * A `.py` file wins over a `.pyi` stub beside it: the code is what a change
 * touches.
 */
import { folderOf, pathIn } from "../util/folders.js";
import { findPythonRoots, isRegularPackage, type PythonLayout } from "./python-roots.js";

/** Endings of the Python files the resolver leads to, preferred first. */
export const PYTHON_ENDINGS: readonly string[] = [".py", ".pyi"];

/** True for a path the Python resolver serves. */
export function isPythonPath(path: string): boolean {
  return PYTHON_ENDINGS.some((ending) => path.endsWith(ending));
}

/** Where one Python import leads, for every file of one folder. */
export interface PythonOutcome {
  target?: string;
  external: boolean;
  /** Why there is no target (for the diagnostic). */
  reason?: string;
  /** No target and nothing wrong: a namespace package, or `m:n` whose n is no module. */
  quiet?: true;
}

/** What a module name led to under one folder: a file, a namespace package, or nothing. */
type Found = { file: string } | { namespace: string } | undefined;

/** The Python resolver of one root. */
export interface PythonResolver {
  /** Resolve `specifier`, written in `fromPath` (root-relative). */
  resolve(fromPath: string, specifier: string): PythonOutcome;
  /** The import roots, in search order ("" is the root). */
  readonly roots: readonly string[];
}

/**
 * @param rootPath absolute real path of the root, "/"-separated
 * @param filePaths the scanned files, root-relative POSIX (only the Python ones are read)
 * @param readFile reads a project config inside the root (the resolver's root host; one of its own by default)
 * @example
 * const python = createPythonResolver("/repo", ["src/app/__init__.py", "src/app/db.py", "pyproject.toml"]);
 * python.resolve("src/app/__init__.py", ".db").target; // "src/app/db.py"
 * python.resolve("src/app/db.py", "sqlalchemy.orm").target; // "pkg:sqlalchemy"
 */
export function createPythonResolver(rootPath: string, filePaths: readonly string[], readFile?: (absPath: string) => string | undefined): PythonResolver {
  const files = new Set<string>();
  const folders = new Set<string>([""]);
  for (const path of filePaths) {
    if (!isPythonPath(path)) continue;
    files.add(path);
    for (let dir = folderOf(path); dir !== "" && !folders.has(dir); dir = folderOf(dir)) folders.add(dir);
  }
  const layout: PythonLayout = { files, folders };
  let roots: string[] | undefined;
  const rootsOf = (): string[] => (roots ??= findPythonRoots(rootPath, layout, readFile));

  /** A regular package's `__init__` file in `folder`, or undefined. */
  function initIn(folder: string): string | undefined {
    for (const ending of PYTHON_ENDINGS) {
      const init = pathIn(folder, `__init__${ending}`);
      if (files.has(init)) return init;
    }
    return undefined;
  }

  /** The module file of `name` in `folder`: `name.py`, `name.pyi`, or the package's `__init__`. */
  function moduleIn(folder: string, name: string): Found {
    for (const ending of PYTHON_ENDINGS) {
      const file = pathIn(folder, name + ending);
      if (files.has(file)) return { file };
    }
    const dir = pathIn(folder, name);
    const init = initIn(dir);
    if (init !== undefined) return { file: init };
    return folders.has(dir) ? { namespace: dir } : undefined;
  }

  /** The module at the dotted `path` (`a.b.c`) below `folder`; "" is `folder`'s own package. */
  function walk(folder: string, path: string): Found {
    if (path === "") {
      const init = initIn(folder);
      return init !== undefined ? { file: init } : { namespace: folder };
    }
    const names = path.split(".");
    let dir = folder;
    for (const name of names.slice(0, -1)) {
      dir = pathIn(dir, name);
      if (!folders.has(dir)) return undefined;
    }
    return moduleIn(dir, names.at(-1) as string);
  }

  /** The folder above the importer's outermost regular package (its own folder when it is in none). */
  function baseOf(fromPath: string): string {
    let folder = folderOf(fromPath);
    while (folder !== "" && isRegularPackage(layout, folder)) folder = folderOf(folder);
    return folder;
  }

  function resolveAbsolute(fromPath: string, module: string): PythonOutcome {
    const roots = rootsOf();
    const searched = [...roots];
    // a module of a package root (src/ and the like) is imported as one: its own folder is on no sys.path (poetry's
    // src/poetry, a namespace package, holds a package named json, which `import json` there does not reach)
    const inPackageRoot = roots.some((root) => root !== "" && fromPath.startsWith(`${root}/`));
    const base = baseOf(fromPath);
    if (!inPackageRoot && !searched.includes(base)) searched.push(base);
    let namespace: string | undefined;
    for (const root of searched) {
      const found = walk(root, module);
      if (found && "file" in found) return { target: found.file, external: false };
      if (found) namespace ??= found.namespace;
    }
    if (namespace !== undefined) return { external: false, quiet: true };
    const first = module.split(".")[0] as string;
    const owner = searched.map((root) => moduleIn(root, first)).find((found) => found !== undefined);
    if (owner === undefined) return { target: `pkg:${first}`, external: true };
    const where = "file" in owner ? owner.file : `${owner.namespace}/`;
    return { external: false, reason: `${first} is the checkout's own (${where}), but it has no module ${module} (check the module path)` };
  }

  function resolveRelative(fromPath: string, module: string): PythonOutcome {
    const dots = /^\.+/.exec(module)?.[0].length ?? 0;
    let folder = folderOf(fromPath);
    for (let up = 1; up < dots && folder !== ""; up++) folder = folderOf(folder);
    // the root is no package: `..` from a top-level package's module goes past it, as Python says
    if (folder === "" && dots > 1) return { external: false, reason: `${module} climbs above the top-level package` };
    const rest = module.slice(dots);
    const found = walk(folder, rest);
    if (found && "file" in found) return { target: found.file, external: false };
    if (found) return { external: false, quiet: true };
    return { external: false, reason: `no module ${rest} in ${folder === "" ? "the root" : `${folder}/`} (check the module path)` };
  }

  function resolveModule(fromPath: string, module: string): PythonOutcome {
    return module.startsWith(".") ? resolveRelative(fromPath, module) : resolveAbsolute(fromPath, module);
  }

  return {
    get roots() {
      return rootsOf();
    },
    resolve(fromPath, specifier) {
      const colon = specifier.indexOf(":");
      if (colon === -1) return resolveModule(fromPath, specifier);
      // `from m import n`: the submodule m.n, when there is one
      const module = specifier.slice(0, colon);
      const name = specifier.slice(colon + 1);
      const outcome = resolveModule(fromPath, module.endsWith(".") ? module + name : `${module}.${name}`);
      return outcome.target !== undefined && !outcome.external ? outcome : { external: false, quiet: true };
    },
  };
}
