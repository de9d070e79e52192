import { describe, expect, it } from 'vitest';
import { dnsRecord } from './dns.js';
import type { HttpTransaction } from './http.js';
import { DnsColumns, HttpColumns } from './records.js';

/** A transaction as the HTTP reader makes it: every key from the start, in this order, unknown ones undefined. */
function literal(over: Partial<HttpTransaction>): HttpTransaction {
  return {
    uid: 'C7',
    ts: 1_700_000_000.123456,
    packet: 12,
    depth: 1,
    method: 'GET',
    uri: '/',
    version: '1.1',
    requestBodyLength: 0,
    midstream: false,
    host: undefined,
    userAgent: undefined,
    referrer: undefined,
    authScheme: undefined,
    basicUser: undefined,
    statusCode: undefined,
    responseVersion: undefined,
    statusMessage: undefined,
    responseBodyLength: undefined,
    ...over,
  };
}

const FIELDS: ReadonlyArray<keyof HttpTransaction> = ['uid', 'ts', 'packet', 'depth', 'method', 'uri', 'version', 'requestBodyLength', 'midstream', 'host', 'userAgent', 'referrer', 'authScheme', 'basicUser', 'statusCode', 'responseVersion', 'statusMessage', 'responseBodyLength'];

describe('HTTP transactions kept as columns', () => {
  const cases: HttpTransaction[] = [
    literal({}),
    literal({ host: 'a.test', userAgent: 'ua/1', statusCode: 200, responseVersion: '1.1', statusMessage: 'OK', responseBodyLength: 0 }),
    literal({ uid: 'Cx', method: 'POST', uri: '/login?x=1', version: '1.0', depth: 3, requestBodyLength: 2 ** 40, midstream: true, referrer: '', authScheme: 'Basic', basicUser: 'admin' }),
    literal({ statusCode: 0, statusMessage: '', responseBodyLength: 12345678901, method: '', version: '' }),
    literal({ statusCode: 999, host: 'a.test', authScheme: 'NTLM', ts: 0, packet: 0 }),
  ];

  it('each view reads every field as the literal had it, and its JSON is the literal\'s (same keys, same order)', () => {
    const columns = new HttpColumns();
    // Enough rows to grow the columns past their first size, the cases repeated so words are shared between rows.
    const views: HttpTransaction[] = [];
    for (let i = 0; i < 3000; i++) views.push(columns.add(cases[i % cases.length]!));
    for (let i = 0; i < views.length; i++) {
      const want = cases[i % cases.length]!;
      const view = views[i]!;
      for (const f of FIELDS) expect(view[f], `${f} of row ${i}`).toBe(want[f]);
      expect(JSON.stringify(view)).toBe(JSON.stringify(want));
      expect(Object.keys((view as unknown as { toJSON: () => object }).toJSON())).toEqual(Object.keys(want));
    }
  });
});

describe('DNS messages kept as columns', () => {
  /** A message with every header flag, opcode and rcode bit pattern given, one question, and an OPT record when asked. */
  const message = (id: number, flags: number, opt: boolean): Uint8Array => {
    const question = [3, 0x77, 0x77, 0x77, 4, 0x74, 0x65, 0x73, 0x74, 0, 0, 1, 0, 1];
    const optRecord = opt ? [0, 0, 41, 0x10, 0, 0, 0, 0x80, 0, 0, 0] : [];
    return Uint8Array.of(id >> 8, id & 0xff, flags >> 8, flags & 0xff, 0, 1, 0, 0, 0, 0, 0, opt ? 1 : 0, ...question, ...optRecord);
  };

  it('each view reads every field as the parser\'s object had it, and its JSON is that object\'s', () => {
    const columns = new DnsColumns();
    const FIELDS = ['uid', 'ts', 'packet', 'transport', 'port', 'id', 'response', 'opcode', 'rcode', 'authoritative', 'truncated', 'recursionDesired', 'recursionAvailable', 'questions', 'answers', 'authorityCount', 'additionalCount', 'edns'] as const;
    let rows = 0;
    let withEdns = 0;
    for (let n = 0; n < 2600; n++) {
      // Every flag bit on its own and in mixes, ids and ports at both ends of 16 bits, both transports.
      const flags = n < 16 ? 1 << n : (n * 40503) & 0xffff;
      const id = n % 2 === 0 ? 0xffff - n : n;
      const bytes = message(id, flags, n % 3 === 0);
      const want = dnsRecord(bytes, `C${n}`, 1_700_000_000 + n / 7, n * 3, n % 5 === 0 ? 'tcp' : 'udp', n % 2 === 0 ? 65535 : 53);
      expect(typeof want, `message ${n}`).toBe('object');
      if (typeof want === 'string') continue;
      const view = columns.add(want);
      rows += 1;
      if (view.edns !== undefined) withEdns += 1;
      for (const f of FIELDS) expect(view[f], `${f} of message ${n}`).toBe(want[f]);
      expect(JSON.stringify(view)).toBe(JSON.stringify(want));
      expect(Object.keys((view as unknown as { toJSON: () => object }).toJSON())).toEqual(Object.keys(want));
    }
    expect(rows).toBe(2600);
    expect(withEdns).toBe(867);
  });
});
