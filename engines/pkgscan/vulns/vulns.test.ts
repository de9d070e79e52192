// pkgscan's vulnerability routes with real sign-ins (lookup status, advisory by alias, stored-scan list, import upload, sources), the CLI command and migration 7.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import type { Role } from '../../core/contracts/pkgscan.js';
import type { AdvisoryImport, AdvisorySources, LookupResult, VulnerabilityPage } from '../../core/contracts/pkgscan-vulns.js';
import { openMemoryStore } from '../../core/store.js';
import type { Platform } from '../platform.js';
import { startSignedIn, type Session, type TestServer } from '../server.fixture.js';
import { AuditLog } from '../audit/audit.js';
import { SqliteDb } from '../db/sqlite.js';
import { migrations } from '../store.js';
import { advisoryStoreOf, assessRelease, listVulnerabilities, recordScanAdvisories } from './advisories.js';
import { recoverAdvisoryImports } from './http.js';
import { advisoriesCommand } from './cli.js';

let sessions: Record<Role, Session>;
let dataDir: string;
let server: TestServer;
let api: string;
let platform: Platform;

beforeAll(async () => {
  ({ server, platform, dataDir, sessions, api } = await startSignedIn());
});

afterAll(async () => {
  await server.close();
});

const get = (p: string, role: Role = 'read_only'): Promise<Response> => fetch(`${api}${p}`, { headers: { authorization: `Bearer ${sessions[role].token}` } });
const upload = (bytes: Uint8Array | string, role: Role = 'admin', filename = 'adv.json', type = 'application/octet-stream'): Promise<Response> =>
  fetch(`${api}/vulnerabilities/import?filename=${filename}`, { method: 'POST', headers: { authorization: `Bearer ${sessions[role].token}`, 'content-type': type }, body: bytes });

const recent = new Date(Date.now() - 86_400_000).toISOString();
const record = { id: 'GHSA-abcd-efgh-ijkl', modified: recent, aliases: ['CVE-2025-4242'], summary: 'demo flaw', affected: [{ package: { ecosystem: 'npm', name: 'demo-lib' }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '1.2.3' }] }] }], severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:N/A:N' }] };

describe('/vulnerabilities routes', () => {
  it('lookup says unavailable before any import, never an empty "ok"', async () => {
    const res = await get('/vulnerabilities/lookup?ecosystem=npm&name=demo-lib&version=1.0.0');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'unavailable', items: [] });
    expect((await get('/vulnerabilities/lookup?ecosystem=npm&name=demo-lib')).status).toBe(400);
  });

  it('imports by upload (system:write only, audited), then looks up, gets by alias, lists sources', async () => {
    expect((await upload(JSON.stringify(record), 'security_analyst')).status).toBe(403);
    expect((await upload(JSON.stringify(record), 'admin', 'a.json', 'application/json')).status).toBe(415);
    expect((await upload('hello there', 'admin')).status).toBe(415);
    const res = await upload(JSON.stringify(record));
    expect(res.status).toBe(201);
    const imp = (await res.json()) as AdvisoryImport;
    expect(imp).toMatchObject({ kind: 'osv-json', status: 'done', records: 1, inserted: 1 });
    expect((await platform.audit.page({ action: 'vulnerabilities.import' }, 5, 0)).items[0]).toMatchObject({ actor: sessions.admin.id, details: { import_id: imp.id, kind: 'osv-json' } });
    expect((await platform.audit.page({ action: 'vulnerabilities.import_finished' }, 5, 0)).items[0]).toMatchObject({ details: { import_id: imp.id, records: 1 } });
    const kev = JSON.stringify({ catalogVersion: 'x', dateReleased: recent, vulnerabilities: [{ cveID: 'CVE-2025-4242', dateAdded: recent.slice(0, 10), knownRansomwareCampaignUse: 'Known' }] });
    expect((await upload(kev, 'admin', 'kev.json')).status).toBe(201);
    const partial = (await (await get('/vulnerabilities/lookup?ecosystem=npm&name=demo-lib&version=1.0.0')).json()) as LookupResult;
    expect(partial).toMatchObject({ status: 'partial', missing_sources: ['epss'] });
    expect(partial.items[0]).toMatchObject({ id: 'GHSA-abcd-efgh-ijkl', severity: 'high', score: 7.5, kev: { ransomware_use: 'Known' }, fixed_versions: ['1.2.3'] });
    const epss = `#model_version:v2025.03.14,score_date:${recent}\ncve,epss,percentile\nCVE-2025-4242,0.42,0.97\n`;
    expect((await upload(epss, 'admin', 'epss.csv')).status).toBe(201);
    const ok = (await (await get('/vulnerabilities/lookup?ecosystem=npm&name=demo-lib&version=1.0.0')).json()) as LookupResult;
    expect(ok.status).toBe('ok');
    expect(ok.items[0]?.epss).toMatchObject({ score: 0.42, percentile: 0.97 });
    const byAlias = await get('/vulnerabilities/CVE-2025-4242');
    expect(byAlias.status).toBe(200);
    expect(await byAlias.json()).toMatchObject({ id: 'GHSA-abcd-efgh-ijkl' });
    expect((await get('/vulnerabilities/GHSA-none-none-none')).status).toBe(404);
    const sources = (await (await get('/vulnerabilities/sources')).json()) as AdvisorySources;
    expect(sources.sources.map((s) => s.source)).toEqual(['epss', 'kev', 'osv:npm']);
    expect((await get(`/vulnerabilities/imports/${imp.id}`)).status).toBe(200);
    // The uploads were streamed to the data folder and removed after import.
    const { readdir } = await import('node:fs/promises');
    expect(await readdir(path.join(dataDir, 'tmp'))).toEqual([]);
  });

  it('GET /vulnerabilities aggregates the advisories of stored scans; filters kev and min_severity; paginated', async () => {
    const a = await assessRelease(platform, 'npm', 'demo-lib', '1.0.0');
    expect(a.status).toBe('ok');
    expect(a.items[0]).toMatchObject({ id: 'GHSA-abcd-efgh-ijkl', kev: true, epss: 0.42, severity: 'high' });
    await recordScanAdvisories(platform.store, 'scan-1', 'npm', 'demo-lib', '1.0.0', a.items.map((i) => i.id));
    await recordScanAdvisories(platform.store, 'scan-2', 'npm', 'demo-lib', '1.0.0', a.items.map((i) => i.id));
    await recordScanAdvisories(platform.store, 'scan-3', 'npm', 'demo-lib', '1.1.0', ['GHSA-abcd-efgh-ijkl']);
    const page = (await (await get('/vulnerabilities?limit=10')).json()) as VulnerabilityPage;
    expect(page).toMatchObject({ total: 1, limit: 10, offset: 0 });
    expect(page.items[0]).toMatchObject({ id: 'GHSA-abcd-efgh-ijkl', kev: true, packages: [{ version: '1.0.0', scans: 2 }, { version: '1.1.0', scans: 1 }] });
    expect(((await (await get('/vulnerabilities?kev=false')).json()) as VulnerabilityPage).total).toBe(0);
    expect(((await (await get('/vulnerabilities?min_severity=critical')).json()) as VulnerabilityPage).total).toBe(0);
    expect(((await (await get('/vulnerabilities?min_severity=high&kev=true')).json()) as VulnerabilityPage).total).toBe(1);
    expect((await get('/vulnerabilities?min_severity=severe')).status).toBe(400);
  });
});

describe('pkgscan advisories (command line)', () => {
  it.skipIf(!hasCorpora())('imports the corpus, reports status, looks up with exit 4 when incomplete', async () => {
    const db = openMemoryStore([{ name: 'pkgscan', migrations }]);
    try {
      const imp = await advisoriesCommand(['import', corpusPath('supplychain', 'osv', 'go-vulndb'), corpusPath('supplychain', 'kev-epss', 'cisa-kev', 'known_exploited_vulnerabilities.csv'), path.join(dataDir, 'missing.json')], {}, { db });
      expect(imp.code).toBe(1);
      expect(imp.stdout).toMatch(/imported\t#1\tosv-dir\t3 records/);
      expect(imp.stdout).toMatch(/imported\t#2\tkev-csv\t1404 records/);
      expect(imp.stdout).toMatch(/failed\t#3/);
      expect(imp.stdout).not.toContain(dataDir);
      const st = await advisoriesCommand(['status'], {}, { db });
      expect(st.stdout).toMatch(/^kev\t1404 records/m);
      expect(st.stdout).toMatch(/^epss\tnever imported/m);
      const look = await advisoriesCommand(['lookup', 'Go', 'vitess.io/vitess', '0.18.0'], {}, { db });
      expect(look.code).toBe(4);
      expect(look.stdout).toMatch(/^PARTIAL/);
      expect(look.stdout).toContain('GO-2024-2826');
      const js = await advisoriesCommand(['lookup', 'Go', 'vitess.io/vitess', '0.18.0'], { json: true }, { db });
      expect((JSON.parse(js.stdout) as LookupResult).missing_sources).toEqual(['epss']);
      await expect(advisoriesCommand(['lookup', 'Go'], {}, { db })).rejects.toThrow(/ECOSYSTEM NAME VERSION/);
    } finally {
      db.close();
    }
  });

  it('migration 7 creates the tables once', async () => {
    const db = openMemoryStore([{ name: 'pkgscan', migrations }]);
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND (name LIKE 'vuln_%' OR name = 'pkgscan_scan_advisories') ORDER BY name").all() as { name: string }[]).map((t) => t.name);
    expect(tables).toEqual(['pkgscan_scan_advisories', 'vuln_advisories', 'vuln_affected', 'vuln_aliases', 'vuln_epss', 'vuln_imports', 'vuln_kev', 'vuln_meta', 'vuln_nvd', 'vuln_sources']);
    await writeFile(path.join(dataDir, 'x.json'), JSON.stringify(record));
    expect((await advisoriesCommand(['import', path.join(dataDir, 'x.json')], { json: true }, { db })).code).toBe(0);
    db.close();
  });
});

describe('advisory hardening', () => {
  it('min_severity=high keeps a known-exploited advisory the verdict counts as high, whatever its own score', async () => {
    const db = openMemoryStore([{ name: 'pkgscan', migrations }]);
    try {
      const low = { ...record, id: 'GHSA-lowl-oooo-wwww', aliases: ['CVE-2025-7777'], severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:L/AC:H/PR:H/UI:R/S:U/C:L/I:N/A:N' }] };
      await writeFile(path.join(dataDir, 'low.json'), JSON.stringify(low));
      await writeFile(path.join(dataDir, 'kev-low.json'), JSON.stringify({ catalogVersion: '1', dateReleased: recent, vulnerabilities: [{ cveID: 'CVE-2025-7777', dateAdded: recent.slice(0, 10), vendorProject: 'v', product: 'p', vulnerabilityName: 'n' }] }));
      expect((await advisoriesCommand(['import', path.join(dataDir, 'low.json'), path.join(dataDir, 'kev-low.json')], {}, { db })).code).toBe(0);
      const backend = { db, store: new SqliteDb(db) };
      const a = await assessRelease(backend, 'npm', 'demo-lib', '1.0.0');
      const item = a.items.find((i) => i.id === 'GHSA-lowl-oooo-wwww');
      expect(item).toMatchObject({ kev: true, severity: 'low' });
      await recordScanAdvisories(backend.store, 'scan-k', 'npm', 'demo-lib', '1.0.0', [item?.id ?? '']);
      const listed = await listVulnerabilities(backend, { minSeverity: 'high' }, 10, 0);
      expect(listed.items.map((i) => [i.id, i.severity, i.kev])).toEqual([['GHSA-lowl-oooo-wwww', 'high', true]]);
    } finally {
      db.close();
    }
  });

  it('advisories import from the command line writes audit entries', async () => {
    const db = openMemoryStore([{ name: 'pkgscan', migrations }]);
    try {
      await writeFile(path.join(dataDir, 'audited.json'), JSON.stringify(record));
      expect((await advisoriesCommand(['import', path.join(dataDir, 'audited.json'), path.join(dataDir, 'nope.json')], {}, { db })).code).toBe(1);
      const rows = (await new AuditLog(db).page({}, 50, 0)).items.filter((e) => e.action.startsWith('vulnerabilities.')).sort((x, y) => x.seq - y.seq);
      expect(rows.map((e) => [e.action, e.actor])).toEqual([
        ['vulnerabilities.import_finished', 'cli'],
        ['vulnerabilities.import_failed', 'cli'],
      ]);
    } finally {
      db.close();
    }
  });

  it('at start, an import left running by a dead process is failed and its upload temp file removed', async () => {
    const db = openMemoryStore([{ name: 'pkgscan', migrations }]);
    const home = await mkdtemp(path.join(tmpdir(), 'vitrine-adv-'));
    try {
      advisoryStoreOf(db);
      db.prepare("INSERT INTO vuln_imports (id, kind, started_at, status, owner_pid) VALUES ('11111111-1111-4111-8111-111111111111', 'osv-json', '2025-01-01T00:00:00Z', 'running', 4199999)").run();
      await mkdir(path.join(home, 'tmp'));
      const stale = path.join(home, 'tmp', 'advisories-11111111-1111-4111-8111-111111111111');
      await writeFile(stale, 'x');
      await utimes(stale, new Date('2020-01-01'), new Date('2020-01-01'));
      const other = path.join(home, 'tmp', 'keep-me');
      await writeFile(other, 'y');
      expect(await recoverAdvisoryImports({ db, store: new SqliteDb(db), dataDir: home })).toEqual({ failed: ['11111111-1111-4111-8111-111111111111'], removed: 1 });
      expect(existsSync(stale)).toBe(false);
      expect(existsSync(other)).toBe(true);
      expect(advisoryStoreOf(db).importRecord('11111111-1111-4111-8111-111111111111')?.status).toBe('failed');
    } finally {
      db.close();
      await rm(home, { recursive: true, force: true });
    }
  });
});
