/**
 * The resolve stage: import specifiers → scanned files (root-relative) or
 * external packages (`pkg:<name>`, `pkg:node:<builtin>`), with TypeScript's
 * module resolution confined to the root.
 *
 * @example
 * import { createResolver } from "./resolve/index.js";
 * const resolver = createResolver("/repo", ["src/main.ts", "src/models/index.ts"]);
 * const resolution = resolver.resolve("src/main.ts", "./models", "static");
 * // resolution.target === "src/models/index.ts"
 * const diagnostic = resolver.diagnose(resolver.resolve("src/main.ts", "./gone", "static"));
 * // diagnostic?.kind === "unresolved"
 */
export { createResolver, type Resolver, type ResolverStats } from "./create-resolver.js";
export { formatUnresolvedDiagnostic, isAssetImportDiagnostic, unresolvedSpecifierOf } from "./unresolved-diagnostics.js";
export { builtinNameOf, isRelativeSpecifier, packageNameOf } from "./package-name.js";
