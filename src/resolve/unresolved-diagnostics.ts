/**
 * The `unresolved` diagnostic's wording, written and read back: what the
 * resolver says of an import that leads nowhere, and what the CLI's
 * warning counts read from it. Apart from the resolver, so that reading a
 * diagnostic (every run that reports warnings) does not load the resolver
 * and its config parser, which a warm query never needs.
 */
import type { Diagnostic, Resolution } from "../types.js";
import { isAssetSpecifier } from "./asset-specifiers.js";

/**
 * The `unresolved` diagnostic for an import that leads nowhere.
 * @example
 * formatUnresolvedDiagnostic({ from: "src/a.ts", specifier: "./gone", external: false }, "no such file")
 * // { kind: "unresolved", path: "src/a.ts", message: 'cannot resolve "./gone" (no such file)' }
 */
export function formatUnresolvedDiagnostic(resolution: Resolution, reason?: string): Diagnostic {
  const why = reason ?? "check the path, the tsconfig paths and the package name";
  return { kind: "unresolved", path: resolution.from, message: `cannot resolve "${resolution.specifier}" (${why})` };
}

/**
 * The specifier an `unresolved` diagnostic names (read back from the message
 * {@link formatUnresolvedDiagnostic} writes, so diagnostics kept in an older
 * index read the same); undefined for any other diagnostic.
 *
 * @example
 * unresolvedSpecifierOf({ kind: "unresolved", path: "src/a.ts", message: 'cannot resolve "./a.css" (no such file)' }); // "./a.css"
 */
export function unresolvedSpecifierOf(diagnostic: Diagnostic): string | undefined {
  if (diagnostic.kind !== "unresolved") return undefined;
  return /^cannot resolve "(.*)" \(/.exec(diagnostic.message)?.[1];
}

/**
 * True for an `unresolved` diagnostic of an asset import (`./app.css`,
 * `./inter.woff2`, `./data.json`): expected, since the graph holds code only.
 *
 * @example
 * isAssetImportDiagnostic({ kind: "unresolved", path: "src/a.ts", message: 'cannot resolve "./a.css" (no such file)' }); // true
 */
export function isAssetImportDiagnostic(diagnostic: Diagnostic): boolean {
  const specifier = unresolvedSpecifierOf(diagnostic);
  return specifier !== undefined && isAssetSpecifier(specifier);
}
