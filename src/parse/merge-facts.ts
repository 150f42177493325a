/**
 * Put facts together: the TypeScript parser's and tree-sitter's definitions
 * without duplicates, and the export state that `export { name }` or
 * `export default name` gives a definition declared earlier.
 */
import type { Definition, ExportFact } from "../types.js";

function definitionKey(definition: Definition): string {
  return `${definition.name}\u0000${definition.kind}\u0000${definition.startLine}`;
}

/** Definitions of `first`, then those of `second` not already there (same name, kind and start line); sorted by line, then name. */
export function mergeDefinitions(first: readonly Definition[], second: readonly Definition[]): Definition[] {
  const seen = new Set(first.map(definitionKey));
  const merged = [...first];
  for (const definition of second) {
    const key = definitionKey(definition);
    if (seen.has(key)) continue;
    seen.add(key);
    merged.push(definition);
  }
  return sortDefinitions(merged);
}

/** Sort by start line, then name, then kind: a stable, deterministic order. */
export function sortDefinitions(definitions: Definition[]): Definition[] {
  return definitions.sort(
    (a, b) =>
      a.startLine - b.startLine ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) ||
      (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0),
  );
}

/**
 * Mark as exported the module-level definitions (and their members) named by
 * a local export (`export { a }`, `export { a as b }`, `export default a`,
 * `export = a`). Re-exports from another module name nothing local.
 */
export function markLocalExports(definitions: Definition[], exports: readonly ExportFact[]): void {
  const locals = new Set<string>();
  for (const fact of exports) {
    if (fact.from !== undefined || fact.kind === "star") continue;
    locals.add(fact.local ?? fact.name);
  }
  if (locals.size === 0) return;
  for (const definition of definitions) {
    if (definition.exported) continue;
    const owner = definition.container ?? definition.name;
    if (locals.has(owner)) definition.exported = true;
  }
}

/** Exports without repeats (overloads export one name several times); first occurrence kept. */
export function dedupeExports(exports: readonly ExportFact[]): ExportFact[] {
  const seen = new Set<string>();
  const unique: ExportFact[] = [];
  for (const fact of exports) {
    const key = `${fact.name}\u0000${fact.kind}\u0000${fact.local ?? ""}\u0000${fact.from ?? ""}`;
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push(fact);
  }
  return unique;
}
