// Alpine apk version ordering, written from apk's documented version rules: numbers{.numbers}[letter]{_suffix[n]}[~hash][-rN].
// The rules: the first number compares numerically; later numbers with a leading zero compare as strings, the others
// numerically; then the letter; then each suffix, pre-releases (_alpha _beta _pre _rc) before the release and
// post-releases (_cvs _svn _git _hg _p) after, each with its optional number; then the commit hash; then the revision.
// Where one version has a part the other lacks, the one with more is newer, unless that part is a pre-release suffix.

const PRE_SUFFIXES = ['alpha', 'beta', 'pre', 'rc'] as const;
const POST_SUFFIXES = ['cvs', 'svn', 'git', 'hg', 'p'] as const;
/** Rank of each suffix: pre-releases below RELEASE_RANK, post-releases above. */
const SUFFIX_RANK: ReadonlyMap<string, number> = new Map([...PRE_SUFFIXES.map((s, i) => [s, i] as const), ...POST_SUFFIXES.map((s, i) => [s, PRE_SUFFIXES.length + 1 + i] as const)]);
const RELEASE_RANK = PRE_SUFFIXES.length;

const SHAPE = new RegExp(`^(\\d+(?:\\.\\d+)*)([a-z])?((?:_(?:${[...PRE_SUFFIXES, ...POST_SUFFIXES].join('|')})\\d*)*)(?:~([0-9a-f]+))?(?:-r(\\d+))?$`);

/** Kinds of part in the order they appear in a version; a part of a later kind stands where the other version ends. */
const enum Kind {
  FirstNumber,
  Number,
  Letter,
  Suffix,
  SuffixNumber,
  Hash,
  Revision,
  End,
}

interface Part {
  readonly kind: Kind;
  /** Digits, a letter, a suffix name or a hash, as written. */
  readonly text: string;
}

/** The version as a sequence of typed parts; null when it does not have apk's shape. */
function partsOf(v: string): Part[] | null {
  const m = SHAPE.exec(v);
  if (m === null) return null;
  const parts: Part[] = (m[1] as string).split('.').map((text, i) => ({ kind: i === 0 ? Kind.FirstNumber : Kind.Number, text }));
  if (m[2] !== undefined) parts.push({ kind: Kind.Letter, text: m[2] });
  for (const s of (m[3] ?? '').split('_').slice(1)) {
    const name = /^[a-z]+/.exec(s)?.[0] ?? '';
    parts.push({ kind: Kind.Suffix, text: name });
    if (s.length > name.length) parts.push({ kind: Kind.SuffixNumber, text: s.slice(name.length) });
  }
  if (m[4] !== undefined) parts.push({ kind: Kind.Hash, text: m[4] });
  if (m[5] !== undefined) parts.push({ kind: Kind.Revision, text: m[5] });
  return parts;
}

const sign = (x: number): number => (x < 0 ? -1 : x > 0 ? 1 : 0);

function compareNumbers(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Two parts of the same kind. */
function compareParts(a: Part, b: Part): number {
  switch (a.kind) {
    case Kind.Number:
      return a.text.startsWith('0') || b.text.startsWith('0') ? compareText(a.text, b.text) : compareNumbers(a.text, b.text);
    case Kind.FirstNumber:
    case Kind.SuffixNumber:
    case Kind.Revision:
      return compareNumbers(a.text, b.text);
    case Kind.Suffix:
      return sign((SUFFIX_RANK.get(a.text) ?? 0) - (SUFFIX_RANK.get(b.text) ?? 0));
    default:
      return compareText(a.text, b.text);
  }
}

/** True when `v` has the shape of an apk version. */
export function isApkVersion(v: string): boolean {
  return partsOf(v) !== null;
}

/** Orders parsed versions; with `fuzzy`, a `b` whose parts all match the start of `a` counts as equal (apk's `~`). */
function compareParsed(a: readonly Part[], b: readonly Part[], fuzzy: boolean): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const pa = a[i] as Part;
    const pb = b[i] as Part;
    if (pa.kind !== pb.kind) return divergent(pa, pb);
    const r = compareParts(pa, pb);
    if (r !== 0) return r;
  }
  if (a.length === b.length) return 0;
  if (b.length < a.length && fuzzy) return 0;
  const end: Part = { kind: Kind.End, text: '' };
  return divergent(a[n] ?? end, b[n] ?? end);
}

/** Where the versions part ways by kind: a pre-release suffix is older; otherwise the part of the earlier kind is newer. */
function divergent(a: Part, b: Part): number {
  if (a.kind === Kind.Suffix && (SUFFIX_RANK.get(a.text) ?? 0) < RELEASE_RANK) return -1;
  if (b.kind === Kind.Suffix && (SUFFIX_RANK.get(b.text) ?? 0) < RELEASE_RANK) return 1;
  return a.kind > b.kind ? -1 : a.kind < b.kind ? 1 : 0;
}

/**
 * Orders two apk versions (-1, 0, 1). For versions without apk's shape it compares the longest well-formed start of
 * each (as `apk version -t` does for what it can read); `fuzzy` is apk's `~` (b a prefix of a).
 */
export function apkVersionCompare(a: string, b: string, fuzzy = false): number {
  return compareParsed(wellFormedStart(a), wellFormedStart(b), fuzzy);
}

/** The parts of the longest start of `v` that has apk's shape (all of it for a valid version). */
function wellFormedStart(v: string): Part[] {
  for (let end = v.length; end > 0; end--) {
    const parts = partsOf(v.slice(0, end));
    if (parts !== null) return parts;
  }
  return [];
}

/** Orders two apk versions (-1, 0, 1) as `apk version -t`; null when either is not a valid apk version. */
export function compareApk(a: string, b: string): number | null {
  const pa = partsOf(a);
  const pb = partsOf(b);
  if (pa === null || pb === null) return null;
  return compareParsed(pa, pb, false);
}
