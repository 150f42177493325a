/**
 * The retriever's numbers, in one place, each with where it came from.
 * The ranking itself is learned (data/ranker.bin, trained by `npm run
 * train`); what is here shapes what the model sees and what the loop does
 * with its answers.
 */

/**
 * Files kept per task by their BM25F score (DISPATCH). On the training set's
 * folds, 150 holds the gold file of ~93 % of the tasks that any lexical
 * match finds at all; past it the pool grows and gold barely does.
 */
export const POOL_LEXICAL = 150;

/** Files kept by plain BM25 as well (its ranking differs on long files). */
export const POOL_PLAIN = 50;

/** The best lexical files whose graph neighbours join the pool, and at most how many each (by link weight). */
export const POOL_SEEDS = 10;
export const POOL_NEIGHBOURS_PER_SEED = 10;

/** With history: the files whose past commits best match the task, and the co-change partners of each of the best lexical files. */
export const POOL_HISTORY = 30;
export const POOL_COCHANGE_PER_SEED = 5;
/** With history: the files of the past commits most like the task, at most this many. */
export const POOL_SIMILAR = 30;

/** Seeds of the first cycle's graph features: the best files by BM25F. */
export const GRAPH_SEEDS = 5;

/** Query weight of a thesaurus synonym standing for a task word no code names, against the word's own. */
export const SYNONYM_WEIGHT = 0.8;

/** At most this many cycles (the pattern's). */
export const DEFAULT_MAX_CYCLES = 3;

/** The pattern's early stop: this many files in the context and no critical gap. */
export const MIN_HIGH_FILES = 3;

/** In cycle k ≥ 2, the high files of cycle k − 1 expand toward at most this many neighbours each. */
export const EXPANSION_PER_FILE = 8;
