// Technique mentions with spans: explicit ATT&CK ids, technique names from the knowledge base, and well-known phrasings; plus the sentence splitter the classifier reads.
import type { TechniqueSpan } from '../../core/contracts/attrib.js';
import type { AttackKb } from '../kb/kb.js';
import { GENERIC_NAMES, TECHNIQUE_PHRASES } from './phrases.js';

const ID_RE = /(?<![\w.])T(\d{4})(?:[./](\d{3}))?(?![\w]|\.\d)/g;
const WORD_RE = /[\p{L}\p{N}_]+/gu;

/** A name as a list of lower-case words joined by one space (`Scheduled Task/Job` gives `scheduled task job`). */
export function normaliseName(name: string): string {
  return (name.toLowerCase().match(WORD_RE) ?? []).join(' ');
}

interface NameIndex {
  readonly byName: ReadonlyMap<string, string>;
  /** Every proper word prefix of an indexed name (`process`, for `process injection`), so a scan stops early. */
  readonly prefixes: ReadonlySet<string>;
  readonly maxWords: number;
  readonly phrases: readonly { readonly id: string; readonly re: RegExp }[];
}

const indexes = new WeakMap<AttackKb, NameIndex>();

/** Names that point at exactly one live technique and are not too generic, with a plural form. */
function nameIndex(kb: AttackKb): NameIndex {
  const cached = indexes.get(kb);
  if (cached) return cached;
  const ids = new Map<string, Set<string>>();
  const add = (key: string, id: string): void => {
    if (key === '') return;
    const set = ids.get(key) ?? new Set<string>();
    set.add(id);
    ids.set(key, set);
  };
  for (const t of kb.data.techniques) {
    if (t.deprecated === true) continue;
    const key = normaliseName(t.name);
    if (GENERIC_NAMES.has(key)) continue;
    add(key, t.id);
    if (!key.endsWith('s')) add(`${key}s`, t.id);
  }
  const byName = new Map<string, string>();
  const prefixes = new Set<string>();
  let maxWords = 1;
  for (const [key, set] of ids)
    if (set.size === 1) {
      byName.set(key, [...set][0]!);
      const words = key.split(' ');
      maxWords = Math.max(maxWords, words.length);
      for (let k = 1; k < words.length; k++) prefixes.add(words.slice(0, k).join(' '));
    }
  const phrases = Object.entries(TECHNIQUE_PHRASES)
    .filter(([id]) => kb.techniques.has(id) && kb.techniques.get(id)!.deprecated !== true)
    .flatMap(([id, list]) => list.map((p) => ({ id, re: new RegExp(`(?<![\\p{L}\\p{N}_])(?:${p})(?![\\p{L}\\p{N}_])`, 'giu') })));
  const index = { byName, prefixes, maxWords, phrases };
  indexes.set(kb, index);
  return index;
}

/** Explicit ids (`T1059`, `T1059.001`, `T1059/001`); a revoked id is reported under its replacement; unknown ids become a warning. */
export function findTechniqueIds(text: string, kb: AttackKb, warnings: string[]): TechniqueSpan[] {
  const out: TechniqueSpan[] = [];
  let unknown = 0;
  let deprecated = 0;
  ID_RE.lastIndex = 0;
  for (let m = ID_RE.exec(text); m !== null; m = ID_RE.exec(text)) {
    const written = m[2] === undefined ? `T${m[1]}` : `T${m[1]}.${m[2]}`;
    const id = kb.revoked.get(written) ?? written;
    const t = kb.techniques.get(id);
    if (t === undefined) {
      unknown++;
      continue;
    }
    if (t.deprecated === true) deprecated++;
    out.push({ id, name: t.name, start: m.index, end: m.index + m[0].length, source: 'id', ...(id !== written ? { written_as: written } : {}) });
  }
  if (unknown > 0) warnings.push(`${unknown} technique id(s) not in the knowledge base were ignored`);
  if (deprecated > 0) warnings.push(`${deprecated} mention(s) of deprecated techniques`);
  return out;
}

/** Technique names, longest match first, at word boundaries, case-insensitive. */
export function findTechniqueNames(text: string, kb: AttackKb): TechniqueSpan[] {
  const { byName, prefixes, maxWords } = nameIndex(kb);
  const words: { w: string; s: number; e: number }[] = [];
  WORD_RE.lastIndex = 0;
  for (let m = WORD_RE.exec(text); m !== null; m = WORD_RE.exec(text)) words.push({ w: m[0].toLowerCase(), s: m.index, e: m.index + m[0].length });
  // Words of a name are separated by spaces or punctuation, never by a line break or sentence punctuation.
  const joins = new Uint8Array(words.length);
  for (let i = 0; i + 1 < words.length; i++) {
    const gap = text.slice(words[i]!.e, words[i + 1]!.s);
    joins[i] = gap.length <= 3 && !/[\n.,;:!?()]/.test(gap) ? 1 : 0;
  }
  const out: TechniqueSpan[] = [];
  for (let i = 0; i < words.length; ) {
    let best = 0;
    let bestId: string | undefined;
    let key = words[i]!.w;
    for (let n = 1; n <= maxWords && i + n <= words.length; n++) {
      if (n > 1) {
        if (joins[i + n - 2] !== 1) break;
        key += ` ${words[i + n - 1]!.w}`;
      }
      const id = byName.get(key);
      if (id !== undefined) {
        best = n;
        bestId = id;
      }
      if (!prefixes.has(key)) break;
    }
    if (bestId !== undefined) {
      out.push({ id: bestId, name: kb.techniques.get(bestId)!.name, start: words[i]!.s, end: words[i + best - 1]!.e, source: 'name' });
      i += best;
    } else i++;
  }
  return out;
}

/** Well-known phrasings (TECHNIQUE_PHRASES). */
export function findTechniquePhrases(text: string, kb: AttackKb): TechniqueSpan[] {
  const out: TechniqueSpan[] = [];
  for (const { id, re } of nameIndex(kb).phrases) {
    const t = kb.techniques.get(id)!;
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      if (m[0].length === 0) {
        re.lastIndex++;
        continue;
      }
      out.push({ id, name: t.name, start: m.index, end: m.index + m[0].length, source: 'phrase' });
    }
  }
  return out;
}

/** Words after which a period does not end a sentence. */
const ABBREVIATIONS = new Set(['e.g', 'i.e', 'etc', 'vs', 'fig', 'no', 'mr', 'mrs', 'ms', 'dr', 'inc', 'ltd', 'corp', 'co', 'approx', 'u.s', 'u.k', 'st', 'jr', 'sr', 'al', 'cf', 'ver', 'vol']);

/** Sentences as [start, end) spans without surrounding white space; long runs are cut at 2,000 characters. */
export function splitSentences(text: string, maxLength = 2000): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  const boundary = /(?<=[.!?])["'\u201d\u2019)\]]*\s+(?=["'\u201c\u2018([]?[\p{Lu}\p{N}])|\n+/gu;
  let last = 0;
  const push = (s: number, e: number): void => {
    while (s < e && /\s/.test(text[s]!)) s++;
    while (e > s && /\s/.test(text[e - 1]!)) e--;
    for (let a = s; a < e; a += maxLength) out.push({ start: a, end: Math.min(e, a + maxLength) });
  };
  for (let m = boundary.exec(text); m !== null; m = boundary.exec(text)) {
    if (m[0][0] !== '\n' && text[m.index - 1] === '.') {
      // The word before the period: an abbreviation (`e.g.`) or an initial (`J.`) does not end the sentence.
      const word = /([\p{L}.]+)\.$/u.exec(text.slice(Math.max(last, m.index - 12), m.index))?.[1]?.toLowerCase();
      if (word !== undefined && (ABBREVIATIONS.has(word) || /^\p{L}$/u.test(word))) continue;
    }
    push(last, m.index);
    last = m.index + m[0].length;
  }
  push(last, text.length);
  return out;
}
