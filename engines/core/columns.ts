// Typed-array columns that grow: the engines keep per-record fields in typed arrays indexed by record and enlarge them
// (usually by doubling) when they fill up.

export type Column = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float64Array;

/** A column of the same type, `length` elements long (at least `a.length`), starting with `a`'s elements; the rest zero. */
export function grownColumn<A extends Column>(a: A, length: number): A {
  const b = new (a.constructor as new (n: number) => A)(Math.max(length, a.length));
  b.set(a);
  return b;
}
