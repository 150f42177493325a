/**
 * TypeScript, as ts-morph bundles it, for module resolution: loaded on the
 * first call of {@link loadTypescript}, not on import. Loading it takes
 * ~170 ms (a 9 MB script), and most specifiers never need it: a relative
 * one naming a scanned file takes the resolver's fast path (every one of
 * effect's 3,453), and a bare package name without `paths` or `baseUrl` is
 * external whatever TypeScript says. Loaded with `require`: an ESM
 * `import { ts } from "ts-morph"` makes Node first scan ts-morph's CommonJS
 * (about 10 MB with @ts-morph/common) for its export names. The namespace
 * below gives the few types the resolver names the same `ts.` spelling.
 */
import { createRequire } from "node:module";
import type { ts as TypeScript } from "ts-morph";

const require = createRequire(import.meta.url);

let loaded: typeof TypeScript | undefined;

/**
 * TypeScript's API, loaded on first use.
 *
 * @example
 * const ts = loadTypescript();
 * ts.resolveModuleName("./a", "/repo/src/b.ts", options, host);
 */
export function loadTypescript(): typeof TypeScript {
  loaded ??= (require("ts-morph") as typeof import("ts-morph")).ts;
  return loaded;
}

/** True once TypeScript has been loaded (for tests: which paths pay for it). */
export function isTypescriptLoaded(): boolean {
  return loaded !== undefined;
}

/**
 * The few enum values the resolver writes before it knows whether it needs
 * TypeScript (the options used when no tsconfig applies); a test checks
 * them against TypeScript's own.
 */
export const TS_ENUMS = {
  moduleKindEsNext: 99,
  moduleResolutionBundler: 100,
  jsxPreserve: 1,
} as const;

// eslint-disable-next-line @typescript-eslint/no-namespace
export declare namespace ts {
  export type CompilerOptions = TypeScript.CompilerOptions;
  export type Diagnostic = TypeScript.Diagnostic;
  export type ExtendedConfigCacheEntry = TypeScript.ExtendedConfigCacheEntry;
  export type JsxEmit = TypeScript.JsxEmit;
  export type ModuleKind = TypeScript.ModuleKind;
  export type ModuleResolutionCache = TypeScript.ModuleResolutionCache;
  export type ModuleResolutionKind = TypeScript.ModuleResolutionKind;
  export type ParseConfigHost = TypeScript.ParseConfigHost;
  export type ResolvedModuleFull = TypeScript.ResolvedModuleFull;
}
