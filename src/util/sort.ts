/** Sort strings by UTF-16 code unit: the same order on every machine and locale. */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** True when the strings are in {@link byCodeUnit} order. */
export function isSortedByCodeUnit(strings: readonly string[]): boolean {
  for (let i = 1; i < strings.length; i++) if (strings[i - 1]! > strings[i]!) return false;
  return true;
}
