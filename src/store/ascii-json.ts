/**
 * The store's JSON files as ASCII: written with every character past U+007F
 * as a `\uXXXX` escape, read back as one-byte (latin1) text, which needs no
 * UTF-8 decoding and which JSON.parse reads fastest (babel's 5 MB
 * history.json: decoded and parsed in ~30 ms against ~65-120 as UTF-8).
 * A file written before, in raw UTF-8, still reads back the same.
 */
import { isAscii } from "node:buffer";

const NON_ASCII = /[\u0080-\uffff]/g;

/**
 * JSON text in ASCII: every character past U+007F as a `\uXXXX` escape (one
 * UTF-16 code unit each, so JSON.parse gives back the same string).
 *
 * @example
 * toAsciiJson({ doc: "┌ é" }) // '{"doc":"\\u250c \\u00e9"}'
 */
export function toAsciiJson(value: unknown): string {
  return JSON.stringify(value).replace(NON_ASCII, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * A JSON file's bytes as text: one-byte text when they are ASCII, else
 * UTF-8.
 *
 * @example
 * JSON.parse(jsonText(readFileSync("index.json")));
 */
export function jsonText(bytes: Buffer): string {
  return bytes.toString(isAscii(bytes) ? "latin1" : "utf8");
}
