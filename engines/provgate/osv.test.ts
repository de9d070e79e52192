// Offline OSV advisories: the zip reader (and its bounds), version-aware matching on the corpus records, and the gate with --advisories.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../test/corpora.js';
import { buildZip } from '../core/archive/build.fixture.js';
import { memorySource } from '../core/archive/index.js';
import { main } from './cli.js';
import { signEvent, type StageEvent } from './envelope.js';
import { saveEnvelopes } from './files.js';
import { run } from './index.js';
import { DEMO_SIGNING_KEY, demoTrust } from './keys.js';
import { compareVersions, loadOsv, OsvIndex, zipJsonEntries } from './osv.js';
import { DEMO_SHA } from './synth.js';

const dir = mkdtempSync(path.join(tmpdir(), 'provgate-osv-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const osvDir = (...p: string[]): string => corpusPath('supplychain', 'osv', ...p);

/** A minimal zip writer (stored or deflated members with their CRC-32, or a wrong one) for the tests. */
function zip(entries: { name: string; data: Buffer; deflate?: boolean; declaredSize?: number; badCrc?: boolean }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const body = e.deflate === true ? deflateRawSync(e.data) : e.data;
    const name = Buffer.from(e.name);
    const crc = (crc32(e.data) ^ (e.badCrc === true ? 1 : 0)) >>> 0;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(e.deflate === true ? 8 : 0, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(e.declaredSize ?? e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(e.deflate === true ? 8 : 0, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(e.declaredSize ?? e.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += 30 + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(cd.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, eocd]);
}

describe('zip reader', () => {
  it('reads stored and deflated JSON members and skips others', () => {
    const buf = zip([
      { name: 'a.json', data: Buffer.from('{"id":"A"}') },
      { name: 'dir/b.json', data: Buffer.from('{"id":"B"}'.repeat(50)), deflate: true },
      { name: 'README.txt', data: Buffer.from('x') },
    ]);
    expect([...zipJsonEntries(memorySource(buf))].map((e) => [e.name, e.text.length])).toEqual([
      ['a.json', 10],
      ['dir/b.json', 500],
    ]);
  });

  it('refuses truncated archives and members that inflate past their declared size', () => {
    const good = zip([{ name: 'a.json', data: Buffer.from('{}') }]);
    expect(() => [...zipJsonEntries(memorySource(good.subarray(0, good.length - 5)))]).toThrow('not a readable zip');
    const bomb = zip([{ name: 'bomb.json', data: Buffer.alloc(100_000, 32), deflate: true, declaredSize: 100 }]);
    expect(() => [...zipJsonEntries(memorySource(bomb))]).toThrow('declared size');
  });

  it('refuses directory records that point at one member (the non-recursive zip bomb) before inflating them', () => {
    const one = buildZip([{ name: 'payload.json', data: `[${'0,'.repeat(50_000)}0]`, deflate: true }], (records) => {
      const r0 = records[0];
      if (r0 === undefined) throw new Error('missing');
      return Array.from({ length: 512 }, (_, i) => ({ name: `r${i}.json`, localOffset: r0.localOffset, index: 0 }));
    });
    expect(() => [...zipJsonEntries(memorySource(one))]).toThrow('overlap');
  });

  it('refuses a member whose bytes fail their CRC-32 (read before as if sound)', () => {
    const bad = zip([{ name: 'a.json', data: Buffer.from('{"id":"A"}') }, { name: 'b.json', data: Buffer.from('{"id":"B"}'.repeat(20)), deflate: true, badCrc: true }]);
    expect(() => [...zipJsonEntries(memorySource(bad))]).toThrow('CRC');
  });

  it.skipIf(!hasCorpora())('reads zip64 archives and a zip behind a stub, as Python does (refused before)', () => {
    const records = ['ghsa', 'malicious-packages'].flatMap((sub) => readdirSync(osvDir(sub)).map((f) => ({ name: `${sub}/${f}`, data: readFileSync(osvDir(sub, f)), deflate: true })));
    const names = records.map((r) => r.name);
    const z64 = buildZip(records, undefined, { zip64: true });
    expect([...zipJsonEntries(memorySource(z64))].map((e) => e.name)).toEqual(names);
    const stubbed = Buffer.concat([Buffer.from('#!/bin/sh\nexit 0\n'), zip(records)]);
    expect([...zipJsonEntries(memorySource(stubbed))].map((e) => e.name)).toEqual(names);
  });

  it.skipIf(!hasCorpora())('never throws anything but a parse error on an archive cut at any point, from disk', () => {
    const members = readdirSync(osvDir('ghsa')).map((f) => ({ name: f, data: readFileSync(osvDir('ghsa', f)), deflate: true }));
    const whole = zip(members);
    for (let cut = 0; cut < whole.length; cut += Math.max(1, Math.floor(whole.length / 60))) {
      const file = path.join(dir, `cut-${cut}.zip`);
      writeFileSync(file, whole.subarray(0, cut));
      let thrown: unknown;
      try {
        loadOsv(file);
      } catch (err) {
        thrown = err;
      }
      // A cut before the magic leaves no zip (read as a JSON record that does not parse: an empty index).
      if (thrown !== undefined) expect(thrown, `cut ${cut}`).toMatchObject({ code: 'parse_error' });
      else expect(cut < 4, `cut ${cut}`).toBe(true);
    }
    writeFileSync(path.join(dir, 'whole.zip'), whole);
    expect(loadOsv(path.join(dir, 'whole.zip')).size).toBe(members.length);
  });
});

describe('versions', () => {
  it('PEP 440, semantic and Go versions', () => {
    const pep = (a: string, b: string): number | null => compareVersions('pypi', 'ECOSYSTEM', a, b);
    const order = ['1.0.dev1', '1.0a1', '1.0b2', '1.0rc1', '1.0', '1.0.post1', '1.1', '2.0', '1!0.1'];
    for (let i = 0; i + 1 < order.length; i++) expect(pep(order[i] as string, order[i + 1] as string), `${order[i]} < ${order[i + 1]}`).toBe(-1);
    expect(pep('1.0', '1.0.0')).toBe(0);
    expect(pep('not a version', '1.0')).toBeNull();
    const sem = (a: string, b: string): number | null => compareVersions('npm', 'SEMVER', a, b);
    expect(sem('1.0.0-alpha', '1.0.0-alpha.1')).toBe(-1);
    expect(sem('1.0.0-rc.1', '1.0.0')).toBe(-1);
    expect(sem('v2.1', '2.1.0')).toBe(0);
    expect(compareVersions('golang', 'SEMVER', 'v0.0.0-20220805012345-abcdefabcdef', '0.0.0-20220906165146-f3363e06e74c')).toBe(-1);
    expect(compareVersions('golang', 'SEMVER', 'v0.3.6', '0.3.7')).toBe(-1);
  });
});

describe.skipIf(!hasCorpora())('the corpus records', () => {
  const index = new OsvIndex();
  for (const sub of ['ghsa', 'go-vulndb', 'malicious-packages']) for (const f of readdirSync(osvDir(sub))) index.add(JSON.parse(readFileSync(osvDir(sub, f), 'utf8')) as unknown);
  const ids = (purl: string): string[] => index.affecting(purl).map((r) => r.id).sort();

  it('match by ranges and version lists, per ecosystem', () => {
    expect(index.size).toBe(7);
    expect(ids('pkg:maven/org.springframework.security.oauth/spring-security-oauth@2.0.16')).toEqual(['GHSA-77rv-6vfw-x4gc']);
    expect(ids('pkg:maven/org.springframework.security.oauth/spring-security-oauth@2.0.17')).toEqual([]);
    expect(ids('pkg:npm/yandex-yt-yson-bindings@0.0.1')).toEqual(['MAL-2023-995']);
    expect(ids('pkg:golang/golang.org/x/net@v0.0.0-20220805012345-abcdefabcdef')).toEqual(['GO-2022-0969']);
    expect(ids('pkg:golang/golang.org/x/net@v0.1.0')).toEqual([]);
    expect(ids('pkg:golang/stdlib@v1.18.5')).toEqual(['GO-2022-0969']);
    expect(ids('pkg:golang/stdlib@v1.18.6')).toEqual([]);
    expect(ids('pkg:golang/stdlib@v1.19.0')).toEqual(['GO-2022-0969']);
    expect(ids('pkg:golang/vitess.io/vitess@v0.18.4')).toEqual(['GO-2024-2826']);
    expect(ids('pkg:golang/vitess.io/vitess@v0.18.5')).toEqual([]);
    expect(ids('pkg:golang/github.com/pubnub/go/v7@v7.1.0')).toEqual(['GO-2023-2385']);
    expect(ids('pkg:golang/github.com/pubnub/go/v7@v7.2.0')).toEqual([]);
    // Malicious PyPI records list their versions: other versions of the name are not flagged; names are PEP 503.
    expect(ids('pkg:pypi/3web-py@1.0.0')).toEqual(['MAL-2024-9934']);
    expect(ids('pkg:pypi/3Web_Py@1.0.0')).toEqual(['MAL-2024-9934']);
    expect(ids('pkg:pypi/3web-py@1.0.1')).toEqual([]);
    expect(ids('pkg:pypi/a-oder@8.0.0')).toEqual(['MAL-2024-12186']);
    expect(index.affecting('pkg:maven/org.springframework.security.oauth/spring-security-oauth@2.0.16')[0]?.severity).toBe('low');
  });

  it('gate --advisories: a known malicious package blocks; a vulnerable one is an osv finding with the CVE alias', async () => {
    const events: StageEvent[] = [
      { stage: 'commit', runId: 'r', payload: { sha: DEMO_SHA, added: [{ name: '3web-py', version: '1.0.0', ecosystem: 'pypi' }] } },
      {
        stage: 'build',
        runId: 'r',
        payload: {
          buildId: 'b',
          commit: DEMO_SHA,
          packages: [
            { name: '3web-py', version: '1.0.0', purl: 'pkg:pypi/3web-py@1.0.0' },
            { name: 'spring-security-oauth', version: '2.0.16', purl: 'pkg:maven/org.springframework.security.oauth/spring-security-oauth@2.0.16' },
          ],
        },
      },
      { stage: 'scan', runId: 'r', payload: { tool: 'trivy', findings: [] } },
    ];
    const envs = events.map((e) => signEvent(e, DEMO_SIGNING_KEY));
    const { decision } = run(envs, demoTrust(), null, { advisories: index });
    expect(decision.reasons.map((r) => `${r.verdict} ${r.rule} ${r.finding ?? ''}`)).toEqual([
      expect.stringMatching(/^block malicious_dependency osv-malicious:MAL-2024-9934@dependency:/),
      'warn vulnerable_dependency CVE-2019-3778',
    ]);
    expect(decision.reasons[0]?.path).toEqual([`commit:${DEMO_SHA.slice(0, 12)}`, 'dependency:3web-py@1.0.0']);
    // The same through the command line, from a zip archive of the records.
    const members = ['ghsa', 'go-vulndb', 'malicious-packages'].flatMap((sub) => readdirSync(osvDir(sub)).map((f) => ({ name: `${sub}/${f}`, data: readFileSync(osvDir(sub, f)), deflate: true })));
    writeFileSync(path.join(dir, 'all.zip'), zip(members));
    expect(loadOsv(path.join(dir, 'all.zip')).size).toBe(7);
    expect(loadOsv(osvDir('malicious-packages')).size).toBe(2);
    saveEnvelopes(envs, path.join(dir, 'events.json'));
    const r = await main(['gate', path.join(dir, 'events.json'), '--demo', '--advisories', path.join(dir, 'all.zip')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('MAL-2024-9934');
    expect((await main(['gate', path.join(dir, 'events.json'), '--demo'])).code).toBe(0);
  });
});

describe('package types named after Object.prototype members', () => {
  it('compare versions by the generic scheme instead of throwing', () => {
    for (const type of ['constructor', 'toString', '__proto__']) expect(compareVersions(type, 'ECOSYSTEM', '1.0', '2.0'), type).toBe(-1);
  });
});
