/**
 * Find and read the config of a root: `graph-retrieve.config.json`, or the
 * `"graph-retrieve"` key of the root's package.json (not both).
 *
 * @example
 * const loaded = await loadConfig("./service");
 * const options = { root: "./service", ...configToRetrieveOptions(loaded?.config) };
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { UsageError } from "../errors.js";
import type { RetrieveOptions } from "../retrieve/loop.js";
import { checkConfig, type GraphRetrieveConfig } from "./check-config.js";

export const CONFIG_FILE = "graph-retrieve.config.json";
export const PACKAGE_KEY = "graph-retrieve";

/** A config found under a root, and where it came from. */
export interface LoadedConfig {
  /** `graph-retrieve.config.json` or `package.json "graph-retrieve"`. */
  source: string;
  /** Absolute path of the file read. */
  path: string;
  config: GraphRetrieveConfig;
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" || (error as NodeJS.ErrnoException).code === "ENOTDIR") return undefined;
    throw new UsageError(`${path}: cannot be read (${(error as Error).message})`, { cause: error });
  }
}

/** The `"graph-retrieve"` value of package.json; a package.json that is not JSON is not ours to judge, so it counts as none. */
function packageConfigOf(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    const json = JSON.parse(text) as unknown;
    return typeof json === "object" && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>)[PACKAGE_KEY] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Read the config of `root` (an absolute or cwd-relative folder); undefined
 * when there is none. Throws a UsageError naming the key for an invalid one.
 */
export async function loadConfig(root: string): Promise<LoadedConfig | undefined> {
  const filePath = join(root, CONFIG_FILE);
  const packagePath = join(root, "package.json");
  const [fileText, packageText] = await Promise.all([readText(filePath), readText(packagePath)]);
  const fromPackage = packageConfigOf(packageText);
  if (fileText !== undefined && fromPackage !== undefined) {
    throw new UsageError(`${CONFIG_FILE}: package.json has a "${PACKAGE_KEY}" key too (keep the config in one place)`);
  }
  if (fileText !== undefined) {
    let json: unknown;
    try {
      json = JSON.parse(fileText) as unknown;
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).split("\n")[0];
      throw new UsageError(`${CONFIG_FILE}: not valid JSON: ${reason} (fix the syntax)`, { cause: error });
    }
    return { source: CONFIG_FILE, path: filePath, config: checkConfig(json, CONFIG_FILE) };
  }
  if (fromPackage !== undefined) {
    const source = `package.json "${PACKAGE_KEY}"`;
    return { source, path: packagePath, config: checkConfig(fromPackage, source) };
  }
  return undefined;
}

/**
 * The retrieval options a config stands for (`budget` → `budgetTokens`).
 *
 * @example
 * configToRetrieveOptions({ budget: 8000, strategy: "bm25" }); // { budgetTokens: 8000, strategy: "bm25" }
 */
export function configToRetrieveOptions(config: GraphRetrieveConfig | undefined): RetrieveOptions {
  if (!config) return {};
  const { budget, ...rest } = config;
  return { ...rest, ...(budget !== undefined ? { budgetTokens: budget } : {}) };
}
