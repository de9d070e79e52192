// Splits a byte stream into CR LF (or LF) terminated lines with a bound on line length, for the text protocols.

export const MAX_LINE = 8192;

export function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/**
 * A Buffer over the memory the last line came from: payloads are views of the reader's chunk, so consecutive lines
 * share it and decoding a line costs one string, no view. Only modest buffers are kept (a capture held whole in
 * memory is not retained after its analysis).
 */
let cachedMemory: ArrayBufferLike | undefined;
let cachedView: Buffer | undefined;
const MAX_CACHED_MEMORY = 16 * 1024 * 1024;

/** Latin-1 text of bytes[start, end) without copying the bytes first. */
export function latin1Range(bytes: Uint8Array, start: number, end: number): string {
  const memory = bytes.buffer;
  if (memory !== cachedMemory || cachedView === undefined) {
    if (memory.byteLength > MAX_CACHED_MEMORY) return Buffer.from(memory, bytes.byteOffset + start, end - start).toString('latin1');
    cachedMemory = memory;
    cachedView = Buffer.from(memory);
  }
  return cachedView.toString('latin1', bytes.byteOffset + start, bytes.byteOffset + end);
}

/** Longest text the token cache holds; longer ranges are decoded each time. */
const MAX_TOKEN = 96;
/** One step of the FNV-1a style hash the text caches key on: mix in `v`, multiply by the 32-bit FNV prime. */
export function fnvStep(h: number, v: number): number {
  return Math.imul(h ^ v, 0x01000193);
}

/** Slots of the token cache (a power of two): one recent text per slot. */
const TOKEN_SLOTS = 4096;
const tokenTexts: Array<string | undefined> = new Array<string | undefined>(TOKEN_SLOTS).fill(undefined);

/**
 * latin1Range for the short tokens protocols repeat (methods, versions, status codes and reasons, host names, user
 * agents, content lengths): a range whose bytes equal the text last seen in its slot (by a hash of the bytes) gives
 * that same string back, so a repeated token costs a hash and a comparison instead of a decode and a new string, and
 * the records that keep it share one string. Latin-1 maps each byte to the character of that code, so comparing
 * codes to bytes is exact. A direct-mapped table: a new token replaces the one in its slot.
 */
export function latin1Token(bytes: Uint8Array, start: number, end: number): string {
  const n = end - start;
  if (n <= 0) return '';
  if (n > MAX_TOKEN) return latin1Range(bytes, start, end);
  let h = n;
  for (let i = start; i < end; i++) h = fnvStep(h, bytes[i]!);
  const slot = (h ^ (h >>> 13)) & (TOKEN_SLOTS - 1);
  const seen = tokenTexts[slot];
  if (seen !== undefined && seen.length === n) {
    let i = 0;
    while (i < n && seen.charCodeAt(i) === bytes[start + i]) i += 1;
    if (i === n) return seen;
  }
  const text = latin1Range(bytes, start, end);
  tokenTexts[slot] = text;
  return text;
}

/** Calls `line` for each complete line (without its terminator); returns false once a line exceeds the bound. */
export class LineSplitter {
  private pending: Uint8Array[] = [];
  private pendingLength = 0;
  overflowed = false;

  constructor(private readonly maxLine = MAX_LINE) {}

  push(bytes: Uint8Array, line: (text: string) => boolean | void): void {
    if (this.overflowed) return;
    let start = 0;
    while (start < bytes.length) {
      const nl = bytes.indexOf(0x0a, start);
      if (nl < 0) {
        const rest = bytes.subarray(start);
        this.pendingLength += rest.length;
        if (this.pendingLength > this.maxLine) {
          this.overflowed = true;
          this.pending = [];
          return;
        }
        this.pending.push(rest.slice());
        return;
      }
      let piece = bytes.subarray(start, nl);
      if (this.pending.length > 0) {
        const all = new Uint8Array(this.pendingLength + piece.length);
        let at = 0;
        for (const p of this.pending) {
          all.set(p, at);
          at += p.length;
        }
        all.set(piece, at);
        piece = all;
        this.pending = [];
        this.pendingLength = 0;
      }
      if (piece.length > this.maxLine) {
        this.overflowed = true;
        return;
      }
      const end = piece.length > 0 && piece[piece.length - 1] === 0x0d ? piece.length - 1 : piece.length;
      start = nl + 1;
      if (line(latin1(piece.subarray(0, end))) === false) return;
    }
  }

  /** Forgets a partial line (after a gap). */
  reset(): void {
    this.pending = [];
    this.pendingLength = 0;
  }

  /** Bytes waiting for the end of their line. */
  get buffered(): number {
    return this.pendingLength;
  }
}
