/**
 * Find and read the config of a root: `graph-retrieve.config.json`, or the
 * `"graph-retrieve"` key of the root's package.json (not both).
 *
 * @example
 * const loaded = await loadConfig("./service");
 * const options = { root: "./service", ...configToRetrieveOptions(loaded?.config) };
 */
import { lstat, readFile } from "node:fs/promises";
import { join } from "node:path";
import { UsageError } from "../errors.js";
import type { RetrieveOptions } from "../retrieve/retrieve-options.js";
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

/** A config file larger than this is refused unread. */
const MAX_CONFIG_BYTES = 1_048_576;

/**
 * The text of a config file in the root, or undefined when there is none.
 * Only a plain file is read: a symlink could lead out of the root (and a
 * JSON error would quote what it found there), a FIFO would block forever.
 * `isOptional` (package.json): anything but a plain file counts as none.
 * A root that cannot be walked to (missing, a file, a link loop) counts as
 * none too: the scan then reports the root with its own message.
 */
async function readText(path: string, name: string, isOptional: boolean): Promise<string | undefined> {
  let info;
  try {
    info = await lstat(path);
  } catch {
    return undefined;
  }
  if (!info.isFile() || info.size > MAX_CONFIG_BYTES) {
    if (isOptional) return undefined;
    const what = info.isSymbolicLink() ? "a symlink" : info.isFile() ? "larger than 1 MiB" : "not a regular file";
    throw new UsageError(`${name}: ${what}, not read (keep the config as a plain JSON file in the root)`);
  }
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unknown error";
    throw new UsageError(`${name}: cannot be read (${code}; check its permissions)`, { cause: error });
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
  const [fileText, packageText] = await Promise.all([readText(filePath, CONFIG_FILE, false), readText(packagePath, "package.json", true)]);
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
