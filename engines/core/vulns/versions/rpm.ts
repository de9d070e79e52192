// RPM version ordering: rpmvercmp (alphanumeric segments, `~` sorts before everything, `^` after the base version) over epoch:version-release.

const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isAlpha = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
const isAlnum = (c: string): boolean => isDigit(c) || isAlpha(c);

/** rpm's rpmvercmp over one version or release string: -1, 0, 1. */
export function rpmvercmp(a: string, b: string): number {
  if (a === b) return 0;
  let i = 0;
  let j = 0;
  const at = (s: string, k: number): string => (k < s.length ? (s[k] as string) : '');
  while (i < a.length || j < b.length) {
    while (i < a.length && !isAlnum(at(a, i)) && at(a, i) !== '~' && at(a, i) !== '^') i++;
    while (j < b.length && !isAlnum(at(b, j)) && at(b, j) !== '~' && at(b, j) !== '^') j++;
    const c1 = at(a, i);
    const c2 = at(b, j);
    // The tilde sorts before everything else, even the end of the string.
    if (c1 === '~' || c2 === '~') {
      if (c1 !== '~') return 1;
      if (c2 !== '~') return -1;
      i++;
      j++;
      continue;
    }
    // The caret is like the tilde except that the end of the other string (the base version) sorts lower.
    if (c1 === '^' || c2 === '^') {
      if (c1 === '') return -1;
      if (c2 === '') return 1;
      if (c1 !== '^') return 1;
      if (c2 !== '^') return -1;
      i++;
      j++;
      continue;
    }
    if (c1 === '' || c2 === '') break;
    let e1 = i;
    let e2 = j;
    const isnum = isDigit(c1);
    const cls = isnum ? isDigit : isAlpha;
    while (e1 < a.length && cls(at(a, e1))) e1++;
    while (e2 < b.length && cls(at(b, e2))) e2++;
    // Segments of different kinds: rpm calls a number newer than letters.
    if (e1 === i) return -1;
    if (e2 === j) return isnum ? 1 : -1;
    let s1 = a.slice(i, e1);
    let s2 = b.slice(j, e2);
    if (isnum) {
      s1 = s1.replace(/^0+/, '');
      s2 = s2.replace(/^0+/, '');
      if (s1.length !== s2.length) return s1.length > s2.length ? 1 : -1;
    }
    if (s1 !== s2) return s1 < s2 ? -1 : 1;
    i = e1;
    j = e2;
  }
  const r1 = i >= a.length;
  const r2 = j >= b.length;
  if (r1 && r2) return 0;
  return r1 ? -1 : 1;
}

/** A parsed `[epoch:]version[-release]`. */
export interface RpmEvr {
  readonly epoch: number;
  readonly version: string;
  readonly release: string | null;
}

export function parseRpm(v: string): RpmEvr | null {
  const s = v.trim();
  if (s === '' || /\s/.test(s)) return null;
  let epoch = 0;
  let rest = s;
  const m = /^(\d+):(.*)$/.exec(s);
  if (m) {
    epoch = Number(m[1]);
    rest = m[2] as string;
  }
  if (rest === '' || rest.includes(':')) return null;
  const dash = rest.lastIndexOf('-');
  return dash > 0 ? { epoch, version: rest.slice(0, dash), release: rest.slice(dash + 1) } : { epoch, version: rest, release: null };
}

/** Orders two RPM EVRs as rpm does: epoch (0 when absent), version, then release when both have one; null when unreadable. */
export function compareRpm(a: string, b: string): number | null {
  const x = parseRpm(a);
  const y = parseRpm(b);
  if (x === null || y === null) return null;
  if (x.epoch !== y.epoch) return x.epoch < y.epoch ? -1 : 1;
  const v = rpmvercmp(x.version, y.version);
  if (v !== 0 || x.release === null || y.release === null) return v;
  return rpmvercmp(x.release, y.release);
}
