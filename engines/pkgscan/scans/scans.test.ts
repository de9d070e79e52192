// Package scans over HTTP end to end: archives from the corpus (read as bytes, never run) imported into the store, scanned, decided, stored, listed, audited and published.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PackageOverview, PageOf, ScanStats, ScanSummary, ScanVerdict, SecurityEvent } from '../../core/contracts/pkgscan.js';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { call, sessionsByRole, startServer, type Session, type TestServer } from '../server.fixture.js';
import type { Role } from '../../core/contracts/pkgscan.js';
import { importArchive } from '../sources/store.js';
import { advisoryStoreOf } from '../vulns/advisories.js';

const json = async <T>(r: Response): Promise<T> => (await r.json()) as T;

describe.skipIf(!hasCorpora())('package scans', () => {
  let s: TestServer;
  let by: Record<Role, Session>;

  const load = (file: string): void => {
    importArchive(s.platform.db, s.platform.dataDir, readFileSync(corpusPath('packages', file)), { filename: file.split('/').pop() ?? file, source: 'import', actor: 'system' });
  };

  beforeAll(async () => {
    s = await startServer();
    by = await sessionsByRole(s);
    for (const f of ['benign/npm/ms-2.1.3.tgz', 'benign/npm/esbuild-0.28.2.tgz', 'benign/pypi/backcall-0.2.0.tar.gz', 'malicious/npm/nequi-api-utils-9.9.9.tgz', 'malicious/pypi/hamburgesr-1.0.0.tar.gz']) load(f);
  });
  afterAll(async () => {
    await s.close();
  });

  const scan = (body: unknown, who: Session = by.developer): Promise<Response> => call(s, 'POST', '/scans', { token: who.token, body });

  it('scans a benign npm release and allows it in dev, with every analyzer run and the vulnerabilities not assessed', async () => {
    const r = await scan({ ecosystem: 'npm', name: 'ms', version: '2.1.3', environment: 'dev' });
    expect(r.status).toBe(200);
    const v = await json<ScanVerdict>(r);
    expect(v).toMatchObject({ ecosystem: 'npm', name: 'ms', version: '2.1.3', environment: 'dev', decision: 'allow', incomplete: false });
    expect(v.findings.filter((f) => f.severity === 'high' || f.severity === 'critical')).toEqual([]);
    expect(v.analyzer_runs.map((x) => x.name)).toEqual(expect.arrayContaining(['archive', 'provenance']));
    expect(v.analyzer_runs.length).toBeGreaterThanOrEqual(4);
    expect(v.vulnerabilities.status).not.toBe('ok');
    expect(v.files.some((f) => f.path === 'package.json')).toBe(true);
    expect(v.package.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a benign package with a legitimate install script is not blocked for it (esbuild in dev)', async () => {
    const v = await json<ScanVerdict>(await scan({ ecosystem: 'npm', name: 'esbuild', version: '0.28.2', environment: 'dev' }));
    expect(v.package.install_scripts).toHaveProperty('postinstall');
    expect(v.decision).not.toBe('block');
  });

  it('the same release under prod reads clean and is warned, not blocked, for its gaps (advisories and provenance missing, each with what to do)', async () => {
    const v = await json<ScanVerdict>(await scan({ ecosystem: 'npm', name: 'ms', version: '2.1.3', environment: 'prod' }));
    expect(v.assessment).toMatchObject({ verdict: 'clean' });
    expect(v.decision).toBe('warn');
    expect(v.policy_reasons.some((x) => x.kind === 'vulnerabilities_unassessed')).toBe(true);
    expect(v.gaps.map((g) => g.kind).sort()).toEqual(['advisories_missing', 'provenance_missing']);
    for (const g of v.gaps) expect(g.what_to_do.length).toBeGreaterThan(20);
    // one row per rule
    expect(new Set(v.policy_reasons.map((r) => r.rule)).size).toBe(v.policy_reasons.length);
  });

  it('blocks a real malicious npm release (reverse shell in preinstall), publishes the events and audits the scan', async () => {
    const v = await json<ScanVerdict>(await scan({ ecosystem: 'npm', name: 'nequi-api-utils', environment: 'staging' }));
    expect(v.version).toBe('9.9.9');
    expect(v.decision).toBe('block');
    expect(v.assessment.verdict).toBe('malicious');
    expect(v.assessment.findings.length + v.assessment.chains.length).toBeGreaterThan(0);
    expect(['high', 'critical']).toContain(v.severity);
    expect(v.risk_score).toBeGreaterThanOrEqual(0.7);
    const events = await json<PageOf<SecurityEvent>>(await call(s, 'GET', '/events?type=malicious_package_detected', { token: by.admin.token }));
    expect(events.items.some((e) => e.package === 'npm:nequi-api-utils' && e.details['scan_id'] === v.id)).toBe(true);
    const audit = await json<PageOf<{ details: Record<string, unknown> }>>(await call(s, 'GET', '/audit?action=scan.create', { token: by.admin.token }));
    expect(audit.items.some((e) => e.details['scan_id'] === v.id)).toBe(true);
  });

  it('blocks a real malicious PyPI sdist and matches the name per PEP 503', async () => {
    const v = await json<ScanVerdict>(await scan({ ecosystem: 'pypi', name: 'Hamburgesr', version: '1.0.0', environment: 'staging' }));
    expect(v.name).toBe('hamburgesr');
    expect(v.decision).toBe('block');
  });

  it('404 for a version no source holds, never a verdict for another release; 422 for an unknown ecosystem or environment', async () => {
    const missing = await scan({ ecosystem: 'npm', name: 'ms', version: '9.9.9' });
    expect(missing.status).toBe(404);
    expect(await missing.text()).not.toContain('9.9.9');
    expect((await scan({ ecosystem: 'npm', name: 'no-such-package-here' })).status).toBe(404);
    const eco = await scan({ ecosystem: 'rubygems', name: 'rails' });
    expect(eco.status).toBe(422);
    expect(await eco.text()).not.toContain('rubygems');
    expect((await scan({ ecosystem: 'npm', name: 'ms', environment: 'nowhere' })).status).toBe(422);
    expect((await scan({ ecosystem: 'npm' })).status).toBe(422);
  });

  it('read_only and auditor may read but not scan', async () => {
    expect((await scan({ ecosystem: 'npm', name: 'ms' }, by.read_only)).status).toBe(403);
    expect((await scan({ ecosystem: 'npm', name: 'ms' }, by.auditor)).status).toBe(403);
    expect((await call(s, 'GET', '/scans', { token: by.read_only.token })).status).toBe(200);
  });

  it('history with filters and pagination, one verdict, stats, the package page', async () => {
    await scan({ ecosystem: 'pypi', name: 'backcall', environment: 'dev' });
    const all = await json<PageOf<ScanSummary>>(await call(s, 'GET', '/scans?limit=2', { token: by.read_only.token }));
    expect(all.items).toHaveLength(2);
    expect(all.total).toBeGreaterThanOrEqual(6);
    const blocked = await json<PageOf<ScanSummary>>(await call(s, 'GET', '/scans?decision=block', { token: by.read_only.token }));
    expect(blocked.items.every((x) => x.decision === 'block')).toBe(true);
    // each row carries its assessment: the blocked malware reads malicious
    expect(blocked.items.length).toBeGreaterThan(0);
    expect(blocked.items.every((x) => x.assessment === 'malicious')).toBe(true);
    const q = await json<PageOf<ScanSummary>>(await call(s, 'GET', '/scans?q=BACKC', { token: by.read_only.token }));
    expect(q.items.map((x) => x.name)).toEqual(['backcall']);
    expect((await call(s, 'GET', '/scans?decision=maybe', { token: by.read_only.token })).status).toBe(400);
    const one = await json<ScanVerdict>(await call(s, 'GET', `/scans/${q.items[0]?.id ?? ''}`, { token: by.read_only.token }));
    expect(one.name).toBe('backcall');
    expect((await call(s, 'GET', '/scans/00000000-0000-0000-0000-000000000000', { token: by.read_only.token })).status).toBe(404);
    const stats = await json<ScanStats>(await call(s, 'GET', '/scans/stats/overview', { token: by.read_only.token }));
    expect(stats.total).toBe(all.total);
    expect(stats.by_decision.block).toBe(blocked.total);
    expect(stats.blocked_last_30_days).toBe(blocked.total);
    expect(stats.top_finding_codes.length).toBeGreaterThan(0);
    const page = await json<PackageOverview>(await call(s, 'GET', '/packages/npm/ms', { token: by.read_only.token }));
    expect(page.verdicts.map((x) => x.environment).sort()).toEqual(['dev', 'prod']);
    expect(page.stored_releases.map((x) => x.version)).toEqual(['2.1.3']);
    expect((await call(s, 'GET', '/packages/pypi/BackCall', { token: by.read_only.token })).status).toBe(200);
    expect((await call(s, 'GET', '/packages/npm/left-pad', { token: by.read_only.token })).status).toBe(404);
  });

  it('with advisories imported, a known-exploited advisory of the release is in the verdict, blocks it, is published and listed', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vitrine-advisories-'));
    try {
      const today = new Date().toISOString();
      // An OSV record in the GHSA shape for the stored release, its CVE alias in a KEV catalogue and an EPSS file of today.
      writeFileSync(
        path.join(dir, 'GHSA-test-0000-0001.json'),
        JSON.stringify({
          schema_version: '1.6.0',
          id: 'GHSA-vtst-0000-0001',
          aliases: ['CVE-2099-0001'],
          modified: today,
          published: today,
          summary: 'Test advisory for the wiring of scans to the advisory store',
          affected: [{ package: { ecosystem: 'npm', name: 'ms' }, ranges: [{ type: 'SEMVER', events: [{ introduced: '2.0.0' }, { fixed: '2.1.4' }] }] }],
          database_specific: { severity: 'MODERATE' },
        }),
      );
      writeFileSync(
        path.join(dir, 'known_exploited_vulnerabilities.json'),
        JSON.stringify({ title: 'CISA Catalog of Known Exploited Vulnerabilities', catalogVersion: '2099.01.01', dateReleased: today, count: 1, vulnerabilities: [{ cveID: 'CVE-2099-0001', vendorProject: 'ms', product: 'ms', vulnerabilityName: 'test', dateAdded: today.slice(0, 10), shortDescription: 'test', requiredAction: 'test', dueDate: today.slice(0, 10), knownRansomwareCampaignUse: 'Unknown', notes: '' }] }),
      );
      writeFileSync(path.join(dir, `epss_scores-${today.slice(0, 10)}.csv.gz`), gzipSync(`#model_version:v2025.03.14,score_date:${today.slice(0, 10)}T00:00:00+0000\ncve,epss,percentile\nCVE-2099-0001,0.91,0.99\n`));
      const store = advisoryStoreOf(s.platform.db);
      for (const f of ['GHSA-test-0000-0001.json', 'known_exploited_vulnerabilities.json', `epss_scores-${today.slice(0, 10)}.csv.gz`]) await store.importFile(path.join(dir, f));
      const v = await json<ScanVerdict>(await scan({ ecosystem: 'npm', name: 'ms', version: '2.1.3', environment: 'dev' }));
      const item = v.vulnerabilities.items.find((x) => x.id === 'GHSA-vtst-0000-0001');
      expect(item).toMatchObject({ kev: true, epss: 0.91, aliases: expect.arrayContaining(['CVE-2099-0001']) as unknown });
      expect(v.vulnerabilities.status).not.toBe('unavailable');
      expect(v.decision).toBe('block');
      expect(v.policy_reasons.some((r) => r.rule === 'vulnerabilities.block_kev' && r.subject === 'GHSA-vtst-0000-0001')).toBe(true);
      expect(v.risk_dimensions['vulnerabilities']).toBe(1);
      const events = await json<PageOf<SecurityEvent>>(await call(s, 'GET', '/events?type=known_exploited_vulnerability', { token: by.admin.token }));
      expect(events.items.some((e) => e.details['scan_id'] === v.id)).toBe(true);
      const listed = await json<PageOf<{ id: string }>>(await call(s, 'GET', '/vulnerabilities?kev=true', { token: by.read_only.token }));
      expect(listed.items.map((x) => x.id)).toContain('GHSA-vtst-0000-0001');
      const page = await json<PackageOverview>(await call(s, 'GET', '/packages/npm/ms', { token: by.read_only.token }));
      expect(page.advisories.map((x) => x.id)).toContain('GHSA-vtst-0000-0001');
      // The fixed release is not affected.
      expect(store.lookup('npm', 'ms', '2.1.4').items.map((x) => x.id)).not.toContain('GHSA-vtst-0000-0001');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the package page of a release stored but never scanned answers its stored releases', async () => {
    load('benign/npm/debug-4.4.3.tgz');
    const r = await call(s, 'GET', '/packages/npm/debug', { token: by.read_only.token });
    expect(r.status).toBe(200);
    const page = await json<PackageOverview>(r);
    expect(page.verdicts).toEqual([]);
    expect(page.stored_releases.map((x) => x.version)).toEqual(['4.4.3']);
  });
});
