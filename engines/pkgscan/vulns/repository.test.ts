// pkgscan's advisory repository on both backends (one parameterised suite): the store's semantics (status, staleness,
// idempotent imports, aliases, NVD severity, withdrawn records, the KEV-at-least-high list filter) answer alike on
// SQLite and PostgreSQL; on PostgreSQL the corpus answers exactly as on SQLite, two servers share imports, freshness,
// the lookup cache's invalidation and scans' advisory links, and the import job writes through its own pool.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { backendCases, backendFixture, type OpenedBackend } from '../../../test/postgres/backends.js';
import type { AuditEntry, PageOf, ScanVerdict } from '../../core/contracts/pkgscan.js';
import type { Advisory, AdvisoryImport, AdvisorySources, LookupResult, VulnerabilityPage } from '../../core/contracts/pkgscan-vulns.js';
import type { JobContext } from '../../core/jobs/protocol.js';
import { epssCsv, fresh, kevJson, NOW, osvRec } from '../../core/vulns/sources.fixture.js';
import { AdvisoryStore } from '../../core/vulns/store.js';
import type { AsyncDb } from '../db/types.js';
import { assessRelease, listVulnerabilities, recordScanAdvisories } from './advisories.js';
import { storeArchive } from '../sources/store.js';
import { call, createUser, loginAs, startServer } from '../server.fixture.js';
import { advisoriesCommand } from './cli.js';
import { advisoryImportJob, advisoryUploadPath } from './jobs.js';
import { PgAdvisories, SqliteAdvisories, type AdvisoryRepository } from './repository.js';

const fixture = backendFixture();
const dir = mkdtempSync(path.join(tmpdir(), 'vulns-repo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const file = (name: string, data: string | Uint8Array): string => {
  n++;
  const p = path.join(dir, `${n}-${name}`);
  writeFileSync(p, data);
  return p;
};

const CRITICAL = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H';
const LOW = 'CVSS:3.1/AV:L/AC:H/PR:H/UI:R/S:U/C:L/I:N/A:N';

interface Opened {
  readonly b: OpenedBackend;
  readonly repo: AdvisoryRepository;
  /** The clock the repository measures staleness against. */
  readonly clock: { now: number };
}

function repositoryOn(b: OpenedBackend, store: AsyncDb, clock: { now: number }): AdvisoryRepository {
  return store.dialect === 'postgres' ? new PgAdvisories(store, { now: () => clock.now }) : new SqliteAdvisories(new AdvisoryStore(b.sqlite, { now: () => clock.now }), b.sqlite);
}

for (const backend of backendCases) {
  describe.skipIf(backend.skip)(`advisory repository on ${backend.title}`, () => {
    async function open(): Promise<Opened> {
      const b = await fixture.open(backend.name);
      const clock = { now: NOW };
      return { b, repo: repositoryOn(b, b.store, clock), clock };
    }
    const setup = async (repo: AdvisoryRepository): Promise<void> => {
      await repo.importFile(file('one.json', JSON.stringify(osvRec('GHSA-1111-2222-3333', { aliases: ['CVE-2025-1000'], severity: [{ type: 'CVSS_V3', score: CRITICAL }] }))));
      await repo.importFile(file('kev.json', kevJson(['CVE-2025-1000'])));
      await repo.importFile(file('epss.csv.gz', gzipSync(epssCsv([['CVE-2025-1000', 0.97, 0.999]]))));
    };

    it('unavailable before any OSV data; ok when every source is fresh; partial when KEV or EPSS is missing or stale', async () => {
      const { repo, clock } = await open();
      expect(await repo.lookup('PyPI', 'demo-pkg', '1.0')).toMatchObject({ status: 'unavailable', items: [] });
      await repo.importFile(file('one.json', JSON.stringify(osvRec('GHSA-1111-2222-3333', { aliases: ['CVE-2025-1000'], severity: [{ type: 'CVSS_V3', score: CRITICAL }] }))));
      expect(await repo.lookup('PyPI', 'demo-pkg', '1.0')).toMatchObject({ status: 'partial', missing_sources: ['kev', 'epss'] });
      await setup(repo);
      const r = await repo.lookup('PyPI', 'demo.pkg', '1.0');
      expect(r).toMatchObject({ status: 'ok', missing_sources: [], stale_sources: [] });
      expect(r.items[0]).toMatchObject({ id: 'GHSA-1111-2222-3333', severity: 'critical', score: 9.8, kev: { cve: 'CVE-2025-1000', ransomware_use: 'Known' }, epss: { score: 0.97, percentile: 0.999 } });
      expect(await repo.lookup('PyPI', 'demo-pkg', '2.0')).toMatchObject({ status: 'ok', items: [] });
      expect((await repo.lookup('npm', 'demo-pkg', '1.0.0')).status).toBe('unavailable');
      clock.now = NOW + 10 * 86_400_000;
      // A different version: not the cached answer.
      const later = await repo.lookup('PyPI', 'demo-pkg', '1.1');
      expect(later.status).toBe('partial');
      expect(later.stale_sources).toEqual(['kev', 'epss']);
      const sources = await repo.sources();
      expect(sources.sources.map((s) => [s.source, s.records, s.stale])).toEqual([
        ['epss', 1, true],
        ['kev', 1, true],
        ['osv:PyPI', 1, false],
      ]);
      expect(sources.imports).toHaveLength(4);
      expect(sources.imports.every((i) => i.status === 'done')).toBe(true);
    });

    it('idempotent imports: a copy replaces by id and modified, never an older one; counts say what happened', async () => {
      const { repo } = await open();
      const p = file('rec.json', JSON.stringify(osvRec('PYSEC-2025-1')));
      expect(await repo.importFile(p)).toMatchObject({ status: 'done', records: 1, inserted: 1 });
      expect(await repo.importFile(p)).toMatchObject({ inserted: 0, updated: 0, unchanged: 1 });
      expect(await repo.importFile(file('newer.json', JSON.stringify(osvRec('PYSEC-2025-1', { modified: '2025-08-31T00:00:00Z', summary: 'newer' }))))).toMatchObject({ updated: 1 });
      expect(await repo.importFile(file('older.json', JSON.stringify(osvRec('PYSEC-2025-1', { modified: '2020-01-01T00:00:00Z', summary: 'older' }))))).toMatchObject({ unchanged: 1 });
      expect((await repo.get('PYSEC-2025-1'))?.summary).toBe('newer');
      const kev = file('kev.json', kevJson(['CVE-2025-1000']));
      expect(await repo.importFile(kev)).toMatchObject({ inserted: 1 });
      expect(await repo.importFile(kev)).toMatchObject({ inserted: 0, unchanged: 1 });
    });

    it('aliases join GHSA, PYSEC and CVE into one item; a CVE id finds the GHSA; the cache is emptied by an import', async () => {
      const { repo } = await open();
      await setup(repo);
      const first = await repo.lookup('PyPI', 'demo-pkg', '1.0');
      expect(await repo.lookup('PyPI', 'demo-pkg', '1.0')).toBe(first);
      await repo.importFile(file('pysec.json', JSON.stringify(osvRec('PYSEC-2025-7', { aliases: ['CVE-2025-1000', 'GHSA-1111-2222-3333'] }))));
      const r = await repo.lookup('PyPI', 'demo-pkg', '1.0');
      expect(r).not.toBe(first);
      expect(r.items.map((i) => [i.id, i.aliases])).toEqual([['GHSA-1111-2222-3333', ['CVE-2025-1000', 'PYSEC-2025-7']]]);
      expect((await repo.get('PYSEC-2025-7'))?.aliases).toContain('GHSA-1111-2222-3333');
      expect((await repo.get('CVE-2025-1000'))?.id).toBe('GHSA-1111-2222-3333');
      expect(await repo.get('GHSA-none')).toBeNull();
    });

    it('malformed KEV, EPSS and NVD rows are warnings; NVD gives the severity where OSV has none; withdrawn records never match', async () => {
      const { repo } = await open();
      const kev = JSON.stringify({ dateReleased: '2025-08-30T00:00:00Z', catalogVersion: 'x', vulnerabilities: [{ cveID: 'nope', dateAdded: '2025-01-01' }, { cveID: 'CVE-2025-2000', dateAdded: '2025-01-02', knownRansomwareCampaignUse: 'Unknown' }] });
      expect(await repo.importFile(file('kev-bad.json', kev))).toMatchObject({ records: 1, warnings: 1 });
      expect(await repo.importFile(file('epss-bad.csv', epssCsv([['CVE-2025-2000', 0.3, 0.4], ['CVE-BAD', 0.1, 0.1], ['CVE-2025-2001', 7, 0.1]])))).toMatchObject({ records: 1, warnings: 2 });
      const nvd = {
        format: 'NVD_CVE',
        version: '2.0',
        timestamp: '2025-08-31T00:00:00.000',
        vulnerabilities: [{ cve: { id: 'CVE-2025-2000', lastModified: '2025-08-01T00:00:00.000', metrics: { cvssMetricV31: [{ source: 'nvd@nist.gov', type: 'Primary', cvssData: { version: '3.1', vectorString: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:U/C:L/I:L/A:N', baseScore: 5.4, baseSeverity: 'MEDIUM' } }] } } }, { nope: true }],
      };
      expect(await repo.importFile(file('nvd.json', JSON.stringify(nvd)))).toMatchObject({ kind: 'nvd-json', records: 1, warnings: 1 });
      await repo.importFile(file('osv-nosev.json', JSON.stringify(osvRec('GHSA-9999-9999-9999', { aliases: ['CVE-2025-2000'] }))));
      expect(await repo.get('GHSA-9999-9999-9999')).toMatchObject({ severity: 'medium', score: 5.4, severity_source: 'nvd', kev: { ransomware_use: 'Unknown' }, epss: { score: 0.3 } });
      await repo.importFile(file('w.json', JSON.stringify(osvRec('GHSA-wwww-wwww-wwww', { withdrawn: '2025-08-01T00:00:00Z' }))));
      expect((await repo.lookup('PyPI', 'demo-pkg', '1.0')).items.map((i) => i.id)).toEqual(['GHSA-9999-9999-9999']);
      await expect(repo.importFile(file('empty.json', '[]'))).rejects.toThrow(/no advisory record/);
      // Every import here starts at the same (test) time: they are told apart by status, not order.
      expect((await repo.sources()).imports.map((i) => [i.kind, i.status]).filter(([, st]) => st === 'failed')).toEqual([['osv-json', 'failed']]);
    });

    it('one freshly dated record does not make a stale source fresh; a full export does', async () => {
      const { repo } = await open();
      const old = '2025-01-01T00:00:00Z';
      const dated = async (): Promise<string | undefined> => (await repo.sources()).sources.find((s) => s.source === 'osv:PyPI')?.data_date;
      await repo.importFile(file('bulk.json', JSON.stringify(Array.from({ length: 10 }, (_, i) => osvRec(`GHSA-bulk-0000-000${i}`, { modified: old })))));
      expect(await dated()).toBe(old);
      await repo.importFile(file('one-fresh.json', JSON.stringify(osvRec('GHSA-new0-0000-0000'))));
      expect(await dated()).toBe(old);
      await repo.importFile(file('bulk2.json', JSON.stringify(Array.from({ length: 11 }, (_, i) => osvRec(`GHSA-bulk-0000-000${i}`)))));
      expect(await dated()).toBe(fresh);
    });

    it('version ranges: SEMVER with last_affected, explicit versions, malicious records critical, an uncomparable version partial', async () => {
      const { repo } = await open();
      const npm = (id: string, extra: Record<string, unknown>): Record<string, unknown> => osvRec(id, { affected: [{ package: { ecosystem: 'npm', name: 'left-pad' }, ...extra }] });
      await repo.importFile(
        file(
          'npm.json',
          JSON.stringify([
            npm('GHSA-aaaa-aaaa-aaaa', { ranges: [{ type: 'SEMVER', events: [{ introduced: '1.0.0' }, { last_affected: '1.2.0' }] }] }),
            npm('GHSA-bbbb-bbbb-bbbb', { versions: ['2.0.0'] }),
            { ...npm('MAL-2025-1', { ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }] }] }), summary: 'Malicious code in left-pad (npm)' },
          ]),
        ),
      );
      await repo.importFile(file('kev.json', kevJson(['CVE-2099-0001'])));
      await repo.importFile(file('epss.csv', epssCsv([['CVE-2099-0001', 0.1, 0.1]])));
      const ids = async (v: string): Promise<string[]> => (await repo.lookup('npm', 'left-pad', v)).items.map((i) => i.id).sort();
      expect(await ids('1.2.0')).toEqual(['GHSA-aaaa-aaaa-aaaa', 'MAL-2025-1']);
      expect(await ids('1.2.1')).toEqual(['MAL-2025-1']);
      expect(await ids('2.0.0')).toEqual(['GHSA-bbbb-bbbb-bbbb', 'MAL-2025-1']);
      expect(await repo.get('MAL-2025-1')).toMatchObject({ malicious: true, severity: 'critical', severity_source: 'malicious' });
      const odd = await repo.lookup('npm', 'left-pad', 'not a version');
      expect(odd.status).toBe('partial');
      expect(odd.notes.join(' ')).toMatch(/could not be compared/);
    });

    it('the list of scans\' advisories: a known-exploited advisory counts as at least high; kev, min_severity and ecosystem filter; paged', async () => {
      const { b, repo } = await open();
      const platform = { db: b.sqlite, store: b.store };
      const rec = (id: string, cve: string, vector: string): Record<string, unknown> => ({ ...osvRec(id, { aliases: [cve], severity: [{ type: 'CVSS_V3', score: vector }] }), affected: [{ package: { ecosystem: 'npm', name: 'demo-lib' }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '1.2.3' }] }] }] });
      // Through the platform's repository (what scans use), so the list reads the same store.
      const { advisoriesOf } = await import('./advisories.js');
      const shared = advisoriesOf(platform);
      expect(shared.dialect).toBe(repo.dialect);
      await shared.importFile(file('two.json', JSON.stringify([rec('GHSA-lowl-oooo-wwww', 'CVE-2025-7777', LOW), rec('GHSA-crit-iiii-cccc', 'CVE-2025-8888', CRITICAL)])));
      await shared.importFile(file('kev.json', kevJson(['CVE-2025-7777'])));
      const a = await assessRelease(platform, 'npm', 'demo-lib', '1.0.0');
      expect(a.items.map((i) => [i.id, i.severity, i.kev])).toEqual([
        ['GHSA-crit-iiii-cccc', 'critical', false],
        ['GHSA-lowl-oooo-wwww', 'low', true],
      ]);
      await b.store.transaction((q) => recordScanAdvisories(q, 'scan-1', 'npm', 'demo-lib', '1.0.0', a.items.map((i) => i.id)));
      await b.store.transaction((q) => recordScanAdvisories(q, 'scan-2', 'npm', 'demo-lib', '1.0.0', ['GHSA-lowl-oooo-wwww', 'GHSA-lowl-oooo-wwww']));
      const page = await listVulnerabilities(platform, {}, 10, 0);
      expect(page.total).toBe(2);
      expect(page.items.map((i) => [i.id, i.severity, i.kev, i.packages])).toEqual([
        ['GHSA-crit-iiii-cccc', 'critical', false, [{ ecosystem: 'npm', name: 'demo-lib', version: '1.0.0', scans: 1 }]],
        ['GHSA-lowl-oooo-wwww', 'high', true, [{ ecosystem: 'npm', name: 'demo-lib', version: '1.0.0', scans: 2 }]],
      ]);
      expect((await listVulnerabilities(platform, { minSeverity: 'high' }, 10, 0)).total).toBe(2);
      expect((await listVulnerabilities(platform, { minSeverity: 'critical' }, 10, 0)).items.map((i) => i.id)).toEqual(['GHSA-crit-iiii-cccc']);
      expect((await listVulnerabilities(platform, { kev: true }, 10, 0)).items.map((i) => i.id)).toEqual(['GHSA-lowl-oooo-wwww']);
      expect((await listVulnerabilities(platform, { ecosystem: 'PyPI' }, 10, 0)).total).toBe(0);
      const second = await listVulnerabilities(platform, {}, 1, 1);
      expect([second.total, second.items.map((i) => i.id)]).toEqual([2, ['GHSA-lowl-oooo-wwww']]);
    });

    it('an import left running is failed by recovery or by failUnfinished; an import that never began is recorded as failed', async () => {
      const { b, repo, clock } = await open();
      const at = new Date(NOW - 3 * 60 * 60_000).toISOString();
      await b.store.run("INSERT INTO vuln_imports (id, kind, started_at, status) VALUES ('11111111-1111-4111-8111-111111111111', 'osv-json', ?, 'running')", [at]);
      expect(await repo.runningImports()).toEqual(['11111111-1111-4111-8111-111111111111']);
      expect(await repo.recoverInterrupted()).toEqual(['11111111-1111-4111-8111-111111111111']);
      expect(await repo.importRecord('11111111-1111-4111-8111-111111111111')).toMatchObject({ status: 'failed', warning_samples: [expect.stringMatching(/interrupted/) as unknown as string] });
      clock.now = NOW;
      await repo.failUnfinished('22222222-2222-4222-8222-222222222222', 'kev-json');
      expect(await repo.importRecord('22222222-2222-4222-8222-222222222222')).toMatchObject({ kind: 'kev-json', status: 'failed' });
      expect(await repo.runningImports()).toEqual([]);
    });
  });
}

const postgres = backendCases.find((c) => c.name === 'postgres');

describe.skipIf(postgres?.skip !== false)(`advisories shared by servers on ${postgres?.title ?? 'postgres'}`, () => {
  it('two servers: an import through A is seen by B at once (records, sources, freshness), B\'s cached answer is dropped, and scan links made on A are listed by B', async () => {
    const b = await fixture.open('postgres');
    const clock = { now: Date.now() };
    const other = b.another();
    const a = new PgAdvisories(b.store, { now: () => clock.now });
    const bRepo = new PgAdvisories(other, { now: () => clock.now });
    const recent = new Date(clock.now - 86_400_000).toISOString();
    const rec = (id: string): Record<string, unknown> => ({ ...osvRec(id, { modified: recent, aliases: ['CVE-2025-4242'], severity: [{ type: 'CVSS_V3', score: LOW }] }), affected: [{ package: { ecosystem: 'npm', name: 'demo-lib' }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '1.2.3' }] }] }] });
    expect((await bRepo.lookup('npm', 'demo-lib', '1.0.0')).status).toBe('unavailable');
    await a.importFile(file('a.json', JSON.stringify(rec('GHSA-abcd-efgh-ijkl'))));
    const seen = await bRepo.lookup('npm', 'demo-lib', '1.0.0');
    expect(seen).toMatchObject({ status: 'partial', missing_sources: ['kev', 'epss'] });
    expect(seen.items.map((i) => [i.id, i.severity, i.kev])).toEqual([['GHSA-abcd-efgh-ijkl', 'low', null]]);
    // A's KEV and EPSS imports make B's cached partial answer stale: B answers ok with the KEV entry at once.
    await a.importFile(file('kev.json', JSON.stringify({ catalogVersion: '1', dateReleased: recent, vulnerabilities: [{ cveID: 'CVE-2025-4242', dateAdded: recent.slice(0, 10), vendorProject: 'v', product: 'p', vulnerabilityName: 'n' }] })));
    await a.importFile(file('epss.csv', `cve,epss,percentile\nCVE-2025-4242,0.42,0.9\n`));
    const now = await bRepo.lookup('npm', 'demo-lib', '1.0.0');
    expect(now.status).toBe('ok');
    expect(now.items[0]).toMatchObject({ kev: { cve: 'CVE-2025-4242' }, epss: { score: 0.42 } });
    expect((await bRepo.sources()).sources.map((s) => [s.source, s.stale])).toEqual([
      ['epss', false],
      ['kev', false],
      ['osv:npm', false],
    ]);
    // A scan on server A links the advisory (in its transaction); server B lists it, counted at least high (KEV).
    const verdict = await assessRelease({ db: b.sqlite, store: b.store }, 'npm', 'demo-lib', '1.0.0');
    await b.store.transaction((q) => recordScanAdvisories(q, 'scan-on-a', 'npm', 'demo-lib', '1.0.0', verdict.items.map((i) => i.id)));
    const listed = await listVulnerabilities({ db: b.sqlite, store: other }, { minSeverity: 'high' }, 10, 0);
    expect(listed.items.map((i) => [i.id, i.severity, i.kev, i.packages.map((p) => p.scans)])).toEqual([['GHSA-abcd-efgh-ijkl', 'high', true, [1]]]);
    // Nothing of it is in the server's SQLite store.
    expect((b.sqlite.prepare('SELECT COUNT(*) AS n FROM vuln_advisories').get() as { n: number }).n).toBe(0);
    expect((b.sqlite.prepare('SELECT COUNT(*) AS n FROM pkgscan_scan_advisories').get() as { n: number }).n).toBe(0);
  });

  it.skipIf(!hasCorpora())('over HTTP: an upload through server A is looked up, scanned against and listed through server B; its import record and audit entry are shared', async () => {
    const b = await fixture.open('postgres');
    const one = await startServer({ databaseUrl: b.url });
    const two = await startServer({ databaseUrl: b.url });
    try {
      await createUser(one, 'admin', 'root@example.org');
      const admin = await loginAs(one, 'root@example.org');
      const recent = new Date(Date.now() - 86_400_000).toISOString();
      const rec = { id: 'GHSA-msms-msms-msms', modified: recent, aliases: ['CVE-2099-4343'], summary: 'test flaw in ms', affected: [{ package: { ecosystem: 'npm', name: 'ms' }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '9.0.0' }] }] }], severity: [{ type: 'CVSS_V3', score: LOW }] };
      const upload = (s: typeof one, body: string): Promise<Response> => fetch(`${s.api}/vulnerabilities/import?filename=adv.json`, { method: 'POST', headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/octet-stream' }, body });
      const imp = (await (await upload(one, JSON.stringify(rec))).json()) as AdvisoryImport;
      expect(imp).toMatchObject({ status: 'done', records: 1, inserted: 1 });
      const kev = JSON.stringify({ catalogVersion: '1', dateReleased: recent, vulnerabilities: [{ cveID: 'CVE-2099-4343', dateAdded: recent.slice(0, 10), vendorProject: 'v', product: 'p', vulnerabilityName: 'n' }] });
      expect((await upload(one, kev)).status).toBe(201);
      const get = async <T>(s: typeof one, p: string): Promise<T> => (await (await call(s, 'GET', p, { token: admin.token })).json()) as T;
      expect(await get<AdvisoryImport>(two, `/vulnerabilities/imports/${imp.id}`)).toMatchObject({ id: imp.id, status: 'done' });
      const look = await get<LookupResult>(two, '/vulnerabilities/lookup?ecosystem=npm&name=ms&version=2.1.3');
      expect(look).toMatchObject({ status: 'partial', missing_sources: ['epss'] });
      expect(look.items.map((i) => [i.id, i.kev?.cve])).toEqual([['GHSA-msms-msms-msms', 'CVE-2099-4343']]);
      expect((await get<Advisory>(two, '/vulnerabilities/CVE-2099-4343')).id).toBe('GHSA-msms-msms-msms');
      expect((await get<AdvisorySources>(two, '/vulnerabilities/sources')).sources.map((x) => x.source)).toEqual(['kev', 'osv:npm']);
      // A package scan through server B assesses against the shared advisories and links them; server A lists them.
      await storeArchive(two.platform.store, two.platform.dataDir, readFileSync(corpusPath('packages', 'benign/npm/ms-2.1.3.tgz')), { filename: 'ms-2.1.3.tgz', source: 'import', actor: 'system' });
      const scan = await call(two, 'POST', '/scans', { token: admin.token, body: { ecosystem: 'npm', name: 'ms', version: '2.1.3', environment: 'dev' } });
      expect(scan.status).toBe(200);
      const verdict = (await scan.json()) as ScanVerdict;
      expect(verdict.vulnerabilities.items.map((i) => [i.id, i.kev])).toEqual([['GHSA-msms-msms-msms', true]]);
      const listed = await get<VulnerabilityPage>(one, '/vulnerabilities?min_severity=high');
      expect(listed.items.map((i) => [i.id, i.severity, i.packages])).toEqual([['GHSA-msms-msms-msms', 'high', [{ ecosystem: 'npm', name: 'ms', version: '2.1.3', scans: 1 }]]]);
      await one.platform.audit.flush();
      const audit = await get<PageOf<AuditEntry>>(two, '/audit?action=vulnerabilities.import_finished');
      expect(audit.items.map((e) => e.details['import_id'])).toContain(imp.id);
      // Written by the import's own transactions, once each (the gateway does not add its own).
      for (const action of ['vulnerabilities.import', 'vulnerabilities.import_finished']) {
        const entries = (await get<PageOf<AuditEntry>>(one, `/audit?action=${action}&limit=50`)).items.filter((e) => e.details['import_id'] === imp.id);
        expect(entries.map((e) => [e.actor, typeof e.details['size']])).toEqual([[admin.id, 'number']]);
      }
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('an import and its audit entries commit together: started with the row, finished with the counts, failed with the status; a refused entry leaves no import', async () => {
    const b = await fixture.open('postgres');
    const repo = new PgAdvisories(b.store);
    const audit = { actor: 'u-1', requestId: 'r-1', details: { via: 'test' } };
    const entries = async (id: string): Promise<string[]> =>
      (await b.store.all<{ kind: string; payload: string }>('SELECT kind, payload FROM pkgscan_audit ORDER BY seq')).filter((r) => (JSON.parse(r.payload) as { import_id?: string }).import_id === id).map((r) => r.kind);
    const done = await repo.importFile(file('audited.json', JSON.stringify(osvRec('GHSA-audt-0000-0001'))), undefined, undefined, { audit });
    expect(await entries(done.id)).toEqual(['vulnerabilities.import', 'vulnerabilities.import_finished']);
    const failedId = '33333333-3333-4333-8333-333333333333';
    await expect(repo.importFile(file('empty.json', '[]'), 'osv-json', undefined, { id: failedId, audit })).rejects.toMatchObject({ code: 'validation_failed' });
    expect(await repo.importRecord(failedId)).toMatchObject({ status: 'failed' });
    expect(await entries(failedId)).toEqual(['vulnerabilities.import', 'vulnerabilities.import_failed']);
    // A dead job's import is failed and audited by the gateway in one transaction, once.
    const lostId = '44444444-4444-4444-8444-444444444444';
    await repo.failUnfinished(lostId, 'kev-json', audit);
    await repo.failUnfinished(lostId, 'kev-json', audit);
    expect(await entries(lostId)).toEqual(['vulnerabilities.import_failed']);
    // An entry the chain refuses (a payload that is not JSON) rolls its import row back with it.
    const refusedId = '55555555-5555-4555-8555-555555555555';
    await expect(repo.importFile(file('refused.json', JSON.stringify(osvRec('GHSA-audt-0000-0002'))), undefined, undefined, { id: refusedId, audit: { ...audit, details: { size: Number.POSITIVE_INFINITY } } })).rejects.toThrow();
    expect(await repo.importRecord(refusedId)).toBeNull();
    expect(await entries(refusedId)).toEqual([]);
  });

  it('two servers importing at once: every record once, the counts add up, both see the same sources', async () => {
    const b = await fixture.open('postgres');
    const a = new PgAdvisories(b.store);
    const other = new PgAdvisories(b.another());
    const many = (from: number): Record<string, unknown>[] => Array.from({ length: 600 }, (_, i) => osvRec(`GHSA-race-0000-${String(from + i).padStart(4, '0')}`));
    const [x, y] = await Promise.all([a.importFile(file('x.json', JSON.stringify(many(0)))), other.importFile(file('y.json', JSON.stringify(many(300))))]);
    expect(x.records + y.records).toBe(1200);
    // 300 records are in both files: one import inserts each, the other finds it unchanged.
    expect(x.inserted + y.inserted).toBe(900);
    expect(x.unchanged + y.unchanged).toBe(300);
    expect(Number((await b.store.get<{ n: number }>('SELECT COUNT(*) AS n FROM vuln_advisories'))?.n)).toBe(900);
    const [sa, sb] = await Promise.all([a.sources(), other.sources()]);
    expect(sa.sources).toEqual(sb.sources);
    expect(sa.sources.find((s) => s.source === 'osv:PyPI')?.records).toBe(900);
  });

  it('pkgscan advisories on the shared database: import, status and lookup read and write PostgreSQL, nothing in SQLite', async () => {
    const b = await fixture.open('postgres');
    const recent = new Date(Date.now() - 86_400_000).toISOString();
    const f = file('cli.json', JSON.stringify({ ...osvRec('GHSA-cli0-0000-0000', { modified: recent }), affected: [{ package: { ecosystem: 'npm', name: 'cli-lib' }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '2.0.0' }] }] }] }));
    const io = { db: b.sqlite, store: b.store };
    expect((await advisoriesCommand(['import', f], {}, io)).code).toBe(0);
    expect((await advisoriesCommand(['status'], {}, io)).stdout).toMatch(/^osv:npm\t1 records/m);
    const look = await advisoriesCommand(['lookup', 'npm', 'cli-lib', '1.0.0'], {}, { db: b.sqlite, store: b.another() });
    expect([look.code, look.stdout.includes('GHSA-cli0-0000-0000')]).toEqual([4, true]);
    expect((b.sqlite.prepare('SELECT COUNT(*) AS n FROM vuln_advisories').get() as { n: number }).n).toBe(0);
  });

  it('the import job writes through its own pool on the database the URL names', async () => {
    const b = await fixture.open('postgres');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'vulns-job-'));
    try {
      mkdirSync(path.join(dataDir, 'tmp'));
      const id = '33333333-3333-4333-8333-333333333333';
      writeFileSync(advisoryUploadPath(dataDir, id), JSON.stringify(osvRec('GHSA-job0-0000-0000')));
      const progress: number[] = [];
      const ctx = { signal: new AbortController().signal, progress: (f: number) => progress.push(f), log: () => undefined } as JobContext;
      const done = await advisoryImportJob({ dataDir, id, databaseUrl: b.url, kind: 'osv-json' }, ctx);
      expect(done).toMatchObject({ id, status: 'done', records: 1, inserted: 1 });
      expect(progress.at(-1)).toBe(1);
      expect((await new PgAdvisories(b.store).get('GHSA-job0-0000-0000'))?.id).toBe('GHSA-job0-0000-0000');
      await expect(advisoryImportJob({ dataDir, id, databaseUrl: 'mysql://x', kind: 'osv-json' }, ctx)).rejects.toThrow(/not available/);
      await expect(advisoryImportJob({ dataDir, id, kind: 'osv-json' }, ctx)).rejects.toThrow();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it.skipIf(!hasCorpora())('the corpus answers exactly as on SQLite: the Go database, GHSA and malicious-package records, KEV', async () => {
    const sqlite = await fixture.open('sqlite');
    const pg = await fixture.open('postgres');
    const clock = { now: Date.now() };
    const repos = [repositoryOn(sqlite, sqlite.store, clock), repositoryOn(pg, pg.store, clock)];
    const sources = [corpusPath('supplychain', 'osv', 'go-vulndb'), corpusPath('supplychain', 'osv', 'ghsa'), corpusPath('supplychain', 'osv', 'malicious-packages'), corpusPath('supplychain', 'kev-epss', 'cisa-kev', 'known_exploited_vulnerabilities.csv')];
    const counts = [];
    for (const repo of repos) {
      const c = [];
      for (const s of sources) {
        const r = await repo.importFile(s);
        c.push([r.kind, r.records, r.inserted, r.updated, r.unchanged, r.warnings]);
      }
      counts.push(c);
    }
    expect(counts[1]).toEqual(counts[0]);
    const strip = (s: Awaited<ReturnType<AdvisoryRepository['sources']>>): unknown => s.sources.map(({ last_import_id: _i, last_import_at: _a, ...rest }) => rest);
    expect(strip(await (repos[1] as AdvisoryRepository).sources())).toEqual(strip(await (repos[0] as AdvisoryRepository).sources()));
    const ids = sqlite.sqlite.prepare('SELECT id FROM vuln_advisories ORDER BY id').all() as { id: string }[];
    expect(ids.length).toBeGreaterThan(4);
    for (const { id } of ids) expect(await (repos[1] as AdvisoryRepository).get(id)).toEqual(await (repos[0] as AdvisoryRepository).get(id));
    const packages = sqlite.sqlite.prepare('SELECT DISTINCT ecosystem, name FROM vuln_affected ORDER BY ecosystem, name LIMIT 40').all() as { ecosystem: string; name: string }[];
    let affected = 0;
    for (const p of packages)
      for (const v of ['0.0.1', '1.0.0', '2.5.0', '0.18.0', '9.9.9', 'v1.2.3']) {
        const [x, y] = [await (repos[0] as AdvisoryRepository).lookup(p.ecosystem, p.name, v), await (repos[1] as AdvisoryRepository).lookup(p.ecosystem, p.name, v)];
        expect(y, `${p.ecosystem} ${p.name} ${v}`).toEqual(x);
        affected += x.items.length;
      }
    expect(affected).toBeGreaterThan(0);
  });
});
