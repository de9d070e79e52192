// Refanging with an offset map: defanged notations (hxxp, [.], (.), [dot], [at], [:] ...) are replaced and every character of the result knows where it came from.

/** The refanged text and, per character of it, the [start, end) of the original characters it stands for. */
export interface RefangedText {
  readonly text: string;
  /** Original start of each refanged character (length = text.length + 1; the last entry is the original length); empty when unchanged. */
  readonly starts: Int32Array;
  /** Original end of each refanged character. */
  readonly ends: Int32Array;
  /** Whether each refanged character came from a defanged notation. */
  readonly defanged: Uint8Array;
  /** Whether any replacement happened (when not, indexes are the identity). */
  readonly changed: boolean;
}

// Bracketed dots, ats, colons and slashes, with optional inner spaces (and one space either side of `[dot]`, `[at]`); `hxxp`/`hXXp`/`fxp` schemes before a colon.
const DEFANG = / ?[[({]\s*(?:dot|at)\s*[\])}] ?|[[({]\s*(?:\.|@|:|:\/\/|\/)\s*[\])}]|\bh(?:xx|\[xx\])p(s?)(?=\[?:)|\bfxp(?=\[?:)/gi;

function replacementOf(token: string): string {
  const t = token.replace(/[\s[\](){}]/g, '').toLowerCase();
  if (t === '.' || t === 'dot') return '.';
  if (t === 'at' || t === '@') return '@';
  if (t === ':') return ':';
  if (t === '://') return '://';
  if (t === '/') return '/';
  if (t.startsWith('h')) return t.endsWith('s') ? 'https' : 'http';
  return 'ftp';
}

/** Replaces defanged notations; cheap when there are none (no copy of the maps is made until needed). */
export function refang(original: string): RefangedText {
  DEFANG.lastIndex = 0;
  if (!DEFANG.test(original)) {
    // Identity: originalSpan never reads the maps of an unchanged text.
    return { text: original, starts: new Int32Array(0), ends: new Int32Array(0), defanged: new Uint8Array(0), changed: false };
  }
  DEFANG.lastIndex = 0;
  // Every replacement is no longer than what it replaces, so the result fits in the original's length.
  const n = original.length;
  const starts = new Int32Array(n + 1);
  const ends = new Int32Array(n + 1);
  const flags = new Uint8Array(n + 1);
  const parts: string[] = [];
  let out = 0;
  let last = 0;
  const copy = (from: number, to: number): void => {
    for (let i = from; i < to; i++, out++) {
      starts[out] = i;
      ends[out] = i + 1;
    }
    parts.push(original.slice(from, to));
  };
  for (let m = DEFANG.exec(original); m !== null; m = DEFANG.exec(original)) {
    copy(last, m.index);
    const rep = replacementOf(m[0]);
    parts.push(rep);
    for (let k = 0; k < rep.length; k++, out++) {
      starts[out] = m.index;
      ends[out] = m.index + m[0].length;
      flags[out] = 1;
    }
    last = m.index + m[0].length;
  }
  copy(last, n);
  starts[out] = n;
  ends[out] = n;
  return { text: parts.join(''), starts: starts.subarray(0, out + 1), ends: ends.subarray(0, out + 1), defanged: flags.subarray(0, out + 1), changed: true };
}

/** The original span of refanged [start, end), and whether any of it was defanged. */
export function originalSpan(r: RefangedText, start: number, end: number): { start: number; end: number; defanged: boolean } {
  if (!r.changed) return { start, end, defanged: false };
  let defanged = false;
  for (let i = start; i < end; i++)
    if (r.defanged[i] === 1) {
      defanged = true;
      break;
    }
  return { start: r.starts[start]!, end: end > start ? r.ends[end - 1]! : r.starts[start]!, defanged };
}
