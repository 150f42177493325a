/**
 * The header every store file starts with: what wrote it. A store whose
 * header differs from the running code's (another package version, store
 * schema, or grammar query files) is rebuilt, never trusted.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { GRAMMARS } from "../parse/languages.js";
import { hashContent } from "../util/content-hash.js";

/** Bump when the stored shape or the meaning of the parsed facts changes without a version bump. */
export const STORE_SCHEMA = 5;

export const STORE_FORMAT = "graph-retrieve-index";

export interface StoreHeader {
  format: typeof STORE_FORMAT;
  schema: number;
  /** The graph-retrieve package version. */
  version: string;
  /** sha1 over the grammar package version and every query and keyword file the parser reads. */
  grammars: string;
  /**
   * sha1 of the parse code (src|dist/parse, util). It changes without a
   * version bump only in development, and differs between a run from the
   * sources and one from dist/: the store is then rebuilt without a warning.
   */
  parser: string;
  /** The root's real path: a store folder serves one root. */
  root: string;
}

const require = createRequire(import.meta.url);
let grammarsHash: string | undefined;
let parserHash: string | undefined;

/** The package version (src/store and dist/store both sit two levels below package.json). */
function packageVersion(): string {
  return (require("../../package.json") as { version: string }).version;
}

/** sha1 of what decides the parse: the grammar package's version, the query/keyword files in table order, and the parse code itself. */
function hashGrammars(): string {
  if (grammarsHash !== undefined) return grammarsHash;
  const dir = fileURLToPath(new URL("../../grammars/", import.meta.url));
  const parts: string[] = [];
  const packages = new Set<string>();
  for (const [language, row] of Object.entries(GRAMMARS)) {
    packages.add(row.grammarPackage);
    for (const file of [...row.queryFiles, row.keywordsFile]) parts.push(`${language}:${file}:${hashContent(readFileSync(dir + file))}`);
  }
  for (const name of [...packages].sort()) {
    let version = "unknown";
    try {
      version = (require(`${name}/package.json`) as { version: string }).version;
    } catch {
      // a grammar package without a readable package.json: the query hashes still count
    }
    parts.push(`${name}@${version}`);
  }
  grammarsHash = hashContent(parts.join("\n"));
  return grammarsHash;
}

/** sha1 of the code that turns trees into facts: a change to it changes the facts even at the same version. */
function hashParser(): string {
  if (parserHash !== undefined) return parserHash;
  const parts: string[] = [];
  for (const folder of ["../parse/", "../util/"]) {
    const path = fileURLToPath(new URL(folder, import.meta.url));
    for (const file of readdirSync(path).filter((f) => /\.(js|ts)$/.test(f) && !f.endsWith(".d.ts")).sort()) {
      parts.push(`${folder}${file}:${hashContent(readFileSync(path + file))}`);
    }
  }
  parserHash = hashContent(parts.join("\n"));
  return parserHash;
}

/** What {@link headerMismatch} says when only the parse code changed (the store is rebuilt quietly). */
export const PARSER_CHANGED = "the parse code changed since it was written";

/**
 * The header the running code writes and expects, for one root.
 *
 * @example
 * createStoreHeader("/home/me/app").schema // STORE_SCHEMA
 */
export function createStoreHeader(realRoot: string): StoreHeader {
  return { format: STORE_FORMAT, schema: STORE_SCHEMA, version: packageVersion(), grammars: hashGrammars(), parser: hashParser(), root: realRoot };
}

/** Why a stored header is not the expected one, or undefined when it is. */
export function headerMismatch(found: unknown, expected: StoreHeader): string | undefined {
  if (typeof found !== "object" || found === null) return "it has no header";
  const header = found as Partial<StoreHeader>;
  if (header.format !== expected.format) return "it is not a graph-retrieve index";
  if (header.version !== expected.version || header.schema !== expected.schema) {
    return `it was written by graph-retrieve ${String(header.version)} (store schema ${String(header.schema)}), this is ${expected.version} (schema ${expected.schema})`;
  }
  if (header.grammars !== expected.grammars) return "the grammar queries changed since it was written";
  if (header.root !== expected.root) return `it indexes another root (${String(header.root)})`;
  if (header.parser !== expected.parser) return PARSER_CHANGED;
  return undefined;
}
