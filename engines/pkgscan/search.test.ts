// Packages' search provider over a store filled through pkgscan's own routes: corpus archives imported into the
// package store (read as bytes, never run), scanned with POST /scans, and a project scanned with POST /projects/:id/scans.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role, ScanVerdict } from '../core/contracts/pkgscan.js';
import type { Project } from '../core/contracts/pkgscan-projects.js';
import { classifyQuery } from '../core/search.js';
import { corpusPath, hasCorpora } from '../../test/corpora.js';
import { pkgscanSearch } from './search.js';
import { importArchive } from './sources/store.js';
import { call, sessionsByRole, startServer, type Session, type TestServer } from './server.fixture.js';

describe.skipIf(!hasCorpora())('pkgscan search', () => {
  let s: TestServer;
  let by: Record<Role, Session>;
  let ms: ScanVerdict;
  let bad: ScanVerdict;
  let projectScanId: string;

  beforeAll(async () => {
    s = await startServer();
    by = await sessionsByRole(s);
    for (const f of ['benign/npm/ms-2.1.3.tgz', 'malicious/npm/nequi-api-utils-9.9.9.tgz']) {
      importArchive(s.platform.db, s.platform.dataDir, readFileSync(corpusPath('packages', f)), { filename: f.split('/').pop() ?? f, source: 'import', actor: 'system' });
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
  });
  afterAll(async () => {
    await s.close();
  });

  it('finds a scan and the stored archive by package name, name@version, purl and npm:name', () => {
    const db = s.platform.db;
    for (const q of ['ms', 'ms@2.1.3', 'pkg:npm/ms@2.1.3', 'npm:ms']) {
      const hits = pkgscanSearch.search(db, classifyQuery(q), 10);
      expect(hits.find((h) => h.kind === 'scan'), q).toMatchObject({ id: ms.id, field: 'package', rank: 3, link: { service: 'pkgscan', kind: 'scan', id: ms.id } });
      expect(hits.some((h) => h.kind === 'artifact'), q).toBe(true);
    }
    expect(pkgscanSearch.search(db, classifyQuery('ms@9.9.9'), 10)).toEqual([]);
    expect(pkgscanSearch.search(db, classifyQuery('pypi:ms'), 10)).toEqual([]);
  });

  it('gives one package hit per package name (scanned or stored), opening its Package page', () => {
    const db = s.platform.db;
    const link = { service: 'pkgscan', kind: 'package', id: 'npm:ms' };
    for (const q of ['ms', 'ms@2.1.3', 'pkg:npm/ms@2.1.3', 'npm:ms']) {
      const hits = pkgscanSearch.search(db, classifyQuery(q), 10).filter((h) => h.kind === 'package');
      expect(hits, q).toEqual([expect.objectContaining({ id: 'npm:ms', field: 'package', rank: 3, link, snippet: '1 scan; versions seen: 2.1.3' })]);
    }
    expect(pkgscanSearch.search(db, classifyQuery('nequi-api-utils'), 10).filter((h) => h.kind === 'package')).toEqual([
      expect.objectContaining({ id: 'npm:nequi-api-utils', title: 'nequi-api-utils (npm) · package page', link: { service: 'pkgscan', kind: 'package', id: 'npm:nequi-api-utils' } }),
    ]);
    // A version never seen, another ecosystem, a name that only contains the query, a hash: no package hit.
    for (const q of ['ms@9.9.9', 'pypi:ms', 'nequi', ms.package.sha256]) expect(pkgscanSearch.search(db, classifyQuery(q), 10).filter((h) => h.kind === 'package'), q).toEqual([]);
  });

  it('finds a scan by its package SHA-256 and the malicious one by name, never showing who ran it', () => {
    const db = s.platform.db;
    const byHash = pkgscanSearch.search(db, classifyQuery(bad.package.sha256), 10);
    expect(byHash.map((h) => h.kind).sort()).toEqual(['artifact', 'scan']);
    expect(byHash.find((h) => h.kind === 'scan')).toMatchObject({ id: bad.id, field: 'package sha256' });
    const byName = pkgscanSearch.search(db, classifyQuery('nequi-api-utils'), 10);
    expect(byName.find((h) => h.kind === 'scan')?.title).toBe('nequi-api-utils@9.9.9 (npm) · block in prod');
    expect(pkgscanSearch.search(db, classifyQuery('developer@example.org'), 10)).toEqual([]);
    expect(JSON.stringify(byName)).not.toContain('@example.org');
  });

  it('finds a project scan by a component and by the project name', () => {
    const db = s.platform.db;
    expect(pkgscanSearch.search(db, classifyQuery('pypi:flask'), 10)).toContainEqual(expect.objectContaining({ kind: 'project-scan', id: projectScanId, field: 'component', title: expect.stringContaining('Billing API') }));
    expect(pkgscanSearch.search(db, classifyQuery('billing'), 10)).toContainEqual(expect.objectContaining({ kind: 'project-scan', id: projectScanId, field: 'project' }));
  });
});
