/**
 * What a specifier says about packages, from its text alone: is it bare,
 * which package does it name, is it a Node built-in.
 */
import { builtinModules } from "node:module";

const BUILTINS: ReadonlySet<string> = new Set(builtinModules.filter((name) => !name.startsWith("_")));

/** Prefixes that bundler and tsconfig aliases use but no npm package can start with. */
const ALIAS_PREFIXES = ["~", "#", "@/", "$"];

/**
 * True for a specifier that names a file by path: `./x`, `../x`, `/x`, `.`, `..`.
 * @example isRelativeSpecifier("../models") // true; isRelativeSpecifier("@app/models") // false
 */
export function isRelativeSpecifier(specifier: string): boolean {
  return (
    specifier === "." ||
    specifier === ".." ||
    specifier.startsWith("./") ||
    specifier.startsWith("../") ||
    specifier.startsWith("/")
  );
}

/**
 * The package a bare specifier names (`lodash/fp` → `lodash`,
 * `@scope/pkg/sub` → `@scope/pkg`), or undefined when the specifier is
 * relative or cannot be an npm package name (`~/x`, `#internal`, `@/x`).
 * @example packageNameOf("@acme/core/strings") // "@acme/core"
 */
export function packageNameOf(specifier: string): string | undefined {
  if (isRelativeSpecifier(specifier) || specifier === "") return undefined;
  if (ALIAS_PREFIXES.some((prefix) => specifier.startsWith(prefix))) return undefined;
  if (/^[a-zA-Z]:[\\/]/.test(specifier) || specifier.includes("\\")) return undefined;
  const parts = specifier.split("/");
  if (specifier.startsWith("@")) {
    if (parts.length < 2 || parts[0] === "@" || parts[1] === "") return undefined;
    return `${parts[0]}/${parts[1]}`;
  }
  return parts[0] || undefined;
}

/**
 * The Node built-in a specifier names, without `node:` and subpath
 * (`node:fs/promises` → `fs`), or undefined.
 * @example builtinNameOf("node:fs") // "fs"
 */
export function builtinNameOf(specifier: string): string | undefined {
  if (specifier.startsWith("node:")) {
    const name = specifier.slice("node:".length).split("/")[0];
    return name || undefined;
  }
  return BUILTINS.has(specifier) ? specifier.split("/")[0] : undefined;
}

/**
 * The package a path inside `node_modules` belongs to
 * (`node_modules/@types/node/fs.d.ts` → `@types/node`), or undefined.
 * @example packageNameOfNodeModulesPath("node_modules/.pnpm/x@1/node_modules/x/index.d.ts") // "x"
 */
export function packageNameOfNodeModulesPath(path: string): string | undefined {
  const index = path.lastIndexOf("node_modules/");
  if (index === -1) return undefined;
  return packageNameOf(path.slice(index + "node_modules/".length));
}
