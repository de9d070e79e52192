// SQL injection: the three requests Zeek tags URI_SQLI in the DVWA trace, and the pattern on plain and hostile URIs.
import { describe, expect, it } from 'vitest';
import { pcapCorpusAvailable, zeekBaseline, zeekLog } from '../capture/capture.fixture.js';
import { analyzeCaptureFile } from '../capture/index.js';
import { corpusFile } from '../capture/capture.fixture.js';
import { corpusAnalysis } from '../replay.fixture.js';
import { hasSqlInjection } from './web.js';

describe.skipIf(!pcapCorpusAvailable())('cooper-grill-dvwa (Zeek notice.log and http.log are the truth)', () => {
  it('flags exactly the URIs Zeek tags HTTP::URI_SQLI, and names attacker and victim as the notices do', async () => {
    // http.log.cut is zeek-cut output: a plain header line, then tab-separated rows.
    const [header = '', ...rows] = zeekBaseline('cooper-grill-dvwa', 'http.log.cut').split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    const cols = header.split('\t');
    const tagged = rows.map((r) => r.split('\t')).filter((f) => f[cols.indexOf('tags')] === 'HTTP::URI_SQLI').map((f) => f[cols.indexOf('uri')]);
    expect(tagged).toHaveLength(3);
    const capture = await analyzeCaptureFile(corpusFile('cooper-grill-dvwa.pcapng'));
    // Zeek logs %XX-decoded URIs; ours are as sent.
    const ours = capture.app.http.filter((h) => hasSqlInjection(h.uri)).map((h) => decodeURIComponent(h.uri));
    expect(ours.sort()).toEqual([...tagged].sort());
    const notices = zeekLog('cooper-grill-dvwa', 'notice.log');
    const attacker = notices.find((n) => n['note'] === 'HTTP::SQL_Injection_Attacker');
    const a = await corpusAnalysis('cooper-grill-dvwa.pcapng');
    const [alert] = a.alerts.filter((x) => x.rule === 'sql_injection');
    expect(alert?.src).toBe(attacker?.['src']);
    expect(alert?.dst).toEqual([attacker?.['dst']]);
    expect(alert?.evidence.counts['requests']).toBe(3);
    expect(a.stories).toHaveLength(1);
  });
});

describe('hasSqlInjection', () => {
  it.each([
    "/item?id=1'+OR+'1'='1",
    '/item?id=1%27%20UNION%20SELECT%20user,password%20FROM%20users--',
    "/q?name=x';DROP TABLE users;--",
    "/q?id=1' AND SLEEP(5)#",
    '/q?id=1 union/**/select 1',
    "/q?u=admin'--",
  ])('flags %s', (uri) => {
    expect(hasSqlInjection(uri)).toBe(true);
  });

  it.each(['/search?q=O%27Reilly+books', '/page?title=Rock+and+roll', '/a?b=c', '/docs/union-select-guide', '/q?text=select+a+seat', "/q?name=d'Artagnan"])('leaves %s alone', (uri) => {
    expect(hasSqlInjection(uri)).toBe(false);
  });
});

describe('hasSqlInjection: comments and white space', () => {
  it.each([
    '/q?id=1 union/**//**//* c */ /**/select 1',
    '/q?id=1 UNION/*x*/ALL/**/SELECT 1',
    '/q?id=1 union /*** a * b ***/ select 1',
    "/q?id=1'  or  (  a=1",
  ])('flags %s', (uri) => {
    expect(hasSqlInjection(uri)).toBe(true);
  });

  it('ends a comment at its first */, as SQL does', () => {
    expect(hasSqlInjection('/q?id=1 union/* a */b*/select 1')).toBe(false);
  });

  it('reads a run of comments that reaches select (long runs: test/redos/rewritten-patterns.test.ts)', () => {
    expect(hasSqlInjection(`/q?id=1 union ${'/**/'.repeat(8)}x`)).toBe(false);
    expect(hasSqlInjection(`/q?id=1 union ${'/**/'.repeat(8)}select 1`)).toBe(true);
  });
});
