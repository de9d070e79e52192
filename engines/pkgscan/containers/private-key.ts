// The private-key secret rule's reader: the matches of its expression (PRIVATE_KEY below) found in one pass.

/**
 * A PEM private key: a BEGIN line, at least 20 characters of key text, and the first END line after them. The
 * expression read the key text lazily from each BEGIN line to the end of its run of key characters when no END line
 * followed: a megabyte of BEGIN lines took 179 s (2 MiB files are read for secrets). `privateKeyMatches` finds the
 * same matches in one pass; the expression stays as the definition and is what the rule's tests compare with.
 */
export const PRIVATE_KEY = /(?<secret>-----\s*BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?\s*-----)[\sA-Za-z0-9=+/\\:,-]{20,}?-----\s*END[ A-Z0-9_-]{0,100}PRIVATE KEY/g;

const HEAD = /-----\s*BEGIN/y;
const TAIL_BLOCK = / BLOCK\s*-----/y;
const TAIL = /\s*-----/y;
const END_LINE = /-----\s*END[ A-Z0-9_-]{0,100}PRIVATE KEY/y;
const KEY_CHAR = /[\sA-Za-z0-9=+/\\:,-]/;
const NAME_CHAR = /[ A-Z0-9_-]/;
const WORDS = 'PRIVATE KEY';

/** The ends of the BEGIN line at `h`, in the order the expression tries them (the last `PRIVATE KEY` within 100 characters first, ` BLOCK` before none). */
function headEnds(text: string, h: number): number[] {
  HEAD.lastIndex = h;
  if (!HEAD.test(text)) return [];
  const b = HEAD.lastIndex;
  let r = b;
  while (r < text.length && r - b < 100 && NAME_CHAR.test(text.charAt(r))) r++;
  const ends: number[] = [];
  for (let q = r; q >= b; q--) {
    if (!text.startsWith(WORDS, q)) continue;
    for (const tail of [TAIL_BLOCK, TAIL]) {
      tail.lastIndex = q + WORDS.length;
      if (tail.test(text)) ends.push(tail.lastIndex);
    }
  }
  return ends;
}

/** The matches of PRIVATE_KEY in `text`, in order, with the same text, index and `secret` group. */
export function privateKeyMatches(text: string): RegExpMatchArray[] {
  const out: RegExpMatchArray[] = [];
  // Where an END line starts, and where it ends, in order.
  const ends: number[] = [];
  const endOf = new Map<number, number>();
  for (let p = text.indexOf('-----'); p >= 0; p = text.indexOf('-----', p + 1)) {
    END_LINE.lastIndex = p;
    if (END_LINE.test(text)) {
      ends.push(p);
      endOf.set(p, END_LINE.lastIndex);
    }
  }
  if (ends.length === 0) return out;
  // The end of the run of key characters from a place: the last run read is remembered, and a read that reaches it stops.
  let runFrom = -1;
  let runTo = -1;
  const runEnd = (e: number): number => {
    if (e >= runFrom && e <= runTo) return runTo;
    let i = e;
    while (i < text.length && KEY_CHAR.test(text.charAt(i))) {
      if (i === runFrom) {
        i = runTo;
        break;
      }
      i++;
    }
    runFrom = e;
    runTo = i;
    return i;
  };
  /** The first END line at or after `from`. */
  const firstEnd = (from: number): number | undefined => {
    let lo = 0;
    let hi = ends.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((ends[mid] as number) < from) lo = mid + 1;
      else hi = mid;
    }
    return ends[lo];
  };
  let cursor = 0;
  for (let h = text.indexOf('-----', cursor); h >= 0; h = text.indexOf('-----', cursor)) {
    let matched = false;
    for (const e of headEnds(text, h)) {
      const m = firstEnd(e + 20);
      if (m === undefined || m >= runEnd(e)) continue;
      const end = endOf.get(m) as number;
      const match = [text.slice(h, end), text.slice(h, e)] as RegExpMatchArray;
      match.index = h;
      match.input = text;
      match.groups = { secret: text.slice(h, e) };
      out.push(match);
      cursor = end;
      matched = true;
      break;
    }
    if (!matched) cursor = h + 1;
  }
  return out;
}
