/**
 * Text for a terminal: control characters from a task, a file name or a
 * message are shown escaped (`\u001b`), never sent raw. A codebase we did not
 * write can name a file `a\x1b]0;…\x07.ts`; printed as is, it would drive the
 * reader's terminal (retitle it, clear it, hide lines). Newline and tab stay:
 * every output format is built of lines. The escape is JSON's own, so JSON
 * output still parses to the same strings (JSON.stringify leaves DEL, the C1
 * controls and the bidi marks raw).
 *
 * @example
 * escapeControlCharacters("fix \x1b[31mred\x1b[0m\n") // "fix \\u001b[31mred\\u001b[0m\n"
 * escapeControlCharacters("a\u202eb")                 // "a\\u202eb"
 */

/**
 * C0 controls but tab and newline, DEL, the C1 controls (U+0080–U+009F: U+009B
 * is a one-character CSI), and the bidi overrides and isolates that reorder
 * what is shown (U+202A–U+202E, U+2066–U+2069: "Trojan Source").
 */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

export function escapeControlCharacters(text: string): string {
  return text.replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
