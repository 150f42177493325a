/**
 * What the index's packed sections share: typed arrays as bytes and back,
 * and a binary search over a sorted list.
 */

/** A typed array's bytes (a view, not a copy). */
export function bytesOf(array: Int32Array | Uint16Array | Float64Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

/**
 * The bytes copied to a buffer of their own, so typed arrays can view them
 * (the bytes may sit at any offset of a larger buffer), and its header: the
 * first `headInts` 32-bit integers. Undefined when the bytes are shorter.
 *
 * @example
 * const packed = unpack(bytes, 8);
 * packed?.head[0]; // the magic number
 */
export function unpack(bytes: Uint8Array, headInts: number): { own: Uint8Array; head: number[] } | undefined {
  if (bytes.byteLength < headInts * 4) return undefined;
  const own = new Uint8Array(bytes.byteLength);
  own.set(bytes);
  return { own, head: Array.from(new Int32Array(own.buffer, 0, headInts)) };
}

/**
 * Where `value` sits in ascending `list` (numbers, or strings by code
 * unit), or -1.
 *
 * @example
 * positionOf([2, 5, 9], 5); // 1
 */
export function positionOf<T extends number | string>(list: ArrayLike<T>, value: T): number {
  let lo = 0;
  let hi = list.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = list[mid]!;
    if (v === value) return mid;
    if (v < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}
