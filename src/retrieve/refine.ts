/**
 * REFINE: update the search criteria from the evaluation.
 * - vocabulary: a task term no file holds is replaced by its thesaurus
 *   synonyms that this codebase does use (the task says "rate limit", the
 *   code says "throttle"); words that share definition names with the
 *   matched terms in high files (`issueRefreshToken` beside "token") join
 *   the query at a low weight: the codebase's own words;
 * - patterns: folders of high files;
 * - exclusions: files under 0.2 leave the search for good;
 * - focus: files at the other end of import edges of high files, toward
 *   the gaps (what the high files use that the set lacks), and files that
 *   import the high files.
 */
import { byCodeUnit } from "../util/sort.js";
import { coverageOf } from "./concepts.js";
import type { Evaluation } from "./evaluate.js";
import type { CycleQuery, Keyword, RetrievalContext } from "./retrieval-context.js";
import { idf } from "./signals/bm25f.js";

export interface RefineParameters {
  /** Learned vocabulary terms added per cycle. */
  maxLearnedTerms: number;
  /** Query weight of a learned vocabulary term. */
  learnedWeight: number;
  /** Query weight of a thesaurus synonym standing for a term that found nothing. */
  synonymWeight: number;
  /** Query weight of a synonym of a term that no high file covers. */
  gapSynonymWeight: number;
  /** Neighbours of each high file brought in as focus. */
  maxExpansionPerFile: number;
}

export const DEFAULT_REFINE: RefineParameters = {
  maxLearnedTerms: 3,
  learnedWeight: 0.3,
  synonymWeight: 1,
  gapSynonymWeight: 0.5,
  maxExpansionPerFile: 4,
};

export interface Refinement {
  query: CycleQuery;
  addedKeywords: string[];
  patterns: string[];
  excluded: string[];
  expanded: Array<{ path: string; via: string }>;
  gaps: string[];
  /** Gaps that justify another cycle: a task term nothing matched, a high file's dependency that shares task terms. */
  criticalGaps: string[];
}

/** Thesaurus lookup: term → synonym terms (normalised), given by the caller. */
export type SynonymLookup = (terms: string[]) => Map<string, string[]>;

const HIGH = 0.7;
/** A high file's dependency that covers this share of the task is a gap worth another cycle. */
const CRITICAL_GAP_COVERAGE = 0.5;
const EXCLUDE_BELOW = 0.2;

function folderPattern(path: string): string | undefined {
  const slash = path.lastIndexOf("/");
  return slash < 0 ? undefined : path.slice(0, slash + 1);
}

/**
 * @example
 * const next = refine(context, evaluations, query, thesaurusLookup);
 * next.addedKeywords; // ["throttle (thesaurus: rate)"]
 */
export function refine(
  context: RetrievalContext,
  evaluations: readonly Evaluation[],
  query: CycleQuery,
  synonyms: SynonymLookup,
  parameters: RefineParameters = DEFAULT_REFINE,
): Refinement {
  const { index } = context;
  const high = evaluations.filter((e) => e.relevance >= HIGH);
  const known = new Set(query.keywords.map((k) => k.term));
  const added: Keyword[] = [];
  const addedKeywords: string[] = [];
  const gaps: string[] = [];
  const criticalGaps: string[] = [];

  // 1. vocabulary: task terms nothing holds → synonyms the codebase uses
  const taskTerms = query.keywords.filter((k) => k.source !== "vocabulary" && k.source !== "thesaurus" && k.source !== "abbreviation");
  // missing: no code names it (a word only comments use is no word of this codebase's code)
  const missing = taskTerms.filter((k) => !index.codeFrequency.has(k.term)).map((k) => k.term);
  if (missing.length > 0) {
    const lookup = synonyms(missing);
    for (const term of missing) {
      const found = (lookup.get(term) ?? []).filter((s) => index.codeFrequency.has(s) && !known.has(s));
      const concept = query.keywords.find((k) => k.term === term)?.concept;
      if (found.length === 0) {
        // a word of a phrase whose other word already brought the synonyms ("limit" of "rate limit") is no gap
        const served = query.keywords.some((k) => k.concept === concept && k.term !== term && index.codeFrequency.has(k.term));
        const servedNow = added.some((k) => k.concept === concept);
        if (!served && !servedNow) gaps.push(`no file mentions "${term}" and no synonym of it`);
        continue;
      }
      for (const synonym of found) {
        known.add(synonym);
        added.push({
          term: synonym,
          weight: parameters.synonymWeight,
          source: "thesaurus",
          original: term,
          ...(concept !== undefined ? { concept } : {}),
        });
        addedKeywords.push(`${synonym} (thesaurus: ${term})`);
      }
      const where = index.documentFrequency.has(term) ? "no code names" : "no file mentions";
      criticalGaps.push(`${where} "${term}": searching ${found.join(", ")} instead`);
    }
  }

  // task concepts found somewhere but in none of the best files: try their synonyms too
  const anchors = high.length > 0 ? high : evaluations.slice(0, 3);
  if (anchors.length > 0) {
    const highMatched = new Set(anchors.flatMap((e) => e.matchedTerms));
    const uncovered = taskTerms.filter(
      (k) =>
        k.concept !== undefined &&
        index.documentFrequency.has(k.term) &&
        !query.keywords.some((other) => other.concept === k.concept && highMatched.has(other.term)),
    );
    const lookup = synonyms(uncovered.map((k) => k.term));
    for (const keyword of uncovered) {
      const found = (lookup.get(keyword.term) ?? []).filter((t) => index.documentFrequency.has(t) && !known.has(t));
      for (const synonym of found) {
        known.add(synonym);
        added.push({
          term: synonym,
          weight: parameters.gapSynonymWeight,
          source: "thesaurus",
          original: keyword.original,
          ...(keyword.concept !== undefined ? { concept: keyword.concept } : {}),
        });
        addedKeywords.push(`${synonym} (thesaurus: ${keyword.original}, which no high file covers)`);
      }
    }
  }

  // task concepts found somewhere but in no high file
  const highTerms = new Set(high.flatMap((e) => e.matchedTerms));
  const coveredConcepts = new Set(query.keywords.filter((k) => k.concept !== undefined && highTerms.has(k.term)).map((k) => k.concept));
  const reported = new Set<string>();
  for (const keyword of taskTerms) {
    const concept = keyword.concept ?? keyword.term;
    if (reported.has(concept) || coveredConcepts.has(concept) || !query.concepts.has(concept)) continue;
    if (!index.documentFrequency.has(keyword.term)) continue;
    reported.add(concept);
    gaps.push(`"${keyword.original}" is in no high-relevance file`);
  }

  // 2. the codebase's own words: terms that share definition names with matched terms in high files
  if (high.length > 0) {
    const counts = new Map<string, number>();
    for (const evaluation of high) {
      const file = index.byPath.get(evaluation.path);
      if (!file) continue;
      const matched = new Set(evaluation.matchedTerms);
      for (const terms of file.definitionTerms) {
        if (!terms.some((t) => matched.has(t))) continue;
        for (const term of new Set(terms)) {
          if (known.has(term) || term.length < 3) continue;
          counts.set(term, (counts.get(term) ?? 0) + 1);
        }
      }
    }
    const n = index.files.length;
    const learned = [...counts.entries()]
      .map(([term, count]) => ({ term, count, value: count * idf(index, term) }))
      // seen beside a task term at least twice, and not a word every file has
      .filter((t) => t.count >= 2 && (index.documentFrequency.get(t.term) ?? n) <= Math.max(2, n / 4))
      .sort((a, b) => b.value - a.value || byCodeUnit(a.term, b.term))
      .slice(0, parameters.maxLearnedTerms);
    for (const { term } of learned) {
      known.add(term);
      added.push({ term, weight: parameters.learnedWeight, source: "vocabulary", original: term });
      addedKeywords.push(`${term} (beside task terms in high files)`);
    }
  }

  // 3. patterns from high files
  const patterns = [...new Set([...query.patterns, ...high.map((e) => folderPattern(e.path)).filter((p): p is string => !!p)])].sort(byCodeUnit);

  // 4. exclusions
  // only against a good reference: with no high file, "low" means nothing yet
  const excludedNow = high.length > 0 ? evaluations.filter((e) => e.relevance < EXCLUDE_BELOW).map((e) => e.path) : [];
  const excluded = new Set([...query.excluded, ...excludedNow]);

  // 5. expansion along import edges toward the gaps
  const evaluated = new Map(evaluations.map((e) => [e.path, e]));
  const focus = new Map<string, string>();
  const expanded: Array<{ path: string; via: string }> = [];
  // from the high files, or while there are none from the best three: the graph may hold what the words miss
  for (const evaluation of anchors) {
    const neighbours = new Map<string, number>();
    for (const [target, weight] of context.links.out.get(evaluation.path) ?? []) neighbours.set(target, weight);
    for (const [source, weight] of context.links.in.get(evaluation.path) ?? []) {
      neighbours.set(source, Math.max(neighbours.get(source) ?? 0, weight * 0.5));
    }
    const ranked = [...neighbours.entries()]
      .filter(([path]) => !excluded.has(path) && (evaluated.get(path)?.relevance ?? 0) < HIGH)
      .map(([path, weight]) => {
        const file = index.byPath.get(path);
        const shared = file ? [...known].filter((t) => file.allTerms.has(t)).length : 0;
        return { path, weight: weight * (1 + shared) };
      })
      .sort((a, b) => b.weight - a.weight || byCodeUnit(a.path, b.path))
      .slice(0, parameters.maxExpansionPerFile);
    for (const { path } of ranked) {
      if (focus.has(path)) continue;
      focus.set(path, evaluation.path);
      if (!evaluated.has(path)) expanded.push({ path, via: evaluation.path });
    }
    // a gap is critical when the missing file covers at least half of the task itself
    for (const gap of evaluation.missingContext) {
      const match = /\(([^()]+)\)$/.exec(gap);
      const file = match ? index.byPath.get(match[1]!) : undefined;
      if (file && coverageOf(query, file.allTerms).coverage >= CRITICAL_GAP_COVERAGE) {
        if (!focus.has(file.path) && !excluded.has(file.path)) {
          focus.set(file.path, evaluation.path);
          expanded.push({ path: file.path, via: evaluation.path });
        }
        if ((evaluated.get(file.path)?.relevance ?? 0) < HIGH && !excluded.has(file.path)) criticalGaps.push(`${evaluation.path} uses ${gap}`);
      }
    }
  }

  return {
    query: {
      keywords: [...query.keywords, ...added],
      identifiers: query.identifiers,
      patterns,
      excluded,
      focus,
      concepts: query.concepts,
      newTerms: new Set(added.map((k) => k.term)),
    },
    addedKeywords,
    patterns,
    excluded: excludedNow,
    expanded: expanded.sort((a, b) => byCodeUnit(a.path, b.path)),
    gaps: [...new Set([...gaps, ...criticalGaps])],
    criticalGaps,
  };
}
