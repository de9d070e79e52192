// Look-up tables written as object literals (a name to its meaning) are indexed with keys read from evidence and
// requests. An object literal inherits `constructor`, `toString`, `__proto__` and the other Object.prototype members,
// so a plain index gives a function or an object for those keys: a log line with `type=constructor` would reach code
// that expects a string. Every such look-up goes through `ownEntry`.

/** The table's own entry for `key`, or undefined: never an inherited member. */
export function ownEntry<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
