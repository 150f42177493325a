/** Content hashes of source files: the key of their parsed facts in the index. */
import { createHash } from "node:crypto";

/**
 * sha1 of a file's bytes, hex. Fast, and enough here: it guards against
 * accidental change, not an attacker (a file is its own key's input).
 *
 * @example
 * hashContent(Buffer.from("export const a = 1;\n")).length; // 40
 * hashContent([Buffer.from("ab"), Buffer.from("c")]) === hashContent(Buffer.from("abc")); // true
 */
export function hashContent(bytes: Uint8Array | string | readonly Uint8Array[]): string {
  const hash = createHash("sha1");
  // parts: the hash of their concatenation, without making it
  if (Array.isArray(bytes)) for (const part of bytes as readonly Uint8Array[]) hash.update(part);
  else hash.update(bytes as Uint8Array | string);
  return hash.digest("hex");
}
