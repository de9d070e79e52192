// Refanging with an offset map: defanged notations (hxxp, [.], (.), [dot], [at], [:] ...) are replaced and every character of the result knows where it came from.

/** The refanged text and, per character of it, the [start, end) of the original characters it stands for. */
export interface RefangedText {
  readonly text: string;
  /** Original start of each refanged character (length = text.length + 1; the last entry is the original length). */
  readonly starts: Int32Array;
  /** Original end of each refanged character. */
  readonly ends: Int32Array;
  /** Whether each refanged character came from a defanged notation. */
  readonly defanged: Uint8Array;
  /** Whether any replacement happened (when not, indexes are the identity). */
  readonly changed: boolean;
}

// Bracketed dots, ats and colons, with optional inner spaces; `hxxp`/`hXXp`/`fxp` schemes; `[://]`; ` dot ` only inside brackets.
const DEFANG = /\[\s*\.\s*\]|\(\s*\.\s*\)|\{\s*\.\s*\}|\[\s*dot\s*\]|\(\s*dot\s*\)|\{\s*dot\s*\}|\[\s*at\s*\]|\(\s*at\s*\)|\{\s*at\s*\}|\[\s*@\s*\]|\(\s*@\s*\)|\[\s*:\s*\]|\[\s*:\/\/\s*\]|\[\s*\/\s*\]|\bh(?:xx|XX|\[xx\]|\[XX\])p(s?)(?=\[?:)|\bfxp(?=\[?:)/g;

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
    const n = original.length;
    const starts = new Int32Array(n + 1);
    const ends = new Int32Array(n + 1);
    for (let i = 0; i <= n; i++) {
      starts[i] = i;
      ends[i] = i + 1;
    }
    ends[n] = n;
    return { text: original, starts, ends, defanged: new Uint8Array(n + 1), changed: false };
  }
  DEFANG.lastIndex = 0;
  const parts: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const flags: number[] = [];
  let last = 0;
  for (let m = DEFANG.exec(original); m !== null; m = DEFANG.exec(original)) {
    for (let i = last; i < m.index; i++) {
      starts.push(i);
      ends.push(i + 1);
      flags.push(0);
    }
    parts.push(original.slice(last, m.index));
    const rep = replacementOf(m[0]);
    parts.push(rep);
    for (let k = 0; k < rep.length; k++) {
      starts.push(m.index);
      ends.push(m.index + m[0].length);
      flags.push(1);
    }
    last = m.index + m[0].length;
  }
  for (let i = last; i < original.length; i++) {
    starts.push(i);
    ends.push(i + 1);
    flags.push(0);
  }
  parts.push(original.slice(last));
  starts.push(original.length);
  ends.push(original.length);
  flags.push(0);
  return { text: parts.join(''), starts: Int32Array.from(starts), ends: Int32Array.from(ends), defanged: Uint8Array.from(flags), changed: true };
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
