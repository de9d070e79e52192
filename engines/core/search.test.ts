// The search query classifier, the matching rules, the LIKE escaping and runSearch's grouping and error handling.
import { describe, expect, it } from 'vitest';
import type { SearchHit } from './contracts/search.js';
import { VitrineError } from './errors.js';
import { classifyQuery, findMatch, likeContains, locateInJson, matchFields, parseSearchRequest, runSearch, snippetAround, type ParsedQuery } from './search.js';
import { openMemoryStore } from './store.js';

describe('classifyQuery', () => {
  it.each([
    ['10.1.2.3', { kind: 'ipv4', value: '10.1.2.3' }],
    ['2001:DB8::1', { kind: 'ipv6', value: '2001:db8::1' }],
    ['44D88612FEA8A8F36DE82E1278ABB02F', { kind: 'md5', value: '44d88612fea8a8f36de82e1278abb02f' }],
    ['3395856ce81f2b7382dee72602f798b642f14140', { kind: 'sha1', value: '3395856ce81f2b7382dee72602f798b642f14140' }],
    ['A'.repeat(64), { kind: 'sha256', value: 'a'.repeat(64) }],
    ['t1059.001', { kind: 'technique', value: 'T1059.001' }],
    ['T1078', { kind: 'technique', value: 'T1078' }],
    ['cve-2021-44228', { kind: 'cve', value: 'CVE-2021-44228' }],
    ['Evil-Update.Example.com', { kind: 'domain', value: 'evil-update.example.com' }],
    ['pkg:npm/%40scope/pkg@1.0.0', { kind: 'package', value: '@scope/pkg', ecosystem: 'npm', version: '1.0.0' }],
    ['pkg:pypi/requests@2.32.3', { kind: 'package', value: 'requests', ecosystem: 'pypi', version: '2.32.3' }],
    ['npm:lodash', { kind: 'package', value: 'lodash', ecosystem: 'npm' }],
    ['pypi:flask==3.0.0', { kind: 'package', value: 'flask', ecosystem: 'pypi', version: '3.0.0' }],
    ['left-pad@1.3.0', { kind: 'package', value: 'left-pad', version: '1.3.0' }],
    ['@babel/core@7.24.0', { kind: 'package', value: '@babel/core', version: '7.24.0' }],
    ['  lateral   movement ', { kind: 'text', value: 'lateral movement' }],
    ['10.1.2.300', { kind: 'text', value: '10.1.2.300' }],
    ['abc123', { kind: 'text', value: 'abc123' }],
    ['user@example.org', { kind: 'text', value: 'user@example.org' }],
  ])('%s', (q, expected) => {
    expect(classifyQuery(q)).toEqual(expected);
  });
});

describe('parseSearchRequest', () => {
  it('validates the length, control characters and limit without echoing the query', () => {
    expect(parseSearchRequest({ q: ' T1059 ', limit: undefined })).toEqual({ query: { kind: 'technique', value: 'T1059' }, limit: 10 });
    expect(parseSearchRequest({ q: 'ab', limit: '50' }).limit).toBe(50);
    for (const bad of [{ q: 'x' }, { q: 'secret-value-'.repeat(20) }, { q: 'a\u0000b' }, { q: undefined }, { q: ['a', 'b'] }, { q: 'ok', limit: '0' }, { q: 'ok', limit: '51' }, { q: 'ok', limit: 'many' }]) {
      let err: unknown;
      try {
        parseSearchRequest({ q: bad.q, limit: 'limit' in bad ? bad.limit : undefined });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(VitrineError);
      expect((err as VitrineError).code).toBe('bad_request');
      expect(JSON.stringify({ m: (err as VitrineError).message, d: (err as VitrineError).details })).not.toContain('secret-value');
    }
  });
});

describe('matching', () => {
  const q = (s: string): ParsedQuery => classifyQuery(s);
  it('keeps to identifier boundaries by kind', () => {
    expect(findMatch(q('10.0.0.1'), 'from 10.0.0.1:443')).toEqual({ index: 5, length: 8 });
    expect(findMatch(q('10.0.0.1'), '10.0.0.12 and 110.0.0.1 and 10.0.0.1.5')).toBeNull();
    expect(findMatch(q('evil.example'), 'cdn.evil.example/x')).not.toBeNull();
    expect(findMatch(q('evil.example'), 'notevil.example evil.example.org')).toBeNull();
    expect(findMatch(q('T1059'), 'T1059.001')).not.toBeNull();
    expect(findMatch(q('T1059.001'), 'T1059.0012 T1059')).toBeNull();
    expect(findMatch(q('a'.repeat(32)), 'a'.repeat(64))).toBeNull();
    expect(findMatch(q('Lateral Movement'), 'some lateral movement here')).not.toBeNull();
    expect(findMatch(q('a.b*c'), 'a.b*c')).not.toBeNull();
  });

  it('escapes LIKE wildcards', () => {
    expect(likeContains('50%_off\\')).toBe('%50\\%\\_off\\\\%');
    const db = openMemoryStore();
    const hit = (v: string, text: string): unknown => db.prepare("SELECT 1 AS x WHERE ? LIKE ? ESCAPE '\\'").get(text, likeContains(v));
    expect(hit('50%', '50% off')).toEqual({ x: 1 });
    expect(hit('50%', '500 off')).toBeUndefined();
    expect(hit('a_b', 'axb')).toBeUndefined();
  });

  it('names the JSON path of a match and cuts a snippet', () => {
    const json = JSON.stringify({ a: [{ host: 'x' }, { host: 'srv 10.0.0.1 up' }], b: 'none' });
    expect(locateInJson(q('10.0.0.1'), json)).toEqual({ path: 'a[1].host', snippet: 'srv 10.0.0.1 up' });
    expect(locateInJson(q('10.0.0.9'), json)).toBeNull();
    expect(locateInJson(q('10.0.0.1'), '{broken')).toBeNull();
    const long = `${'x'.repeat(100)}needle${'y'.repeat(200)}`;
    const s = snippetAround(long, { index: 100, length: 6 });
    expect(s.startsWith('…')).toBe(true);
    expect(s.endsWith('…')).toBe(true);
    expect(s.length).toBeLessThan(170);
    expect(matchFields(q('needle'), [{ name: 'a', text: null, rank: 3 }, { name: 'b', text: long, rank: 2 }])).toMatchObject({ field: 'b', rank: 2 });
  });
});

describe('runSearch', () => {
  const hit = (service: string, id: string, rank: number, time: string): SearchHit => ({ service, kind: 'x', id, title: id, field: 'f', snippet: 's', rank, time, link: { service, kind: 'x', id } });
  it('groups by service, best group first, hits by rank then newest, marks truncation, and reports a failing provider without the query', async () => {
    const db = openMemoryStore();
    const errors: string[] = [];
    const res = await runSearch(
      db,
      [
        { name: 'a', title: 'A', workspace: 'WA', search: { search: async () => [hit('a', 'a1', 1, '2024-01-02'), hit('a', 'a2', 1, '2024-01-03'), hit('a', 'a3', 1, '2024-01-01')] } },
        { name: 'b', title: 'B', workspace: 'WB', search: { search: async () => [hit('b', 'b1', 3, '2024-01-01')] } },
        { name: 'c', title: 'C', workspace: 'WC', search: { search: async () => [] } },
        { name: 'd', title: 'D', workspace: 'WD' },
        {
          name: 'e',
          title: 'E',
          workspace: 'WE',
          search: {
            search: () => {
              throw new Error('boom secret-query');
            },
          },
        },
        // A provider on another backend whose query fails asynchronously.
        { name: 'f', title: 'F', workspace: 'WF', search: { search: () => Promise.reject(new Error('lost connection secret-query')) } },
      ],
      classifyQuery('secret-query'),
      2,
      (service) => errors.push(service),
    );
    expect(res.kind).toBe('text');
    expect(res.groups.map((g) => g.service)).toEqual(['b', 'a', 'e', 'f']);
    expect(res.groups[1]?.hits.map((h) => h.id)).toEqual(['a2', 'a1']);
    expect(res.groups[1]?.truncated).toBe(true);
    expect(res.groups[0]?.truncated).toBe(false);
    expect(res.total).toBe(3);
    expect(errors.sort()).toEqual(['e', 'f']);
    expect(res.groups[3]).toMatchObject({ hits: [], truncated: false, error: expect.stringContaining('could not be searched') });
    expect(JSON.stringify(res)).not.toContain('secret-query');
  });
});
