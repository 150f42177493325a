/**
 * What the task text names outright: a path or file name, a file's stem
 * written as one word (`useController`, `CleanPlugin`) or as its words in a
 * row ("sort action" for sort-action.ts), an identifier a file defines, a
 * quoted phrase (an error message) whose words a file holds. A file named
 * by the task is far likelier to be the one it is about than a file that
 * only shares its words.
 */
import { languageRowForPath, withoutLanguageEnding, withoutSourceEnding } from "../../parse/languages.js";
import { heldShare, messageShingles } from "../../util/literal-shingles.js";
import { splitIdentifier, termsOf } from "../../util/terms.js";
import type { IndexedFile } from "../lexical-index.js";
import type { TaskQuery } from "../query.js";

export interface TaskNames {
  /** Task paths, lower-cased, `./` dropped. */
  paths: string[];
  /** Keys of what the task writes: each word, code word and run of 2–3 prose words, lower-cased and joined (`sort action` → `sortaction`). */
  keys: Set<string>;
  /** Task identifiers, lower-cased. */
  identifiers: string[];
  /** The terms of each quoted or backticked phrase of two or more terms. */
  phrases: string[][];
  /** Each phrase of three words or more (an error message, a quoted string): its terms and its word trigrams, to find it in the code's literals. */
  messages: Array<{ terms: string[]; shingles: number[] }>;
}

/** A stem shorter than this, or one of these, names nothing in particular. */
const MIN_STEM = 4;
const GENERIC_STEMS = new Set(["index", "main", "types", "utils", "util", "helpers", "constants", "common", "shared", "style", "styles"]);

/** A word or name as one key: its parts, lower-cased, joined. */
export function nameKey(word: string): string {
  return splitIdentifier(word).join("");
}

/** A build output folder: what a stack trace names under it was compiled from the source file of the same name. */
const BUILD_FOLDER = /^(?:.*\/)?(?:dist|build|out|esm|cjs|umd|bundle|compiled)\/(?:(?:esm|cjs|umd|es|es5|es2015|node|browser)\/)?/;

/**
 * A path as the task names it and, for a file under a build folder, the same
 * path below it (`dist/config/load.js` also names `src/config/load.ts`
 * through `config/load`).
 *
 * @example
 * pathsNamed(["dist/esm/config/load.js"]); // ["dist/esm/config/load.js", "config/load.js"]
 */
export function pathsNamed(paths: readonly string[]): string[] {
  const out = new Set<string>();
  for (const raw of paths) {
    const p = raw.toLowerCase().replace(/^\.\//, "");
    out.add(p);
    const below = p.replace(BUILD_FOLDER, "");
    if (below !== p && /[^/]\.[a-z]+$/.test(below)) out.add(below);
  }
  return [...out];
}

/**
 * @example
 * const names = taskNamesOf(parseTask("Fix sort action in `useController`"));
 * names.keys.has("sortaction"); // true
 */
export function taskNamesOf(taskQuery: TaskQuery): TaskNames {
  const keys = new Set<string>();
  const words = taskQuery.task.match(/[A-Za-z_$][A-Za-z0-9_$-]*/g) ?? [];
  const parts = words.map((w) => splitIdentifier(w));
  for (let i = 0; i < parts.length; i++) {
    keys.add(parts[i]!.join(""));
    if (i + 1 < parts.length) keys.add(parts[i]!.join("") + parts[i + 1]!.join(""));
    if (i + 2 < parts.length) keys.add(parts[i]!.join("") + parts[i + 1]!.join("") + parts[i + 2]!.join(""));
  }
  for (const id of taskQuery.identifiers) keys.add(nameKey(id.split(".").pop() ?? id));
  const phrases = taskQuery.phrases.map((p) => [...new Set(termsOf(p))]).filter((terms) => terms.length >= 2);
  const messages = taskQuery.phrases
    .map((p) => ({ terms: [...new Set(termsOf(p))], shingles: messageShingles(p) }))
    .filter((m) => m.shingles.length > 0 && m.terms.length > 0);
  return {
    paths: pathsNamed(taskQuery.paths),
    keys,
    identifiers: taskQuery.identifiers.map((id) => id.toLowerCase()),
    phrases,
    messages,
  };
}

/** A file's stem as a name key, and whether it is generic (`index`, `utils`). */
export interface FileStem {
  stem: string;
  generic: boolean;
}

/**
 * The file's stem: its base name without its source ending and one more
 * (`.test`, `.config`); a package index (`index.ts`, `__init__.py`) gives
 * its folder's name.
 *
 * @example
 * stemOf("src/session_manager.py"); // { stem: "sessionmanager", generic: false }
 * stemOf("app/auth/__init__.py");   // { stem: "auth", generic: true }
 */
export function stemOf(path: string): FileStem {
  const segments = path.split("/");
  const name = segments[segments.length - 1] ?? "";
  const bare = withoutSourceEnding(name);
  const base = bare === undefined ? name : bare.replace(/(\.d)?(\.[a-z]+)?$/i, "");
  const key = nameKey(base);
  const indexName = bare === undefined ? undefined : languageRowForPath(name)?.packageIndexName;
  if (indexName !== undefined && (key === indexName || base === indexName)) {
    return segments.length > 1 ? { stem: nameKey(segments[segments.length - 2] ?? ""), generic: true } : { stem: key, generic: true };
  }
  return { stem: key, generic: GENERIC_STEMS.has(key) };
}

export interface NameEvidence {
  /** The task names this file's path (or a path ending it). */
  pathNamed: number;
  /** The task writes the file's stem as a word or a run of words (a specific stem of 4+ letters). */
  stemNamed: number;
  /** The same for a folder-named index file or a generic stem (`utils`, `index` of `auth/`). */
  genericStemNamed: number;
  /** Task identifiers the file defines by exactly that name. */
  definesIdentifier: number;
  /** The task's identifiers that are a term-for-term part of one of the file's definitions. */
  identifierInDefinitions: number;
  /** Best share of a quoted phrase's terms the file holds. */
  phraseShare: number;
  /** Best share of a quoted message's word trigrams the file's string literals hold, as one string (1: verbatim, case and spacing aside). */
  literalShare: number;
}

/** True when one of the task's paths names `path` (a path ending it, with or without its language's ending). */
function isPathNamed(path: string, taskPaths: readonly string[]): boolean {
  const lower = path.toLowerCase();
  const bare = withoutLanguageEnding(lower);
  for (const p of taskPaths) {
    if (lower === p || lower.endsWith(`/${p}`)) return true;
    const bareP = withoutLanguageEnding(p);
    if (bare === bareP || bare.endsWith(`/${bareP}`)) return true;
  }
  return false;
}

/**
 * @param literalsOf a file's literal trigrams (its parsed facts), sorted
 * @example
 * nameEvidence(index.byPath.get("src/sort-action.ts")!, taskNamesOf(parseTask("Fix sort action"))).stemNamed; // 1
 */
export function nameEvidence(file: IndexedFile, names: TaskNames, fileStem: FileStem = stemOf(file.path), literalsOf?: (path: string) => readonly number[]): NameEvidence {
  // most tasks name no path: nothing to do for each of the codebase's files then
  const pathNamed = names.paths.length > 0 && isPathNamed(file.path, names.paths) ? 1 : 0;
  const { stem, generic } = fileStem;
  const named = stem.length >= MIN_STEM && names.keys.has(stem);
  let defines = 0;
  for (const id of names.identifiers) if (file.definedNames.has(id)) defines++;
  let phraseShare = 0;
  for (const phrase of names.phrases) {
    const held = phrase.filter((t) => file.allTerms.has(t)).length / phrase.length;
    phraseShare = Math.max(phraseShare, held);
  }
  let literalShare = 0;
  if (literalsOf) {
    // a string literal's words are in no field of the lexical index: the literals themselves are asked (a binary search a trigram)
    const literals = names.messages.length > 0 ? literalsOf(file.path) : [];
    for (const message of names.messages) literalShare = Math.max(literalShare, heldShare(literals, message.shingles));
  }
  let inDefinitions = 0;
  for (const id of names.identifiers) {
    const key = nameKey(id.split(".").pop() ?? id);
    if (key.length < MIN_STEM) continue;
    for (const name of file.definedNames) {
      if (name !== id && name.includes(key)) {
        inDefinitions++;
        break;
      }
    }
  }
  return {
    pathNamed,
    stemNamed: named && !generic ? 1 : 0,
    genericStemNamed: named && generic ? 1 : 0,
    definesIdentifier: defines,
    identifierInDefinitions: inDefinitions,
    phraseShare,
    literalShare,
  };
}
