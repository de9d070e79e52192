// DNS message parser (also mDNS, LLMNR, NBNS): questions, answers, EDNS with client-subnet, name compression with loop protection.
import { fnvStep } from './lines.js';

/** Most compression pointers followed for one name; loops and deep chains stop here. */
const MAX_POINTER_HOPS = 32;
const MAX_NAME_LENGTH = 255;
/** Records read per section; the counts in the header are still reported. */
const MAX_RECORDS = 256;

export const DNS_TYPES: Readonly<Record<number, string>> = {
  1: 'A',
  2: 'NS',
  5: 'CNAME',
  6: 'SOA',
  12: 'PTR',
  13: 'HINFO',
  15: 'MX',
  16: 'TXT',
  28: 'AAAA',
  32: 'NB',
  33: 'SRV',
  35: 'NAPTR',
  39: 'DNAME',
  41: 'OPT',
  43: 'DS',
  46: 'RRSIG',
  47: 'NSEC',
  48: 'DNSKEY',
  50: 'NSEC3',
  51: 'NSEC3PARAM',
  64: 'SVCB',
  65: 'HTTPS',
  99: 'SPF',
  250: 'TSIG',
  251: 'IXFR',
  252: 'AXFR',
  255: 'ANY',
  257: 'CAA',
};

export function dnsTypeName(type: number): string {
  return DNS_TYPES[type] ?? `TYPE${type}`;
}

export interface DnsQuestion {
  readonly name: string;
  readonly type: number;
  readonly typeName: string;
  readonly qclass: number;
}

export interface DnsAnswer {
  readonly name: string;
  readonly type: number;
  readonly typeName: string;
  readonly ttl: number;
  /** Text form of the data for common types (address, name, MX, TXT, SOA, SRV); absent for others. */
  readonly data?: string;
}

/** EDNS client subnet option (RFC 7871). */
export interface EdnsClientSubnet {
  readonly family: 'v4' | 'v6' | number;
  readonly sourcePrefixLength: number;
  readonly scopePrefixLength: number;
  /** The address bytes given, padded with zeros to a full address. */
  readonly address: string;
}

export interface DnsEdns {
  readonly udpPayloadSize: number;
  readonly version: number;
  readonly dnssecOk: boolean;
  readonly options: readonly number[];
  readonly clientSubnets: readonly EdnsClientSubnet[];
}

export interface DnsBody {
  readonly id: number;
  readonly response: boolean;
  readonly opcode: number;
  readonly rcode: number;
  readonly authoritative: boolean;
  readonly truncated: boolean;
  readonly recursionDesired: boolean;
  readonly recursionAvailable: boolean;
  readonly questions: readonly DnsQuestion[];
  readonly answers: readonly DnsAnswer[];
  readonly authorityCount: number;
  readonly additionalCount: number;
  readonly edns?: DnsEdns;
}

export type DnsParse = { ok: true; message: DnsBody } | { ok: false; error: 'dns_malformed' | 'dns_compression_loop' };

class DnsError extends Error {
  constructor(readonly code: 'dns_malformed' | 'dns_compression_loop') {
    super(code);
  }
}

/** Printable ASCII stays; anything else (and the separators) is escaped as \DDD, as dig does. */
function labelText(b: Uint8Array, start: number, len: number): string {
  let s = '';
  for (let i = start; i < start + len; i++) {
    const c = b[i] ?? 0;
    if (c > 0x20 && c < 0x7f && c !== 0x2e && c !== 0x5c) s += String.fromCharCode(c);
    else s += `\\${String(c).padStart(3, '0')}`;
  }
  return s;
}

/**
 * Character codes of the name being read, turned into one string at the end: a name costs one string rather than
 * one per character and per label. At most 255 bytes of labels, each byte at most four characters (\\DDD).
 */
const nameCodes = Buffer.alloc(4 * MAX_NAME_LENGTH + 4);
/** How many codes of nameCodes the name being read holds (the buffer is reused, never regrown). */
let nameLength = 0;
/** The offset just after the name readName read last, in the original place (set by every call). */
let nameNext = 0;

function pushLabel(b: Uint8Array, start: number, len: number): void {
  for (let i = start; i < start + len; i++) {
    const c = b[i] ?? 0;
    if (c > 0x20 && c < 0x7f && c !== 0x2e && c !== 0x5c) nameCodes[nameLength++] = c;
    else {
      nameCodes[nameLength] = 0x5c;
      nameCodes[nameLength + 1] = 0x30 + Math.floor(c / 100);
      nameCodes[nameLength + 2] = 0x30 + (Math.floor(c / 10) % 10);
      nameCodes[nameLength + 3] = 0x30 + (c % 10);
      nameLength += 4;
    }
  }
}

/** Reads a possibly compressed name at `pos`; returns the name and sets nameNext to the offset just after it in the original place. */
function readName(b: Uint8Array, pos: number): string {
  nameLength = 0;
  let labels = 0;
  let length = 0;
  let hops = 0;
  let next = -1;
  let at = pos;
  // Each pointer must go strictly backwards: with the hop limit this rules out every loop.
  let lowest = pos;
  for (;;) {
    if (at >= b.length) throw new DnsError('dns_malformed');
    const len = b[at]!;
    if (len === 0) {
      if (next < 0) next = at + 1;
      break;
    }
    const kind = len & 0xc0;
    if (kind === 0xc0) {
      if (at + 1 >= b.length) throw new DnsError('dns_malformed');
      const target = ((len & 0x3f) << 8) | b[at + 1]!;
      if (next < 0) next = at + 2;
      hops += 1;
      if (hops > MAX_POINTER_HOPS || target >= lowest) throw new DnsError('dns_compression_loop');
      lowest = target;
      at = target;
      continue;
    }
    if (kind !== 0) throw new DnsError('dns_malformed');
    if (at + 1 + len > b.length) throw new DnsError('dns_malformed');
    length += len + 1;
    if (length > MAX_NAME_LENGTH) throw new DnsError('dns_malformed');
    if (labels > 0) nameCodes[nameLength++] = 0x2e;
    pushLabel(b, at + 1, len);
    labels += 1;
    at += 1 + len;
  }
  nameNext = next;
  if (labels === 0) {
    nameHash = 0x2e;
    return '.';
  }
  return nameText();
}

/** A hash of the name readName read last (set by every call that returns a name). */
let nameHash = 0;

/** Slots of the name and address caches (powers of two): one recent text per slot. */
const NAME_SLOTS = 4096;
const nameTexts: Array<string | undefined> = new Array<string | undefined>(NAME_SLOTS).fill(undefined);

/**
 * The text of nameCodes. Names repeat (a query, its answer, the same lookups again): a name equal to the one last
 * made in its slot (by a hash of its codes) is that same string, so it costs no new string and records share it.
 */
function nameText(): string {
  const n = nameLength;
  let h = n;
  for (let i = 0; i < n; i++) h = fnvStep(h, nameCodes[i]!);
  nameHash = h;
  const slot = (h ^ (h >>> 13)) & (NAME_SLOTS - 1);
  const seen = nameTexts[slot];
  if (seen !== undefined && seen.length === n) {
    let i = 0;
    while (i < n && seen.charCodeAt(i) === nameCodes[i]) i += 1;
    if (i === n) return seen;
  }
  // Every code is below 0x80, so the Latin-1 text of the bytes is the name.
  const text = nameCodes.toString('latin1', 0, n);
  nameTexts[slot] = text;
  return text;
}

const addressKeys = new Int32Array(NAME_SLOTS);
const addressTexts: Array<string | undefined> = new Array<string | undefined>(NAME_SLOTS).fill(undefined);

function u16(b: Uint8Array, at: number): number {
  if (at + 2 > b.length) throw new DnsError('dns_malformed');
  return (b[at]! << 8) | b[at + 1]!;
}

function u32(b: Uint8Array, at: number): number {
  if (at + 4 > b.length) throw new DnsError('dns_malformed');
  return ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
}

/** Dotted IPv4 text of b[at, at + 4); an address seen last in its cache slot gives the same string back. */
function ipv4Text(b: Uint8Array, at: number): string {
  const key = (b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!;
  const h = Math.imul(key, 0x9e3779b1);
  const slot = (h ^ (h >>> 16)) & (NAME_SLOTS - 1);
  const seen = addressTexts[slot];
  if (seen !== undefined && addressKeys[slot] === key) return seen;
  const text = `${b[at]}.${b[at + 1]}.${b[at + 2]}.${b[at + 3]}`;
  addressKeys[slot] = key;
  addressTexts[slot] = text;
  return text;
}

/** RFC 5952 IPv6 text from 16 bytes. */
export function ipv6Text(b: Uint8Array, at: number): string {
  const g: number[] = [];
  for (let i = 0; i < 8; i++) g.push(((b[at + i * 2] ?? 0) << 8) | (b[at + i * 2 + 1] ?? 0));
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (g[i] !== 0) {
      i += 1;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j += 1;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const text = (x: number[]): string => x.map((v) => v.toString(16)).join(':');
  if (bestLen < 2) return text(g);
  return `${text(g.slice(0, bestStart))}::${text(g.slice(bestStart + bestLen))}`;
}

function rdataText(b: Uint8Array, type: number, at: number, len: number): string | undefined {
  switch (type) {
    case 1:
      return len === 4 ? ipv4Text(b, at) : undefined;
    case 28:
      return len === 16 ? ipv6Text(b, at) : undefined;
    case 2:
    case 5:
    case 12:
    case 39:
      return readName(b, at);
    case 15:
      return `${u16(b, at)} ${readName(b, at + 2)}`;
    case 33:
      return `${u16(b, at)} ${u16(b, at + 2)} ${u16(b, at + 4)} ${readName(b, at + 6)}`;
    case 6: {
      const mname = readName(b, at);
      return `${mname} ${readName(b, nameNext)}`;
    }
    case 16: {
      const parts: string[] = [];
      let p = at;
      while (p < at + len) {
        const l = b[p]!;
        if (p + 1 + l > at + len) throw new DnsError('dns_malformed');
        parts.push(labelText(b, p + 1, l));
        p += 1 + l;
      }
      return parts.join(' ');
    }
    default:
      return undefined;
  }
}

function edns(b: Uint8Array, rdStart: number, rdLen: number, udpSize: number, ttl: number): DnsEdns {
  const options: number[] = [];
  const subnets: EdnsClientSubnet[] = [];
  let p = rdStart;
  const end = rdStart + rdLen;
  while (p + 4 <= end) {
    const code = u16(b, p);
    const len = u16(b, p + 2);
    const vs = p + 4;
    if (vs + len > end) throw new DnsError('dns_malformed');
    options.push(code);
    if (code === 8 && len >= 4) {
      const family = u16(b, vs);
      const source = b[vs + 2]!;
      const scope = b[vs + 3]!;
      const size = family === 1 ? 4 : family === 2 ? 16 : 0;
      if (size > 0) {
        const addr = new Uint8Array(size);
        addr.set(b.subarray(vs + 4, vs + 4 + Math.min(size, len - 4)));
        subnets.push({
          family: family === 1 ? 'v4' : 'v6',
          sourcePrefixLength: source,
          scopePrefixLength: scope,
          address: size === 4 ? ipv4Text(addr, 0) : ipv6Text(addr, 0),
        });
      } else {
        subnets.push({ family, sourcePrefixLength: source, scopePrefixLength: scope, address: '' });
      }
    }
    p = vs + len;
  }
  return {
    udpPayloadSize: udpSize,
    version: (ttl >>> 16) & 0xff,
    dnssecOk: (ttl & 0x8000) !== 0,
    options,
    clientSubnets: subnets,
  };
}

/**
 * Questions and answers shared between messages: a query and its response carry the same question, and lookups of
 * the same name repeat, so a question or answer equal to the one last made in its slot (by a hash of its name and
 * values) is that same frozen object, and a section of one record is the same frozen one-item list. No message
 * holds a list of its own that another could change.
 */
const RECORD_SLOTS = 4096;
const questionsSeen: Array<DnsQuestion | undefined> = new Array<DnsQuestion | undefined>(RECORD_SLOTS).fill(undefined);
const questionLists: Array<readonly DnsQuestion[] | undefined> = new Array<readonly DnsQuestion[] | undefined>(RECORD_SLOTS).fill(undefined);
const answersSeen: Array<DnsAnswer | undefined> = new Array<DnsAnswer | undefined>(RECORD_SLOTS).fill(undefined);
const answerLists: Array<readonly DnsAnswer[] | undefined> = new Array<readonly DnsAnswer[] | undefined>(RECORD_SLOTS).fill(undefined);
const NO_ANSWERS: readonly DnsAnswer[] = Object.freeze([]);
const NO_QUESTIONS: readonly DnsQuestion[] = Object.freeze([]);
/** The slot of the question or answer `question` or `answer` returned last. */
let recordSlot = 0;

function question(name: string, hash: number, type: number, qclass: number): DnsQuestion {
  const h = fnvStep(fnvStep(hash, type), qclass);
  const slot = (h ^ (h >>> 13)) & (RECORD_SLOTS - 1);
  recordSlot = slot;
  const seen = questionsSeen[slot];
  if (seen !== undefined && seen.type === type && seen.qclass === qclass && seen.name === name) return seen;
  const made: DnsQuestion = Object.freeze({ name, type, typeName: dnsTypeName(type), qclass });
  questionsSeen[slot] = made;
  questionLists[slot] = undefined;
  return made;
}

function answer(name: string, hash: number, type: number, ttl: number, data: string | undefined): DnsAnswer {
  let h = fnvStep(fnvStep(hash, type), ttl);
  if (data !== undefined) {
    const n = data.length;
    h = fnvStep(h, n);
    if (n > 0) h = fnvStep(h, data.charCodeAt(0) ^ (data.charCodeAt(n - 1) << 8) ^ (data.charCodeAt(n >> 1) << 16));
  } else h = fnvStep(h, 0x7fff);
  const slot = (h ^ (h >>> 13)) & (RECORD_SLOTS - 1);
  recordSlot = slot;
  const seen = answersSeen[slot];
  if (seen !== undefined && seen.type === type && seen.ttl === ttl && seen.data === data && seen.name === name) return seen;
  // One literal shape either way (a spread of an optional part would copy the record).
  const made: { -readonly [K in keyof DnsAnswer]: DnsAnswer[K] } = { name, type, typeName: dnsTypeName(type), ttl };
  if (data !== undefined) made.data = data;
  answersSeen[slot] = Object.freeze(made);
  answerLists[slot] = undefined;
  return made;
}

/**
 * The shared one-item list of `q`, the question in `slot` (a section of one made no other question after it, so q
 * is still its slot's; a made question clears its slot's list).
 */
function oneQuestion(q: DnsQuestion, slot: number): readonly DnsQuestion[] {
  return (questionLists[slot] ??= Object.freeze([q]));
}

function oneAnswer(a: DnsAnswer, slot: number): readonly DnsAnswer[] {
  return (answerLists[slot] ??= Object.freeze([a]));
}

/** The parts of the message readMessage read last (module scratch, as nameNext: one message at a time). */
let lastQuestions: readonly DnsQuestion[] = NO_QUESTIONS;
let lastAnswers: readonly DnsAnswer[] = NO_ANSWERS;
let lastEdns: DnsEdns | undefined;

/** Reads a message's sections into the scratch above; returns the error code when it is damaged. */
function readMessage(b: Uint8Array): 'dns_malformed' | 'dns_compression_loop' | undefined {
  try {
    if (b.length < 12) throw new DnsError('dns_malformed');
    const qd = u16(b, 4);
    const an = u16(b, 6);
    const ns = u16(b, 8);
    const ar = u16(b, 10);
    let pos = 12;
    let questions: DnsQuestion[] | undefined;
    let firstQuestion: DnsQuestion | undefined;
    let firstQuestionSlot = 0;
    for (let i = 0; i < qd; i++) {
      const name = readName(b, pos);
      const hash = nameHash;
      const next = nameNext;
      const type = u16(b, next);
      const qclass = u16(b, next + 2);
      pos = next + 4;
      if (i === 0) {
        firstQuestion = question(name, hash, type, qclass);
        firstQuestionSlot = recordSlot;
      } else if (i < MAX_RECORDS) (questions ??= [firstQuestion!]).push(question(name, hash, type, qclass));
    }
    let answers: DnsAnswer[] | undefined;
    let firstAnswer: DnsAnswer | undefined;
    let firstAnswerSlot = 0;
    let ednsInfo: DnsEdns | undefined;
    const total = an + ns + ar;
    for (let i = 0; i < total; i++) {
      const name = readName(b, pos);
      const next = nameNext;
      const type = u16(b, next);
      const klass = u16(b, next + 2);
      const ttl = u32(b, next + 4);
      const rdLen = u16(b, next + 8);
      const rd = next + 10;
      if (rd + rdLen > b.length) throw new DnsError('dns_malformed');
      if (i < an) {
        if (i < MAX_RECORDS) {
          const hash = nameHash;
          const data = rdataText(b, type, rd, rdLen);
          const made = answer(name, hash, type, ttl, data);
          if (i === 0) {
            firstAnswer = made;
            firstAnswerSlot = recordSlot;
          } else (answers ??= [firstAnswer!]).push(made);
        }
      } else if (i >= an + ns && type === 41 && ednsInfo === undefined) {
        ednsInfo = edns(b, rd, rdLen, klass, ttl);
      }
      pos = rd + rdLen;
      // Past the cap, stop reading records but keep what we have (the header counts are reported).
      if (i >= MAX_RECORDS * 3) break;
    }
    lastQuestions = questions ?? (firstQuestion === undefined ? NO_QUESTIONS : oneQuestion(firstQuestion, firstQuestionSlot));
    lastAnswers = answers ?? (firstAnswer === undefined ? NO_ANSWERS : oneAnswer(firstAnswer, firstAnswerSlot));
    lastEdns = ednsInfo;
    return undefined;
  } catch (err) {
    if (err instanceof DnsError) return err.code;
    throw err;
  }
}

/** Parses one DNS message (without the TCP length prefix). Never throws. */
export function parseDns(b: Uint8Array): DnsParse {
  const record = dnsRecord(b, '', 0, 0, 'udp', 0);
  if (typeof record === 'string') return { ok: false, error: record };
  const { uid: _uid, ts: _ts, packet: _packet, transport: _transport, port: _port, ...message } = record;
  return { ok: true, message };
}

/** Where a DNS message was seen: the fields a record carries ahead of the message's own. */
export interface DnsPlace {
  readonly uid: string;
  readonly ts: number;
  readonly packet: number;
  readonly transport: 'udp' | 'tcp';
  readonly port: number;
}

/**
 * parseDns made straight into the record the application layer keeps (the place's fields, then the message's, in
 * that order): no result wrapper and no copy of the message. The error code when the message is damaged.
 */
export function dnsRecord(b: Uint8Array, uid: string, ts: number, packet: number, transport: 'udp' | 'tcp', port: number): (DnsPlace & DnsBody) | 'dns_malformed' | 'dns_compression_loop' {
  const error = readMessage(b);
  if (error !== undefined) return error;
  const flags = (b[2]! << 8) | b[3]!;
  const record: { -readonly [K in keyof (DnsPlace & DnsBody)]: (DnsPlace & DnsBody)[K] } = {
    uid,
    ts,
    packet,
    transport,
    port,
    id: (b[0]! << 8) | b[1]!,
    response: (flags & 0x8000) !== 0,
    opcode: (flags >> 11) & 0x0f,
    rcode: flags & 0x0f,
    authoritative: (flags & 0x0400) !== 0,
    truncated: (flags & 0x0200) !== 0,
    recursionDesired: (flags & 0x0100) !== 0,
    recursionAvailable: (flags & 0x0080) !== 0,
    questions: lastQuestions,
    answers: lastAnswers,
    authorityCount: (b[8]! << 8) | b[9]!,
    additionalCount: (b[10]! << 8) | b[11]!,
  };
  if (lastEdns !== undefined) record.edns = lastEdns;
  return record;
}
