/**
 * Valid TypeScript that tree-sitter-typescript 0.23 does not know, rewritten
 * in place so that tree-sitter can read the file after all. Every rewrite
 * keeps the text's length and lines (a character for a character), so each
 * offset and line of the repaired tree is one of the original text, which
 * the facts are then read from.
 *
 * The gaps (the words each rule looks for are in `GRAMMAR_GAPS`):
 * - variance modifiers on type parameters, `interface A<in out T>`: blanked;
 * - `export type * from "./x"` and `export type * as X from "./x"`: the
 *   `type` blanked (the caller marks the re-export type-only);
 * - a call signature with type parameters on a new line right after a member
 *   that ends in a type (`(a: A): B<A>⏎  <C>(c: C): D`): tree-sitter reads the
 *   `<` as type arguments of `B<A>`, TypeScript as a new member, since type
 *   arguments never start after a line break. A `;` is put in the indentation
 *   before the `<`, only within braces that may hold type members: an
 *   interface body, or a `{` where a type may start (after `:`, `=`, `|`,
 *   `&`, `<`, `,`, `(`, `[`, `=>`, `?`); never in a block after `)`, a name
 *   or a keyword, where `a⏎  < b` is a comparison;
 * - an import type with type arguments, `import("./x").T<A>` (date-fns's
 *   declaration files): tree-sitter reads `import("./x").T` as a member
 *   expression, which cannot take type arguments. `import("./x").` is
 *   blanked, leaving the generic type `T<A>`, and the import of `./x` is
 *   handed to the caller, which adds it to the facts as tree-sitter gives an
 *   import type without type arguments (a dynamic import);
 * - an escape in a template literal type (`` `a \`b\`` ``): tree-sitter's
 *   template_literal_type has no escape sequences. Escapes in every template
 *   literal are blanked: a literal's content is never read from the tree
 *   (facts slice the original text), only its span, which stays.
 *
 * The text is read as tokens (comments, strings, template literals and
 * regexes skipped) and only the token sequences of these constructs are
 * touched: `for (k in o)`, `[K in keyof T]`, `x\n< y` in an expression or
 * the same words in a string stay as they are. The caller keeps a repair only
 * when the repaired text parses without errors.
 */

/** The words the repairs look for: the language knowledge, as data. */
export const GRAMMAR_GAPS = {
  /** Declarations whose type parameter list may hold variance modifiers (`class`, also as an expression: `class<in T> {}`). */
  varianceOwners: ["class", "interface", "type"],
  /** The variance modifiers tree-sitter does not know; blanked. */
  varianceModifiers: ["in", "out"],
  /** Type parameter modifiers tree-sitter knows: skipped over, left alone. */
  knownParameterModifiers: ["const"],
  /** `export type *`: the keyword blanked between `export` and `*`. */
  typeOnlyExportKeyword: "type",
  /**
   * Words after which a type cannot have ended: a `<` on the next line is
   * not a new call signature there. Type names (`void`, `string`, `this`,
   * `undefined`, …) can end a type and are not listed.
   */
  wordsNotEndingAType: [
    "abstract", "accessor", "as", "assert", "asserts", "async", "await", "break", "case", "catch", "class", "const",
    "continue", "debugger", "declare", "default", "delete", "do", "else", "enum", "export", "extends", "finally", "for",
    "from", "function", "get", "if", "implements", "import", "in", "infer", "instanceof", "interface", "is", "keyof",
    "let", "module", "namespace", "new", "of", "out", "override", "package", "private", "protected", "public",
    "readonly", "return", "satisfies", "set", "static", "switch", "throw", "try", "type", "typeof", "unique", "var",
    "while", "with", "yield",
  ],
  /** Words after which a `/` starts a regular expression, not a division. */
  wordsBeforeRegex: ["return", "typeof", "case", "do", "else", "in", "instanceof", "new", "delete", "void", "throw", "yield", "await", "of"],
} as const;

/** One rewrite: the text from `start` to `end` becomes `replacement` (same length). */
export interface TextRepair {
  start: number;
  end: number;
  replacement: string;
  rule: "variance-modifier" | "type-only-export-star" | "signature-separator" | "template-escape" | "import-type-generic";
  /** import-type-generic: the specifier of the import blanked, which the facts must keep. */
  specifier?: string;
}

/**
 * Rules whose construct tree-sitter-typescript 0.23 never parses: two names
 * in a row in a type parameter list (`<in out T>`), `export type *`. A text
 * with one of these repairs has errors as it is, so it can be parsed
 * repaired at once. Not the others: an escape is fine outside a template
 * literal type, and `a⏎ <b>(c)` or `import("./x").then<T>(f)` can be valid
 * expressions the repair would change.
 */
export const ALWAYS_TRIPS: ReadonlySet<TextRepair["rule"]> = new Set<TextRepair["rule"]>(["variance-modifier", "type-only-export-star"]);

/** The words of the rules in {@link ALWAYS_TRIPS}, loosely (a comment can match): only a hint to look with findGrammarGaps first. */
const MAY_TRIP = /export\s+type\s*\*|<\s*(?:in|out)\s|,\s*(?:in|out)\s+[A-Za-z_$][\w$]*\s*(?:[,>=]|extends\s)/;

/**
 * True when a text may hold a gap of {@link ALWAYS_TRIPS}: a cheap test on
 * its words; false means it holds none.
 *
 * @example
 * mayHaveTrippingGap("interface A<in out T> {}") // true
 * mayHaveTrippingGap("const a = b < c;")         // false
 */
export function mayHaveTrippingGap(text: string): boolean {
  return MAY_TRIP.test(text);
}

/** A repaired text and what the repairs took away that the facts must keep. */
export interface RepairedText {
  text: string;
  repairs: TextRepair[];
  /** Start offsets of the `export type * …` statements whose `type` was blanked: their re-export is type-only. */
  typeOnlyExportStarts: Set<number>;
}

const NAME = 1;
const PUNCT = 2;
const LITERAL = 3; // string, number, template
const REGEX = 4;

const OWNERS = new Set<string>(GRAMMAR_GAPS.varianceOwners);
const VARIANCE = new Set<string>(GRAMMAR_GAPS.varianceModifiers);
const KNOWN_MODIFIERS = new Set<string>(GRAMMAR_GAPS.knownParameterModifiers);
const NOT_TYPE_END = new Set<string>(GRAMMAR_GAPS.wordsNotEndingAType);
const BEFORE_REGEX = new Set<string>(GRAMMAR_GAPS.wordsBeforeRegex);
const LONGEST_WORD = Math.max(...[...OWNERS, ...VARIANCE, ...KNOWN_MODIFIERS, ...NOT_TYPE_END, ...BEFORE_REGEX].map((w) => w.length));
const TEMPLATE = -1; // on the bracket stack: a `${` substitution
const TYPE_BRACE = -2; // on the bracket stack: a `{` that may hold type members
const BLOCK_BRACE = 123; // on the bracket stack: any other `{`
/** Punctuation after which a `{` may open an object type: `:` `=` `|` `&` `<` `,` `(` `[` `?` (and `=>`). */
const BEFORE_OBJECT_TYPE = new Set([58, 61, 124, 38, 60, 44, 40, 91, 63]);

/** A token handed to the rules: kind, span, whether a line break precedes it, and the innermost open bracket. */
type TokenVisitor = (kind: number, start: number, end: number, lineBreakBefore: boolean, open: number) => void;

function isLineBreak(c: number): boolean {
  return c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 11 || c === 12 || c === 0xa0 || c === 0xfeff || (c >= 0x1680 && (c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x202f || c === 0x205f || c === 0x3000));
}

function isNameStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36 || c === 92 || c === 35 || (c >= 0x80 && !isSpace(c) && !isLineBreak(c));
}

function isNamePart(c: number): boolean {
  return isNameStart(c) || (c >= 48 && c <= 57);
}

/** The end of a quoted string starting at `start` (its quote); an unterminated one ends at the line break. */
function stringEnd(text: string, start: number): number {
  const quote = text.charCodeAt(start);
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) i++;
    else if (c === quote) return i + 1;
    else if (c === 10 || c === 13) return i;
  }
  return text.length;
}

/** The end of a regex literal starting at `start` (its `/`), flags included; -1 when it is no regex (a line break first). */
function regexEnd(text: string, start: number): number {
  let inClass = false;
  for (let i = start + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isLineBreak(c)) return -1;
    if (c === 92) i++;
    else if (c === 91) inClass = true;
    else if (c === 93) inClass = false;
    else if (c === 47 && !inClass) {
      let end = i + 1;
      while (end < text.length && isNamePart(text.charCodeAt(end))) end++;
      return end;
    }
  }
  return -1;
}

/**
 * The template literal part from `start` (just after "`" or a substitution's
 * `}`) to its end: the offset after the closing "`" (`closed`), or after a `${`.
 */
function templatePartEnd(text: string, start: number): { end: number; closed: boolean; lineBreaks: boolean } {
  let lineBreaks = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) i++;
    else if (c === 96) return { end: i + 1, closed: true, lineBreaks };
    else if (c === 36 && text.charCodeAt(i + 1) === 123) return { end: i + 2, closed: false, lineBreaks };
    else if (isLineBreak(c)) lineBreaks = true;
  }
  return { end: text.length, closed: true, lineBreaks };
}

/** Visit the tokens of a text outside comments; strings, templates and regexes are one token each (substitutions tokenized). */
function tokenize(text: string, visit: TokenVisitor): void {
  const brackets: number[] = [];
  let lineBreak = false;
  let lastKind = 0;
  let lastStart = 0;
  let lastEnd = 0;
  // after `interface Name`: the bracket depth where its body's `{` will open
  let interfaceDepth = -1;
  const emit = (kind: number, start: number, end: number): void => {
    if (kind === NAME && lastKind === NAME && lastEnd - lastStart === 9 && text.startsWith("interface", lastStart)) interfaceDepth = brackets.length;
    visit(kind, start, end, lineBreak, brackets.length > 0 ? brackets[brackets.length - 1]! : 0);
    lineBreak = false;
    lastKind = kind;
    lastStart = start;
    lastEnd = end;
  };
  const regexAllowed = (): boolean => {
    if (lastKind === 0) return true;
    if (lastKind === NAME) return lastEnd - lastStart <= LONGEST_WORD && BEFORE_REGEX.has(text.slice(lastStart, lastEnd));
    if (lastKind === PUNCT) {
      const c = text.charCodeAt(lastStart);
      return c !== 41 && c !== 93 && c !== 125; // ) ] }
    }
    return false;
  };
  /** What a `{` about to open at `depth` is: an interface body or where a type may start, else a block or an object. */
  const braceKind = (depth: number): number => {
    if (interfaceDepth === depth) {
      interfaceDepth = -1;
      return TYPE_BRACE;
    }
    if (lastKind !== PUNCT) return BLOCK_BRACE;
    const c = text.charCodeAt(lastStart);
    return BEFORE_OBJECT_TYPE.has(c) ? TYPE_BRACE : BLOCK_BRACE;
  };
  const template = (from: number, start: number): number => {
    const part = templatePartEnd(text, from);
    if (!part.closed) brackets.push(TEMPLATE);
    emit(LITERAL, start, part.end);
    if (part.lineBreaks) lineBreak = true;
    return part.end;
  };
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (isLineBreak(c)) {
      lineBreak = true;
      i++;
    } else if (isSpace(c)) {
      i++;
    } else if (c === 47 && text.charCodeAt(i + 1) === 47) {
      while (i < text.length && !isLineBreak(text.charCodeAt(i))) i++;
    } else if (c === 47 && text.charCodeAt(i + 1) === 42) {
      const close = text.indexOf("*/", i + 2);
      const end = close === -1 ? text.length : close + 2;
      for (let j = i; j < end; j++) if (isLineBreak(text.charCodeAt(j))) lineBreak = true;
      i = end;
    } else if (c === 47 && regexAllowed() && regexEnd(text, i) !== -1) {
      const end = regexEnd(text, i);
      emit(REGEX, i, end);
      i = end;
    } else if (c === 34 || c === 39) {
      const end = stringEnd(text, i);
      emit(LITERAL, i, end);
      i = end;
    } else if (c === 96) {
      i = template(i + 1, i);
    } else if (c >= 48 && c <= 57) {
      let end = i + 1;
      while (end < text.length && (isNamePart(text.charCodeAt(end)) || text.charCodeAt(end) === 46)) end++;
      emit(LITERAL, i, end);
      i = end;
    } else if (isNameStart(c)) {
      let end = i + 1;
      while (end < text.length && isNamePart(text.charCodeAt(end))) end++;
      emit(NAME, i, end);
      i = end;
    } else if (c === 61 && text.charCodeAt(i + 1) === 62) {
      emit(PUNCT, i, i + 2); // =>
      i += 2;
    } else if (c === 125 && brackets[brackets.length - 1] === TEMPLATE) {
      brackets.pop();
      i = template(i + 1, i);
    } else {
      if (c === 123) brackets.push(braceKind(brackets.length));
      else if (c === 40 || c === 91) brackets.push(c);
      else if ((c === 41 || c === 93 || c === 125) && brackets.length > 0) brackets.pop();
      emit(PUNCT, i, i + 1);
      i++;
    }
  }
}

/**
 * The repairs a text needs (none for most texts), found in one pass over its
 * tokens.
 *
 * @example
 * findGrammarGaps("interface A<in out T> {}").map((r) => r.rule) // ["variance-modifier", "variance-modifier"]
 */
export function findGrammarGaps(text: string): { repairs: TextRepair[]; typeOnlyExportStarts: Set<number> } {
  const repairs: TextRepair[] = [];
  const typeOnlyExportStarts = new Set<number>();
  // `import ( "x" ) . Name (. Name)* <`: the step reached (0: none), where `import` starts, the specifier, the end of the `.`
  let importStep = 0;
  let importStart = 0;
  let importSpecifier = "";
  let importDotEnd = 0;
  const wordOf = (kind: number, start: number, end: number): string => (kind === NAME && end - start <= LONGEST_WORD ? text.slice(start, end) : "");
  const blank = (start: number, end: number, rule: TextRepair["rule"]): void => {
    repairs.push({ start, end, replacement: " ".repeat(end - start), rule });
  };
  // the two tokens before the current one
  let kind1 = 0, start1 = 0, end1 = 0, word1 = "";
  let kind2 = 0, start2 = 0, word2 = "";
  // a type parameter list of a variance owner: its `<` depth (0: not in one), brackets inside, and a modifier awaiting its name
  let listDepth = 0;
  let nested = 0;
  let parameterStart = false;
  let pendingStart = -1;
  let pendingEnd = -1;

  tokenize(text, (kind, start, end, lineBreakBefore, open) => {
    const word = wordOf(kind, start, end);
    const punct = kind === PUNCT ? text.charCodeAt(start) : 0;
    const isLessThan = punct === 60 && end - start === 1;

    if (listDepth > 0) {
      if (pendingStart >= 0) {
        // `in`/`out` is a modifier when a name follows on its line (`<out>`, `<out = X>`: it is the name)
        if (kind === NAME && word !== "extends" && !lineBreakBefore) blank(pendingStart, pendingEnd, "variance-modifier");
        pendingStart = -1;
      }
      if (punct === 60) listDepth++;
      else if (punct === 62 && end - start === 1) listDepth--;
      else if (punct === 40 || punct === 91 || punct === 123) nested++;
      else if (punct === 41 || punct === 93 || punct === 125) nested--;
      if (punct === 44 && listDepth === 1 && nested === 0) parameterStart = true;
      else if (parameterStart && VARIANCE.has(word)) {
        pendingStart = start;
        pendingEnd = end;
      } else if (!(parameterStart && KNOWN_MODIFIERS.has(word))) parameterStart = false;
    } else if (isLessThan && ((kind1 === NAME && OWNERS.has(word2) && kind2 === NAME) || word1 === "class")) {
      listDepth = 1;
      nested = 0;
      parameterStart = true;
    }

    if (punct === 42 && word1 === GRAMMAR_GAPS.typeOnlyExportKeyword && word2 === "export") {
      blank(start1, end1, "type-only-export-star");
      typeOnlyExportStarts.add(start2);
    }

    // import ( "x" ) . Name [. Name]… <
    const quote = kind === LITERAL ? text.charCodeAt(start) : 0;
    if (word === "import") {
      importStep = 1;
      importStart = start;
    } else if (importStep === 1 && punct === 40) importStep = 2;
    else if (importStep === 2 && (quote === 34 || quote === 39) && end - start >= 2 && text.charCodeAt(end - 1) === quote) {
      importStep = 3;
      importSpecifier = text.slice(start + 1, end - 1);
    } else if (importStep === 3 && punct === 41) importStep = 4;
    else if ((importStep === 4 || importStep === 6) && punct === 46 && end - start === 1) {
      if (importStep === 4) importDotEnd = end;
      importStep = 5;
    } else if (importStep === 5 && kind === NAME) importStep = 6;
    else if (importStep === 6 && isLessThan) {
      // on one line only: a blank keeps every line break, and a tree edit spans no line
      if (!/[\n\r\u2028\u2029]/.test(text.slice(importStart, importDotEnd))) {
        repairs.push({ start: importStart, end: importDotEnd, replacement: " ".repeat(importDotEnd - importStart), rule: "import-type-generic", specifier: importSpecifier });
      }
      importStep = 0;
    } else importStep = 0;

    if (kind === LITERAL && (text.charCodeAt(start) === 96 || text.charCodeAt(start) === 125)) {
      // a template literal part: "`…`", "`…${", "}…${" or "}…`"
      for (let i = text.indexOf("\\", start); i !== -1 && i < end - 1; i = text.indexOf("\\", i + 2)) {
        blank(i, isLineBreak(text.charCodeAt(i + 1)) ? i + 1 : i + 2, "template-escape");
      }
    }

    if (isLessThan && lineBreakBefore && open === TYPE_BRACE && start > 0) {
      const endsType =
        kind1 === LITERAL ||
        (kind1 === NAME && (end1 - start1 > LONGEST_WORD || !NOT_TYPE_END.has(word1))) ||
        (kind1 === PUNCT && end1 - start1 === 1 && [41, 93, 125, 62].includes(text.charCodeAt(start1)));
      const before = text.charCodeAt(start - 1);
      if (endsType && (before === 32 || before === 9)) repairs.push({ start: start - 1, end: start, replacement: ";", rule: "signature-separator" });
    }

    kind2 = kind1;
    start2 = start1;
    word2 = word1;
    kind1 = kind;
    start1 = start;
    end1 = end;
    word1 = word;
  });
  repairs.sort((a, b) => a.start - b.start);
  return { repairs, typeOnlyExportStarts };
}

/**
 * The text with its grammar gaps repaired, or undefined when it has none.
 *
 * @example
 * repairGrammarGaps('export type * from "./x";')?.text // 'export      * from "./x";'
 */
export function repairGrammarGaps(text: string): RepairedText | undefined {
  const { repairs, typeOnlyExportStarts } = findGrammarGaps(text);
  if (repairs.length === 0) return undefined;
  const parts: string[] = [];
  let from = 0;
  for (const repair of repairs) {
    parts.push(text.slice(from, repair.start), repair.replacement);
    from = repair.end;
  }
  parts.push(text.slice(from));
  return { text: parts.join(""), repairs, typeOnlyExportStarts };
}
