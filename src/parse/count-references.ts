/**
 * Reference counting: each used name node counts once, with the strongest
 * kind any pattern gave it; names bound at that spot (definitions,
 * parameters, import bindings) never count.
 */
import type { ReferenceFact, ReferenceKind } from "../types.js";

/** Strength of each kind: call > new > jsx > type > member-call > identifier. */
export const REFERENCE_STRENGTH: Readonly<Record<ReferenceKind, number>> = {
  call: 5,
  new: 4,
  jsx: 3,
  type: 2,
  "member-call": 1,
  identifier: 0,
};

const KINDS: ReadonlySet<string> = new Set(Object.keys(REFERENCE_STRENGTH));

/** The reference kind named by a capture (`reference.call` → `call`), or undefined. */
export function referenceKindOf(captureName: string): ReferenceKind | undefined {
  const kind = captureName.slice("reference.".length);
  return KINDS.has(kind) ? (kind as ReferenceKind) : undefined;
}

/** Name uses gathered from query captures, keyed by the name node's start offset. */
export interface ReferenceTally {
  /** start offset → name and strongest kind seen at that node. */
  uses: Map<number, { name: string; kind: ReferenceKind }>;
  /** Start offsets of names bound where they stand. */
  bound: Set<number>;
}

/** An empty tally. */
export function createReferenceTally(): ReferenceTally {
  return { uses: new Map(), bound: new Set() };
}

/** Record one use of `name` at `start`, keeping the strongest kind. */
export function addUse(tally: ReferenceTally, start: number, name: string, kind: ReferenceKind): void {
  const seen = tally.uses.get(start);
  if (!seen) tally.uses.set(start, { name, kind });
  else if (REFERENCE_STRENGTH[kind] > REFERENCE_STRENGTH[seen.kind]) seen.kind = kind;
}

/** The tally as ReferenceFacts: one per name, counted over unbound nodes, strongest kind, sorted by name. */
export function summariseReferences(tally: ReferenceTally): ReferenceFact[] {
  const byName = new Map<string, ReferenceFact>();
  for (const [start, use] of tally.uses) {
    if (tally.bound.has(start)) continue;
    const fact = byName.get(use.name);
    if (!fact) byName.set(use.name, { name: use.name, kind: use.kind, count: 1 });
    else {
      fact.count += 1;
      if (REFERENCE_STRENGTH[use.kind] > REFERENCE_STRENGTH[fact.kind]) fact.kind = use.kind;
    }
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
