/**
 * Supporting files: the pattern's missing context, resolved. What a context
 * file uses that the context lacks is a gap; the file that defines it is
 * what an agent must also read (as signatures), though the change may not
 * touch it: `tokens.ts` calls `verifyToken`, so `jwt-utils.ts` is read
 * beside it.
 *
 * A gap's file is named when the context leans on it in particular (at
 * least half of the files that use it are in the context), or when the
 * ranking itself holds it plausible (its chance at least half the low
 * band's edge). A helper module only the context calls is named, and so is
 * a session store the ranking put just under the context; a model, a logger
 * or an error module that half the codebase uses, and that the task's words
 * do not point to, is not (the context's gaps still list it). Best first:
 * the likelier, then the larger that share, then the more uses.
 *
 * The other way round, a file the ranking holds plausible that uses the
 * context's names is read beside it too: where a throttle is registered,
 * or a token checked, is where a change to it is wired in.
 */
import type { SupportingFile } from "../types.js";
import { byCodeUnit } from "../util/sort.js";
import { MAX_SUPPORTING_FILES, SUPPORTING_MIN_CHANCE, SUPPORTING_MIN_SHARE } from "./parameters.js";
import type { RetrievalContext } from "./retrieval-context.js";

interface Candidate {
  path: string;
  tie: SupportingFile["tie"];
  for: Set<string>;
  names: Map<string, number>;
  uses: number;
  share: number;
  chance: number;
}

/** The files that use or import `path` (its inbound links), itself left out. */
function usersOf(context: RetrievalContext, path: string): string[] {
  return [...(context.links.in.get(path)?.keys() ?? [])].filter((p) => p !== path);
}

/**
 * The supporting files of a context (paths best first).
 *
 * @example
 * supportingFiles(context, ["src/auth/tokens.ts"], (path) => relevance.get(path) ?? 0);
 * // [{ path: "src/auth/jwt-utils.ts", for: ["src/auth/tokens.ts"], names: ["verifyToken", "signToken"] }]
 */
export function supportingFiles(
  context: RetrievalContext,
  contextPaths: readonly string[],
  chanceOf: (path: string) => number,
  isAllowed: (path: string) => boolean = () => true,
): SupportingFile[] {
  const inContext = new Set(contextPaths);
  const candidates = new Map<string, Candidate>();
  for (const from of contextPaths) {
    for (const use of context.uses.get(from) ?? []) {
      if (use.file === from || inContext.has(use.file) || !isAllowed(use.file)) continue;
      let candidate = candidates.get(use.file);
      if (!candidate) candidates.set(use.file, (candidate = { path: use.file, tie: "defines", for: new Set(), names: new Map(), uses: 0, share: 0, chance: chanceOf(use.file) }));
      candidate.for.add(from);
      candidate.names.set(use.name, (candidate.names.get(use.name) ?? 0) + use.count);
      candidate.uses += use.count;
    }
  }
  const kept: Candidate[] = [];
  for (const candidate of candidates.values()) {
    const users = usersOf(context, candidate.path);
    const fromContext = users.filter((p) => inContext.has(p)).length;
    candidate.share = users.length > 0 ? fromContext / users.length : 1;
    if (candidate.share >= SUPPORTING_MIN_SHARE || candidate.chance >= SUPPORTING_MIN_CHANCE) kept.push(candidate);
  }
  // files that use the context's names, the likely ones
  const users = new Map<string, Candidate>();
  for (const to of contextPaths) {
    for (const user of usersOf(context, to)) {
      if (inContext.has(user) || candidates.has(user) || !isAllowed(user)) continue;
      const chance = chanceOf(user);
      if (chance < SUPPORTING_MIN_CHANCE) continue;
      let candidate = users.get(user);
      if (!candidate) users.set(user, (candidate = { path: user, tie: "uses", for: new Set(), names: new Map(), uses: 0, share: 1, chance }));
      candidate.for.add(to);
      for (const use of context.uses.get(user) ?? []) {
        if (use.file !== to) continue;
        candidate.names.set(use.name, (candidate.names.get(use.name) ?? 0) + use.count);
        candidate.uses += use.count;
      }
    }
  }
  kept.push(...users.values());
  kept.sort((a, b) => b.chance - a.chance || b.share - a.share || b.uses - a.uses || byCodeUnit(a.path, b.path));
  const order = new Map(contextPaths.map((p, i) => [p, i]));
  return kept.slice(0, MAX_SUPPORTING_FILES).map((c) => ({
    path: c.path,
    tie: c.tie,
    for: [...c.for].sort((a, b) => order.get(a)! - order.get(b)!),
    names: [...c.names.entries()].sort((a, b) => b[1] - a[1] || byCodeUnit(a[0], b[0])).map(([name]) => name),
  }));
}
