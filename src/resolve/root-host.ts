/**
 * A TypeScript module-resolution and config-parsing host that never leaves
 * the root: every read, stat, directory listing or realpath of a path
 * outside it answers "absent" without touching the disk.
 *
 * It also lends the root a virtual `node_modules/<name>` for each workspace
 * package, the way npm/pnpm/yarn workspaces link them once installed, so
 * `@acme/core` resolves through its own package.json (`exports`, `types`,
 * `main`) to `packages/core/...` even when nothing is installed.
 */
import { posix } from "node:path";
import { ts } from "ts-morph";

/** The host handed to `ts.resolveModuleName` and `ts.parseJsonConfigFileContent`. */
export interface RootHost extends ts.ParseConfigHost {
  directoryExists(path: string): boolean;
  realpath(path: string): string;
  getDirectories(path: string): string[];
  getCurrentDirectory(): string;
  /** True for the root itself and paths below it (absolute, "/"-separated). */
  isInsideRoot(absPath: string): boolean;
}

const NODE_MODULES = "/node_modules";

/**
 * @param root absolute real path of the root, "/"-separated
 * @param workspaceDirs package name → absolute folder of that workspace package
 * @example
 * const host = createRootHost("/repo", new Map([["@acme/core", "/repo/packages/core"]]));
 * host.fileExists("/etc/passwd"); // false, without a stat
 */
export function createRootHost(root: string, workspaceDirs: ReadonlyMap<string, string>): RootHost {
  const sys = ts.sys;
  const rootPrefix = root.endsWith("/") ? root : `${root}/`;
  const rootNodeModules = `${root.replace(/\/$/, "")}${NODE_MODULES}`;
  const scopes = new Set<string>();
  for (const name of workspaceDirs.keys()) {
    if (name.startsWith("@")) scopes.add(name.slice(0, name.indexOf("/")));
  }

  const isInsideRoot = (absPath: string): boolean => {
    const path = normalise(absPath);
    return path === root || path.startsWith(rootPrefix);
  };

  /** A path under the virtual `<root>/node_modules/<workspace package>` → the package's real folder. */
  const redirect = (absPath: string): string => {
    const path = normalise(absPath);
    if (workspaceDirs.size === 0 || !path.startsWith(`${rootNodeModules}/`)) return path;
    const rest = path.slice(rootNodeModules.length + 1);
    const parts = rest.split("/");
    const nameLength = parts[0]?.startsWith("@") ? 2 : 1;
    const name = parts.slice(0, nameLength).join("/");
    const dir = workspaceDirs.get(name);
    if (dir === undefined) return path;
    const tail = parts.slice(nameLength).join("/");
    return tail === "" ? dir : `${dir}/${tail}`;
  };

  /** Directories that exist only virtually: `<root>/node_modules` and its `@scope` folders. */
  const isVirtualDirectory = (absPath: string): boolean => {
    if (workspaceDirs.size === 0) return false;
    const path = normalise(absPath);
    if (path === rootNodeModules) return true;
    if (!path.startsWith(`${rootNodeModules}/`)) return false;
    return scopes.has(path.slice(rootNodeModules.length + 1));
  };

  return {
    isInsideRoot,
    useCaseSensitiveFileNames: sys.useCaseSensitiveFileNames,
    getCurrentDirectory: () => root,
    fileExists(path) {
      const real = redirect(path);
      return isInsideRoot(real) && sys.fileExists(real);
    },
    readFile(path) {
      const real = redirect(path);
      return isInsideRoot(real) ? sys.readFile(real) : undefined;
    },
    directoryExists(path) {
      if (isVirtualDirectory(path)) return true;
      const real = redirect(path);
      return isInsideRoot(real) && sys.directoryExists(real);
    },
    getDirectories(path) {
      const real = redirect(path);
      return isInsideRoot(real) && !isVirtualDirectory(path) ? sys.getDirectories(real) : [];
    },
    realpath(path) {
      const real = redirect(path);
      if (!isInsideRoot(real)) return normalise(path);
      const resolved = normalise(sys.realpath ? sys.realpath(real) : real);
      // A symlink leading out of the root is not followed: keep the in-root name.
      return isInsideRoot(resolved) ? resolved : real;
    },
    // Config parsing only needs compiler options: never expand include globs.
    readDirectory: () => [],
  };
}

/** "/"-separated, with `.` and `..` segments folded, so `<root>/../x` is seen for what it is. */
function normalise(path: string): string {
  return posix.normalize(path.replace(/\\/g, "/"));
}
