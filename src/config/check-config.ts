/**
 * The config file's shape, checked key by key: a bad value fails with one
 * line naming the key and what it allows; an unknown key is an error too
 * (a typo must not be silently ignored).
 *
 * @example
 * checkConfig({ maxCycles: 2, exclude: ["**\/*.test.ts"] }, "graph-retrieve.config.json");
 * // { maxCycles: 2, exclude: ["**\/*.test.ts"] }
 * checkConfig({ maxCycle: 2 }, "graph-retrieve.config.json");
 * // throws UsageError: graph-retrieve.config.json: unknown key "maxCycle" (allowed: include, exclude, …)
 */
import { isKnownError, UsageError } from "../errors.js";
import { STRATEGIES } from "../retrieve/retrieve-options.js";
import { createGlossary, createThesaurus } from "../retrieve/query-data.js";
import type { StrategyName } from "../types.js";

/** What a config file may set; CLI flags override each key. */
export interface GraphRetrieveConfig {
  /** Only files matching one of these root-relative globs. */
  include?: string[];
  /** Leave out files matching these globs. */
  exclude?: string[];
  /** Read files matching these globs too, on top of the rest. */
  alsoInclude?: string[];
  /** Retrieval cycles, 1 or more. */
  maxCycles?: number;
  /** Token budget of the context. */
  budget?: number;
  strategy?: StrategyName;
  /** Thesaurus groups added to the built-in ones: group name → at least 2 synonyms. */
  thesaurus?: Record<string, string[]>;
  /** Chinese glossary entries added to the built-in ones: Chinese word → English keywords. */
  glossary?: Record<string, string[]>;
  /** Read the git history (default true). */
  history?: boolean;
}

export const CONFIG_KEYS = ["include", "exclude", "alsoInclude", "maxCycles", "budget", "strategy", "thesaurus", "glossary", "history"] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 37)}…` : text;
}

/**
 * Check a parsed config object; `source` names it in messages
 * (`graph-retrieve.config.json`, `package.json "graph-retrieve"`).
 */
export function checkConfig(value: unknown, source: string): GraphRetrieveConfig {
  const fail = (key: string, allowed: string, got: unknown): never => {
    throw new UsageError(`${source}: "${key}" must be ${allowed}, got ${show(got)}`);
  };
  if (!isRecord(value)) {
    throw new UsageError(`${source}: must be a JSON object with keys ${CONFIG_KEYS.join(", ")}, got ${show(value)}`);
  }
  const config: GraphRetrieveConfig = {};
  for (const [key, raw] of Object.entries(value)) {
    switch (key) {
      case "include":
      case "exclude":
      case "alsoInclude":
        if (!Array.isArray(raw) || !raw.every((g) => typeof g === "string" && g.trim() !== "")) {
          fail(key, 'an array of root-relative globs (e.g. ["src/**"])', raw);
        }
        config[key] = [...(raw as string[])];
        break;
      case "maxCycles":
      case "budget":
        if (typeof raw !== "number" || !Number.isInteger(raw) || raw < 1) {
          fail(key, key === "budget" ? "a positive whole number of tokens" : "a positive whole number", raw);
        }
        config[key] = raw as number;
        break;
      case "strategy":
        if (typeof raw !== "string" || !(STRATEGIES as readonly string[]).includes(raw)) {
          fail(key, `one of ${STRATEGIES.map((s) => `"${s}"`).join(", ")}`, raw);
        }
        config.strategy = raw as StrategyName;
        break;
      case "thesaurus":
      case "glossary":
        config[key] = checkLanguageData(key, raw, source);
        break;
      case "history":
        if (typeof raw !== "boolean") fail(key, "true or false", raw);
        config.history = raw as boolean;
        break;
      default:
        throw new UsageError(`${source}: unknown key "${key}" (allowed: ${CONFIG_KEYS.join(", ")})`);
    }
  }
  return config;
}

/** Thesaurus and glossary additions, checked by the same code as the built-in data files. */
function checkLanguageData(key: "thesaurus" | "glossary", raw: unknown, source: string): Record<string, string[]> {
  try {
    if (key === "thesaurus") createThesaurus(raw, `${source}: "thesaurus"`);
    else createGlossary(raw, `${source}: "glossary"`);
  } catch (error) {
    if (isKnownError(error)) throw new UsageError(error.message, { cause: error });
    throw error;
  }
  return Object.fromEntries(Object.entries(raw as Record<string, string[]>).map(([k, v]) => [k, [...v]]));
}
