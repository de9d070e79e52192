// The local list of known-bad indicators (resources/replay/indicators.txt): parsing, normalising and matching addresses, domains and TLS fingerprints.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { VitrineError } from '../core/errors.js';
import { inPrefixV4, ipv4Number, ipv6Bytes } from './net.js';
import { SEVERITIES, STAGES, type Severity, type Stage } from './types.js';

export type IndicatorType = 'ip' | 'cidr' | 'domain' | 'ja3' | 'ja4';
export const INDICATOR_TYPES: readonly IndicatorType[] = ['ip', 'cidr', 'domain', 'ja3', 'ja4'];

export interface Indicator {
  readonly type: IndicatorType;
  /** Normalised value (lower case; addresses in canonical form). */
  readonly value: string;
  readonly severity: Severity;
  readonly technique?: string;
  readonly stage?: Stage;
  /** The comment after `#`, if any (our list's own words). */
  readonly note?: string;
  /** 1-based line in the list. */
  readonly line: number;
}

export interface IndicatorSet {
  readonly count: number;
  readonly sha256: string;
  /** Lines that could not be read: line number and what is wrong (never the line itself). */
  readonly problems: ReadonlyArray<{ readonly line: number; readonly issue: string }>;
  matchAddress(address: string): Indicator | undefined;
  matchDomain(name: string): Indicator | undefined;
  matchJa3(md5: string): Indicator | undefined;
  matchJa4(fp: string): Indicator | undefined;
}

export const MAX_INDICATOR_FILE_BYTES = 16 * 1024 * 1024;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
const MD5 = /^[0-9a-f]{32}$/;
const JA4 = /^[tqd][0-9a-z]{2}[di][0-9]{4}[0-9a-z]{2}_[0-9a-f]{12}_[0-9a-f]{12}$/;
const TECHNIQUE = /^T\d{4}(?:\.\d{3})?$/;

/** One canonical text per address: IPv4 dotted, IPv6 as 32 hex digits (so ::1 and 0:0::1 are one). */
export function addressKey(address: string): string | undefined {
  const v4 = ipv4Number(address);
  if (v4 !== undefined) return String(v4 >>> 0);
  const v6 = ipv6Bytes(address);
  return v6 === undefined ? undefined : Buffer.from(v6).toString('hex');
}

function parseLine(line: string, lineNo: number): Indicator | { issue: string } | undefined {
  const hash = line.indexOf('#');
  const body = (hash >= 0 ? line.slice(0, hash) : line).trim();
  const note = hash >= 0 ? line.slice(hash + 1).trim().slice(0, 200) : '';
  if (body === '') return undefined;
  const [typeText = '', valueText = '', ...options] = body.split(/\s+/);
  const type = typeText.toLowerCase() as IndicatorType;
  if (!INDICATOR_TYPES.includes(type)) return { issue: 'unknown indicator type' };
  let value = valueText.toLowerCase();
  switch (type) {
    case 'ip':
      if (addressKey(value) === undefined) return { issue: 'not an IPv4 or IPv6 address' };
      break;
    case 'cidr': {
      const [addr = '', bitsText = ''] = value.split('/');
      const bits = Number(bitsText);
      const v4 = ipv4Number(addr);
      const v6 = v4 === undefined ? ipv6Bytes(addr) : undefined;
      if (!/^\d{1,3}$/.test(bitsText) || (v4 === undefined && v6 === undefined) || bits > (v4 !== undefined ? 32 : 128)) return { issue: 'not a CIDR block' };
      break;
    }
    case 'domain':
      value = value.replace(/\.$/, '');
      if (!DOMAIN.test(value)) return { issue: 'not a domain name' };
      break;
    case 'ja3':
      if (!MD5.test(value)) return { issue: 'a ja3 indicator is the 32-digit MD5' };
      break;
    case 'ja4':
      if (!JA4.test(value)) return { issue: 'not a JA4 fingerprint' };
      break;
  }
  let severity: Severity = 'high';
  let technique: string | undefined;
  let stage: Stage | undefined;
  for (const option of options) {
    const [key = '', v = ''] = option.split('=');
    if (key === 'severity' && (SEVERITIES as readonly string[]).includes(v)) severity = v as Severity;
    else if (key === 'technique' && TECHNIQUE.test(v)) technique = v;
    else if (key === 'stage' && (STAGES as readonly string[]).includes(v)) stage = v as Stage;
    else return { issue: 'unknown option (severity=, technique= or stage=)' };
  }
  return { type, value, severity, line: lineNo, ...(technique ? { technique } : {}), ...(stage ? { stage } : {}), ...(note ? { note } : {}) };
}

/** Parses the text of an indicator list; bad lines are reported by number and skipped. */
export function parseIndicators(text: string): IndicatorSet {
  const byAddress = new Map<string, Indicator>();
  const v4Blocks: Array<{ base: number; bits: number; ind: Indicator }> = [];
  const v6Blocks: Array<{ bytes: Uint8Array; bits: number; ind: Indicator }> = [];
  const domains = new Map<string, Indicator>();
  const ja3 = new Map<string, Indicator>();
  const ja4 = new Map<string, Indicator>();
  const problems: Array<{ line: number; issue: string }> = [];
  let count = 0;
  text.split(/\r?\n/).forEach((line, i) => {
    const r = parseLine(line, i + 1);
    if (r === undefined) return;
    if ('issue' in r) {
      if (problems.length < 1000) problems.push({ line: i + 1, issue: r.issue });
      return;
    }
    count += 1;
    if (r.type === 'ip') byAddress.set(addressKey(r.value) ?? r.value, r);
    else if (r.type === 'domain') domains.set(r.value, r);
    else if (r.type === 'ja3') ja3.set(r.value, r);
    else if (r.type === 'ja4') ja4.set(r.value, r);
    else {
      const [addr = '', bitsText = ''] = r.value.split('/');
      const v4 = ipv4Number(addr);
      if (v4 !== undefined) v4Blocks.push({ base: v4, bits: Number(bitsText), ind: r });
      else v6Blocks.push({ bytes: ipv6Bytes(addr) ?? new Uint8Array(16), bits: Number(bitsText), ind: r });
    }
  });
  const inV6Block = (bytes: Uint8Array, block: { bytes: Uint8Array; bits: number }): boolean => {
    for (let bit = 0; bit < block.bits; bit++) {
      const mask = 0x80 >> bit % 8;
      if (((bytes[bit >> 3] ?? 0) & mask) !== ((block.bytes[bit >> 3] ?? 0) & mask)) return false;
    }
    return true;
  };
  return {
    count,
    sha256: createHash('sha256').update(text).digest('hex'),
    problems,
    matchAddress(address) {
      const key = addressKey(address);
      if (key === undefined) return undefined;
      const exact = byAddress.get(key);
      if (exact) return exact;
      const v4 = ipv4Number(address);
      if (v4 !== undefined) return v4Blocks.find((b) => inPrefixV4(v4, b.base, b.bits))?.ind;
      const v6 = ipv6Bytes(address);
      return v6 === undefined ? undefined : v6Blocks.find((b) => inV6Block(v6, b))?.ind;
    },
    matchDomain(name) {
      // The name itself or any parent: an indicator for evil.example covers a.b.evil.example.
      const labels = name.toLowerCase().replace(/\.$/, '').split('.');
      for (let i = 0; i < labels.length; i++) {
        const hit = domains.get(labels.slice(i).join('.'));
        if (hit) return hit;
      }
      return undefined;
    },
    matchJa3: (md5) => ja3.get(md5.toLowerCase()),
    matchJa4: (fp) => ja4.get(fp.toLowerCase()),
  };
}

export const EMPTY_INDICATORS: IndicatorSet = parseIndicators('');

/** Reads an indicator list file (at most 16 MiB). */
export function readIndicators(file: string): IndicatorSet {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    throw new VitrineError('not_found', 'the indicator list cannot be read');
  }
  if (size > MAX_INDICATOR_FILE_BYTES) throw new VitrineError('payload_too_large', 'the indicator list is larger than 16 MiB');
  return parseIndicators(readFileSync(file, 'utf8'));
}
