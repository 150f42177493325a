/**
 * Resolve: each file's import targets, kept from the index while the file
 * set, the config files and the file's own specifiers are unchanged, else
 * asked of the resolver (loaded only then). Also counts the specifiers and
 * reports the ones that lead nowhere, on the line they are on now.
 */
import type { Resolver } from "../resolve/index.js";
import type { IndexStore, StoredFile } from "../store/index.js";
import type { Diagnostic, ImportFact, ParsedFile } from "../types.js";
import type { StoredResolution } from "./index-session.js";

/**
 * Where each import of a file leads (null: nowhere), and the diagnostic of
 * each import that leads nowhere, by index. An import that leads nowhere
 * without a diagnostic is one with nothing wrong (a Python namespace
 * package, or `from m import n` whose n is a name of m, not a submodule):
 * it is not counted among the specifiers.
 */
export interface FileTargets {
  targets: Array<string | null>;
  unresolved?: UnresolvedNote[];
}

/**
 * An import that leads nowhere: its index among the file's import facts,
 * its diagnostic (without a line: lines move), and the line it was on when
 * the facts it was resolved for were parsed (a file kept as stored is
 * reported there without reading its import facts).
 */
export type UnresolvedNote = [index: number, diagnostic: Diagnostic, line?: number];

/** Resolve every import of one file. */
function resolveFileImports(resolver: Resolver, parsed: ParsedFile): FileTargets {
  const targets: Array<string | null> = [];
  const unresolved: UnresolvedNote[] = [];
  for (const [index, fact] of parsed.imports.entries()) {
    const resolution = resolver.resolve(parsed.path, fact.specifier, fact.kind);
    targets.push(resolution.target ?? null);
    if (!resolution.external && !resolution.target) {
      const diagnostic = resolver.diagnose(resolution);
      if (diagnostic) unresolved.push([index, diagnostic, fact.line]);
    }
  }
  return { targets, ...(unresolved.length > 0 ? { unresolved } : {}) };
}

/** Files resolved while the parse runs: {@link startEarlyResolution}. */
export interface EarlyResolution {
  /** Resolve this file's imports now, or as soon as the resolver is loaded. */
  add(parsed: ParsedFile): void;
  /** The resolver and every added file's targets, once all are resolved. */
  finish(): Promise<EarlyResolved>;
}

export interface EarlyResolved {
  resolver: Resolver;
  byPath: Map<string, FileTargets>;
}

/**
 * A resolver over `paths` that resolves files as they are added, from the
 * moment its module is loaded (files added before wait for it). Resolution
 * does not depend on the order files are resolved in: the same targets and
 * diagnostics as resolving them all afterwards.
 */
export function startEarlyResolution(root: string, paths: readonly string[]): EarlyResolution {
  const byPath = new Map<string, FileTargets>();
  const waiting: ParsedFile[] = [];
  let resolver: Resolver | undefined;
  const ready = import("../resolve/index.js").then(({ createResolver }) => {
    resolver = createResolver(root, paths);
    for (const parsed of waiting.splice(0)) byPath.set(parsed.path, resolveFileImports(resolver, parsed));
    return resolver;
  });
  ready.catch(() => undefined); // awaited in finish
  return {
    add(parsed) {
      if (resolver) byPath.set(parsed.path, resolveFileImports(resolver, parsed));
      else waiting.push(parsed);
    },
    async finish() {
      return { resolver: await ready, byPath };
    },
  };
}

/** The specifiers of a file as one string: same key → the same resolution (given the same fingerprint). */
function importsKey(imports: readonly ImportFact[]): string {
  return imports.map((fact) => `${fact.kind} ${fact.specifier}`).join("\n");
}

/** Diagnostics of `a` and `b`, without repeats. */
function mergeDiagnostics(a: readonly Diagnostic[], b: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const d of [...a, ...b]) {
    const key = `${d.kind}\u0000${d.path ?? ""}\u0000${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out;
}

export interface ResolvedImports {
  /** Each file's targets, by import index (undefined: nowhere or not a file). */
  targets: Map<string, ReadonlyArray<string | undefined>>;
  /** Files whose imports were resolved again. */
  resolvedAgain: number;
  specifiers: number;
  unresolved: number;
  external: number;
  /** The resolver's diagnostics (stored with the index) and each unresolved import's, on its line. */
  resolverDiagnostics: Diagnostic[];
  diagnostics: Diagnostic[];
}

/**
 * Fills each entry's targets (a new entry object when resolved again: the
 * graph's update compares it with the stored one).
 *
 * @param early the targets resolved during the parse, if any
 */
export async function resolveImports(
  root: string,
  parsedFiles: readonly ParsedFile[],
  entries: Map<string, StoredFile>,
  previous: IndexStore["files"],
  stored: StoredResolution,
  early: EarlyResolved | undefined,
): Promise<ResolvedImports> {
  const toResolve: ParsedFile[] = [];
  for (const parsed of parsedFiles) {
    const entry = entries.get(parsed.path) as StoredFile;
    const before = previous[parsed.path];
    // an entry taken from the index as it was holds the very facts: nothing to compare, and its import facts (read from
    // facts.bin when first used) are not read (date-fns: ~5 ms a run)
    const keep =
      stored.holds &&
      before?.targets !== undefined &&
      (before.parsed === parsed || (before.targets.length === parsed.imports.length && importsKey(before.parsed.imports) === importsKey(parsed.imports)));
    if (keep) {
      if (entry !== before) {
        entry.targets = before.targets;
        // an edited file keeps its targets: its unresolved imports are on the lines its new facts say
        entry.unresolved = before.parsed === parsed ? before.unresolved : before.unresolved?.map(([index, diagnostic]): UnresolvedNote => [index, diagnostic, parsed.imports[index]?.line]);
      }
    } else toResolve.push(parsed);
  }
  let resolverDiagnostics: Diagnostic[] = stored.diagnostics;
  if (toResolve.length > 0) {
    const resolver = early?.resolver ?? (await import("../resolve/index.js")).createResolver(root, parsedFiles.map((f) => f.path));
    for (const parsed of toResolve) {
      const entry = entries.get(parsed.path) as StoredFile;
      const { targets, unresolved } = early?.byPath.get(parsed.path) ?? resolveFileImports(resolver, parsed);
      entries.set(parsed.path, { ...entry, targets, unresolved });
    }
    const fresh = [...resolver.diagnostics];
    resolverDiagnostics = toResolve.length === parsedFiles.length ? fresh : mergeDiagnostics(resolverDiagnostics, fresh);
  }
  const targets = new Map<string, ReadonlyArray<string | undefined>>();
  const diagnostics: Diagnostic[] = [];
  let specifiers = 0;
  let unresolved = 0;
  let external = 0;
  // every file, every warm run (rollup: 12,724 files): no copy of a list without an unresolved target, no map of
  // notes for a file without any
  for (const parsed of parsedFiles) {
    const entry = entries.get(parsed.path) as StoredFile;
    const stored = entry.targets ?? [];
    const list: ReadonlyArray<string | undefined> = stored.includes(null) ? stored.map((t) => t ?? undefined) : (stored as string[]);
    targets.set(parsed.path, list);
    const notes = entry.unresolved !== undefined && entry.unresolved.length > 0 ? new Map(entry.unresolved.map((note) => [note[0], note] as const)) : undefined;
    // one target per import fact: the facts themselves (read from facts.bin when first used) are not read
    specifiers += list.length;
    for (let index = 0; index < list.length; index++) {
      const target = list[index];
      if (target === undefined) {
        const note = notes?.get(index);
        if (note === undefined) {
          specifiers--; // nowhere, with nothing wrong (see FileTargets)
          continue;
        }
        unresolved++;
        // the line it is on now: an edit above it moves it without changing the resolution
        const [, diagnostic, line = parsed.imports[index]?.line] = note;
        diagnostics.push({ ...diagnostic, message: `${diagnostic.message} on line ${line}` });
      } else if (target.startsWith("pkg:")) external++;
    }
  }
  diagnostics.push(...resolverDiagnostics);
  return { targets, resolvedAgain: toResolve.length, specifiers, unresolved, external, resolverDiagnostics, diagnostics };
}
