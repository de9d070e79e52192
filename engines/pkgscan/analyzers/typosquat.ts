// Typosquat check of a package name against a shipped list of popular names: edit distance, swapped letters, separators, scopes, python-/py prefixes and homoglyphs; a name on the list is never a typosquat.
import type { ScanEcosystem } from '../package/types.js';

export interface TyposquatMatch {
  /** The popular name it imitates. */
  readonly target: string;
  readonly how: 'edit_distance' | 'transposition' | 'separators' | 'scope' | 'affix' | 'homoglyph';
}

/** Optimal string alignment distance (Damerau-Levenshtein with adjacent swaps), stopping early past `max`. */
export function editDistance(a: string, b: string, max = 3): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const prev2: number[] = new Array<number>(b.length + 1).fill(0);
  let prev: number[] = Array.from({ length: b.length + 1 }, (_, j) => j);
  let cur: number[] = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, (prev2[j - 2] ?? 0) + 1);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    for (let j = 0; j <= b.length; j++) prev2[j] = prev[j] ?? 0;
    [prev, cur] = [cur, prev];
  }
  return prev[b.length] ?? max + 1;
}

/** Letters that look alike folded to one (0/o, 1/l/i, rn/m, vv/w). */
function homoglyphFold(s: string): string {
  return s.replace(/rn/g, 'm').replace(/vv/g, 'w').replace(/0/g, 'o').replace(/[1|!]/g, 'l').replace(/i/g, 'l').replace(/5/g, 's').replace(/3/g, 'e');
}

function bare(s: string): string {
  return s.replace(/^@[^/]+\//, '').replace(/[-_.]/g, '');
}

interface Index {
  readonly set: ReadonlySet<string>;
  readonly byBare: ReadonlyMap<string, string>;
  readonly byFold: ReadonlyMap<string, string>;
  readonly names: readonly string[];
}

const indexes = new WeakMap<readonly string[], Index>();

function indexOf(popular: readonly string[]): Index {
  const hit = indexes.get(popular);
  if (hit) return hit;
  const byBare = new Map<string, string>();
  const byFold = new Map<string, string>();
  for (const n of popular) {
    if (!byBare.has(bare(n))) byBare.set(bare(n), n);
    if (!byFold.has(homoglyphFold(n))) byFold.set(homoglyphFold(n), n);
  }
  const idx = { set: new Set(popular), byBare, byFold, names: popular };
  indexes.set(popular, idx);
  return idx;
}

/** The popular name a package name imitates, or null (also null when the name is itself on the list). */
export function typosquatOf(name: string, ecosystem: ScanEcosystem, popular: readonly string[]): TyposquatMatch | null {
  const n = ecosystem === 'pypi' ? name.replace(/[-_.]+/g, '-').toLowerCase() : name.toLowerCase();
  const idx = indexOf(popular);
  if (idx.set.has(n) || n.length < 3) return null;
  const b = bare(n);
  const sep = idx.byBare.get(b);
  if (sep !== undefined && sep !== n) return { target: sep, how: n.startsWith('@') !== sep.startsWith('@') ? 'scope' : 'separators' };
  const fold = idx.byFold.get(homoglyphFold(n));
  if (fold !== undefined && fold !== n) return { target: fold, how: 'homoglyph' };
  // python-X / X-python / pyX / X-js / node-X around a popular X, and python-X for the popular pyX
  const affixes = ecosystem === 'pypi' ? [/^python-?(.+)$/, /^(.+)-?python$/, /^py-(.+)$/] : [/^node-?(.+)$/, /^(.+)-?js$/, /^(.+)\.js$/];
  for (const re of affixes) {
    const core = re.exec(n)?.[1];
    if (core === undefined || core.length < 3) continue;
    for (const c of ecosystem === 'pypi' ? [core, `py${core}`, `python-${core}`, `${core}-python`] : [core, `${core}js`, `${core}.js`, `node-${core}`]) {
      if (c !== n && idx.set.has(c)) return { target: c, how: 'affix' };
    }
  }
  if (n.length < 4) return null;
  const max = n.length >= 9 ? 2 : 1;
  let best: TyposquatMatch | null = null;
  let bestD = max + 1;
  for (const p of idx.names) {
    if (p.length < 4 || Math.abs(p.length - n.length) > max) continue;
    const d = editDistance(n, p, max);
    if (d < bestD) {
      bestD = d;
      const swapped = d === 1 && p.length === n.length && [...n].sort().join('') === [...p].sort().join('');
      best = { target: p, how: swapped ? 'transposition' : 'edit_distance' };
      if (d === 1) break;
    }
  }
  return best;
}
