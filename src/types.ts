/**
 * Plain data handed from stage to stage (scan → parse → resolve → graph →
 * retrieve → render). Everything here is JSON-serialisable: no tree-sitter
 * node or TypeScript object ever leaves parse/ or resolve/.
 *
 * Paths are root-relative POSIX paths ("src/auth/token.ts") unless a field
 * says otherwise.
 */

/** Grammar used to parse a file (see src/parse/languages.ts). */
export type LanguageId = "typescript" | "tsx" | "python";

/** A warning or error found while building the graph; the run goes on. */
export interface Diagnostic {
  /** What happened: a file skipped by the scan, a file that parsed with errors, a specifier that did not resolve, anything else worth telling. */
  kind: "skipped" | "parse-error" | "unresolved" | "warning";
  /** Root-relative path of the file concerned, when there is one. */
  path?: string;
  /** One line, `<what> (<why or how to fix>)`. */
  message: string;
}

// ---------------------------------------------------------------- scan

/** A source file found under the root. */
export interface ScannedFile {
  /** Root-relative POSIX path. */
  path: string;
  /** Absolute path on disk (always inside the root). */
  absPath: string;
  /** Size in bytes. */
  size: number;
  /** Modification time in ms since the epoch. */
  mtimeMs: number;
  /** Grammar to parse it with. */
  language: LanguageId;
  /** True for .d.ts / .d.mts / .d.cts / .pyi: a type source only. */
  isDeclaration: boolean;
}

export interface ScanOptions {
  /** Skip files larger than this, with a warning (default 1 MiB). */
  maxFileBytes?: number;
  /** Extra glob patterns (root-relative) to leave out. */
  exclude?: string[];
  /**
   * When given, only files matching one of these globs are kept: it
   * replaces what is read (a folder left out by default, such as `dist`,
   * is read when a glob names it).
   */
  include?: string[];
  /**
   * Globs read on top of what is read anyway (or of `include`): it adds,
   * and reopens a left-out folder it names (`dist/**`). `exclude` still wins.
   */
  alsoInclude?: string[];
}

export interface ScanResult {
  /** Root as an absolute, real path. */
  root: string;
  /** Files sorted by path. */
  files: ScannedFile[];
  /** One per skipped file (binary, too large, symlink out of the root, unreadable…). */
  diagnostics: Diagnostic[];
}

// ---------------------------------------------------------------- parse

export type DefinitionKind =
  | "function"
  | "class"
  | "method"
  | "interface"
  | "type"
  | "enum"
  | "variable"
  | "namespace";

/** A named declaration in a file. */
export interface Definition {
  name: string;
  kind: DefinitionKind;
  /** Exported from the module (export keyword, `export { name }`, `export default`). */
  exported: boolean;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** The first line of the declaration, trimmed (at most 200 characters). */
  signature: string;
  /** The leading doc comment (`/** … *\/` or `//` lines), without comment markers. */
  doc?: string;
  /** For methods and class members: the enclosing class / interface name. */
  container?: string;
}

/** One name brought in by an import or re-export. */
export interface ImportedName {
  /** The exported name in the target module: an identifier, `default`, or `*` (namespace / star). */
  name: string;
  /** The local name (for imports) or the exported name (for re-exports). */
  alias: string;
}

export type ImportKind =
  /** `import … from "x"`, `import "x"`, `import x = require("x")` */
  | "static"
  /** `import("x")` */
  | "dynamic"
  /** `require("x")` */
  | "require"
  /** `export … from "x"`, `export * from "x"`, `export * as X from "x"` */
  | "reexport"
  /** `/// <reference path="x" />` or `/// <reference types="x" />` */
  | "reference";

export interface ImportFact {
  /** The module specifier as written. For `/// <reference types>` the package name. */
  specifier: string;
  kind: ImportKind;
  /** Names brought in; empty for side-effect imports, dynamic imports and requires whose bindings are unknown. */
  names: ImportedName[];
  /** `import type`, `export type … from`, or every name marked `type`. */
  typeOnly: boolean;
  /** 1-based line of the statement. */
  line: number;
}

export interface ExportFact {
  /** The exported name (`default` for a default export, `*` for `export * from`). */
  name: string;
  kind: "named" | "default" | "star";
  /** The local name when it differs (`export { a as b }` → name b, local a). */
  local?: string;
  /** Set when re-exported from another module. */
  from?: string;
}

/** How an identifier is used. */
export type ReferenceKind = "call" | "new" | "member-call" | "type" | "jsx" | "identifier";

export interface ReferenceFact {
  name: string;
  /** The strongest use seen (call > new > jsx > type > member-call > identifier). */
  kind: ReferenceKind;
  count: number;
}

/**
 * Terms and their counts, in two parallel arrays (each term once, in the
 * order first met). Arrays, not a term → count object: the index holds one
 * per field of every file, and reading back objects keyed by thousands of
 * distinct terms took 40 % of JSON.parse on effect's index.
 *
 * @example
 * const counts = new Map(vocabulary.definitions.terms.map((term, i) => [term, vocabulary.definitions.counts[i]]));
 */
export interface TermCounts {
  terms: string[];
  counts: number[];
}

/** Lexical fields for BM25F-style matching, terms already normalised (see util/terms.ts). */
export interface FileVocabulary {
  /** Terms from names of definitions and exports. */
  definitions: TermCounts;
  /** Terms from every other identifier. */
  identifiers: TermCounts;
  /** Terms from comments and word-like string literals. */
  comments: TermCounts;
}

/** Everything the later stages need to know of one file. */
export interface ParsedFile {
  path: string;
  language: LanguageId;
  isDeclaration: boolean;
  /** Estimated tokens: characters / 4, rounded up. */
  tokens: number;
  /** Line count. */
  lines: number;
  definitions: Definition[];
  imports: ImportFact[];
  exports: ExportFact[];
  /** Identifiers used (not defined) in the file, sorted by name. */
  references: ReferenceFact[];
  vocabulary: FileVocabulary;
  /** Word trigrams of its string literals, hashed and sorted (util/literal-shingles.ts): where a quoted message is found. */
  literals: number[];
  /** True when the file has syntax errors TypeScript's parser agrees on (facts were then completed with it). */
  hasSyntaxErrors: boolean;
}

// ---------------------------------------------------------------- resolve

/** Where one import fact of one file leads. */
export interface Resolution {
  /** Importing file. */
  from: string;
  specifier: string;
  /** A root-relative file path, or `pkg:<name>` for an external package; undefined when unresolved. */
  target?: string;
  /** True when the target is an external package node. */
  external: boolean;
}

// ---------------------------------------------------------------- retrieve

/** Relevance bands of the iterative retrieval pattern. */
export type RelevanceBand = "high" | "medium" | "low" | "excluded";

/** Ranking strategies: the iterative graph retriever, and two baselines sharing its scan/parse/graph. */
export type StrategyName = "graph" | "bm25" | "pagerank";

/** One ranked file of a retrieval. */
export interface RetrievedFile {
  /** Root-relative POSIX path. */
  path: string;
  /** In [0, 1]: the calibrated chance that the change needs the file (its band says how often: 0.8 about 8 times in 10). */
  relevance: number;
  band: RelevanceBand;
  /** One line: the terms and symbols that matched, the edges that carried it. */
  reason: string;
  /** Gaps: what this file uses that the context lacks (`Name (path)`). */
  missingContext: string[];
  /** Estimated tokens (characters / 4). */
  tokens: number;
  /** The cycle (1-based) in which the file first became a candidate. */
  cycle: number;
  /** Task and learned terms found in the file. */
  matchedTerms: string[];
}

/** What one DISPATCH → EVALUATE → REFINE cycle did. */
export interface CycleTrace {
  cycle: number;
  /** Keywords searched in this cycle. */
  keywords: string[];
  /** Keywords REFINE added for the next cycle, each with where it came from (`throttle (thesaurus: rate limit)`). */
  addedKeywords: string[];
  /** Path patterns learned from high-relevance files (`src/auth/**`). */
  patterns: string[];
  /** Candidates evaluated. */
  candidates: number;
  /** Files that entered the candidates through import edges (expansion toward gaps). */
  expandedFrom: Array<{ path: string; via: string }>;
  /** The context as this cycle decided it (see {@link RetrievalResult.context}), best first. */
  context: Array<{ path: string; relevance: number }>;
  /** Files excluded from later cycles (relevance < 0.2). */
  excluded: string[];
  gaps: string[];
  /** Task words no code names, searched as the codebase's words instead (`throttl (thesaurus: rate)`); the first cycle's. */
  vocabulary?: string[];
  /** Files this cycle lifted by their ties to what the cycle before found: relevance before and after, and the tie. */
  lifted?: Array<{ path: string; from: number; to: number; tie: string }>;
  /** Why the loop stopped after this cycle, if it did. */
  stop?: string;
}

/**
 * A file to read beside the context, as signatures, not whole code: it
 * defines names a context file uses (a gap of the context) and the context
 * leans on it in particular or the ranking holds it plausible; or the
 * ranking holds it plausible and it uses the context's names (where the
 * change is wired in).
 */
export interface SupportingFile {
  /** Root-relative POSIX path. */
  path: string;
  /** "defines": it defines `names`, which `for` use; "uses": it uses `names`, defined in `for`. */
  tie: "defines" | "uses";
  /** The context files it is read for, best first. */
  for: string[];
  /** The names of the tie, most used first. */
  names: string[];
}

export interface RetrievalStats {
  strategy: StrategyName;
  /** Files in the codebase (after scan filters). */
  files: number;
  /** Files that were ever candidates. */
  candidates: number;
  cycles: number;
  stoppedEarly: boolean;
  contextFiles: number;
  contextTokens: number;
  /** Tokens of the whole codebase (parsed files). */
  totalTokens: number;
  /** Supporting files named beside the context. */
  supportingFiles: number;
  /** Mean relevance of the context files. */
  meanRelevance: number;
  budgetTokens: number;
  /** The git history the ranking read (absent without one): commits in it, and whether it is a shallow clone's or was cut short by the time limit. */
  history?: { commits: number; shallow: boolean; truncated: boolean };
}

/** The result of {@link retrieve}: JSON-serialisable, the contract ../shared/bench scores. */
export interface RetrievalResult {
  schemaVersion: 2;
  task: string;
  /** The root as the caller gave it. */
  root: string;
  /** Every ranked file, best first, with its relevance, band, reason and gaps. */
  files: RetrievedFile[];
  /**
   * The context: the files to read, best first. The set of best files with
   * the highest expected F1 given their chances, every file at 0.7 or more
   * among them, within the token budget; empty only when no file is
   * plausible (the best below 0.2), and `decision` then says so.
   */
  context: string[];
  /** Files to read beside the context, as signatures: what its files use that it lacks. */
  supporting: SupportingFile[];
  /** Why the context is what it is, in one line. */
  decision: string;
  cycles: CycleTrace[];
  /** Gaps left after the last cycle. */
  gaps: string[];
  stats: RetrievalStats;
  /**
   * The index's diagnostics about the files above (`files`, `supporting`),
   * those about no file and the files skipped (no answer can hold them),
   * then one warning counting the others by kind (the graph's
   * `diagnostics` hold them all).
   */
  diagnostics: Diagnostic[];
}
