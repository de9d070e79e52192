// Pure helpers of the ACH workspace's Attribution view: the analyst's known infrastructure typed as lines, the report
// period, the request body, and each shortlisted group's reasons as bar segments.
import type { AttributionCandidate, AttributionReason } from '../../../../engines/core/contracts/attrib';

/** The request the view sends (POST /attribute). */
export interface AttributeRequestBody {
  readonly text: string;
  readonly shortlist: number;
  readonly classifier?: boolean;
  readonly period?: { readonly from: string; readonly to?: string };
  readonly known_infrastructure?: readonly { readonly group: string; readonly indicators: readonly string[] }[];
}

const DATE = /^\d{4}(?:-(?:0[1-9]|1[0-2])(?:-(?:0[1-9]|[12]\d|3[01]))?)?$/;

/**
 * Known infrastructure as the analyst types it, one group per line: `G0016: 203.0.113.7, evil.example.net` (commas,
 * spaces or semicolons between indicators; `#` starts a comment). Lines of the same group are merged. Errors name the
 * line number, never its text.
 */
export function parseInfrastructureLines(text: string): { readonly groups: { group: string; indicators: string[] }[]; readonly errors: readonly string[] } {
  const byGroup = new Map<string, Set<string>>();
  const errors: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.replace(/#.*$/, '').trim();
    if (line === '') return;
    const m = /^(G\d{4})\s*[:=]\s*(.*)$/i.exec(line);
    if (!m) {
      errors.push(`line ${i + 1}: start with an ATT&CK group id and a colon (G0016: 203.0.113.7)`);
      return;
    }
    const values = (m[2] ?? '').split(/[\s,;]+/).filter((v) => v !== '');
    if (values.length === 0) {
      errors.push(`line ${i + 1}: no indicator after the group id`);
      return;
    }
    const group = (m[1] ?? '').toUpperCase();
    const set = byGroup.get(group) ?? new Set<string>();
    for (const v of values) set.add(v);
    byGroup.set(group, set);
  });
  return { groups: [...byGroup.entries()].map(([group, set]) => ({ group, indicators: [...set] })), errors };
}

/** The period from the two fields: undefined when both are empty; an error when a field is not a year or date, or `to` is before `from`. */
export function periodOf(from: string, to: string): { readonly period?: { from: string; to?: string }; readonly error?: string } {
  const f = from.trim();
  const t = to.trim();
  if (f === '' && t === '') return {};
  if (f === '') return { error: 'give the start of the period (a year, YYYY-MM or YYYY-MM-DD)' };
  if (!DATE.test(f) || (t !== '' && !DATE.test(t))) return { error: 'the period is a year, YYYY-MM or YYYY-MM-DD' };
  if (t !== '' && t.slice(0, 4) < f.slice(0, 4)) return { error: 'the end of the period is before its start' };
  return { period: t === '' ? { from: f } : { from: f, to: t } };
}

/** The body of POST /attribute from the view's fields, or the reasons it cannot be sent. */
export function attributeRequest(fields: {
  readonly text: string;
  readonly shortlist: number;
  readonly classifier: boolean;
  readonly from: string;
  readonly to: string;
  readonly infrastructure: string;
}): { readonly body?: AttributeRequestBody; readonly errors: readonly string[] } {
  const errors: string[] = [];
  if (fields.text.trim() === '') errors.push('paste or open a report first');
  const p = periodOf(fields.from, fields.to);
  if (p.error !== undefined) errors.push(p.error);
  const infra = parseInfrastructureLines(fields.infrastructure);
  errors.push(...infra.errors);
  if (errors.length > 0) return { errors };
  return {
    body: {
      text: fields.text,
      shortlist: fields.shortlist,
      ...(fields.classifier ? { classifier: true } : {}),
      ...(p.period !== undefined ? { period: p.period } : {}),
      ...(infra.groups.length > 0 ? { known_infrastructure: infra.groups } : {}),
    },
    errors,
  };
}

/** What each kind of reason is called in the view, in the order the bars stack them. */
export const REASON_KINDS: readonly { readonly kind: AttributionReason['kind']; readonly label: string }[] = [
  { kind: 'techniques', label: 'techniques' },
  { kind: 'software', label: 'software' },
  { kind: 'procedures', label: 'procedure wording' },
  { kind: 'infrastructure', label: 'infrastructure' },
  { kind: 'time', label: 'time' },
];

/** A candidate's reasons as bar segments, each a share (0..1) of the largest score of the shortlist, stacked in REASON_KINDS order; zero parts left out. */
export function reasonSegments(c: AttributionCandidate, maxScore: number): { readonly kind: AttributionReason['kind']; readonly share: number; readonly contribution: number }[] {
  const reasons = c.reasons ?? [];
  if (!(maxScore > 0)) return [];
  return REASON_KINDS.flatMap(({ kind }) => {
    const r = reasons.find((x) => x.kind === kind);
    return r !== undefined && r.contribution > 0 ? [{ kind, share: Math.min(1, r.contribution / maxScore), contribution: r.contribution }] : [];
  });
}

/** A key of the inputs a result was computed from, so the view can mark it stale the moment they change. */
export function inputKey(body: AttributeRequestBody | undefined): string {
  return body === undefined ? '' : JSON.stringify(body);
}
