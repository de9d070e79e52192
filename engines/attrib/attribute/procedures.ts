// How a report describes what was done, against how ATT&CK describes each group's procedures: TF-IDF over the procedure texts of every group (its own and its campaigns'), with the names of groups and campaigns taken out so a name is never the match.
import type { AttackKb } from '../kb/kb.js';

/** A sparse, L2-normalised term vector. */
type Vector = ReadonlyMap<string, number>;

export interface ProcedureIndex {
  /** Per group id, the TF-IDF vector of its procedure texts. */
  readonly groups: ReadonlyMap<string, Vector>;
  readonly idf: ReadonlyMap<string, number>;
  /** Removes group and campaign names from a text. */
  readonly strip: (text: string) => string;
}

const STOP = new Set(
  'a an the and or of to in on for by with from as at into via that this these those it its is are was were be been has have had used uses use using during which who their they them also other than such can may'.split(' '),
);

function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).filter((w) => w.length > 1 && !STOP.has(w));
}

/** Unigrams and bigrams of content words. */
function terms(text: string): string[] {
  const w = words(text);
  const out = [...w];
  for (let i = 0; i + 1 < w.length; i++) out.push(`${w[i]} ${w[i + 1]}`);
  return out;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function vectorOf(ts: readonly string[], idf: ReadonlyMap<string, number>): Vector {
  const counts = new Map<string, number>();
  for (const t of ts) if (idf.has(t)) counts.set(t, (counts.get(t) ?? 0) + 1);
  const v = new Map<string, number>();
  let norm = 0;
  for (const [t, c] of counts) {
    const x = (1 + Math.log(c)) * idf.get(t)!;
    v.set(t, x);
    norm += x * x;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (const [t, x] of v) v.set(t, x / norm);
  return v;
}

const cache = new WeakMap<AttackKb, ProcedureIndex>();

/** The procedure index of a knowledge base (built once per KB object). */
export function procedureIndex(kb: AttackKb): ProcedureIndex {
  const hit = cache.get(kb);
  if (hit) return hit;
  const names = new Set<string>();
  for (const g of kb.data.groups) for (const n of [g.name, ...g.aliases]) if (n.trim().length >= 2) names.add(n.trim());
  for (const c of kb.data.campaigns) for (const n of [c.name, ...c.aliases]) if (n.trim().length >= 2) names.add(n.trim());
  const sorted = [...names].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  const re = sorted.length === 0 ? null : new RegExp(`(?<![\\p{L}\\p{N}_])(?:${sorted.map(escape).join('|')})(?![\\p{L}\\p{N}_])`, 'giu');
  const strip = (text: string): string => (re === null ? text : text.replace(re, ' '));
  const campaignGroups = new Map(kb.data.campaigns.map((c) => [c.id, c.groups]));
  const texts = new Map<string, string[]>();
  for (const [src, , text] of kb.data.relations) {
    if (text.length < 10) continue;
    const owners = kb.groups.has(src) ? [src] : (campaignGroups.get(src) ?? []);
    for (const g of owners) texts.set(g, [...(texts.get(g) ?? []), text]);
  }
  // What ATT&CK says of the group (targets, regions, motives) belongs to its profile too.
  for (const g of kb.groups.keys()) {
    const d = kb.data.descriptions?.[g];
    if (d !== undefined) texts.set(g, [...(texts.get(g) ?? []), d]);
  }
  const docs = new Map<string, string[]>();
  for (const [g, list] of texts) docs.set(g, terms(strip(list.join('\n'))));
  const df = new Map<string, number>();
  for (const ts of docs.values()) for (const t of new Set(ts)) df.set(t, (df.get(t) ?? 0) + 1);
  const n = docs.size;
  const idf = new Map<string, number>();
  // A term of a single group's texts is kept: it is the most specific evidence there is.
  for (const [t, d] of df) if (d <= n / 2) idf.set(t, Math.log((1 + n) / (1 + d)) + 1);
  const groups = new Map<string, Vector>();
  for (const [g, ts] of docs) groups.set(g, vectorOf(ts, idf));
  const index = { groups, idf, strip };
  cache.set(kb, index);
  return index;
}

/** The report text's vector in the index's terms (group and campaign names removed). */
export function reportVector(index: ProcedureIndex, text: string): Vector {
  return vectorOf(terms(index.strip(text)), index.idf);
}

/** Cosine of two L2-normalised vectors. */
export function cosine(a: Vector, b: Vector): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [t, x] of small) {
    const y = large.get(t);
    if (y !== undefined) dot += x * y;
  }
  return dot;
}
