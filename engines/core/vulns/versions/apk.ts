// Alpine apk version ordering, ported from apk-tools' src/version.c: digit{.digit}{letter}{_suffix{#}}{~hash}{-r#}, leading zeros compared as strings.

/** Token kinds in apk-tools' order: when two versions differ in kind at the same point, the later kind is the older version. */
const enum T {
  InitialDigit = 0,
  Digit = 1,
  Letter = 2,
  Suffix = 3,
  SuffixNo = 4,
  CommitHash = 5,
  RevisionNo = 6,
  End = 7,
  Invalid = 8,
}

/** Suffix values: pre-release suffixes below NONE (4), post-release ones above. */
const SUFFIXES: Readonly<Record<string, number>> = { alpha: 0, beta: 1, pre: 2, rc: 3, cvs: 5, svn: 6, git: 7, hg: 8, p: 9 };
const NONE = 4;

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isLower = (c: string | undefined): boolean => c !== undefined && c >= 'a' && c <= 'z';
const isHex = (c: string | undefined): boolean => isDigit(c) || (c !== undefined && c >= 'a' && c <= 'f');

class Tokens {
  token: T = T.InitialDigit;
  suffix = -1;
  number = 0n;
  value = '';
  private pos = 0;

  constructor(private readonly s: string) {
    this.digits();
  }

  private digits(): void {
    const start = this.pos;
    while (isDigit(this.s[this.pos])) this.pos++;
    this.value = this.s.slice(start, this.pos);
    this.number = this.value === '' ? 0n : BigInt(this.value);
    if (this.value === '') this.token = T.Invalid;
  }

  next(): void {
    const s = this.s;
    if (this.pos >= s.length) {
      this.token = T.End;
      return;
    }
    const c = s[this.pos] as string;
    if (isLower(c)) {
      if (this.token > T.Digit) return this.invalid();
      this.value = c;
      this.token = T.Letter;
      this.pos++;
    } else if (c === '.' || isDigit(c)) {
      if (c === '.') {
        if (this.token > T.Digit) return this.invalid();
        this.pos++;
      }
      if (this.token === T.InitialDigit || this.token === T.Digit) this.token = T.Digit;
      else if (this.token === T.Suffix) this.token = T.SuffixNo;
      else return this.invalid();
      this.digits();
    } else if (c === '_') {
      if (this.token > T.SuffixNo) return this.invalid();
      this.pos++;
      const start = this.pos;
      while (isLower(s[this.pos])) this.pos++;
      this.value = s.slice(start, this.pos);
      const v = SUFFIXES[this.value];
      if (v === undefined) return this.invalid();
      this.suffix = v;
      this.token = T.Suffix;
    } else if (c === '~') {
      if (this.token >= T.CommitHash) return this.invalid();
      this.pos++;
      const start = this.pos;
      while (isHex(s[this.pos])) this.pos++;
      this.value = s.slice(start, this.pos);
      if (this.value === '') return this.invalid();
      this.token = T.CommitHash;
    } else if (c === '-') {
      if (this.token >= T.RevisionNo || s[this.pos + 1] !== 'r') return this.invalid();
      this.pos += 2;
      this.token = T.RevisionNo;
      this.digits();
    } else this.invalid();
  }

  private invalid(): void {
    this.token = T.Invalid;
  }
}

function stringSort(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function tokenCmp(a: Tokens, b: Tokens): number {
  let x: bigint | number;
  let y: bigint | number;
  switch (a.token) {
    case T.Digit:
      // A leading zero in either: compared as strings, as Gentoo does.
      if (a.value.startsWith('0') || b.value.startsWith('0')) return stringSort(a.value, b.value);
      x = a.number;
      y = b.number;
      break;
    case T.InitialDigit:
    case T.SuffixNo:
    case T.RevisionNo:
      x = a.number;
      y = b.number;
      break;
    case T.Letter:
      x = a.value.charCodeAt(0);
      y = b.value.charCodeAt(0);
      break;
    case T.Suffix:
      x = a.suffix;
      y = b.suffix;
      break;
    default:
      return stringSort(a.value, b.value);
  }
  return x < y ? -1 : x > y ? 1 : 0;
}

/** True when apk-tools would accept `v` as a version. */
export function isApkVersion(v: string): boolean {
  const t = new Tokens(v);
  while (t.token < T.End) t.next();
  return t.token === T.End;
}

/** apk-tools' comparison, defined for invalid versions too (it compares up to the first invalid token). */
export function apkVersionCompare(a: string, b: string, fuzzy = false): number {
  const ta = new Tokens(a);
  const tb = new Tokens(b);
  for (; ta.token === tb.token && ta.token < T.End; ta.next(), tb.next()) {
    const r = tokenCmp(ta, tb);
    if (r !== 0) return r;
  }
  if (ta.token === tb.token) return 0;
  // Fuzzy matching (`~`): b is a prefix of a.
  if (tb.token === T.End && fuzzy) return 0;
  // Equal so far: the longer version is newer, unless what it has more of is a pre-release suffix.
  if (ta.token === T.Suffix && ta.suffix < NONE) return -1;
  if (tb.token === T.Suffix && tb.suffix < NONE) return 1;
  if (ta.token > tb.token) return -1;
  if (tb.token > ta.token) return 1;
  return 0;
}

/** Orders two apk versions (-1, 0, 1) as `apk version -t`; null when either is not a valid apk version. */
export function compareApk(a: string, b: string): number | null {
  if (!isApkVersion(a) || !isApkVersion(b)) return null;
  return apkVersionCompare(a, b);
}
