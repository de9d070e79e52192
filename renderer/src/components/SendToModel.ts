// Send to Assessment / Send to ACH without React: the two receiving services, and a workspace's Finding turned into the request body they validate.
import type { Finding, FindingIndicator, FindingIndicatorType, FindingTarget, SendFindingRequest } from '../../../engines/core/contracts/findings';

export type { Finding, FindingIndicator, FindingSource } from '../../../engines/core/contracts/findings';

/** Where findings can go: the service, its workspace's name, what it calls its containers, and its routes (relative to the service's base). */
export interface SendTarget {
  readonly service: 'caseassess' | 'attrib';
  readonly label: string;
  readonly noun: string;
  readonly list: string;
  readonly send: string;
}

export const SEND_TARGETS: readonly SendTarget[] = [
  { service: 'caseassess', label: 'Assessment', noun: 'case', list: '/cases', send: '/cases/evidence' },
  { service: 'attrib', label: 'ACH', noun: 'matrix', list: '/matrices', send: '/matrices/evidence' },
];

/** The most techniques and indicators one finding carries (the services' limit). */
export const MAX_ITEMS = 500;
const TECHNIQUE = /^T\d{4}(?:\.\d{3})?$/;
const TYPES: readonly FindingIndicatorType[] = ['ipv4', 'ipv6', 'domain', 'url', 'email', 'md5', 'sha1', 'sha256', 'file_name', 'registry_key', 'mutex', 'user_agent', 'asn', 'other'];
const LINK = /^(#\/|https?:\/\/)\S*$/;

const clean = (text: string, max: number): string =>
  [...text]
    .filter((ch) => (ch.codePointAt(0) ?? 0) >= 0x20 && ch !== '\u007f')
    .join('')
    .trim()
    .slice(0, max);

export interface Prepared {
  readonly payload: SendFindingRequest;
  /** What was left out before sending, and why (shown in the preview). */
  readonly dropped: readonly { readonly item: string; readonly reason: string }[];
}

/**
 * The request body for a finding and a target: technique ids upper-cased, checked and de-duplicated; indicators trimmed, typed and
 * de-duplicated; text without control characters and within the services' limits; a link kept only when it is a route or an http(s) URL.
 */
export function prepareFinding(finding: Finding, target: FindingTarget): Prepared {
  const dropped: { item: string; reason: string }[] = [];
  const techniques: string[] = [];
  for (const raw of finding.techniques) {
    const t = raw.trim().toUpperCase();
    if (!TECHNIQUE.test(t)) dropped.push({ item: clean(raw, 60), reason: 'not an ATT&CK technique id' });
    else if (!techniques.includes(t)) techniques.push(t);
  }
  const indicators: FindingIndicator[] = [];
  const seen = new Set<string>();
  for (const i of finding.indicators) {
    const value = clean(i.value, 2048);
    const key = `${i.type}:${value.toLowerCase()}`;
    if (!TYPES.includes(i.type)) dropped.push({ item: value.slice(0, 80), reason: 'not an indicator type a case holds' });
    else if (value === '') dropped.push({ item: i.type, reason: 'empty value' });
    else if (!seen.has(key)) {
      seen.add(key);
      indicators.push({ type: i.type, value });
    }
  }
  for (const extra of techniques.splice(MAX_ITEMS)) dropped.push({ item: extra, reason: `more than ${MAX_ITEMS} techniques` });
  for (const extra of indicators.splice(MAX_ITEMS)) dropped.push({ item: extra.value.slice(0, 80), reason: `more than ${MAX_ITEMS} indicators` });
  const s = finding.source;
  const link = s.link !== undefined && LINK.test(s.link) && s.link.length <= 2000 ? s.link : undefined;
  if (s.link !== undefined && link === undefined) dropped.push({ item: 'link', reason: 'not a workspace route or an http(s) URL' });
  const source = { service: s.service, kind: s.kind, id: clean(s.id, 300) || 'unnamed', ...(link !== undefined ? { link } : {}) };
  const t: FindingTarget = target.kind === 'new' ? { kind: 'new', title: clean(target.title, 300) || clean(finding.title, 300) || 'Finding' } : target;
  return { payload: { target: t, finding: { title: clean(finding.title, 300) || 'Finding', techniques, indicators, source } }, dropped };
}

/** True when there is something to send. */
export function sendable(p: Prepared): boolean {
  return p.payload.finding.techniques.length + p.payload.finding.indicators.length > 0;
}

/** A host as an indicator: an IPv4 or IPv6 address, else a domain name (for stories whose hosts are addresses or names). */
export function hostIndicator(host: string): FindingIndicator {
  const h = host.trim().replace(/^\[|\]$/g, '');
  if (/^\d{1,3}(?:\.\d{1,3}){3}$/.test(h)) return { type: 'ipv4', value: h };
  if (h.includes(':')) return { type: 'ipv6', value: h };
  return { type: 'domain', value: h.toLowerCase() };
}
