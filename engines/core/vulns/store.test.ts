import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import BetterSqlite3 from 'better-sqlite3';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { buildZip } from '../archive/build.fixture.js';
import { detectKind } from './sources.js';
import { epssCsv, fresh, kevJson, NOW, osvRec } from './sources.fixture.js';
import { AdvisoryStore, createAdvisoryTables } from './store.js';

const dir = mkdtempSync(path.join(tmpdir(), 'vulns-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, data: string | Uint8Array): string => {
  const p = path.join(dir, name);
  writeFileSync(p, data);
  return p;
};


let store: AdvisoryStore;
let now = NOW;
beforeEach(() => {
  now = NOW;
  store = new AdvisoryStore(new BetterSqlite3(':memory:'), { now: () => now });
});

describe('kind detection', () => {
  it('by content', async () => {
    expect(await detectKind(file('a.bin', zipSync({ 'x.json': strToU8('{}') })))).toBe('osv-zip');
    expect(await detectKind(file('b.txt', epssCsv([['CVE-2020-0001', 0.1, 0.2]])))).toBe('epss-csv');
    expect(await detectKind(file('c.gz', gzipSync(epssCsv([['CVE-2020-0001', 0.1, 0.2]]))))).toBe('epss-csv');
    expect(await detectKind(file('d.json', kevJson(['CVE-2020-0001'])))).toBe('kev-json');
    expect(await detectKind(file('e.json', JSON.stringify({ format: 'NVD_CVE', vulnerabilities: [] })))).toBe('nvd-json');
    expect(await detectKind(file('f.json', JSON.stringify(osvRec('GHSA-aaaa-bbbb-cccc'))))).toBe('osv-json');
    expect(await detectKind(dir)).toBe('osv-dir');
    await expect(detectKind(file('g.txt', 'hello'))).rejects.toThrow(/not a recognised format/);
  });
});

describe.skipIf(!hasCorpora())('the real files', () => {
  it('imports the full CISA KEV JSON and CSV: 1404 entries, 293 with known ransomware use', async () => {
    const j = await store.importFile(corpusPath('supplychain', 'kev-epss', 'cisa-kev', 'known_exploited_vulnerabilities.json'));
    expect(j).toMatchObject({ kind: 'kev-json', records: 1404, inserted: 1404, warnings: 0 });
    expect(j.file_sha256).toMatch(/^[0-9a-f]{64}$/);
    const c = await store.importFile(corpusPath('supplychain', 'kev-epss', 'cisa-kev', 'known_exploited_vulnerabilities.csv'));
    expect(c).toMatchObject({ kind: 'kev-csv', records: 1404, warnings: 0 });
    expect(c.inserted + c.unchanged).toBe(1404);
    const kev = store.sources().sources.find((s) => s.source === 'kev');
    expect(kev).toMatchObject({ records: 1404 });
  });
  it('imports the OSV corpus folders and joins KEV and EPSS through the CVE alias', async () => {
    for (const d of ['ghsa', 'go-vulndb', 'malicious-packages']) {
      const r = await store.importFile(corpusPath('supplychain', 'osv', d));
      expect(r.kind).toBe('osv-dir');
      expect(r.warnings).toBe(0);
    }
    await store.importFile(corpusPath('supplychain', 'kev-epss', 'grype-epss-fixture.json'));
    await store.importFile(file('kev-go.json', kevJson(['CVE-2024-32886'])));
    await store.importFile(file('epss-go.csv', epssCsv([['CVE-2024-32886', 0.0123, 0.456]])));
    const r = store.lookup('Go', 'vitess.io/vitess', '0.18.4');
    expect(r.items.map((i) => i.id)).toEqual(['GO-2024-2826']);
    const a = r.items[0];
    expect(a?.kev).toMatchObject({ cve: 'CVE-2024-32886', date_added: '2025-08-01', ransomware_use: 'Known' });
    expect(a?.epss).toMatchObject({ score: 0.0123, percentile: 0.456, date: '2025-08-31', model_version: 'v2025.03.14' });
    expect(a?.fixed_versions).toEqual(['0.17.7', '0.18.5', '0.19.4']);
    // The newest Go record is from 2025-08-18: fresh on 2025-09-01; sixty days on, OSV for Go is stale and the answer says so.
    expect(r.status).toBe('ok');
    now = NOW + 60 * 86_400_000;
    const later = store.lookupUncached('Go', 'vitess.io/vitess', '0.18.4');
    expect(later.status).toBe('partial');
    expect(later.stale_sources).toEqual(expect.arrayContaining(['osv:Go', 'kev', 'epss']));
    const mal = store.lookup('PyPI', '3WEB.py', '1.0.0');
    expect(mal.items[0]).toMatchObject({ id: 'MAL-2024-9934', malicious: true, severity: 'critical', severity_source: 'malicious' });
    expect(store.get('CVE-2019-3778')?.id).toBe('GHSA-77rv-6vfw-x4gc');
    expect(store.get('GHSA-77rv-6vfw-x4gc')).toMatchObject({ severity: 'critical', score: 9, severity_source: 'cvss_v3' });
  });
});

describe('zip bombs', () => {
  it('refuses an all.zip whose directory records point at one member, and stores nothing from it', async () => {
    const record = JSON.stringify(osvRec('GHSA-aaaa-bbbb-cccc'));
    const bomb = buildZip([{ name: 'GHSA-aaaa-bbbb-cccc.json', data: record, deflate: true }], (records) => {
      const r0 = records[0];
      if (r0 === undefined) throw new Error('missing');
      return Array.from({ length: 512 }, (_, i) => ({ name: `R-${i}.json`, localOffset: r0.localOffset, index: 0 }));
    });
    await expect(store.importFile(file('bomb-all.zip', bomb))).rejects.toMatchObject({ code: 'parse_error' });
    expect(store.lookup('PyPI', 'demo-pkg', '1.0').items).toEqual([]);
  });
});

describe('store semantics', () => {
  const setup = async (): Promise<void> => {
    await store.importFile(file('one.json', JSON.stringify(osvRec('GHSA-1111-2222-3333', { aliases: ['CVE-2025-1000'], severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' }] }))));
    await store.importFile(file('kev.json', kevJson(['CVE-2025-1000'])));
    await store.importFile(file('epss.csv.gz', gzipSync(epssCsv([['CVE-2025-1000', 0.97, 0.999]]))));
  };

  it('unavailable before any OSV data for the ecosystem; ok when all sources are fresh', async () => {
    expect(store.lookup('PyPI', 'demo-pkg', '1.0')).toMatchObject({ status: 'unavailable', items: [] });
    await setup();
    const r = store.lookup('PyPI', 'demo.pkg', '1.0');
    expect(r).toMatchObject({ status: 'ok', missing_sources: [], stale_sources: [] });
    expect(r.items[0]).toMatchObject({ id: 'GHSA-1111-2222-3333', severity: 'critical', score: 9.8, kev: { cve: 'CVE-2025-1000' }, epss: { score: 0.97 } });
    expect(store.lookup('PyPI', 'demo-pkg', '2.0')).toMatchObject({ status: 'ok', items: [] });
    expect(store.lookup('npm', 'demo-pkg', '1.0.0').status).toBe('unavailable');
  });

  it('partial when KEV or EPSS is missing, or stale', async () => {
    await store.importFile(file('one.json', JSON.stringify(osvRec('GHSA-1111-2222-3333'))));
    expect(store.lookup('PyPI', 'demo-pkg', '1.0')).toMatchObject({ status: 'partial', missing_sources: ['kev', 'epss'] });
    await store.importFile(file('kev.json', kevJson(['CVE-2025-1000'])));
    await store.importFile(file('epss.csv', epssCsv([['CVE-2025-1000', 0.5, 0.5]])));
    expect(store.lookup('PyPI', 'demo-pkg', '1.0').status).toBe('ok');
    now = NOW + 10 * 86_400_000;
    const r = store.lookupUncached('PyPI', 'demo-pkg', '1.0');
    expect(r.status).toBe('partial');
    expect(r.stale_sources).toEqual(['kev', 'epss']);
  });

  it('idempotent: re-importing replaces by id and modified, never with an older copy', async () => {
    const p = file('rec.json', JSON.stringify(osvRec('PYSEC-2025-1')));
    expect(await store.importFile(p)).toMatchObject({ inserted: 1 });
    expect(await store.importFile(p)).toMatchObject({ inserted: 0, updated: 0, unchanged: 1 });
    await store.importFile(file('newer.json', JSON.stringify(osvRec('PYSEC-2025-1', { modified: '2025-08-31T00:00:00Z', summary: 'newer' }))));
    await store.importFile(file('older.json', JSON.stringify(osvRec('PYSEC-2025-1', { modified: '2020-01-01T00:00:00Z', summary: 'older' }))));
    expect(store.get('PYSEC-2025-1')?.summary).toBe('newer');
  });

  it('aliases join GHSA, PYSEC and CVE: one item, aliases merged; the lookup cache is invalidated by an import', async () => {
    await setup();
    const first = store.lookup('PyPI', 'demo-pkg', '1.0');
    expect(store.lookup('PyPI', 'demo-pkg', '1.0')).toBe(first);
    await store.importFile(file('pysec.json', JSON.stringify(osvRec('PYSEC-2025-7', { aliases: ['CVE-2025-1000', 'GHSA-1111-2222-3333'] }))));
    const r = store.lookup('PyPI', 'demo-pkg', '1.0');
    expect(r).not.toBe(first);
    expect(r.items).toHaveLength(1);
    expect(r.items[0]?.id).toBe('GHSA-1111-2222-3333');
    expect(r.items[0]?.aliases).toEqual(['CVE-2025-1000', 'PYSEC-2025-7']);
    expect(store.get('PYSEC-2025-7')?.aliases).toContain('GHSA-1111-2222-3333');
  });

  it('reads an all.zip entry by entry; bad entries are counted warnings and the good ones import', async () => {
    const entries: Record<string, Uint8Array> = {};
    for (let i = 0; i < 50; i++) entries[`GHSA-0000-0000-${String(i).padStart(4, '0')}.json`] = strToU8(JSON.stringify(osvRec(`GHSA-0000-0000-${String(i).padStart(4, '0')}`)));
    entries['broken.json'] = strToU8('{"id": "GHSA-trunc');
    entries['noid.json'] = strToU8(JSON.stringify({ modified: fresh }));
    entries['README.txt'] = strToU8('not a record');
    const progress: number[] = [];
    const r = await store.importFile(file('all.zip', zipSync(entries)), undefined, (f) => progress.push(f));
    expect(r).toMatchObject({ kind: 'osv-zip', records: 50, inserted: 50, warnings: 2 });
    expect(r.warning_samples.join('\n')).toMatch(/broken\.json: not valid JSON/);
    expect(progress.at(-1)).toBe(1);
    expect(store.sources().sources.find((s) => s.source === 'osv:PyPI')?.records).toBe(50);
  });

  it('an all.zip member whose bytes fail their CRC-32 is a warning, not a record (imported before)', async () => {
    const good = strToU8(JSON.stringify(osvRec('GHSA-cccc-0000-0001')));
    const damaged = strToU8(JSON.stringify(osvRec('GHSA-cccc-0000-0002')));
    const zip = zipSync({ 'GHSA-cccc-0000-0001.json': [good, { level: 0 }], 'GHSA-cccc-0000-0002.json': [damaged, { level: 0 }] });
    // One letter of the stored summary changes: the JSON still parses, only the CRC tells.
    const at = Buffer.from(zip).indexOf('summary of GHSA-cccc-0000-0002');
    expect(at).toBeGreaterThan(0);
    zip[at] = 'S'.charCodeAt(0);
    const r = await store.importFile(file('crc-all.zip', zip));
    expect(r).toMatchObject({ kind: 'osv-zip', records: 1, warnings: 1 });
    expect(r.warning_samples.join('\n')).toMatch(/GHSA-cccc-0000-0002\.json: entry cannot be read/);
    expect(store.get('GHSA-cccc-0000-0002')).toBeNull();
  });

  it.skipIf(!hasCorpora())('reads the corpus OSV records from a zip64 all.zip, and a cut copy fails before storing anything', async () => {
    const names = ['ghsa', 'go-vulndb', 'malicious-packages'].flatMap((sub) => readdirSync(corpusPath('supplychain', 'osv', sub)).map((f) => [sub, f] as const));
    const zip = buildZip(names.map(([sub, f]) => ({ name: `${sub}/${f}`, data: readFileSync(corpusPath('supplychain', 'osv', sub, f)), deflate: true })), undefined, { zip64: true });
    const whole = await store.importFile(file('z64-all.zip', zip));
    expect(whole).toMatchObject({ kind: 'osv-zip', records: names.length, warnings: 0 });
    const fresh2 = new AdvisoryStore(new BetterSqlite3(':memory:'), { now: () => now });
    for (const cut of [10, Math.floor(zip.length / 2), zip.length - 60, zip.length - 1]) {
      await expect(fresh2.importFile(file(`z64-cut-${cut}.zip`, zip.subarray(0, cut)), 'osv-zip')).rejects.toMatchObject({ code: 'parse_error' });
    }
    expect(fresh2.sources().sources.filter((s) => s.records > 0)).toEqual([]);
  });

  it('a truncated zip, gzip or JSON fails clearly and records the failed import', async () => {
    const zip = zipSync({ 'a.json': strToU8(JSON.stringify(osvRec('GHSA-aaaa-aaaa-aaaa'))) });
    await expect(store.importFile(file('trunc.zip', zip.subarray(0, zip.length - 30)), 'osv-zip')).rejects.toThrow(/zip/);
    const gz = gzipSync(epssCsv(Array.from({ length: 2000 }, (_, i) => [`CVE-2020-${1000 + i}`, 0.1, 0.2] as [string, number, number])));
    await expect(store.importFile(file('trunc.csv.gz', gz.subarray(0, Math.floor(gz.length / 2))), 'epss-csv')).rejects.toThrow(/EPSS/);
    await expect(store.importFile(file('trunc.json', kevJson(['CVE-2020-0001']).slice(0, 40)), 'kev-json')).rejects.toThrow(/not valid JSON/);
    expect(store.sources().imports.some((i) => i.finished_at !== null)).toBe(true);
  });

  it('malformed KEV, EPSS and NVD rows are warnings; NVD gives CVSS where OSV has none', async () => {
    const kev = JSON.stringify({ dateReleased: '2025-08-30T00:00:00Z', catalogVersion: 'x', vulnerabilities: [{ cveID: 'nope', dateAdded: '2025-01-01' }, { cveID: 'CVE-2025-2000', dateAdded: '2025-01-02', knownRansomwareCampaignUse: 'Unknown' }] });
    expect(await store.importFile(file('kev-bad.json', kev))).toMatchObject({ records: 1, warnings: 1 });
    const epss = epssCsv([['CVE-2025-2000', 0.3, 0.4], ['CVE-BAD', 0.1, 0.1], ['CVE-2025-2001', 7, 0.1]]);
    expect(await store.importFile(file('epss-bad.csv', epss))).toMatchObject({ records: 1, warnings: 2 });
    const nvd = {
      format: 'NVD_CVE',
      version: '2.0',
      timestamp: '2025-08-31T00:00:00.000',
      vulnerabilities: [
        { cve: { id: 'CVE-2025-2000', lastModified: '2025-08-01T00:00:00.000', metrics: { cvssMetricV31: [{ source: 'nvd@nist.gov', type: 'Primary', cvssData: { version: '3.1', vectorString: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:L/I:L/A:N', baseScore: 5.4, baseSeverity: 'MEDIUM' } }] } } },
        { nope: true },
      ],
    };
    expect(await store.importFile(file('nvd.json', JSON.stringify(nvd)))).toMatchObject({ kind: 'nvd-json', records: 1, warnings: 1 });
    await store.importFile(file('osv-nosev.json', JSON.stringify(osvRec('GHSA-9999-9999-9999', { aliases: ['CVE-2025-2000'] }))));
    expect(store.get('GHSA-9999-9999-9999')).toMatchObject({ severity: 'medium', score: 5.4, severity_source: 'nvd', kev: { ransomware_use: 'Unknown' }, epss: { score: 0.3 } });
  });

  it('withdrawn records are stored but never match; GET by an unknown id is null', async () => {
    await store.importFile(file('w.json', JSON.stringify(osvRec('GHSA-wwww-wwww-wwww', { withdrawn: '2025-08-01T00:00:00Z' }))));
    expect(store.lookup('PyPI', 'demo-pkg', '1.0').items).toEqual([]);
    expect(store.get('GHSA-none')).toBeNull();
  });

  it('a folder of records, nested, with a bad file', async () => {
    const d = path.join(dir, 'tree');
    mkdirSync(path.join(d, 'pypi', 'x'), { recursive: true });
    writeFileSync(path.join(d, 'pypi', 'x', 'A.json'), JSON.stringify(osvRec('PYSEC-1')));
    writeFileSync(path.join(d, 'pypi', 'B.json'), '[not json');
    if (hasCorpora()) cpSync(corpusPath('supplychain', 'osv', 'go-vulndb', 'GO-2022-0969.json'), path.join(d, 'GO-2022-0969.json'));
    const r = await store.importFile(d);
    expect(r.warnings).toBe(1);
    expect(r.records).toBe(hasCorpora() ? 2 : 1);
    expect(readFileSync(path.join(d, 'pypi', 'B.json'), 'utf8')).toBe('[not json');
  });

  it('createAdvisoryTables is idempotent', () => {
    const db = new BetterSqlite3(':memory:');
    createAdvisoryTables(db);
    createAdvisoryTables(db);
    expect((db.prepare("SELECT value FROM vuln_meta WHERE key = 'generation'").get() as { value: number }).value).toBe(0);
  });
});

describe('bounded, streamed and recoverable imports', () => {
  it('reads an OSV array as a stream: every record, a bad one a warning', async () => {
    const list = [...Array.from({ length: 300 }, (_, i) => osvRec(`GHSA-aaaa-bbbb-${String(i).padStart(4, '0')}`)), { id: 42 }];
    const r = await store.importFile(file('array.json.gz', gzipSync(JSON.stringify(list))));
    expect(r).toMatchObject({ kind: 'osv-json', status: 'done', records: 300, warnings: 1 });
  });

  it('refuses a gzip that expands past the ratio bound, counting as it decodes (170 MB of OSV array from a small file)', async () => {
    // one huge string element: the scanner walks its bytes without keeping them, and the bound stops the stream
    const chunk = gzipSync(Buffer.alloc(1_700_000, 0x61));
    const bomb = Buffer.concat([gzipSync(Buffer.from('["')), ...Array<Buffer>(100).fill(chunk), gzipSync(Buffer.from('"]'))]);
    await expect(store.importFile(file('bomb.json.gz', bomb), 'osv-json')).rejects.toThrow(/expands past/);
    expect(JSON.stringify(store.sources().imports)).toMatch(/failed/);
  });

  it('bounds the EPSS .csv.gz stream too', async () => {
    // 70 MB of comment lines behind a header: past the 64 MiB floor of a small gzip's bound, with no row to store
    const big = gzipSync(Buffer.from(`cve,epss,percentile\n${`#${'a'.repeat(999)}\n`.repeat(70_000)}`));
    await expect(store.importFile(file('epss-bomb.csv.gz', big), 'epss-csv')).rejects.toThrow(/expands past/);
  });

  it('reads an NVD feed as a stream, with its timestamp', async () => {
    const nvd = { format: 'NVD_CVE', timestamp: '2025-08-31T00:00:00.000', vulnerabilities: [{ cve: { id: 'CVE-2025-1000', metrics: {} } }, { cve: { id: 'bad' } }] };
    const r = await store.importFile(file('nvd.json', JSON.stringify(nvd)));
    expect(r).toMatchObject({ kind: 'nvd-json', records: 1, warnings: 1, status: 'done' });
  });

  it('reads OSV records written as YAML in a folder (PyPA advisory-database layout), anchors resolved', async () => {
    const d = path.join(dir, 'pypa');
    mkdirSync(path.join(d, 'vulns', 'demo'), { recursive: true });
    writeFileSync(path.join(d, 'vulns', 'demo', 'PYSEC-2025-1.yaml'), `id: PYSEC-2025-1\nmodified: "${fresh}"\nsummary: demo\nx-range: &r\n  type: ECOSYSTEM\n  events:\n  - introduced: "0"\n  - fixed: "2.0"\naffected:\n- package:\n    ecosystem: PyPI\n    name: demo-pkg\n  ranges:\n  - *r\n`);
    const r = await store.importFile(d);
    expect(r).toMatchObject({ kind: 'osv-dir', records: 1, status: 'done' });
    expect(store.lookupUncached('PyPI', 'demo-pkg', '1.0').items.map((i) => i.id)).toEqual(['PYSEC-2025-1']);
  });

  it('an OSV YAML record with a key that is not a plain value is a warning; the folder\'s other records are stored', async () => {
    // 400 nested explicit keys (`? ? ? ...`) in 800 bytes: converting them to data did not finish.
    const d = path.join(dir, 'pypa-keys');
    mkdirSync(path.join(d, 'vulns', 'demo'), { recursive: true });
    writeFileSync(path.join(d, 'vulns', 'demo', 'PYSEC-2025-2.yaml'), `id: PYSEC-2025-2\nmodified: "${fresh}"\nsummary: demo\naffected:\n- package:\n    ecosystem: PyPI\n    name: keys-pkg\n  ranges:\n  - type: ECOSYSTEM\n    events:\n    - introduced: "0"\n    - fixed: "2.0"\n`);
    writeFileSync(path.join(d, 'vulns', 'demo', 'PYSEC-2025-3.yaml'), `id: PYSEC-2025-3\nx:\n  ${'? '.repeat(400)}k\n`);
    const r = await store.importFile(d);
    expect(r).toMatchObject({ kind: 'osv-dir', records: 1, warnings: 1, status: 'done' });
    expect(store.lookupUncached('PyPI', 'keys-pkg', '1.0').items.map((i) => i.id)).toEqual(['PYSEC-2025-2']);
  }, 20_000);

  it('fails an import that yields no record, instead of reporting done with 0 records', async () => {
    const d = path.join(dir, 'empty-folder');
    mkdirSync(d, { recursive: true });
    writeFileSync(path.join(d, 'README.md'), 'nothing here');
    await expect(store.importFile(d)).rejects.toThrow(/no advisory record/);
  });

  it('one freshly dated record does not make a stale source fresh', async () => {
    const old = '2025-01-01T00:00:00Z';
    await store.importFile(file('bulk.json', JSON.stringify(Array.from({ length: 10 }, (_, i) => osvRec(`GHSA-bulk-0000-000${i}`, { modified: old })))));
    expect(store.sources().sources.find((s) => s.source === 'osv:PyPI')?.data_date).toBe(old);
    await store.importFile(file('one-fresh.json', JSON.stringify(osvRec('GHSA-new0-0000-0000'))));
    expect(store.sources().sources.find((s) => s.source === 'osv:PyPI')?.data_date).toBe(old);
    // a full export again dates it
    await store.importFile(file('bulk2.json', JSON.stringify(Array.from({ length: 11 }, (_, i) => osvRec(`GHSA-bulk-0000-000${i}`)))));
    expect(store.sources().sources.find((s) => s.source === 'osv:PyPI')?.data_date).toBe(fresh);
  });

  it('marks an import left running by a dead process as failed, and leaves a live one alone', async () => {
    const db = new BetterSqlite3(':memory:');
    const s = new AdvisoryStore(db);
    const ins = db.prepare("INSERT INTO vuln_imports (id, kind, started_at, status, owner_pid) VALUES (?, 'osv-json', '2025-01-01T00:00:00Z', 'running', ?)");
    ins.run('dead', 2 ** 22 + 12345);
    ins.run('live', process.ppid);
    ins.run('legacy', null);
    expect(s.recoverInterrupted().sort()).toEqual(['dead', 'legacy']);
    expect(s.importRecord('dead')?.status).toBe('failed');
    expect(s.importRecord('live')?.status).toBe('running');
  });
});

describe('CVSS from NVD is recomputed from its vector or refused', () => {
  it('a stated baseScore of 99 with a garbage vector, or a 100 KB vector, is not stored; a good vector is recomputed', async () => {
    const metric = (vectorString: string, baseScore: number): Record<string, unknown> => ({ cvssMetricV31: [{ type: 'Primary', cvssData: { version: '3.1', vectorString, baseScore, baseSeverity: 'CRITICAL' } }] });
    const nvd = {
      format: 'NVD_CVE',
      timestamp: '2025-08-31T00:00:00.000',
      vulnerabilities: [
        { cve: { id: 'CVE-2025-3001', metrics: metric('garbage', 99) } },
        { cve: { id: 'CVE-2025-3002', metrics: metric(`CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H${'/X:X'.repeat(25_000)}`, 9.8) } },
        // the stated score lies: the vector computes 5.4
        { cve: { id: 'CVE-2025-3003', metrics: metric('CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:L/I:L/A:N', 10) } },
      ],
    };
    await store.importFile(file('nvd-lies.json', JSON.stringify(nvd)));
    const db = (store as unknown as { db: BetterSqlite3.Database }).db;
    const rows = db.prepare('SELECT cve, vector, score, severity FROM vuln_nvd ORDER BY cve').all() as { cve: string; vector: string | null; score: number | null; severity: string | null }[];
    expect(rows.map((r) => [r.cve, r.score, r.severity, (r.vector ?? '').length <= 256])).toEqual([
      ['CVE-2025-3001', null, null, true],
      ['CVE-2025-3002', null, null, true],
      ['CVE-2025-3003', 5.4, 'medium', true],
    ]);
  });
});
