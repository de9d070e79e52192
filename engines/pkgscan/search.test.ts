// Packages' search provider over a store filled through pkgscan's own routes, on both backends (one parameterised
// suite): corpus archives imported into the package store (read as bytes, never run), scanned with POST /scans, a
// project scanned with POST /projects/:id/scans, and a container scan and a release diff stored as rows. The same
// queries give the same hits on SQLite and on PostgreSQL.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role, ScanVerdict } from '../core/contracts/pkgscan.js';
import type { Project } from '../core/contracts/pkgscan-projects.js';
import { classifyQuery, type SearchHit } from '../core/search.js';
import { corpusPath, hasCorpora } from '../../test/corpora.js';
import { backendCases, backendFixture } from '../../test/postgres/backends.js';
import type { PkgscanConfig } from './config.js';
import { DATABASE_URL_ENV } from './db/url.js';
import { pkgscanSearch, searchPackages } from './search.js';
import { storeArchive } from './sources/store.js';
import { call, sessionsByRole, startServer, type Session, type TestServer } from './server.fixture.js';

const fixture = backendFixture();

/** The queries compared across backends, and each one's hits without ids and times (those differ per store). */
const COMPARED = ['ms', 'ms@2.1.3', 'pkg:npm/ms@2.1.3', 'npm:ms', 'pypi:ms', 'nequi-api-utils', 'nequi', 'billing', 'BILLING', 'pypi:flask', 'flask@3.0.0', 'left-pad', 'registry.example/acme/web', 'allow', '%_%', 'T1059'];
const comparable = (hits: readonly SearchHit[]): string[] =>
  hits
    .map((h) => JSON.stringify([h.kind, h.title, h.field, h.rank, h.snippet.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'ID').replace(/\d{4}-\d\d-\d\dT[0-9:.]+Z/g, 'TIME')]))
    .sort();
const seenBy = new Map<string, Map<string, string[]>>();

for (const backend of backendCases) {
  describe.skipIf(backend.skip || !hasCorpora())(`pkgscan search on ${backend.title}${hasCorpora() ? '' : ' (skipped: no corpora)'}`, () => {
    let s: TestServer;
    let by: Record<Role, Session>;
    let ms: ScanVerdict;
    let bad: ScanVerdict;
    let projectScanId: string;
    let url: string | undefined;
    const search = (q: string, limit = 10): Promise<SearchHit[]> => searchPackages(s.platform.store, classifyQuery(q), limit);

    beforeAll(async () => {
      const b = await fixture.open(backend.name);
      url = b.url;
      const config: Partial<PkgscanConfig> = b.url !== undefined ? { databaseUrl: b.url } : {};
      s = await startServer(config);
      by = await sessionsByRole(s);
      for (const f of ['benign/npm/ms-2.1.3.tgz', 'malicious/npm/nequi-api-utils-9.9.9.tgz']) {
        await storeArchive(s.platform.store, s.platform.dataDir, readFileSync(corpusPath('packages', f)), { filename: f.split('/').pop() ?? f, source: 'import', actor: 'system' });
      }
      const scan = async (body: unknown): Promise<ScanVerdict> => {
        const r = await call(s, 'POST', '/scans', { token: by.developer.token, body });
        expect(r.status).toBe(200);
        return (await r.json()) as ScanVerdict;
      };
      ms = await scan({ ecosystem: 'npm', name: 'ms', version: '2.1.3', environment: 'dev' });
      bad = await scan({ ecosystem: 'npm', name: 'nequi-api-utils', version: '9.9.9', environment: 'prod' });
      const p = (await (await call(s, 'POST', '/projects', { token: by.developer.token, body: { name: 'Billing API' } })).json()) as Project;
      const r = await call(s, 'POST', `/projects/${p.id}/scans`, { token: by.developer.token, body: { files: { 'requirements.txt': 'flask==3.0.0\nrequests==2.32.3\n' } } });
      expect(r.status).toBeLessThan(300);
      projectScanId = ((await r.json()) as { id: string }).id;
      // A container scan and two release diffs of one package, as their repositories store them.
      await s.platform.store.run(
        `INSERT INTO pkgscan_container_scans (id, image_ref, status, decision, severity, package_count, finding_count, upload_sha256, upload_size, created_by, created_at, report_json, sbom_json)
         VALUES (?, ?, 'complete', 'warn', 'medium', 2, 1, ?, 1024, 'someone', ?, ?, NULL)`,
        ['cs-1', 'registry.example/acme/web:1.4', 'ab'.repeat(32), '2026-01-02T00:00:00.000Z', JSON.stringify({ created_by: 'analyst@example.org', packages: [{ name: 'left-pad', version: '1.3.0' }] })],
      );
      for (const [id, from, to, at] of [
        ['d-1', '1.2.0', '1.3.0', '2026-01-03T00:00:00.000Z'],
        ['d-2', '1.3.0', '1.4.0', '2026-01-04T00:00:00.000Z'],
      ] as const) {
        await s.platform.store.run(
          `INSERT INTO pkgscan_diffs (id, ecosystem, name, from_version, to_version, analyzer_version, escalated, maintainers_changed, risk_from, risk_to, new_findings, created_by, created_at, diff_json)
           VALUES (?, 'npm', 'left-pad', ?, ?, 'test', ?, 0, 0.1, 0.2, 0, 'someone', ?, '{}')`,
          [id, from, to, id === 'd-2' ? 1 : 0, at],
        );
      }
    });
    afterAll(async () => {
      await s.close();
    });

    it('finds a scan and the stored archive by package name, name@version, purl and npm:name', async () => {
      for (const q of ['ms', 'ms@2.1.3', 'pkg:npm/ms@2.1.3', 'npm:ms']) {
        const hits = await search(q);
        expect(hits.find((h) => h.kind === 'scan'), q).toMatchObject({ id: ms.id, field: 'package', rank: 3, link: { service: 'pkgscan', kind: 'scan', id: ms.id } });
        expect(hits.some((h) => h.kind === 'artifact'), q).toBe(true);
      }
      expect(await search('ms@9.9.9')).toEqual([]);
      expect(await search('pypi:ms')).toEqual([]);
    });

    it('gives one package hit per package name (scanned or stored), opening its Package page', async () => {
      const link = { service: 'pkgscan', kind: 'package', id: 'npm:ms' };
      for (const q of ['ms', 'ms@2.1.3', 'pkg:npm/ms@2.1.3', 'npm:ms']) {
        const hits = (await search(q)).filter((h) => h.kind === 'package');
        expect(hits, q).toEqual([expect.objectContaining({ id: 'npm:ms', field: 'package', rank: 3, link, snippet: '1 scan; versions seen: 2.1.3' })]);
      }
      expect((await search('nequi-api-utils')).filter((h) => h.kind === 'package')).toEqual([
        expect.objectContaining({ id: 'npm:nequi-api-utils', title: 'nequi-api-utils (npm) · package page', link: { service: 'pkgscan', kind: 'package', id: 'npm:nequi-api-utils' } }),
      ]);
      // A version never seen, another ecosystem, a name that only contains the query, a hash: no package hit.
      for (const q of ['ms@9.9.9', 'pypi:ms', 'nequi', ms.package.sha256]) expect((await search(q)).filter((h) => h.kind === 'package'), q).toEqual([]);
    });

    it('finds a scan by its package SHA-256 and the malicious one by name, never showing who ran it', async () => {
      const byHash = await search(bad.package.sha256);
      expect(byHash.map((h) => h.kind).sort()).toEqual(['artifact', 'scan']);
      expect(byHash.find((h) => h.kind === 'scan')).toMatchObject({ id: bad.id, field: 'package sha256' });
      const byName = await search('nequi-api-utils');
      expect(byName.find((h) => h.kind === 'scan')?.title).toBe('nequi-api-utils@9.9.9 (npm) · block in prod');
      expect(await search('developer@example.org')).toEqual([]);
      expect(await search('analyst@example.org')).toEqual([]);
      expect(JSON.stringify(byName)).not.toContain('@example.org');
    });

    it('finds a project scan by a component and by the project name, ASCII letters in any case', async () => {
      expect(await search('pypi:flask')).toContainEqual(expect.objectContaining({ kind: 'project-scan', id: projectScanId, field: 'component', snippet: 'pypi:flask@3.0.0', title: expect.stringContaining('Billing API') }));
      expect(await search('FLASK')).toContainEqual(expect.objectContaining({ kind: 'project-scan', id: projectScanId, field: 'component' }));
      for (const q of ['billing', 'BILLING']) expect(await search(q)).toContainEqual(expect.objectContaining({ kind: 'project-scan', id: projectScanId, field: 'project' }));
      // A pinned component must be that version.
      expect((await search('flask@2.0.0')).filter((h) => h.kind === 'project-scan')).toEqual([]);
    });

    it('finds a container scan by image and content, and release diffs and their package, newest first', async () => {
      expect(await search('registry.example/acme/web')).toEqual([expect.objectContaining({ kind: 'container-scan', id: 'cs-1', field: 'image', title: 'Image registry.example/acme/web:1.4 · warn' })]);
      expect(await search('ab'.repeat(32))).toEqual([expect.objectContaining({ kind: 'container-scan', id: 'cs-1', field: 'upload sha256' })]);
      const leftPad = await search('left-pad');
      expect(leftPad.filter((h) => h.kind === 'diff').map((h) => [h.id, h.title])).toEqual([
        ['d-2', 'left-pad 1.3.0 → 1.4.0 · escalated'],
        ['d-1', 'left-pad 1.2.0 → 1.3.0'],
      ]);
      expect(leftPad.filter((h) => h.kind === 'package')).toEqual([expect.objectContaining({ id: 'npm:left-pad', snippet: '0 scans; versions seen: 1.4.0, 1.3.0', time: '2026-01-04T00:00:00.000Z' })]);
      expect(leftPad).toContainEqual(expect.objectContaining({ kind: 'container-scan', id: 'cs-1', field: expect.stringMatching(/^report/) }));
      expect((await search('left-pad@1.2.0')).filter((h) => h.kind === 'diff').map((h) => h.id)).toEqual(['d-1']);
    });

    it('keeps to the limit per kind and reads LIKE wildcards in the query as text', async () => {
      expect((await search('left-pad', 1)).filter((h) => h.kind === 'diff').map((h) => h.id)).toEqual(['d-2']);
      for (const kind of ['scan', 'artifact', 'diff', 'package', 'project-scan', 'container-scan']) expect((await search('allow', 1)).filter((h) => h.kind === kind).length).toBeLessThanOrEqual(1);
      expect(await search('%_%')).toEqual([]);
    });

    it('is what the workstation search asks: the provider reads the store the database URL names', async () => {
      const previous = process.env[DATABASE_URL_ENV];
      if (url !== undefined) process.env[DATABASE_URL_ENV] = url;
      try {
        // On PostgreSQL the workstation store (platform.db) holds none of these rows: the hits come from the shared database.
        const hits = await pkgscanSearch.search(s.platform.db, classifyQuery('ms'), 10);
        expect(hits.find((h) => h.kind === 'scan')).toMatchObject({ id: ms.id });
      } finally {
        if (previous === undefined) delete process.env[DATABASE_URL_ENV];
        else process.env[DATABASE_URL_ENV] = previous;
      }
    });

    it('answers the compared queries (the suite after this one compares the backends)', async () => {
      const mine = new Map<string, string[]>();
      for (const q of COMPARED) mine.set(q, comparable(await search(q)));
      expect([...mine.values()].filter((h) => h.length > 0).length).toBeGreaterThan(10);
      seenBy.set(backend.name, mine);
    });
  });
}

describe.skipIf(backendCases.some((b) => b.skip) || !hasCorpora())('pkgscan search on both backends', () => {
  it('gives the same hits for the same queries on SQLite and on PostgreSQL', () => {
    const sqlite = seenBy.get('sqlite');
    const postgres = seenBy.get('postgres');
    expect(sqlite).toBeDefined();
    expect(postgres).toBeDefined();
    for (const q of COMPARED) expect(postgres?.get(q), q).toEqual(sqlite?.get(q));
  });
});
