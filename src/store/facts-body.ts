/**
 * facts.bin's body, read as it is asked for. A warm query reads the heavy
 * facts of the few files it looks at: on effect@4.1.0, 12.5 of facts.bin's
 * 14.8 MB are file facts, and copying all of them into memory took ~10 ms
 * of each query. The file stays open from the load on, so every read sees
 * the bytes of the build that index.json named, even after another build
 * replaced the file (a rename leaves the open one readable). Once many
 * ranges are asked for (a write of the store copies every file's bytes),
 * the rest is read at once and the file closed.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { GraphRetrieveError } from "../errors.js";

/**
 * Ranges read one by one before the whole body is read at once. A warm
 * query reads a few dozen (effect@4.1.0's bench task: 30 reads with the
 * header and the two sections; rollup's: 11); a store write asks for
 * every file's.
 */
const READS_BEFORE_WHOLE = 256;

/** The bytes of facts.bin past its header line. */
export interface FactsBody {
  /** Bytes in the body. */
  readonly length: number;
  /** The body's bytes [at, at + length); the caller checked the range. */
  bytes(at: number, length: number): Buffer;
}

/** A body the process holds whole (the bytes just written, or read at once). */
function bodyInMemory(whole: Buffer): FactsBody {
  return { length: whole.length, bytes: (at, length) => whole.subarray(at, at + length) };
}

// a body dropped before it was read whole closes its file then (the process's exit closes the rest)
const closeWhenDropped = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
});

/** Read exactly `length` bytes at `position` (a short read means the file was cut). */
function readAt(fd: number, path: string, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    let read: number;
    try {
      read = readSync(fd, buffer, done, length - done, position + done);
    } catch (error) {
      throw new GraphRetrieveError("io", `store: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? "error"}); delete the index folder to rebuild it, or pass --no-cache`);
    }
    if (read === 0) throw new GraphRetrieveError("io", `store: ${path} ended early; delete the index folder to rebuild it, or pass --no-cache`);
    done += read;
  }
  return buffer;
}

/**
 * facts.bin opened: its header line (the text before the first newline,
 * undefined when the first `maxHead` bytes hold none: the header is a few
 * hundred bytes, a long root path at most a few thousand) and its body, read on
 * demand. Throws the open's or the read's error (ENOENT, EACCES…).
 *
 * @example
 * const { head, body } = openFactsFile("/cache/facts.bin");
 * body.bytes(0, 120).toString("latin1");
 */
export function openFactsFile(path: string, maxHead = 1 << 14): { head: string | undefined; body: FactsBody } {
  const fd = openSync(path, "r");
  let size: number;
  let first: Buffer;
  try {
    size = fstatSync(fd).size;
    first = readAt(fd, path, 0, Math.min(size, maxHead));
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  const end = first.indexOf(10);
  if (end < 0) {
    closeSync(fd);
    return { head: undefined, body: bodyInMemory(Buffer.alloc(0)) };
  }
  const start = end + 1;
  const length = size - start;
  // the body when it is small enough to be in the first read already
  if (size <= first.length) {
    closeSync(fd);
    return { head: first.toString("latin1", 0, end), body: bodyInMemory(first.subarray(start)) };
  }
  let whole: Buffer | undefined;
  let reads = 0;
  const body: FactsBody = {
    length,
    bytes(at, count) {
      if (whole) return whole.subarray(at, at + count);
      if (++reads <= READS_BEFORE_WHOLE) return readAt(fd, path, start + at, count);
      whole = readAt(fd, path, start, length);
      closeWhenDropped.unregister(body);
      closeSync(fd);
      return whole.subarray(at, at + count);
    },
  };
  closeWhenDropped.register(body, fd, body);
  return { head: first.toString("latin1", 0, end), body };
}
