/**
 * A symbol's definitions and the files that use it, read from the code
 * graph: symbol nodes (`path#Name`) and the `references` edges into them,
 * plus the files importing the name from its defining file (an import with
 * no use counted, a type position, a re-export). Pure; sorted for a stable
 * answer.
 *
 * A name matches a symbol's name exactly (`createSession`,
 * `SessionStore.expire`) or its last part (`expire` finds
 * `SessionStore.expire`); when nothing matches so, case is ignored.
 *
 * @example
 * findSymbol(retriever.codeGraph, "checkToken").definitions[0]; // { symbol: "checkToken", file: "src/auth/tokens.ts", kind: "function", exported: true, lines: "40-62" }
 */
import type { CodeGraph } from "../index.js";

/** Most definitions and users listed; the rest are counted. */
export const MAX_SYMBOL_ROWS = 50;

export interface SymbolDefinition {
  /** The symbol's name as the graph holds it (`Class.method` for a member). */
  symbol: string;
  file: string;
  kind: string;
  exported: boolean;
  /** `start-end`, 1-based. */
  lines: string;
}

export interface SymbolUser {
  file: string;
  /** The definition used (`symbol` of a definition, in `file` of it). */
  symbol: string;
  definedIn: string;
  /** Uses counted in the file (0: imported, no use counted: a type position or a re-export). */
  uses: number;
}

export interface SymbolLookup {
  name: string;
  definitions: SymbolDefinition[];
  /** Files using a definition, most uses first. */
  usedBy: SymbolUser[];
  /** Definitions and users past {@link MAX_SYMBOL_ROWS}, not listed. */
  moreDefinitions: number;
  moreUsers: number;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function lastPart(name: string): string {
  return name.slice(name.lastIndexOf(".") + 1);
}

/** Look `name` up in the graph (see the module's comment for what matches). */
export function findSymbol(codeGraph: CodeGraph, name: string): SymbolLookup {
  const { graph } = codeGraph;
  const wanted = name.trim();
  const matchers = [(n: string) => n === wanted || lastPart(n) === wanted, (n: string) => n.toLowerCase() === wanted.toLowerCase() || lastPart(n).toLowerCase() === wanted.toLowerCase()];
  const ids: string[] = [];
  for (const matches of matchers) {
    graph.forEachNode((id, attributes) => {
      if (attributes.kind === "symbol" && matches(attributes.name)) ids.push(id);
    });
    if (ids.length > 0) break;
  }
  const definitions: SymbolDefinition[] = [];
  const users = new Map<string, SymbolUser>();
  for (const id of ids) {
    const symbol = graph.getNodeAttributes(id);
    if (symbol.kind !== "symbol") continue;
    definitions.push({ symbol: symbol.name, file: symbol.file, kind: symbol.symbolKind, exported: symbol.exported, lines: `${symbol.startLine}-${symbol.endLine}` });
    graph.forEachInEdge(id, (_edge, attributes, source) => {
      if (attributes.kind !== "references" || source === symbol.file) return;
      const key = `${source}\0${id}`;
      const known = users.get(key);
      users.set(key, { file: source, symbol: symbol.name, definedIn: symbol.file, uses: (known?.uses ?? 0) + (attributes.count ?? 1) });
    });
    // importers of the name with no counted use
    const imported = symbol.name.split(".")[0]!;
    graph.forEachInEdge(symbol.file, (_edge, attributes, source) => {
      if ((attributes.kind !== "import" && attributes.kind !== "reexport") || !(attributes.names ?? []).includes(imported)) return;
      const key = `${source}\0${id}`;
      if (!users.has(key)) users.set(key, { file: source, symbol: symbol.name, definedIn: symbol.file, uses: 0 });
    });
  }
  definitions.sort((a, b) => Number(b.exported) - Number(a.exported) || compare(a.file, b.file) || compare(a.symbol, b.symbol));
  const usedBy = [...users.values()].sort((a, b) => b.uses - a.uses || compare(a.file, b.file) || compare(a.definedIn, b.definedIn) || compare(a.symbol, b.symbol));
  return {
    name: wanted,
    definitions: definitions.slice(0, MAX_SYMBOL_ROWS),
    usedBy: usedBy.slice(0, MAX_SYMBOL_ROWS),
    moreDefinitions: Math.max(0, definitions.length - MAX_SYMBOL_ROWS),
    moreUsers: Math.max(0, usedBy.length - MAX_SYMBOL_ROWS),
  };
}

/** Up to five symbol names holding `name` (case ignored), shortest first: the hint of an unknown name. */
export function similarSymbolNames(codeGraph: CodeGraph, name: string): string[] {
  const wanted = name.trim().toLowerCase();
  const found = new Set<string>();
  if (wanted.length >= 3) {
    codeGraph.graph.forEachNode((_id, attributes) => {
      if (attributes.kind === "symbol" && attributes.name.toLowerCase().includes(wanted)) found.add(attributes.name);
    });
  }
  return [...found].sort((a, b) => a.length - b.length || compare(a, b)).slice(0, 5);
}
