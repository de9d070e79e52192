// Sigma wildcard values (`*` any run, `?` one character, sets of interchangeable characters) matched in time linear in the
// text. A regular expression of the same shape (`^a[\s\S]*b[\s\S]*c$`, the `u` flag) backtracks over every split of
// the text between the `*`s when it fails: two `*`s around a repeated literal read a 16,384-character value about a
// thousand times, and the `u` flag keeps V8's linear fallback out.
import type { Token } from './value.js';

/** One character of a piece: a code point, any one code point (`?`), or one of a set of code points. */
type Unit = number | 'any' | ReadonlySet<number>;

/** The pieces between the `*`s: the first is anchored at the start, the last at the end. */
export interface Glob {
  readonly head: readonly Unit[];
  /** The pieces between two `*`s, none empty, in order. */
  readonly middle: readonly (readonly Unit[])[];
  readonly tail: readonly Unit[];
  /** Whether there is any `*`; without one, head is the whole pattern. */
  readonly star: boolean;
}

/** The code points of a literal, as a `u` regular expression reads its source (a lone surrogate is one of its own). */
function codePoints(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.codePointAt(i) as number;
    out.push(c);
    if (c > 0xffff) i++;
  }
  return out;
}

/** The pattern of tokens (adjacent literals merged, no `*` twice in a row: the caller's normal form). */
export function compileGlob(tokens: readonly Token[]): Glob {
  const pieces: Unit[][] = [[]];
  for (const t of tokens) {
    const piece = pieces[pieces.length - 1] as Unit[];
    if (typeof t === 'string') piece.push(...codePoints(t));
    else if ('any' in t) pieces.push([]);
    else if ('one' in t) piece.push('any');
    else piece.push(new Set(codePoints(t.set)));
  }
  const star = pieces.length > 1;
  return { head: pieces[0] as Unit[], middle: star ? pieces.slice(1, -1) : [], tail: star ? (pieces[pieces.length - 1] as Unit[]) : [], star };
}

/** The text's code points, in a buffer kept between calls (grown as needed); the count is returned. */
let buffer = new Int32Array(256);
function load(text: string): number {
  if (buffer.length < text.length) buffer = new Int32Array(Math.max(text.length, buffer.length * 2));
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.codePointAt(i) as number;
    buffer[n++] = c;
    if (c > 0xffff) i++;
  }
  return n;
}

/** Whether the piece matches the loaded code points at `at`. */
function pieceAt(piece: readonly Unit[], at: number): boolean {
  for (let k = 0; k < piece.length; k++) {
    const u = piece[k] as Unit;
    const c = buffer[at + k] as number;
    if (typeof u === 'number') {
      if (u !== c) return false;
    } else if (u !== 'any' && !u.has(c)) return false;
  }
  return true;
}

/**
 * Whether the whole text matches. The head must match at the start and the tail at the end; each middle piece is
 * placed at its leftmost place after the one before (every piece has a fixed length, so the leftmost place leaves the
 * most room for the rest): at most the text's length times the pattern's, however the text is made.
 */
export function globTest(g: Glob, text: string): boolean {
  const n = load(text);
  const head = g.head;
  if (!g.star) return n === head.length && pieceAt(head, 0);
  const end = n - g.tail.length;
  if (end < head.length || !pieceAt(head, 0) || !pieceAt(g.tail, end)) return false;
  let from = head.length;
  for (const piece of g.middle) {
    const last = end - piece.length;
    let at = from;
    while (at <= last && !pieceAt(piece, at)) at++;
    if (at > last) return false;
    from = at + piece.length;
  }
  return true;
}
