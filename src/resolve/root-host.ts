/**
 * A TypeScript module-resolution and config-parsing host that never leaves
 * the root: every read, stat, directory listing or realpath of a path
 * outside it answers "absent" without touching the disk. Symbolic links are
 * read with lstat/readlink and followed only when they lead inside the
 * root, so a link out of the root is never stat'ed through either.
 *
 * It also lends the root a virtual `node_modules/<name>` for each workspace
 * package, the way npm/pnpm/yarn workspaces link them once installed, so
 * `@acme/core` resolves through its own package.json (`exports`, `types`,
 * `main`) to `packages/core/...` even when nothing is installed.
 */
import fs from "node:fs";
import { posix } from "node:path";
import { loadTypescript, type ts } from "./typescript.js";

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

/** Links followed in a row before a path counts as absent (a loop). */
const MAX_LINK_HOPS = 40;

type EntryKind = "file" | "directory" | "absent";

/**
 * @param root absolute real path of the root, "/"-separated
 * @param workspaceDirs package name → absolute folder of that workspace package
 * @example
 * const host = createRootHost("/repo", new Map([["@acme/core", "/repo/packages/core"]]));
 * host.fileExists("/etc/passwd"); // false, without a stat
 */
export function createRootHost(root: string, workspaceDirs: ReadonlyMap<string, string>): RootHost {
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

  /** What `path` is once its links are followed, "absent" when it (or a link on the way) leaves the root. */
  const kinds = new Map<string, EntryKind>([[root, "directory"]]);
  const kindOf = (path: string, hops = 0): EntryKind => {
    if (!isInsideRoot(path)) return "absent";
    const cached = kinds.get(path);
    if (cached !== undefined) return cached;
    let kind: EntryKind = "absent";
    const parent = posix.dirname(path);
    if (kindOf(parent, hops) === "directory") {
      const stats = safely(() => fs.lstatSync(path, { throwIfNoEntry: false }));
      if (stats?.isSymbolicLink()) {
        const link = safely(() => fs.readlinkSync(path, "utf8"));
        if (link !== undefined && hops < MAX_LINK_HOPS) kind = kindOf(posix.resolve(parent, normalise(link)), hops + 1);
      } else if (stats?.isDirectory()) {
        kind = "directory";
      } else if (stats?.isFile()) {
        kind = "file";
      }
    }
    kinds.set(path, kind);
    return kind;
  };

  return {
    isInsideRoot,
    // read by TypeScript only, once it is loaded
    get useCaseSensitiveFileNames() {
      return loadTypescript().sys.useCaseSensitiveFileNames;
    },
    getCurrentDirectory: () => root,
    fileExists(path) {
      return kindOf(redirect(path)) === "file";
    },
    readFile(path) {
      const real = redirect(path);
      if (kindOf(real) !== "file") return undefined;
      const text = safely(() => fs.readFileSync(real, "utf8"));
      return text?.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    },
    directoryExists(path) {
      return isVirtualDirectory(path) || kindOf(redirect(path)) === "directory";
    },
    getDirectories(path) {
      const real = redirect(path);
      if (isVirtualDirectory(path) || kindOf(real) !== "directory") return [];
      const entries = safely(() => fs.readdirSync(real, { withFileTypes: true })) ?? [];
      return entries.filter((entry) => kindOf(`${real}/${entry.name}`) === "directory").map((entry) => entry.name);
    },
    realpath(path) {
      const real = redirect(path);
      // Every link on the way was checked to stay inside the root before the OS follows them.
      if (kindOf(real) === "absent") return real;
      return normalise(safely(() => fs.realpathSync.native(real)) ?? real);
    },
    // Config parsing only needs compiler options: never expand include globs.
    readDirectory: () => [],
  };
}

function safely<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** "/"-separated, with `.` and `..` segments folded, so `<root>/../x` is seen for what it is. */
function normalise(path: string): string {
  return posix.normalize(path.replace(/\\/g, "/"));
}
