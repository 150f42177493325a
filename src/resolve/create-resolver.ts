/**
 * The resolve stage: import specifiers → scanned files or external
 * packages, by TypeScript's own module resolution (`ts.resolveModuleName`)
 * over a host that never leaves the root.
 *
 * Order for one specifier: memo (per importer folder) → Node built-in →
 * TypeScript with the nearest tsconfig's options, then Bundler, then
 * NodeNext → the tsconfig's project references → workspace package entry
 * mapped to its sources → external package → unresolved.
 *
 * A Python file's imports are Python's to resolve (python-modules.ts): its
 * packages, `src/` layouts and relative imports, made when the first
 * Python file asks.
 */
import { posix } from "node:path";
import { loadTypescript, type ts } from "./typescript.js";
import type { Diagnostic, ImportKind, Resolution } from "../types.js";
import { formatUnresolvedDiagnostic } from "./unresolved-diagnostics.js";
import { createConfigLoader, type ResolverConfig } from "./load-tsconfig.js";
import type { QuickConfig } from "./quick-config.js";
import { builtinNameOf, isRelativeSpecifier, packageNameOf, packageNameOfNodeModulesPath } from "./package-name.js";
import { createPythonResolver, isPythonPath, type PythonResolver } from "./python-modules.js";
import { createRootHost } from "./root-host.js";
import { findSourceTwin } from "./source-twins.js";
import { findWorkspacePackages, resolveWorkspaceEntry } from "./workspace-packages.js";

/** Turns the specifiers of scanned files into {@link Resolution}s. */
export interface Resolver {
  /**
   * Where `specifier`, written in `fromPath` (root-relative), leads.
   * Never throws: an unresolvable specifier has `target` undefined.
   */
  resolve(fromPath: string, specifier: string, kind: ImportKind): Resolution;
  /**
   * The `unresolved` diagnostic for a resolution without target (with the
   * reason found), undefined when it resolved or leads nowhere with nothing
   * wrong (a Python namespace package, `from m import n` whose n is a name).
   */
  diagnose(resolution: Resolution): Diagnostic | undefined;
  /** Problems met so far (tsconfig files that could not be read or parsed, duplicate package names), sorted. */
  readonly diagnostics: readonly Diagnostic[];
  /** Counters, to check that caches are shared and reused. */
  stats(): ResolverStats;
}

export interface ResolverStats {
  /** `ts.createModuleResolutionCache` calls: one per tsconfig and resolution mode used. */
  resolutionCaches: number;
  /** `ts.resolveModuleName` calls. */
  moduleNameResolutions: number;
  /** `resolve` calls answered from the per-folder memo. */
  memoHits: number;
  /** Workspace packages found (package name → root-relative folder). */
  workspacePackages: Record<string, string>;
}

/** What one specifier leads to, for every file of one folder. */
interface Outcome {
  target?: string;
  external: boolean;
  /** Why there is no target (for the diagnostic). */
  reason?: string;
  /** No target and nothing wrong (a Python namespace package, `from m import n` whose n is no module): no diagnostic. */
  quiet?: true;
}

/** One way of running TypeScript's resolver for one tsconfig. */
interface Variant {
  options: ts.CompilerOptions;
  cache?: ts.ModuleResolutionCache;
}


/**
 * Creates the resolver for one scanned root.
 * @param root absolute real path of the root
 * @param filePaths the scanned files, root-relative POSIX: every resolved target is one of them
 * @example
 * const resolver = createResolver("/repo", ["src/a.ts", "src/b.ts"]);
 * resolver.resolve("src/a.ts", "./b.js", "static");
 * // { from: "src/a.ts", specifier: "./b.js", target: "src/b.ts", external: false }
 * resolver.resolve("src/a.ts", "node:fs", "static").target; // "pkg:node:fs"
 */
export function createResolver(root: string, filePaths: readonly string[]): Resolver {
  const rootPath = root.replace(/\\/g, "/").replace(/\/+$/, "") || "/";
  const scanned: ReadonlySet<string> = new Set(filePaths);
  const bootstrapHost = createRootHost(rootPath, new Map());
  const workspace = findWorkspacePackages(rootPath, filePaths, bootstrapHost);
  const workspaceDirs = new Map<string, string>();
  for (const pkg of workspace.packages.values()) {
    workspaceDirs.set(pkg.name, pkg.dir === "" ? rootPath : `${rootPath}/${pkg.dir}`);
  }
  const host = createRootHost(rootPath, workspaceDirs);
  const loader = createConfigLoader(rootPath, host);
  const getCanonicalFileName = (name: string) => (host.useCaseSensitiveFileNames ? name : name.toLowerCase());

  const memo = new Map<string, Outcome>();
  const reasons = new Map<string, string>();
  const quiet = new Set<string>();
  let python: PythonResolver | undefined;
  const variants = new Map<ResolverConfig, Variant[]>();
  const counters = { resolutionCaches: 0, moduleNameResolutions: 0, memoHits: 0 };

  function variantsOf(config: ResolverConfig): Variant[] {
    let list = variants.get(config);
    if (list !== undefined) return list;
    const ts = loadTypescript();
    const base = config.options;
    const kinds = [
      base.moduleResolution,
      ts.ModuleResolutionKind.Bundler,
      ts.ModuleResolutionKind.NodeNext,
    ];
    list = [];
    const seen = new Set<ts.ModuleResolutionKind | undefined>();
    for (const kind of kinds) {
      if (seen.has(kind)) continue;
      seen.add(kind);
      if (kind === base.moduleResolution) list.push({ options: base });
      else if (kind === ts.ModuleResolutionKind.Bundler) list.push({ options: { ...base, moduleResolution: kind, module: ts.ModuleKind.ESNext } });
      else list.push({ options: { ...base, moduleResolution: kind, module: ts.ModuleKind.NodeNext } });
    }
    variants.set(config, list);
    return list;
  }

  function cacheOf(variant: Variant): ts.ModuleResolutionCache {
    if (variant.cache === undefined) {
      variant.cache = loadTypescript().createModuleResolutionCache(rootPath, getCanonicalFileName, variant.options);
      counters.resolutionCaches += 1;
    }
    return variant.cache;
  }

  function runTypeScript(
    config: ResolverConfig,
    specifier: string,
    containingFile: string,
    kind: ImportKind,
    maxVariants: number,
  ): ts.ResolvedModuleFull | undefined {
    const ts = loadTypescript();
    const isCommonJsFile = isCommonJsPath(containingFile);
    for (const variant of variantsOf(config).slice(0, maxVariants)) {
      const resolution = variant.options.moduleResolution;
      const isNodeStyle = resolution === ts.ModuleResolutionKind.Node16 || resolution === ts.ModuleResolutionKind.NodeNext;
      const isModeAware = resolution === ts.ModuleResolutionKind.Bundler || isNodeStyle;
      const mode = !isModeAware ? undefined : kind === "require" || isCommonJsFile ? ts.ModuleKind.CommonJS : ts.ModuleKind.ESNext;
      counters.moduleNameResolutions += 1;
      const result = ts.resolveModuleName(specifier, containingFile, variant.options, host, cacheOf(variant), undefined, mode);
      if (result.resolvedModule !== undefined) return result.resolvedModule;
    }
    return undefined;
  }

  /** A file TypeScript found → the scanned file, an external package, or a reason. */
  function classify(absPath: string, specifier: string, isAlias: boolean): Outcome {
    const rel = posix.relative(rootPath, absPath.replace(/\\/g, "/"));
    if (rel.startsWith("../") || posix.isAbsolute(rel)) return { external: false, reason: "resolves outside the root" };
    if (rel.split("/").includes("node_modules")) {
      const name = (!isAlias && packageNameOf(specifier)) || packageNameOfNodeModulesPath(rel);
      if (name !== undefined) return { target: `pkg:${name}`, external: true };
    }
    const target = findSourceTwin(rel, scanned);
    if (target !== undefined) return { target, external: false };
    // TypeScript keeps symlinked paths of relative imports as written: the scan lists the real file.
    const real = host.realpath(absPath);
    if (real !== absPath && host.isInsideRoot(real)) return classify(real, specifier, isAlias);
    return { external: false, reason: `resolves to ${rel}, which is not a scanned source file` };
  }

  function resolveModule(fromPath: string, specifier: string, kind: ImportKind): Outcome {
    const containingFile = `${rootPath}/${fromPath}`;
    // the fast paths read the config without TypeScript; it is loaded only past them
    const quick = loader.quickConfigForDirectory(parentOf(fromPath));
    const patterns = Object.keys(quick.paths);
    const alias = patterns.find((pattern) => pattern !== "*" && matchesPattern(pattern, specifier));
    const isAlias = alias !== undefined;
    const builtin = isAlias ? undefined : builtinNameOf(specifier);
    if (builtin !== undefined) return { target: `pkg:node:${builtin}`, external: true };

    // Fast path: a relative specifier naming a scanned file (or a folder's index) the way TypeScript would find it first.
    const isRelative = isRelativeSpecifier(specifier);
    if (isRelative && !quick.hasModuleSuffixes) {
      const direct = findRelativeFile(parentOf(fromPath), specifier, scanned) ?? findFolderIndex(parentOf(fromPath), specifier);
      if (direct !== undefined) return { target: direct, external: false };
      // Nor anything TypeScript could find: every file it would try lies in a folder that does not exist
      // (without rootDirs or project references, which look elsewhere). TypeScript is then not even loaded.
      if (!quick.looksElsewhere && isInMissingFolder(parentOf(fromPath), specifier)) {
        return { external: false, reason: reasonForMissing(fromPath, specifier, alias, quick.path) };
      }
    }
    // Fast path: a paths alias whose first substitution names a scanned file (or a folder's index).
    if (isAlias && !isRelative && !quick.hasModuleSuffixes) {
      const direct = findAliasTarget(quick, patterns, specifier);
      if (direct !== undefined) return { target: direct, external: false };
    }
    const name = isAlias ? undefined : packageNameOf(specifier);
    const pkg = name === undefined ? undefined : workspace.packages.get(name);
    // A bare name that is no workspace package ends external whatever TypeScript finds, unless
    // baseUrl or a catch-all paths entry can map bare names to files.
    const mapsBareNames = quick.hasBaseUrl || patterns.includes("*");
    if (name !== undefined && pkg === undefined && !mapsBareNames) return { target: `pkg:${name}`, external: true };

    const config = loader.configForDirectory(parentOf(fromPath));
    // Bare names need only the configured mode (the answer is external anyway); relative paths
    // are found by Bundler whenever NodeNext finds them; aliases and workspace packages try all.
    const isBare = name !== undefined && pkg === undefined;
    let found = runTypeScript(config, specifier, containingFile, kind, isBare ? 1 : isRelative ? 2 : 3);
    for (const reference of found === undefined && !isBare ? config.references : []) {
      found = runTypeScript(loader.configAt(reference), specifier, containingFile, kind, 1);
      if (found !== undefined) break;
    }
    const outcome = found === undefined ? undefined : classify(found.resolvedFileName, specifier, isAlias);
    if (outcome?.target !== undefined) return outcome;

    if (name !== undefined && pkg !== undefined) {
      const subpath = specifier === name ? "." : `.${specifier.slice(name.length)}`;
      const entry = resolveWorkspaceEntry(pkg, subpath, scanned);
      if ("target" in entry) return { target: entry.target, external: false };
      return { external: false, reason: entry.reason };
    }
    if (name !== undefined) return { target: `pkg:${name}`, external: true };
    if (outcome !== undefined) return outcome;
    return { external: false, reason: reasonForMissing(fromPath, specifier, alias, config.path) };
  }

  /** True when the folder a `./` or `../` specifier points into (`./a/b` → `a`) is inside the root and does not exist. */
  function isInMissingFolder(dir: string, specifier: string): boolean {
    if (!specifier.startsWith("./") && !specifier.startsWith("../")) return false; // "/abs" is a path TypeScript reads as written
    const folder = posix.dirname(posix.join(dir, specifier));
    if (folder === ".." || folder.startsWith("../")) return false;
    return !host.directoryExists(folder === "." ? rootPath : `${rootPath}/${folder}`);
  }

  /**
   * The scanned file a paths alias leads to, found as TypeScript looks for
   * it: the pattern it matches exactly, else the matching pattern with the
   * longest prefix; its first substitution, `*` replaced, read from the
   * paths base like a relative path. Undefined when that finds no scanned
   * file (TypeScript then tries the other substitutions and the rest).
   */
  function findAliasTarget(quick: QuickConfig, patterns: readonly string[], specifier: string): string | undefined {
    const pattern = patterns.includes(specifier) ? specifier : longestPrefixPattern(patterns, specifier);
    const first = pattern === undefined ? undefined : quick.paths[pattern]?.[0];
    if (pattern === undefined || first === undefined || quick.pathsBase === undefined) return undefined;
    const star = pattern.indexOf("*");
    const matched = star === -1 ? "" : specifier.slice(star, specifier.length - (pattern.length - star - 1));
    const substituted = matched === "" ? first : first.replace("*", matched);
    if (posix.isAbsolute(substituted)) return undefined;
    const base = posix.relative(rootPath, quick.pathsBase);
    if (base === ".." || base.startsWith("../") || posix.isAbsolute(base)) return undefined;
    return findRelativeFile(base, substituted, scanned) ?? findFolderIndex(base, substituted);
  }

  /** `./models` → `models/index.ts` when the folder has no package.json (which TypeScript would read first). */
  function findFolderIndex(dir: string, specifier: string): string | undefined {
    const folder = posix.join(dir, specifier);
    if (folder.startsWith("../") || folder === "..") return undefined;
    const index = findRelativeFile(folder, "./index", scanned);
    if (index === undefined) return undefined;
    return host.fileExists(`${rootPath}/${folder === "." ? "" : `${folder}/`}package.json`) ? undefined : index;
  }

  function reasonForMissing(fromPath: string, specifier: string, alias: string | undefined, configPath: string | undefined): string {
    if (alias !== undefined) return `matches paths "${alias}" of ${configPath ?? "tsconfig"} but no file was found (check the paths mapping)`;
    if (isRelativeSpecifier(specifier)) {
      const target = posix.join(parentOf(fromPath), specifier);
      if (!target.startsWith("../") && host.fileExists(`${rootPath}/${target}`)) return `${target} exists but is not a scanned source file`;
      return "no such file (check the path and the extension)";
    }
    if (specifier.startsWith("#")) return "no matching package.json imports entry";
    return "neither a relative path, a tsconfig paths alias nor a package name (check the alias configuration)";
  }

  /** `/// <reference path>` is a file next to the importer; `/// <reference types>` a package or a workspace file. */
  function resolveReference(fromPath: string, specifier: string): Outcome {
    const rel = posix.normalize(posix.isAbsolute(specifier) ? posix.relative(rootPath, specifier) : posix.join(parentOf(fromPath), specifier));
    if (!rel.startsWith("../")) {
      const target = findSourceTwin(rel, scanned);
      if (target !== undefined) return { target, external: false };
    }
    const looksLikePath = isRelativeSpecifier(specifier) || /\.[cm]?[jt]sx?$/.test(specifier);
    const name = looksLikePath ? undefined : packageNameOf(specifier);
    if (name === undefined) return { external: false, reason: rel.startsWith("../") ? "resolves outside the root" : "no such file (check the path)" };
    const config = loader.configForDirectory(parentOf(fromPath));
    const result = loadTypescript().resolveTypeReferenceDirective(specifier, `${rootPath}/${fromPath}`, config.options, host);
    const resolved = result.resolvedTypeReferenceDirective?.resolvedFileName;
    if (resolved !== undefined) {
      const outcome = classify(resolved, specifier, false);
      if (outcome.target !== undefined) return outcome;
    }
    const pkg = workspace.packages.get(name);
    if (pkg !== undefined) {
      const subpath = specifier === name ? "." : `.${specifier.slice(name.length)}`;
      const entry = resolveWorkspaceEntry(pkg, subpath, scanned);
      if ("target" in entry) return { target: entry.target, external: false };
    }
    return { target: `pkg:${name}`, external: true };
  }

  function resolve(fromPath: string, specifier: string, kind: ImportKind): Resolution {
    // The memo is per folder and per resolution mode: a require (or any import in a .cts/.cjs file) may meet other conditions.
    const isPython = isPythonPath(fromPath);
    const group = isPython ? "p" : kind === "reference" ? "t" : kind === "require" || isCommonJsPath(fromPath) ? "r" : "i";
    const key = `${parentOf(fromPath)}\0${group}\0${specifier}`;
    let outcome = memo.get(key);
    if (outcome === undefined) {
      if (isPython) outcome = (python ??= createPythonResolver(rootPath, filePaths, host.readFile)).resolve(fromPath, specifier);
      else outcome = kind === "reference" ? resolveReference(fromPath, specifier) : resolveModule(fromPath, specifier, kind);
      memo.set(key, outcome);
    } else {
      counters.memoHits += 1;
    }
    // a package's `from . import x` names the package, which is the importer itself when it is the `__init__.py`
    if (isPython && outcome.target === fromPath) outcome = { external: false, quiet: true };
    if (outcome.target === undefined && outcome.reason !== undefined) reasons.set(`${fromPath}\0${specifier}`, outcome.reason);
    if (outcome.target === undefined && outcome.quiet) quiet.add(`${fromPath}\0${specifier}`);
    const resolution: Resolution = { from: fromPath, specifier, external: outcome.external };
    if (outcome.target !== undefined) resolution.target = outcome.target;
    return resolution;
  }

  return {
    resolve,
    diagnose(resolution) {
      if (resolution.target !== undefined || quiet.has(`${resolution.from}\0${resolution.specifier}`)) return undefined;
      return formatUnresolvedDiagnostic(resolution, reasons.get(`${resolution.from}\0${resolution.specifier}`));
    },
    get diagnostics() {
      return [...workspace.diagnostics, ...loader.diagnostics].sort(compareDiagnostics);
    },
    stats() {
      const workspacePackages: Record<string, string> = {};
      for (const pkg of [...workspace.packages.values()].sort((a, b) => a.name.localeCompare(b.name))) {
        workspacePackages[pkg.name] = pkg.dir;
      }
      return { ...counters, workspacePackages };
    },
  };
}

/** Endings TypeScript tries, in its order, for a relative specifier by how it ends. */
const RELATIVE_ENDINGS: ReadonlyArray<[written: string, tried: readonly string[]]> = [
  [".js", [".ts", ".tsx", ".d.ts", ".js", ".jsx"]],
  [".jsx", [".tsx", ".d.ts", ".jsx"]],
  [".mjs", [".mts", ".d.mts", ".mjs"]],
  [".cjs", [".cts", ".d.cts", ".cjs"]],
];
const EXTENSIONLESS_ENDINGS = [".ts", ".tsx", ".d.ts", ".js", ".jsx"];
const TYPESCRIPT_ENDING = /\.(d\.)?[cm]?tsx?$/;

/** The scanned file a relative specifier names directly (no folder index, no package.json): TypeScript's first choice. */
function findRelativeFile(dir: string, specifier: string, scanned: ReadonlySet<string>): string | undefined {
  if (specifier.endsWith("/")) return undefined;
  const path = posix.join(dir, specifier);
  if (path.startsWith("../") || path === "..") return undefined;
  if (TYPESCRIPT_ENDING.test(path)) return scanned.has(path) ? path : undefined;
  const row = RELATIVE_ENDINGS.find(([written]) => path.endsWith(written));
  const stem = row === undefined ? path : path.slice(0, -row[0].length);
  for (const ending of row === undefined ? EXTENSIONLESS_ENDINGS : row[1]) {
    if (scanned.has(stem + ending)) return stem + ending;
  }
  return undefined;
}

function isCommonJsPath(path: string): boolean {
  return /\.c[jt]s$/.test(path);
}

/** Among the patterns with a `*` that match, the one with the longest prefix (TypeScript's findBestPatternMatch). */
function longestPrefixPattern(patterns: readonly string[], specifier: string): string | undefined {
  let best: string | undefined;
  for (const pattern of patterns) {
    const star = pattern.indexOf("*");
    if (star === -1 || !matchesPattern(pattern, specifier)) continue;
    if (best === undefined || star > best.indexOf("*")) best = pattern;
  }
  return best;
}

function matchesPattern(pattern: string, specifier: string): boolean {
  const star = pattern.indexOf("*");
  if (star === -1) return pattern === specifier;
  const prefix = pattern.slice(0, star);
  const suffix = pattern.slice(star + 1);
  return specifier.length >= prefix.length + suffix.length && specifier.startsWith(prefix) && specifier.endsWith(suffix);
}

function parentOf(path: string): string {
  const parent = posix.dirname(path);
  return parent === "." ? "" : parent;
}

function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (a.path ?? "").localeCompare(b.path ?? "") || a.message.localeCompare(b.message);
}
