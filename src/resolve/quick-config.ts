/**
 * What resolution's fast paths need from a tsconfig (`paths` and what they
 * are relative to, whether `baseUrl`, `moduleSuffixes`, `rootDirs` or
 * project references are set), read without TypeScript. Loading TypeScript
 * costs ~0.2 s of every cold run, and in most projects every import is a
 * relative path or a `paths` alias naming a file, which the fast paths
 * answer alone.
 *
 * Only the plain cases are read here: JSON with comments and trailing
 * commas, `extends` chains of relative paths inside the root. Anything else
 * (an `extends` of a package or out of the root, JSON that does not parse,
 * `${configDir}`, an option spelled in another case) gives undefined, and
 * the caller parses the config with TypeScript as before, whose view
 * always wins. A config read here is not checked option by option: the
 * "tsconfig problem" warnings come from TypeScript's parse, so they appear
 * when some import needs TypeScript.
 */
import { posix } from "node:path";
import { parse, type ParseError } from "jsonc-parser";

/** The fast paths' view of the config governing a folder. */
export interface QuickConfig {
  /** Root-relative path of the tsconfig/jsconfig, undefined when none applies. */
  path?: string;
  /** `paths` as TypeScript keeps them (keys in order). */
  paths: Readonly<Record<string, readonly string[]>>;
  /** Absolute folder the `paths` substitutions are read from: `baseUrl`, else the folder of the config that set `paths`. */
  pathsBase?: string;
  /** `baseUrl` is set: bare names may map to files. */
  hasBaseUrl: boolean;
  /** `moduleSuffixes` is set: a relative import may name `a.ios.ts` for `./a`. */
  hasModuleSuffixes: boolean;
  /** `rootDirs` or project references: a file may be looked for in other folders. */
  looksElsewhere: boolean;
}

/** The quick view when no config applies. */
export const NO_CONFIG: QuickConfig = { paths: {}, hasBaseUrl: false, hasModuleSuffixes: false, looksElsewhere: false };

/** What reading a config needs from the host: its text, and whether a file exists (absolute paths). */
export interface QuickConfigHost {
  readFile(absPath: string): string | undefined;
  fileExists(absPath: string): boolean;
  isInsideRoot(absPath: string): boolean;
}

/** The compiler options read, in their canonical spelling (TypeScript matches option names in any case). */
const READ_OPTIONS = ["paths", "baseUrl", "moduleSuffixes", "rootDirs"] as const;
const LOWER_READ_OPTIONS = new Set(READ_OPTIONS.map((name) => name.toLowerCase()));

/** Longest `extends` chain followed. */
const MAX_EXTENDS_DEPTH = 16;

/** One config of an `extends` chain: the options read and the folder they are relative to. */
interface ChainLink {
  dir: string;
  options: Record<string, unknown>;
}

/**
 * The quick view of the config at `absPath`, or undefined when only
 * TypeScript can say (see the module comment).
 *
 * @example
 * readQuickConfig("/repo/tsconfig.json", "tsconfig.json", host)
 * // { path: "tsconfig.json", paths: { "@/*": ["./src/*"] }, pathsBase: "/repo", hasBaseUrl: false, … }
 */
export function readQuickConfig(absPath: string, path: string, host: QuickConfigHost): QuickConfig | undefined {
  const leaf = readConfigJson(absPath, host);
  if (leaf === undefined) return undefined;
  const references = leaf.references;
  if (references !== undefined && !Array.isArray(references)) return undefined;
  const chain = readChain(absPath, leaf, host, new Set([absPath]));
  if (chain === undefined) return undefined;
  // the most derived config setting an option wins, relative to its own folder
  const setBy = (name: string): ChainLink | undefined => chain.find((link) => link.options[name] !== undefined);
  const pathsLink = setBy("paths");
  const baseUrlLink = setBy("baseUrl");
  const paths = pathsLink === undefined ? {} : pathsLink.options.paths;
  if (!isPathsTable(paths)) return undefined;
  const baseUrl = baseUrlLink?.options.baseUrl;
  if (baseUrl !== undefined && typeof baseUrl !== "string") return undefined;
  const moduleSuffixes = setBy("moduleSuffixes")?.options.moduleSuffixes;
  const rootDirs = setBy("rootDirs")?.options.rootDirs;
  if ((moduleSuffixes !== undefined && !Array.isArray(moduleSuffixes)) || (rootDirs !== undefined && !Array.isArray(rootDirs))) return undefined;
  const pathsBase = baseUrl !== undefined && baseUrlLink ? posix.resolve(baseUrlLink.dir, baseUrl) : pathsLink?.dir;
  return {
    path,
    paths,
    ...(pathsBase !== undefined ? { pathsBase } : {}),
    hasBaseUrl: baseUrl !== undefined,
    hasModuleSuffixes: (moduleSuffixes?.length ?? 0) > 0,
    looksElsewhere: (rootDirs?.length ?? 0) > 0 || (references?.length ?? 0) > 0,
  };
}

/** The config and every config it extends, most derived first; undefined when a link cannot be read here. */
function readChain(absPath: string, json: Record<string, unknown>, host: QuickConfigHost, seen: Set<string>): ChainLink[] | undefined {
  const options = json.compilerOptions ?? {};
  if (!isPlainObject(options)) return undefined;
  for (const key of Object.keys(options)) {
    // `BaseUrl` is `baseUrl` to TypeScript: leave such configs to it
    if (LOWER_READ_OPTIONS.has(key.toLowerCase()) && !(READ_OPTIONS as readonly string[]).includes(key)) return undefined;
  }
  const links: ChainLink[] = [{ dir: posix.dirname(absPath), options }];
  const parents = json.extends === undefined ? [] : Array.isArray(json.extends) ? json.extends : [json.extends];
  // with several bases, the later ones win over the earlier ones
  for (const parent of [...parents].reverse()) {
    if (typeof parent !== "string" || seen.size > MAX_EXTENDS_DEPTH) return undefined;
    const parentPath = extendedConfigPath(posix.dirname(absPath), parent, host);
    if (parentPath === undefined || seen.has(parentPath)) return undefined;
    const parentJson = readConfigJson(parentPath, host);
    if (parentJson === undefined) return undefined;
    const parentLinks = readChain(parentPath, parentJson, host, new Set([...seen, parentPath]));
    if (parentLinks === undefined) return undefined;
    links.push(...parentLinks);
  }
  return links;
}

/** Where a relative `extends` leads, as TypeScript finds it (the name, else the name + `.json`); undefined for a package or a path out of the root. */
function extendedConfigPath(dir: string, written: string, host: QuickConfigHost): string | undefined {
  if (!written.startsWith("./") && !written.startsWith("../")) return undefined;
  const target = posix.resolve(dir, written);
  if (!host.isInsideRoot(target)) return undefined;
  if (host.fileExists(target)) return target;
  if (!target.endsWith(".json") && host.fileExists(`${target}.json`)) return `${target}.json`;
  return undefined;
}

/** A config file's JSON object, read as TypeScript reads it (comments and trailing commas allowed); undefined on any error. */
function readConfigJson(absPath: string, host: QuickConfigHost): Record<string, unknown> | undefined {
  const text = host.readFile(absPath);
  // `${configDir}` (TypeScript 5.5) stands for the folder of the config being compiled, not the one it is written in
  if (text === undefined || text.includes("${configDir}")) return undefined;
  const errors: ParseError[] = [];
  const json: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  return errors.length === 0 && isPlainObject(json) ? json : undefined;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `paths` as TypeScript accepts it: each key with at most one `*`, each value a list of strings. */
function isPathsTable(value: unknown): value is Record<string, string[]> {
  if (!isPlainObject(value)) return false;
  return Object.entries(value).every(
    ([key, substitutions]) => key.split("*").length <= 2 && Array.isArray(substitutions) && substitutions.every((s) => typeof s === "string" && s.split("*").length <= 2),
  );
}
