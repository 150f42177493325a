/**
 * Compiler options for module resolution: from the nearest tsconfig.json
 * (or jsconfig.json) above a folder, inside the root, following `extends`
 * through the root-restricted host. Problems become diagnostics.
 */
import { posix } from "node:path";
import { NO_CONFIG, type QuickConfig, readQuickConfig } from "./quick-config.js";
import { loadTypescript, TS_ENUMS, type ts } from "./typescript.js";
import type { Diagnostic } from "../types.js";
import type { RootHost } from "./root-host.js";

/** The resolution-relevant result of one tsconfig (or of none). */
export interface ResolverConfig {
  /** Root-relative path of the tsconfig/jsconfig, undefined when none applies. */
  path?: string;
  options: ts.CompilerOptions;
  /** Absolute paths of the tsconfigs this one references (solution-style configs). */
  references: string[];
}

/** Names tried in each folder, in order. */
const CONFIG_NAMES = ["tsconfig.json", "jsconfig.json"] as const;

/** "No inputs were found in config file": we never list inputs. */
const IGNORED_CODES = new Set([18003]);

/** Options when no tsconfig applies: what resolves most real code (ESNext, Bundler, JSX preserved; TypeScript not loaded for them). */
export const DEFAULT_OPTIONS: Readonly<ts.CompilerOptions> = {
  module: TS_ENUMS.moduleKindEsNext as ts.ModuleKind,
  moduleResolution: TS_ENUMS.moduleResolutionBundler as ts.ModuleResolutionKind,
  allowJs: true,
  resolveJsonModule: true,
  jsx: TS_ENUMS.jsxPreserve as ts.JsxEmit,
};

export interface ConfigLoader {
  /** The config governing files in `dir` (root-relative, "" for the root). */
  configForDirectory(dir: string): ResolverConfig;
  /**
   * What the resolver's fast paths need from that config: read without
   * TypeScript when the config is a plain one (see quick-config.ts), else
   * taken from the config TypeScript parsed.
   */
  quickConfigForDirectory(dir: string): QuickConfig;
  /** The config at an absolute tsconfig path (for project references). */
  configAt(absPath: string): ResolverConfig;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * @example
 * const loader = createConfigLoader("/repo", host);
 * loader.configForDirectory("packages/app/src").path // "packages/app/tsconfig.json"
 */
export function createConfigLoader(root: string, host: RootHost): ConfigLoader {
  const byDirectory = new Map<string, ResolverConfig>();
  // null: no config file governs the folder
  const pathByDirectory = new Map<string, string | null>();
  const quickByPath = new Map<string, QuickConfig>();
  const byPath = new Map<string, ResolverConfig>();
  const diagnostics: Diagnostic[] = [];
  const extendedCache = new Map<string, ts.ExtendedConfigCacheEntry>();
  const defaults: ResolverConfig = { options: { ...DEFAULT_OPTIONS }, references: [] };

  const relative = (absPath: string) => posix.relative(root, absPath);

  function configAt(absPath: string): ResolverConfig {
    const cached = byPath.get(absPath);
    if (cached !== undefined) return cached;
    const config = parseConfig(absPath);
    byPath.set(absPath, config);
    return config;
  }

  function parseConfig(absPath: string): ResolverConfig {
    const path = relative(absPath);
    const warn = (message: string) => diagnostics.push({ kind: "warning", path, message });
    const ts = loadTypescript();
    const read = ts.readConfigFile(absPath, (file) => host.readFile(file));
    if (read.error !== undefined || typeof read.config !== "object" || read.config === null) {
      if (read.error !== undefined) warn(`tsconfig unreadable: ${flatten(read.error)} (fix its JSON; default options are used)`);
      return { ...defaults, path };
    }
    const json = read.config as Record<string, unknown>;
    json.extends = keepExtendsInsideRoot(json.extends, posix.dirname(absPath), warn);
    const isJsConfig = absPath.endsWith("/jsconfig.json");
    const existing: ts.CompilerOptions = isJsConfig ? { allowJs: true } : {};
    const parsed = ts.parseJsonConfigFileContent(
      json,
      host,
      posix.dirname(absPath),
      existing,
      absPath,
      undefined,
      undefined,
      extendedCache,
    );
    for (const error of parsed.errors) {
      if (IGNORED_CODES.has(error.code)) continue;
      const unread = /^Cannot read file '(.+)'/.exec(flatten(error))?.[1];
      if (unread !== undefined && !host.isInsideRoot(unread)) {
        warn(`tsconfig extends (through another config) ${relative(unread)}, which is outside the root (not read; its options are ignored — widen the root or copy them in)`);
        continue;
      }
      warn(`tsconfig problem: ${flatten(error)} (fix the tsconfig; resolution goes on with the options that could be read)`);
    }
    const references = (parsed.projectReferences ?? []).map((ref) => posix.normalize(ts.resolveProjectReferencePath(ref)));
    return {
      path,
      options: withResolutionDefaults(parsed.options),
      references,
    };
  }

  /** Drops `extends` entries that lead out of the root, with a diagnostic instead of a read. */
  function keepExtendsInsideRoot(value: unknown, dir: string, warn: (message: string) => void): unknown {
    if (value === undefined) return undefined;
    const entries = Array.isArray(value) ? value : [value];
    const kept = entries.filter((entry) => {
      if (typeof entry !== "string") return true;
      const isPath = entry.startsWith(".") || posix.isAbsolute(entry);
      if (!isPath) return true;
      const target = posix.resolve(dir, entry);
      if (host.isInsideRoot(target)) return true;
      warn(`tsconfig extends "${entry}", which is outside the root (not read; its options are ignored — widen the root or copy them in)`);
      return false;
    });
    if (Array.isArray(value)) return kept;
    return kept.length === 0 ? undefined : kept[0];
  }

  /** The absolute path of the config file governing `dir`, undefined when none does (the defaults apply). */
  function configPathFor(dir: string): string | undefined {
    const cached = pathByDirectory.get(dir);
    if (cached !== undefined) return cached ?? undefined;
    let found: string | null = null;
    for (const name of CONFIG_NAMES) {
      const absPath = dir === "" ? `${root}/${name}` : `${root}/${dir}/${name}`;
      if (host.fileExists(absPath)) {
        found = absPath;
        break;
      }
    }
    if (found === null && dir !== "") found = configPathFor(parentOf(dir)) ?? null;
    pathByDirectory.set(dir, found);
    return found ?? undefined;
  }

  function configForDirectory(dir: string): ResolverConfig {
    const cached = byDirectory.get(dir);
    if (cached !== undefined) return cached;
    const absPath = configPathFor(dir);
    const config = absPath === undefined ? defaults : configAt(absPath);
    byDirectory.set(dir, config);
    return config;
  }

  function quickConfigAt(absPath: string): QuickConfig {
    let quick = quickByPath.get(absPath);
    if (quick === undefined) {
      quick = readQuickConfig(absPath, relative(absPath), host) ?? quickOf(configAt(absPath));
      quickByPath.set(absPath, quick);
    }
    return quick;
  }

  function quickConfigForDirectory(dir: string): QuickConfig {
    const absPath = configPathFor(dir);
    return absPath === undefined ? NO_CONFIG : quickConfigAt(absPath);
  }

  return {
    configForDirectory,
    quickConfigForDirectory,
    configAt,
    get diagnostics() {
      return diagnostics;
    },
  };
}

/**
 * Fills `moduleResolution` when the tsconfig leaves it out: Node16/NodeNext
 * when `module` says so, otherwise Bundler (extensionless relative imports
 * and `.js` → `.ts` both work).
 */
function withResolutionDefaults(options: ts.CompilerOptions): ts.CompilerOptions {
  const result: ts.CompilerOptions = { ...options, resolveJsonModule: true };
  if (result.moduleResolution === undefined) {
    const ts = loadTypescript();
    const nodeModules = [ts.ModuleKind.Node16, ts.ModuleKind.Node18, ts.ModuleKind.Node20, ts.ModuleKind.NodeNext];
    if (result.module !== undefined && nodeModules.includes(result.module)) {
      result.moduleResolution = result.module === ts.ModuleKind.NodeNext ? ts.ModuleResolutionKind.NodeNext : ts.ModuleResolutionKind.Node16;
    } else {
      result.moduleResolution = ts.ModuleResolutionKind.Bundler;
      if (result.module === undefined) result.module = ts.ModuleKind.ESNext;
    }
  }
  return result;
}

/** The fast paths' view of a config TypeScript parsed (what readQuickConfig must agree with). */
export function quickOf(config: ResolverConfig): QuickConfig {
  const { options } = config;
  const pathsBase = options.baseUrl ?? (options.pathsBasePath as string | undefined);
  return {
    ...(config.path !== undefined ? { path: config.path } : {}),
    paths: options.paths ?? {},
    ...(pathsBase !== undefined ? { pathsBase } : {}),
    hasBaseUrl: options.baseUrl !== undefined,
    hasModuleSuffixes: (options.moduleSuffixes?.length ?? 0) > 0,
    looksElsewhere: (options.rootDirs?.length ?? 0) > 0 || config.references.length > 0,
  };
}

function parentOf(dir: string): string {
  const parent = posix.dirname(dir);
  return parent === "." ? "" : parent;
}

function flatten(diagnostic: ts.Diagnostic): string {
  return loadTypescript().flattenDiagnosticMessageText(diagnostic.messageText, " ").replace(/\s+/g, " ").trim();
}
