// The boundary schema of a finding sent from one workspace to another (Send to Assessment / Send to ACH), shared by the receiving services.
import { isIP } from 'node:net';
import { z } from 'zod';
import { attackLookup, type ResolvedTechnique } from './attack/lookup.js';
import type { Finding, FindingIndicator, FindingIndicatorType, SendFindingRequest } from './contracts/findings.js';
import { C0_DEL, hasControlCharacter } from './control-characters.js';
import { validate } from './validation.js';

export const FINDING_INDICATOR_TYPES = ['ipv4', 'ipv6', 'domain', 'url', 'email', 'md5', 'sha1', 'sha256', 'file_name', 'file_path', 'registry_key', 'mutex', 'user_agent', 'asn', 'package', 'other'] as const;
/** At most this many techniques and indicators in one finding. */
export const MAX_FINDING_ITEMS = 500;
/** A finding body may be at most this large. */
export const MAX_FINDING_BYTES = 512 * 1024;

const printable = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((v) => !hasControlCharacter(v, C0_DEL), 'no control characters');

export const findingSourceSchema = z.strictObject({
  service: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, 'must be a service name'),
  kind: z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/, 'must be a short lower-case word'),
  id: printable(300),
  link: z
    .string()
    .max(2000)
    .regex(/^(#\/|https?:\/\/)\S*$/, 'must be a workspace route (#/...) or an http(s) URL')
    .optional(),
});

export const findingSchema = z
  .strictObject({
    title: printable(300),
    techniques: z.array(z.string().regex(/^T\d{4}(?:\.\d{3})?$/i, 'must be an ATT&CK technique id (T1059 or T1059.001)')).max(MAX_FINDING_ITEMS),
    indicators: z.array(z.strictObject({ type: z.enum(FINDING_INDICATOR_TYPES), value: printable(2048) })).max(MAX_FINDING_ITEMS),
    source: findingSourceSchema,
  })
  .refine((f) => f.techniques.length + f.indicators.length > 0, { message: 'a finding needs at least one technique or indicator', path: ['techniques'] });

export const sendFindingSchema = z.strictObject({
  target: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('existing'), id: z.string().min(1).max(200) }),
    z.strictObject({ kind: z.literal('new'), title: printable(300) }),
  ]),
  finding: findingSchema,
});

/** Checks a Send-to body (422 with field paths, never the values). */
export function parseSendFinding(value: unknown): SendFindingRequest {
  const r = validate(sendFindingSchema, value, 'request body');
  const { link, ...source } = r.finding.source;
  return { target: r.target, finding: { ...r.finding, source: link === undefined ? source : { ...source, link } } };
}

/** One line naming where a finding came from, for evidence notes: `replay story 12 "Beacon to 10.0.0.5" (#/replay/story/12)`. */
export function sourceLine(f: SendFindingRequest['finding'], max = 300): string {
  const s = f.source;
  return `${s.service} ${s.kind} ${s.id} "${f.title}"${s.link !== undefined ? ` (${s.link})` : ''}`.slice(0, max);
}

// ---------------------------------------------------------------- one normaliser for every Send to target

const HEX = { md5: 32, sha1: 40, sha256: 64 } as const;
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/;
const EMAIL = /^[^\s@]{1,64}@(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$/;
const URL_LIKE = /^[a-z][a-z0-9+.-]{1,15}:\/\/[^\s/?#]\S*$/i;
const REGISTRY = /^(?:HKEY_[A-Z_]+|HKLM|HKCU|HKCR|HKU|HKCC)(?:\\|$)/i;
const PORT = (p: string): boolean => /^\d{1,5}$/.test(p) && Number(p) >= 1 && Number(p) <= 65535;

/** An indicator value checked and put in one form for its type (addresses with an optional port, hashes and names lower-cased); a reason when it is not one. */
export function normalizeIndicator(type: FindingIndicatorType, raw: string): { value: string } | { reason: string } {
  const v = raw.trim();
  if (v === '') return { reason: 'empty value' };
  switch (type) {
    case 'ipv4': {
      const m = /^([\d.]+)(?::(\d+))?$/.exec(v);
      if (m === null || isIP(m[1]!) !== 4 || (m[2] !== undefined && !PORT(m[2]))) return { reason: 'not an IPv4 address (a.b.c.d, optionally :port)' };
      return { value: v };
    }
    case 'ipv6': {
      const m = /^\[([0-9a-f:.]+)\](?::(\d+))?$/i.exec(v);
      const addr = m !== null ? m[1]! : v;
      if (isIP(addr) !== 6 || (m?.[2] !== undefined && !PORT(m[2]))) return { reason: 'not an IPv6 address (optionally [address]:port)' };
      return { value: m !== null && m[2] !== undefined ? `[${addr.toLowerCase()}]:${m[2]}` : addr.toLowerCase() };
    }
    case 'domain': {
      const d = v.toLowerCase().replace(/\.$/, '');
      return DOMAIN.test(d) ? { value: d } : { reason: 'not a domain name' };
    }
    case 'email':
      return EMAIL.test(v.toLowerCase()) ? { value: v.toLowerCase() } : { reason: 'not an e-mail address' };
    case 'url':
      return URL_LIKE.test(v) ? { value: v } : { reason: 'not a URL (scheme://host...)' };
    case 'md5':
    case 'sha1':
    case 'sha256': {
      const h = v.toLowerCase();
      return new RegExp(`^[0-9a-f]{${HEX[type]}}$`).test(h) ? { value: h } : { reason: `not a ${type.toUpperCase()} (${HEX[type]} hex digits)` };
    }
    case 'registry_key':
      return REGISTRY.test(v) ? { value: v } : { reason: 'not a registry key (HKLM\\..., HKEY_...)' };
    case 'file_path':
      return /[\\/]/.test(v) ? { value: v } : { reason: 'not a file path (it has no folder separator)' };
    case 'asn': {
      const m = /^(?:AS)?(\d{1,10})$/i.exec(v);
      return m !== null && Number(m[1]) <= 4294967295 ? { value: `AS${m[1]}` } : { reason: 'not an autonomous system number (AS64500)' };
    }
    default:
      return { value: v };
  }
}

/** A technique as a receiving case or matrix stores it: the id to keep, its ATT&CK name, and what was done to it. */
export interface SentTechnique {
  readonly id: string;
  readonly name: string;
  /** The id as sent, when it differs (a revoked id replaced, a lower-case id). */
  readonly sentAs?: string;
  readonly note?: string;
}

export interface NormalizedFinding {
  readonly techniques: readonly SentTechnique[];
  readonly indicators: readonly FindingIndicator[];
  /** Items not kept, with why: unknown technique ids, malformed indicator values. */
  readonly skipped: readonly { readonly item: string; readonly reason: string }[];
}

/**
 * Every Send to target (an Assessment case, an ACH matrix) takes a finding through this one normaliser: technique ids in any case,
 * resolved through the ATT&CK lookup (a revoked id becomes its replacement, with a note; an id no release knows is skipped),
 * indicator values checked and normalised for their type (malformed ones skipped), duplicates dropped.
 */
export function normalizeFinding(f: Finding, lookup: { technique(id: string): ResolvedTechnique } = attackLookup()): NormalizedFinding {
  const techniques: SentTechnique[] = [];
  const skipped: { item: string; reason: string }[] = [];
  const haveT = new Set<string>();
  for (const raw of f.techniques) {
    const r = lookup.technique(raw);
    if (r.status === 'unknown') {
      skipped.push({ item: raw.slice(0, 20), reason: 'no ATT&CK release known here has this technique id' });
      continue;
    }
    const revoked = r.status === 'revoked' && r.revokedBy !== undefined;
    const id = revoked ? r.revokedBy! : r.id;
    if (haveT.has(id)) continue;
    haveT.add(id);
    const name = revoked ? (r.revokedByName ?? lookup.technique(id).name) : r.name;
    techniques.push({
      id,
      name,
      ...(raw !== id ? { sentAs: raw } : {}),
      ...(revoked ? { note: `sent as ${r.id} (${r.name}), which ATT&CK revoked in favour of ${id}` } : r.status === 'deprecated' ? { note: `${id} is deprecated in ATT&CK ${r.version ?? ''}`.trim() } : {}),
    });
  }
  const indicators: FindingIndicator[] = [];
  const haveI = new Set<string>();
  for (const i of f.indicators) {
    const n = normalizeIndicator(i.type, i.value);
    if ('reason' in n) {
      skipped.push({ item: `${i.type} ${i.value}`.slice(0, 200), reason: n.reason });
      continue;
    }
    const key = `${i.type}:${n.value.toLowerCase()}`;
    if (haveI.has(key)) continue;
    haveI.add(key);
    indicators.push({ type: i.type, value: n.value });
  }
  return { techniques, indicators, skipped };
}

const quoted = (v: string): string => `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The STIX 2.1 pattern of an indicator (an address with a port as network traffic to it, a path as a file in its folder). */
export function stixPatternOf(i: FindingIndicator): string {
  const v = i.value;
  switch (i.type) {
    case 'ipv4':
    case 'ipv6': {
      const m = i.type === 'ipv4' ? /^([\d.]+):(\d+)$/.exec(v) : /^\[([^\]]+)\]:(\d+)$/.exec(v);
      const sco = i.type === 'ipv4' ? 'ipv4-addr' : 'ipv6-addr';
      return m ? `[network-traffic:dst_ref.type = '${sco}' AND network-traffic:dst_ref.value = ${quoted(m[1]!)} AND network-traffic:dst_port = ${m[2]}]` : `[${sco}:value = ${quoted(v)}]`;
    }
    case 'domain':
      return `[domain-name:value = ${quoted(v)}]`;
    case 'url':
      return `[url:value = ${quoted(v)}]`;
    case 'email':
      return `[email-addr:value = ${quoted(v)}]`;
    case 'md5':
      return `[file:hashes.MD5 = ${quoted(v)}]`;
    case 'sha1':
      return `[file:hashes.'SHA-1' = ${quoted(v)}]`;
    case 'sha256':
      return `[file:hashes.'SHA-256' = ${quoted(v)}]`;
    case 'file_name':
      return `[file:name = ${quoted(v)}]`;
    case 'file_path': {
      const cut = Math.max(v.lastIndexOf('/'), v.lastIndexOf('\\'));
      return `[file:parent_directory_ref.path = ${quoted(v.slice(0, cut))} AND file:name = ${quoted(v.slice(cut + 1))}]`;
    }
    case 'registry_key':
      return `[windows-registry-key:key = ${quoted(v)}]`;
    case 'mutex':
      return `[mutex:name = ${quoted(v)}]`;
    case 'user_agent':
      return `[network-traffic:extensions.'http-request-ext'.request_header.'User-Agent' = ${quoted(v)}]`;
    case 'asn':
      return /^(?:AS)?\d+$/i.test(v) ? `[autonomous-system:number = ${v.replace(/^AS/i, '')}]` : `[autonomous-system:name = ${quoted(v)}]`;
    case 'package':
      return `[software:name = ${quoted(v)}]`;
    default:
      return `[x-vitrine-observable:value = ${quoted(v)}]`;
  }
}
