// Read-only sequences made on demand: what the analysis returns instead of arrays of objects (events, edges).

/** Read access by position: an array is one, and so is Rows (whose items are made on each read). */
export interface Seq<T> extends Iterable<T> {
  readonly length: number;
  at(i: number): T | undefined;
}

/** Position k of a sequence of n items as Array.prototype.at reads it (negative: from the end); -1 outside. */
export function positionOf(i: number, n: number): number {
  if (!Number.isInteger(i)) return -1;
  const k = i < 0 ? n + i : i;
  return k >= 0 && k < n ? k : -1;
}

/** `length` items, item k made by `get(k)` on each read; the array methods the callers use give arrays. */
export class Rows<T> implements Seq<T> {
  constructor(
    readonly length: number,
    private readonly get: (k: number) => T,
  ) {}

  at(i: number): T | undefined {
    const k = positionOf(i, this.length);
    return k < 0 ? undefined : this.get(k);
  }

  *[Symbol.iterator](): Iterator<T> {
    for (let k = 0; k < this.length; k++) yield this.get(k);
  }

  filter(keep: (item: T, k: number) => boolean): T[] {
    const out: T[] = [];
    for (let k = 0; k < this.length; k++) {
      const item = this.get(k);
      if (keep(item, k)) out.push(item);
    }
    return out;
  }

  map<U>(f: (item: T, k: number) => U): U[] {
    const out: U[] = [];
    for (let k = 0; k < this.length; k++) out.push(f(this.get(k), k));
    return out;
  }

  find(test: (item: T, k: number) => boolean): T | undefined {
    for (let k = 0; k < this.length; k++) {
      const item = this.get(k);
      if (test(item, k)) return item;
    }
    return undefined;
  }

  some(test: (item: T, k: number) => boolean): boolean {
    for (let k = 0; k < this.length; k++) if (test(this.get(k), k)) return true;
    return false;
  }

  /** Items start to end (as Array.prototype.slice) as an array. */
  slice(start?: number, end?: number): T[] {
    const n = this.length;
    const from = start === undefined ? 0 : start < 0 ? Math.max(0, n + start) : Math.min(n, start);
    const to = end === undefined ? n : end < 0 ? Math.max(0, n + end) : Math.min(n, end);
    const out: T[] = [];
    for (let k = from; k < to; k++) out.push(this.get(k));
    return out;
  }
}
