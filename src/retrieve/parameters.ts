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

/**
 * Query weight of a plain word of an issue's body (its prose, not its code,
 * quotes or frames) against the same word in its title. An issue's title
 * says what it is about; its body is mostly a report around it (what was
 * done, what was seen, what was expected). The issue split's 367 tasks
 * through the harness, each fold by the model trained without it, the body's
 * words at 1 and at 0.5: MRR 0.595 → 0.630 (+0.035 ± 0.010), acc@1 0.213 →
 * 0.234, ECE 0.004 (docs/quality.md, session 36). A commit message is no
 * issue and is read as before.
 */
export const ISSUE_PROSE_WEIGHT = 0.5;

/** Query weight of a thesaurus synonym standing for a task word no code names, against the word's own. */
export const SYNONYM_WEIGHT = 0.8;

/** At most this many cycles (the pattern's). */
export const DEFAULT_MAX_CYCLES = 3;

/** The pattern's early stop: this many context files at 0.7 or more, and no critical gap. */
export const MIN_SURE_FILES = 3;

/** In cycle k ≥ 2, the high files of cycle k − 1 expand toward at most this many neighbours each. */
export const EXPANSION_PER_FILE = 8;

/**
 * The context holds at most this many files below 0.7 (decide-context.ts
 * chooses how many by expected F1; those at 0.7 or more are always in).
 * The expected-F1 set rarely wants more than four on the validation
 * (docs/quality.md, "The context as a decision"); the cap keeps a task of
 * vague words from handing over a long tail.
 */
export const CONTEXT_MAX_FILES = 8;

/**
 * A gap's file is a supporting file when at least this share of the files
 * that use it are in the context: the context leans on it in particular
 * (supporting-files.ts). Half: a helper only the context calls is named, a
 * model or a logger the rest of the codebase uses too is not.
 */
export const SUPPORTING_MIN_SHARE = 0.5;

/**
 * A gap's file is also a supporting file when the ranking gives it at
 * least this chance: half the low band's edge (0.2), the pattern's "worth a
 * look" halved, for a file the context uses and so reaches by the graph,
 * not by the task's words alone.
 */
export const SUPPORTING_MIN_CHANCE = 0.1;

/** At most this many supporting files are named. */
export const MAX_SUPPORTING_FILES = 4;

/**
 * The best files whose minified twins (built-twins.ts) are looked for:
 * beyond the first 20 a twin's chance (its source's times its share) is
 * below the low band.
 */
export const TWIN_SOURCES = 20;

/**
 * The commits of doubt a twin's share starts with: m commits that changed
 * both of n that changed the source give m / (n + 1), so one commit's
 * word is a half, and a twin changed with its source every time reads
 * close to 1 only over many commits.
 */
export const TWIN_DOUBT_COMMITS = 1;
