/**
 * Imports told by captures rather than read from a statement's children:
 * each match of `@import.module` or `@import.from` names one module
 * (`@import.source`, its path as written) and one binding (`@import.name`,
 * `@import.alias`); the matches of one statement make one ImportFact. Python's
 * imports are read so (see grammars/python/imports.scm); TypeScript's
 * statements are read whole by read-module-statements.ts.
 */
import type { ExportFact, ImportFact, ImportKind } from "../types.js";

/** How a language's captured imports become facts (from its rows in languages.ts). */
export interface CapturedImportRules {
  /** The file's `from … import` names are its exports too: a package's `__init__.py` (see `LanguageRow.barrelNames`). */
  reexportsImports: boolean;
  /** A name imported from a module may be a module of its own (see `GrammarRow.importedNamesMayBeModules`). */
  namesMayBeModules: boolean;
}

/** What one match said. */
export interface ImportCapture {
  /** `module`: the module itself is bound (`import a.b as c`); `from`: a name of it is (`from a.b import c`). */
  form: "module" | "from";
  /** Start offset of the statement: the matches of one statement share it. */
  start: number;
  line: number;
  source: string;
  /** The imported name (`*` for all of them); absent for `module`. */
  name?: string;
  /** The local name; absent when it is the imported name. */
  alias?: string;
}

/** Collects the matches of a file, in any order, and makes its facts. */
export interface ImportCaptures {
  add(capture: ImportCapture): void;
  /** Statements starting in [start, end) are type-only (`if TYPE_CHECKING:`). */
  markTypeOnly(start: number, end: number): void;
  /** The facts, statement by statement in the order first met, and the exports of a re-exporting file. */
  finish(): { imports: ImportFact[]; exports: ExportFact[] };
}

/**
 * The module a name of `source` would be when it is a module: `a.b` + `c` →
 * `a.b:c` (the `module:attribute` notation of Python's entry points), which
 * the resolver reads as "a.b.c if it is a module".
 *
 * @example
 * submoduleSpecifier("..models", "user") // "..models:user"
 */
export function submoduleSpecifier(source: string, name: string): string {
  return `${source}:${name}`;
}

/**
 * @example
 * const captures = createImportCaptures({ reexportsImports: false, namesMayBeModules: true });
 * captures.add({ form: "from", start: 0, line: 1, source: "a.b", name: "c" });
 * captures.finish().imports.map((f) => f.specifier); // ["a.b", "a.b:c"]
 */
export function createImportCaptures(rules: CapturedImportRules): ImportCaptures {
  // each module of `import a, b` is a fact of its own; the names of `from m import a, b` make one
  const statements: ImportCapture[][] = [];
  const fromStatements = new Map<number, ImportCapture[]>();
  const typeOnly: Array<[number, number]> = [];
  return {
    add(capture) {
      const list = capture.form === "from" ? fromStatements.get(capture.start) : undefined;
      if (list) {
        list.push(capture);
        return;
      }
      statements.push([capture]);
      if (capture.form === "from") fromStatements.set(capture.start, statements.at(-1)!);
    },
    markTypeOnly(start, end) {
      typeOnly.push([start, end]);
    },
    finish() {
      const imports: ImportFact[] = [];
      const exports: ExportFact[] = [];
      for (const captures of statements) {
        const first = captures[0]!;
        const isTypeOnly = typeOnly.some(([start, end]) => first.start >= start && first.start < end);
        if (first.form === "module") {
          imports.push({ specifier: first.source, kind: "static", names: [{ name: "*", alias: first.alias ?? first.source }], typeOnly: isTypeOnly, line: first.line });
          continue;
        }
        const kind: ImportKind = rules.reexportsImports ? "reexport" : "static";
        const names = captures.map((c) => ({ name: c.name ?? "*", alias: c.alias ?? c.name ?? "*" }));
        imports.push({ specifier: first.source, kind, names, typeOnly: isTypeOnly, line: first.line });
        for (const { name, alias } of names) {
          if (rules.namesMayBeModules && name !== "*") {
            imports.push({ specifier: submoduleSpecifier(first.source, name), kind, names: [{ name: "*", alias }], typeOnly: isTypeOnly, line: first.line });
          }
          if (!rules.reexportsImports) continue;
          const fact: ExportFact = name === "*" ? { name: "*", kind: "star", from: first.source } : { name: alias, kind: "named", from: first.source };
          if (name !== "*" && alias !== name) fact.local = name;
          exports.push(fact);
        }
      }
      return { imports, exports };
    },
  };
}
