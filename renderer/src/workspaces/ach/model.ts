// Pure helpers of the ACH workspace: rating keys, override requests, highlighted text segments, the technique heat map by tactic.
import type { AchRating, ExtractResponse } from '../../../../engines/core/contracts/ach';
import type { Finding, FindingIndicator } from '../../../../engines/core/contracts/findings';
import type { IndicatorSpan, TechniqueSpan, TechniqueSummary } from '../../../../engines/core/contracts/attrib';
import { counted } from '../../components/wording';

export const RATING_ORDER: readonly AchRating[] = ['CC', 'C', 'N', 'I', 'II', 'NA'];

export const RATING_WORDS: Readonly<Record<AchRating, string>> = {
  CC: 'very consistent',
  C: 'consistent',
  N: 'neutral',
  I: 'inconsistent',
  II: 'very inconsistent',
  NA: 'not applicable',
};

/** Click order: consistent to inconsistent, then not applicable, then round again. */
export function nextRating(r: AchRating): AchRating {
  return RATING_ORDER[(RATING_ORDER.indexOf(r) + 1) % RATING_ORDER.length]!;
}

/** Digit keys 1-6 set a rating directly (1 = CC ... 6 = NA). */
export function ratingForKey(key: string): AchRating | undefined {
  const n = Number(key);
  return Number.isInteger(n) && n >= 1 && n <= RATING_ORDER.length ? RATING_ORDER[n - 1] : undefined;
}

export const cellKey = (evidence: string, hypothesis: string): string => `${evidence}:${hypothesis}`;

/** The select value of a scenario opened from a file (no bundled name can look like it). */
export const FILE_SCENARIO = '__file__';

/** Largest scenario file: the attribution service's request body limit (its MAX_BODY_BYTES, the spec's 1 MB as 10^6 bytes). */
export const MAX_SCENARIO_BYTES = 1_000_000;

/** A report file's text: the `text` or `signal` field of a JSON file (TRAM .mjson), else the file as it is. */
export function reportText(name: string, raw: string): string {
  if (/\.m?json$/i.test(name)) {
    try {
      const v = JSON.parse(raw) as Record<string, unknown>;
      const t = v['text'] ?? v['signal'];
      if (typeof t === 'string') return t;
    } catch {
      // Not JSON after all: the text is the file.
    }
  }
  return raw;
}

/** Longest report text the service takes (its limit; the service enforces it whatever the page thinks). */
export const MAX_TEXT_CHARS = 500_000;

export interface Mark {
  readonly kind: 'indicator' | 'technique';
  readonly label: string;
}

export interface Segment {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly marks: readonly Mark[];
}

/** Cuts the text at every span boundary, so overlapping indicator and technique spans each keep their colour. */
export function segments(text: string, indicators: readonly IndicatorSpan[], techniques: readonly TechniqueSpan[]): Segment[] {
  const spans: { start: number; end: number; mark: Mark }[] = [
    ...indicators.map((i) => ({ start: i.start, end: i.end, mark: { kind: 'indicator' as const, label: `${i.type}: ${i.value}${i.defanged ? ' (defanged)' : ''}` } })),
    ...techniques.map((t) => ({
      start: t.start,
      end: t.end,
      mark: { kind: 'technique' as const, label: `${t.id} ${t.name} (${t.source}${t.probability !== undefined ? ` ${Math.round(t.probability * 100)}%` : ''})` },
    })),
  ].filter((s) => s.start >= 0 && s.end <= text.length && s.start < s.end);
  const cuts = new Set<number>([0, text.length]);
  for (const s of spans) {
    cuts.add(s.start);
    cuts.add(s.end);
  }
  const points = [...cuts].sort((a, b) => a - b);
  const out: Segment[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const start = points[i]!;
    const end = points[i + 1]!;
    const marks = spans.filter((s) => s.start <= start && s.end >= end).map((s) => s.mark);
    const prev = out[out.length - 1];
    // Merge neighbours with the same marks (plain text between spans stays one piece).
    if (prev && prev.marks.length === 0 && marks.length === 0) out[out.length - 1] = { start: prev.start, end, text: text.slice(prev.start, end), marks };
    else out.push({ start, end, text: text.slice(start, end), marks });
  }
  return out;
}

/** ATT&CK v19's two tactics in place of Defense Evasion: shown, in this place, when a technique falls under them. */
export const V19_TACTICS: readonly string[] = ['stealth', 'defense-impairment'];

/** ATT&CK Enterprise tactics in matrix order (the fourteen columns always shown). */
export const TACTICS: readonly string[] = [
  'reconnaissance',
  'resource-development',
  'initial-access',
  'execution',
  'persistence',
  'privilege-escalation',
  'defense-evasion',
  'credential-access',
  'discovery',
  'lateral-movement',
  'collection',
  'command-and-control',
  'exfiltration',
  'impact',
];

export interface HeatColumn {
  readonly tactic: string;
  readonly techniques: readonly { readonly id: string; readonly name: string; readonly count: number }[];
}

/** Techniques by tactic in matrix order (a technique under each of its tactics), the most frequent first; every Enterprise tactic keeps its column, v19's Stealth and Defense Impairment stand after Defense Evasion when used. */
export function heatmap(summary: readonly TechniqueSummary[]): { columns: HeatColumn[]; max: number } {
  const known = new Set(TACTICS);
  const order = TACTICS.flatMap((t) => (t === 'defense-evasion' ? [t, ...V19_TACTICS] : [t]));
  const extra = [...new Set(summary.flatMap((t) => t.tactics).filter((t) => !order.includes(t)))].sort();
  const columns = [...order, ...extra]
    .map((tactic) => ({
      tactic,
      techniques: summary
        .filter((t) => t.tactics.includes(tactic))
        .map((t) => ({ id: t.id, name: t.name, count: t.count }))
        .sort((a, b) => b.count - a.count || a.id.localeCompare(b.id)),
    }))
    .filter((c) => c.techniques.length > 0 || known.has(c.tactic));
  const max = Math.max(0, ...summary.map((t) => t.count));
  return { columns, max };
}

/** 0..1 heat of a count, on a square-root scale so one frequent technique does not wash out the rest. */
export function heat(count: number, max: number): number {
  return max <= 0 ? 0 : Math.sqrt(count / max);
}

export function tacticTitle(tactic: string): string {
  return tactic
    .split('-')
    .map((w) => (w === 'and' ? w : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(' ');
}

/** The select value of a stored matrix (GET /matrices): `matrix:<uuid>`. */
export const MATRIX_PREFIX = 'matrix:';

const FINDING_TYPES: Readonly<Partial<Record<IndicatorSpan['type'], FindingIndicator['type'] | null>>> = {
  ipv4: 'ipv4',
  ipv6: 'ipv6',
  domain: 'domain',
  url: 'url',
  email: 'email',
  md5: 'md5',
  sha1: 'sha1',
  sha256: 'sha256',
  sha512: 'other',
  file_path: 'file_path',
  registry_key: 'registry_key',
  cve: null,
};

/** An extraction as a finding for Send to: its techniques and indicators (a CVE is a vulnerability, not an indicator: left out). */
/** The line above the spans: what the extraction found, each count with its word agreeing ("1 indicator", "2 techniques"). */
export function extractionCounts(e: ExtractResponse['extraction']): string {
  return `${counted(e.indicators.length, 'indicator')}, ${counted(e.techniques.length, 'technique mention')} of ${counted(e.technique_summary.length, 'technique')}`;
}

export function extractionFinding(e: ExtractResponse, name: string): Finding {
  const indicators: FindingIndicator[] = [];
  for (const i of e.extraction.indicators) {
    const type = FINDING_TYPES[i.type];
    if (type) indicators.push({ type, value: i.value });
  }
  return {
    title: `Techniques and indicators extracted from ${name}`,
    techniques: e.extraction.technique_summary.map((t) => t.id),
    indicators,
    source: { service: 'attrib', kind: 'extraction', id: e.stix.id, link: '#/ach/extraction' },
  };
}

/** A hypothesis column's header: the group's name (the actor's, else the title without its "Intrusion set" prefix), at most `max` characters. */
/** A weighted score as the panels show it: at most two decimals ("6.06", "0.5", "+0.56" with `signed`); the exact value goes in a title. */
export function weightText(n: number, signed = false): string {
  const text = n.toLocaleString('en-US', { maximumFractionDigits: 2 }).replace('-', '\u2212');
  return signed && n > 0 ? `+${text}` : text;
}

/** A hypothesis's column header: the group's name, whole up to 44 characters (the header wraps it onto lines of its column). */
export function columnName(h: { readonly id: string; readonly title: string; readonly actor?: { readonly name: string }; readonly catch_all?: boolean }, max = 44): string {
  const raw = h.actor?.name ?? h.title.replace(/^(Intrusion set|Threat actor|Campaign)\s+/i, '').replace(/\s*\((?:G|C)\d{4}\)$/, '');
  const name = h.catch_all === true ? (h.id === 'H-NULL' ? 'Not hostile' : 'Another actor') : raw;
  return name.length > max ? `${name.slice(0, max - 1)}\u2026` : name;
}

export { sourceLabel } from '../../components/sourceLabel';
