// Texts kept by position outside the V8 heap: the graph's node ids, a million of them on a large case.

/** Bytes and positions to begin with. */
const INITIAL_BYTES = 1 << 16;
const INITIAL_TEXTS = 1024;

/**
 * Texts by position (0, 1, 2 ... in order of push), as Latin-1 bytes in one growing buffer with their end offsets in a
 * typed array: no string object per text for each full collection to mark and move (a node id cost about 48 bytes of
 * heap and one object). A text with a character above U+00FF is kept as the string itself. `at` makes the string
 * again on each read; `equals` compares without making it.
 */
export class TextStore {
  private bytes: Buffer = Buffer.allocUnsafeSlow(INITIAL_BYTES);
  /** ends[k + 1] is where text k ends (ends[0] = 0): text k is bytes ends[k] to ends[k + 1]. */
  private ends: Float64Array = new Float64Array(INITIAL_TEXTS + 1);
  private used = 0;
  private count = 0;
  /** The texts with a character above U+00FF, by position (no bytes of their own). */
  private readonly wide = new Map<number, string>();

  get length(): number {
    return this.count;
  }

  /** Adds a text at the next position; returns that position. */
  push(text: string): number {
    const k = this.count;
    if (k + 2 > this.ends.length) {
      const ends = new Float64Array(this.ends.length * 2);
      ends.set(this.ends);
      this.ends = ends;
    }
    const n = text.length;
    let narrow = true;
    for (let i = 0; i < n; i++)
      if (text.charCodeAt(i) > 0xff) {
        narrow = false;
        break;
      }
    if (narrow) {
      if (this.used + n > this.bytes.length) this.grow(this.used + n);
      this.bytes.write(text, this.used, n, 'latin1');
      this.used += n;
    } else this.wide.set(k, text);
    this.ends[k + 1] = this.used;
    this.count = k + 1;
    return k;
  }

  /** Text k (a new string on each read). */
  at(k: number): string {
    if (this.wide.size !== 0) {
      const w = this.wide.get(k);
      if (w !== undefined) return w;
    }
    return this.bytes.toString('latin1', this.ends[k] as number, this.ends[k + 1] as number);
  }

  /** True when text k is `text`, without making text k. */
  equals(k: number, text: string): boolean {
    if (this.wide.size !== 0) {
      const w = this.wide.get(k);
      if (w !== undefined) return w === text;
    }
    const start = this.ends[k] as number;
    const n = text.length;
    if ((this.ends[k + 1] as number) - start !== n) return false;
    const bytes = this.bytes;
    for (let i = 0; i < n; i++) if (bytes[start + i] !== text.charCodeAt(i)) return false;
    return true;
  }

  /** The buffer at least `need` bytes long (twice as long each time), its bytes kept. */
  private grow(need: number): void {
    let size = this.bytes.length * 2;
    while (size < need) size *= 2;
    const bytes = Buffer.allocUnsafeSlow(size);
    this.bytes.copy(bytes, 0, 0, this.used);
    this.bytes = bytes;
  }
}
