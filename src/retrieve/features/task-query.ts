/**
 * The task as the first cycle searches it: its words in this codebase's
 * terms (see concepts.ts), and for a task word no code names, the thesaurus
 * synonyms this codebase does use (the task says "rate limiting", the code
 * says "throttle"). Depends on the task and the index only, so the ranker
 * is trained on exactly the query it later sees.
 */
import type { LexicalIndex } from "../lexical-index.js";
import { createInitialQuery } from "../concepts.js";
import { expandWithThesaurus, parseTask, thesaurusPhrasesIn, type Glossary, type TaskQuery, type Thesaurus } from "../query.js";
import type { CycleQuery, Keyword } from "../retrieval-context.js";
import { SYNONYM_WEIGHT } from "../parameters.js";

export interface SearchedTask {
  taskQuery: TaskQuery;
  query: CycleQuery;
  /** Synonyms searched for task words no code names: `throttl (thesaurus: rate)`. */
  synonyms: string[];
}

export interface TaskQueryOptions {
  /** The task already parsed (and perhaps adjusted by a query expander); parsed from the text otherwise. */
  parsed?: TaskQuery;
  keywords?: string[];
  glossary?: Glossary;
  thesaurus?: Thesaurus;
}

/** Keywords for the task's words that no code of this codebase names: their synonyms that some code does. */
export function synonymsForMissing(index: LexicalIndex, query: CycleQuery, thesaurus?: Thesaurus): { added: Keyword[]; notes: string[] } {
  const known = new Set(query.keywords.map((k) => k.term));
  const missing = query.keywords.filter((k) => (k.source === "task" || k.source === "verbatim" || k.source === "glossary") && !index.codeFrequency.has(k.term));
  const lookup = expandWithThesaurus(missing.map((k) => k.term), thesaurus);
  const added: Keyword[] = [];
  const notes: string[] = [];
  for (const keyword of missing) {
    for (const synonym of lookup.get(keyword.term) ?? []) {
      if (known.has(synonym) || !index.codeFrequency.has(synonym)) continue;
      known.add(synonym);
      added.push({
        term: synonym,
        weight: SYNONYM_WEIGHT * keyword.weight,
        source: "thesaurus",
        original: keyword.term,
        ...(keyword.concept !== undefined ? { concept: keyword.concept } : {}),
      });
      notes.push(`${synonym} (thesaurus: ${keyword.term})`);
    }
  }
  return { added, notes };
}

/**
 * @example
 * const { query, synonyms } = searchTask(index, "Add rate limiting to the API endpoints");
 * synonyms; // ["throttl (thesaurus: rate)", …] where the code says throttle
 */
export function searchTask(index: LexicalIndex, task: string, options: TaskQueryOptions = {}): SearchedTask {
  const taskQuery = options.parsed ?? parseTask(task, { ...(options.keywords ? { keywords: options.keywords } : {}), ...(options.glossary ? { glossary: options.glossary } : {}) });
  const lookup = (terms: string[]) => expandWithThesaurus(terms, options.thesaurus);
  const initial = createInitialQuery(index, taskQuery, lookup, (terms) => thesaurusPhrasesIn(terms, options.thesaurus));
  const { added, notes } = synonymsForMissing(index, initial, options.thesaurus);
  const query: CycleQuery = { ...initial, keywords: [...initial.keywords, ...added], newTerms: new Set(added.map((k) => k.term)) };
  return { taskQuery, query, synonyms: notes };
}
