/** Content hashes of source files: the key of their parsed facts in the index. */
import { createHash } from "node:crypto";

/**
 * sha1 of a file's bytes, hex. Fast, and enough here: it guards against
 * accidental change, not an attacker (a file is its own key's input).
 *
 * @example
 * hashContent(Buffer.from("export const a = 1;\n")).length; // 40
 */
export function hashContent(bytes: Uint8Array | string): string {
  return createHash("sha1").update(bytes).digest("hex");
}
