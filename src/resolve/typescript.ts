/**
 * TypeScript, as ts-morph bundles it, for module resolution. Loaded with
 * `require`: an ESM `import { ts } from "ts-morph"` makes Node first scan
 * ts-morph's CommonJS (about 10 MB with @ts-morph/common) for its export
 * names, ~60 ms of every run that resolves. The namespace below gives the
 * few types the resolver names the same `ts.` spelling.
 */
import { createRequire } from "node:module";
import type { ts as TypeScript } from "ts-morph";

const require = createRequire(import.meta.url);

export const ts: typeof TypeScript = (require("ts-morph") as typeof import("ts-morph")).ts;

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
