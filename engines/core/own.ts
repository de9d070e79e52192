// Look-up tables written as object literals (a name to its meaning) are indexed with keys read from evidence and
// requests. An object literal inherits `constructor`, `toString`, `__proto__` and the other Object.prototype members,
// so a plain index gives a function or an object for those keys: a log line with `type=constructor` would reach code
// that expects a string. Every such look-up goes through `ownEntry`.
//
// Objects built at run time with keys from evidence or requests (an EVTX `Data Name`, an auditd field, a CSV column, a
// JSON member copied over) have the same trap on the writing side: `out['__proto__'] = v` sets the prototype instead
// of a key (the value is lost, or an object value becomes what every missing key is looked up in). Such an object is
// written with `setOwn` and read back with `ownEntry`.

/** The table's own entry for `key`, or undefined: never an inherited member. */
export function ownEntry<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/**
 * Sets `key` as an own, enumerable, writable property of `obj`, as an object literal or JSON.parse would: for
 * `__proto__` too, where a plain assignment would set the prototype. Other names (`constructor`, `toString`) already
 * become own properties by assignment, so only that one key takes the slower define.
 */
export function setOwn<V>(obj: Record<string, V>, key: string, value: V): void {
  if (key === '__proto__') Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}
