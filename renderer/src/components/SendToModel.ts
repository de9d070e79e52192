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
const TYPES: readonly FindingIndicatorType[] = ['ipv4', 'ipv6', 'domain', 'url', 'email', 'md5', 'sha1', 'sha256', 'file_name', 'file_path', 'registry_key', 'mutex', 'user_agent', 'asn', 'package', 'other'];
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

/** A host as an indicator: an IPv4 or IPv6 address (with its port when given), else a domain name. */
export function hostIndicator(host: string): FindingIndicator {
  const h = host.trim();
  if (/^\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?$/.test(h)) return { type: 'ipv4', value: h };
  if (/^\[[0-9a-f:.]+\](?::\d{1,5})?$/i.test(h)) return { type: 'ipv6', value: h.replace(/^\[([^\]]+)\]$/, '$1').toLowerCase() };
  if (h.includes(':')) return { type: 'ipv6', value: h.toLowerCase() };
  return { type: 'domain', value: h.toLowerCase() };
}

// ---------------------------------------------------------------- every indicator a finding holds

/** Top-level domains a name must end in to be taken as a domain from free text (so `report.pdf` or `story.title` are not). */
const TLDS = new Set(
  (
    'com net org info biz io co me tv cc ws xyz top site online club shop store app dev cloud live link click ' +
    'ru su ua by kz cn hk tw jp kr in ir iq sy kp vn th my sg id ph pk bd tr il sa ae qa eg ng za ke ' +
    'de fr uk nl be ch at it es pt pl cz sk hu ro bg gr se no dk fi ee lv lt ie is eu us ca mx br ar cl pe au nz ' +
    'gov edu mil int onion example test invalid'
  ).split(' '),
);
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`(?<![\\d.])${OCTET}(?:\\.${OCTET}){3}(?::(\\d{1,5}))?(?![\\d.]*\\d)`, 'g');
const IPV6_BRACKETED = /\[([0-9a-fA-F:]{2,39})\](?::(\d{1,5}))?/g;
const IPV6_BARE = /(?<![\w:])(?:[0-9a-fA-F]{1,4}:){2,7}[0-9a-fA-F]{0,4}(?![\w:])|(?<![\w:])(?:[0-9a-fA-F]{1,4}:){0,6}:(?::?[0-9a-fA-F]{1,4}){1,6}(?![\w:])/g;
const URL_RE = /\b(?:https?|hxxps?|ftp):\/\/[^\s"'<>()[\]{}]+/gi;
const EMAIL_RE = /\b[A-Za-z0-9._%+-]{1,64}@(?:[A-Za-z0-9-]{1,63}\.)+[A-Za-z]{2,24}\b/g;
// Not a label of a domain name (`<40 hex>.0.tunnel.example` is a DNS name, not a hash).
const HASH_RE = /(?<![0-9a-fA-F.-])(?:[0-9a-fA-F]{64}|[0-9a-fA-F]{40}|[0-9a-fA-F]{32})(?![0-9a-fA-F-]|\.[A-Za-z0-9])/g;
const REGISTRY_RE = /\b(?:HKEY_[A-Z_]+|HKLM|HKCU|HKCR|HKU|HKCC)\\[^\s"'<>|]+/g;
const WIN_PATH_RE = /\b[A-Za-z]:\\(?:[^\\\s"'<>|*?:]+\\)*[^\\\s"'<>|*?:]+/g;
const UNIX_PATH_RE = /(?<![\w/.:])\/(?:tmp|etc|var|usr|home|root|opt|bin|sbin|lib|dev\/shm|proc|Users|Library|private|Applications|System)(?:\/[\w.+@-]+)+/g;
const DOMAIN_RE = /(?<![\w.@/-])(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![\w-]|\.[A-Za-z0-9])/g;

/**
 * `text` without the characters of `chars` at its end, in one pass (`replace(/[.,;]+$/, '')` goes back over every run of
 * them from each of its starts: quadratic on a long URL or path of them).
 */
function trimEndOf(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text.charAt(end - 1))) end--;
  return end === text.length ? text : text.slice(0, end);
}

const validPort = (p: string | undefined): boolean => p === undefined || (Number(p) >= 1 && Number(p) <= 65535);

function isIpv6(text: string): boolean {
  if (!/^[0-9a-f:]+$/i.test(text) || text.split('::').length > 2) return false;
  const groups = text.split(':').filter((g) => g !== '');
  return groups.every((g) => g.length <= 4) && (text.includes('::') ? groups.length <= 7 : groups.length === 8);
}

/** The indicators in a piece of text: URLs, e-mail addresses, IPv4 (with a port) and IPv6 addresses, hashes, registry keys, file paths and domain names. */
export function indicatorsInText(text: string): FindingIndicator[] {
  const out: FindingIndicator[] = [];
  if (text.length === 0) return out;
  const t = text.slice(0, 100_000);
  const covered: [number, number][] = [];
  const add = (type: FindingIndicatorType, value: string, at: number, length: number): void => {
    out.push({ type, value });
    covered.push([at, at + length]);
  };
  const inside = (at: number): boolean => covered.some(([a, b]) => at >= a && at < b);
  for (const m of t.matchAll(URL_RE)) add('url', trimEndOf(m[0].replace(/^hxxp/i, 'http'), '.,;:!?'), m.index, m[0].length);
  for (const m of t.matchAll(EMAIL_RE)) if (!inside(m.index)) add('email', m[0].toLowerCase(), m.index, m[0].length);
  for (const m of t.matchAll(REGISTRY_RE)) add('registry_key', trimEndOf(m[0], '.,;'), m.index, m[0].length);
  for (const m of t.matchAll(WIN_PATH_RE)) if (!inside(m.index)) add('file_path', trimEndOf(m[0], '.,;'), m.index, m[0].length);
  for (const m of t.matchAll(UNIX_PATH_RE)) if (!inside(m.index)) add('file_path', m[0], m.index, m[0].length);
  for (const m of t.matchAll(IPV4)) {
    if (inside(m.index) || !validPort(m[1])) continue;
    const addr = m[1] === undefined ? m[0] : m[0].slice(0, m[0].lastIndexOf(':'));
    if (addr === '0.0.0.0' || addr === '255.255.255.255') continue;
    add('ipv4', m[0], m.index, m[0].length);
  }
  for (const m of t.matchAll(IPV6_BRACKETED)) if (!inside(m.index) && isIpv6(m[1]!) && validPort(m[2])) add('ipv6', m[2] !== undefined ? `[${m[1]!.toLowerCase()}]:${m[2]}` : m[1]!.toLowerCase(), m.index, m[0].length);
  for (const m of t.matchAll(IPV6_BARE)) if (!inside(m.index) && isIpv6(m[0])) add('ipv6', m[0].toLowerCase(), m.index, m[0].length);
  for (const m of t.matchAll(DOMAIN_RE)) {
    if (inside(m.index)) continue;
    const d = m[0].toLowerCase();
    if (TLDS.has(d.slice(d.lastIndexOf('.') + 1)) && !/^\d+(\.\d+)+$/.test(d)) add('domain', d, m.index, m[0].length);
  }
  for (const m of t.matchAll(HASH_RE)) {
    if (inside(m.index)) continue;
    const type = m[0].length === 64 ? 'sha256' : m[0].length === 40 ? 'sha1' : 'md5';
    add(type, m[0].toLowerCase(), m.index, m[0].length);
  }
  return out;
}

/** Keys whose values are this workspace's own ids and digests (a story id, the capture's hash), not indicators of the activity. */
const NOT_INDICATOR_KEYS = /^(?:id|ids|.*_id|.*_ids|.*Id|request_id|run|case_sha256|capture_sha256|digest|etag|link|href|path_template|stix|svg|html|uid|uids|ja3|ja3s|ja4|ja4s|fingerprint|integrityHash|integrity_hash|source)$/;

/**
 * Every indicator in a finding's data (a story, an event, an alert, a verdict), walked as JSON: each string read with
 * indicatorsInText, ids and links of the workspace itself skipped; de-duplicated by type and value, in the order found.
 */
export function indicatorsIn(value: unknown, max = MAX_ITEMS): FindingIndicator[] {
  const out: FindingIndicator[] = [];
  const seen = new Set<string>();
  let budget = 20_000;
  const visit = (v: unknown, key: string, depth: number): void => {
    if (out.length >= max || budget-- <= 0 || depth > 12) return;
    if (NOT_INDICATOR_KEYS.test(key)) return;
    if (typeof v === 'string') {
      for (const i of indicatorsInText(v)) {
        const k = `${i.type}:${i.value.toLowerCase()}`;
        if (seen.has(k) || out.length >= max) continue;
        seen.add(k);
        out.push(i);
      }
    } else if (Array.isArray(v)) for (const x of v) visit(x, '', depth + 1);
    else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) visit(x, k, depth + 1);
  };
  visit(value, '', 0);
  return out;
}

/** Merges indicator lists, the first occurrence of each type and value kept. */
export function mergeIndicators(...lists: readonly (readonly FindingIndicator[])[]): FindingIndicator[] {
  const seen = new Set<string>();
  const out: FindingIndicator[] = [];
  for (const list of lists)
    for (const i of list) {
      const k = `${i.type}:${i.value.trim().toLowerCase()}`;
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(i);
    }
  return out;
}

const quote = (v: string): string => `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The STIX 2.1 pattern an indicator is sent as (what the receiving case or matrix exports it as). */
export function stixPattern(i: FindingIndicator): string {
  const v = i.value;
  switch (i.type) {
    case 'ipv4': {
      const m = /^([\d.]+):(\d+)$/.exec(v);
      return m ? `[network-traffic:dst_ref.type = 'ipv4-addr' AND network-traffic:dst_ref.value = ${quote(m[1]!)} AND network-traffic:dst_port = ${m[2]}]` : `[ipv4-addr:value = ${quote(v)}]`;
    }
    case 'ipv6': {
      const m = /^\[([^\]]+)\]:(\d+)$/.exec(v);
      return m ? `[network-traffic:dst_ref.type = 'ipv6-addr' AND network-traffic:dst_ref.value = ${quote(m[1]!)} AND network-traffic:dst_port = ${m[2]}]` : `[ipv6-addr:value = ${quote(v)}]`;
    }
    case 'domain':
      return `[domain-name:value = ${quote(v)}]`;
    case 'url':
      return `[url:value = ${quote(v)}]`;
    case 'email':
      return `[email-addr:value = ${quote(v)}]`;
    case 'md5':
      return `[file:hashes.MD5 = ${quote(v)}]`;
    case 'sha1':
      return `[file:hashes.'SHA-1' = ${quote(v)}]`;
    case 'sha256':
      return `[file:hashes.'SHA-256' = ${quote(v)}]`;
    case 'file_name':
      return `[file:name = ${quote(v)}]`;
    case 'file_path': {
      const cut = Math.max(v.lastIndexOf('/'), v.lastIndexOf('\\'));
      return `[file:parent_directory_ref.path = ${quote(v.slice(0, cut))} AND file:name = ${quote(v.slice(cut + 1))}]`;
    }
    case 'registry_key':
      return `[windows-registry-key:key = ${quote(v)}]`;
    case 'mutex':
      return `[mutex:name = ${quote(v)}]`;
    case 'user_agent':
      return `[network-traffic:extensions.'http-request-ext'.request_header.'User-Agent' = ${quote(v)}]`;
    case 'asn':
      return `[autonomous-system:number = ${v.replace(/^AS/i, '')}]`;
    case 'package':
      return `[software:name = ${quote(v)}]`;
    default:
      return `[x-vitrine-other:value = ${quote(v)}]`;
  }
}
