// Texts kept by position outside the V8 heap: the graph's node ids, a million of them on a large case.

/** Bytes of each buffer the texts are written into (no text spans two; a longer text is kept as its string). */
const CHUNK_BYTES = 1 << 20;
/** Positions to begin with. */
const INITIAL_TEXTS = 1024;

/**
 * Texts by position (0, 1, 2 ... in order of push), as Latin-1 bytes in buffers of CHUNK_BYTES filled one after
 * another, with each text's start (buffer times CHUNK_BYTES plus offset) and length in typed arrays: no string object
 * per text for each full collection to mark and move (a node id cost about 48 bytes of heap and one object). The
 * buffers are not grown by copying: V8 counts memory outside its heap towards its next collection, so a copy would
 * count twice. A text with a character above U+00FF, or longer than a quarter of a buffer, is kept as the string
 * itself. `at` makes the string again on each read; `equals` compares without making it.
 */
export class TextStore {
  private readonly chunks: Buffer[] = [];
  private chunk: Buffer | null = null;
  /** Bytes used in the last buffer. */
  private used = CHUNK_BYTES;
  private starts: Float64Array = new Float64Array(INITIAL_TEXTS);
  private lengths: Uint32Array = new Uint32Array(INITIAL_TEXTS);
  private count = 0;
  /** The texts kept as strings, by position (no bytes of their own). */
  private readonly strings = new Map<number, string>();

  get length(): number {
    return this.count;
  }

  /** Room for `n` texts in all, made at once (the position columns grow by doubling otherwise). */
  reserve(n: number): void {
    if (n <= this.starts.length) return;
    const starts = new Float64Array(n);
    starts.set(this.starts);
    this.starts = starts;
    const lengths = new Uint32Array(n);
    lengths.set(this.lengths);
    this.lengths = lengths;
  }

  /** Adds a text at the next position; returns that position. */
  push(text: string): number {
    const k = this.count;
    if (k === this.starts.length) this.reserve(k * 2);
    const n = text.length;
    let narrow = n <= CHUNK_BYTES / 4;
    for (let i = 0; i < n && narrow; i++) if (text.charCodeAt(i) > 0xff) narrow = false;
    if (narrow) {
      if (this.used + n > CHUNK_BYTES || this.chunk === null) {
        this.chunk = Buffer.allocUnsafeSlow(CHUNK_BYTES);
        this.chunks.push(this.chunk);
        this.used = 0;
      }
      this.chunk.write(text, this.used, n, 'latin1');
      this.starts[k] = (this.chunks.length - 1) * CHUNK_BYTES + this.used;
      this.lengths[k] = n;
      this.used += n;
    } else this.strings.set(k, text);
    this.count = k + 1;
    return k;
  }

  /** Text k (a new string on each read). */
  at(k: number): string {
    if (this.strings.size !== 0) {
      const w = this.strings.get(k);
      if (w !== undefined) return w;
    }
    const start = this.starts[k] as number;
    const c = Math.floor(start / CHUNK_BYTES);
    const offset = start - c * CHUNK_BYTES;
    return (this.chunks[c] as Buffer).toString('latin1', offset, offset + (this.lengths[k] as number));
  }

  /** True when text k is `text`, without making text k. */
  equals(k: number, text: string): boolean {
    if (this.strings.size !== 0) {
      const w = this.strings.get(k);
      if (w !== undefined) return w === text;
    }
    const n = text.length;
    if (this.lengths[k] !== n) return false;
    const start = this.starts[k] as number;
    const c = Math.floor(start / CHUNK_BYTES);
    const offset = start - c * CHUNK_BYTES;
    const bytes = this.chunks[c] as Buffer;
    for (let i = 0; i < n; i++) if (bytes[offset + i] !== text.charCodeAt(i)) return false;
    return true;
  }
}
