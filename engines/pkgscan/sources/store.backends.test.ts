// The package store's index on both backends (one parameterised suite): record, list, read, look up, registry updates
// and racing records of one archive; on PostgreSQL two servers sharing the archive folder (PKGSCAN_STORE_DIR): a release
// uploaded through one is listed, read and scanned through the other, its audit entry committed with its row.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditEntry, PackageOverview, PageOf, ScanVerdict } from '../../core/contracts/pkgscan.js';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { backendCases, backendFixture } from '../../../test/postgres/backends.js';
import { STORE_DIR_ENV } from '../db/url.js';
import { call, createUser, loginAs, startServer } from '../server.fixture.js';
import { identifyArchive, lookupArtifact, queryArtifacts, readArtifact, saveArtifact, storeArchive, StoreSource, updateArtifactRegistry, type StoredArtifact } from './store.js';
import { npmTarball } from './archives.fixture.js';

const fixture = backendFixture();

for (const backend of backendCases) {
  describe.skipIf(backend.skip)(`package store index on ${backend.title}`, () => {
    it('records once per release and digest, lists, reads, looks up and updates registry information', async () => {
      const b = await fixture.open(backend.name);
      const dataDir = await mkdtemp(path.join(tmpdir(), 'pkgscan-store-backends-'));
      try {
        const v1 = await storeArchive(b.store, dataDir, await npmTarball('@lab/thing', '1.0.0'), { source: 'import', actor: 'system' });
        expect(v1.created).toBe(true);
        expect(v1.artifact).toMatchObject({ ecosystem: 'npm', name: '@lab/thing', version: '1.0.0', source: 'import', registry: null });
        expect(typeof v1.artifact.size).toBe('number');
        const again = await storeArchive(b.store, dataDir, await npmTarball('@lab/thing', '1.0.0'), { source: 'upload', actor: 'u2', registry: { versions: ['1.0.0'] } });
        expect(again.created).toBe(false);
        expect(again.artifact.id).toBe(v1.artifact.id);
        // Registry information is added to a row that had none; the first import's source and actor stay.
        expect(again.artifact).toMatchObject({ source: 'import', imported_by: 'system', registry: { versions: ['1.0.0'] } });
        await storeArchive(b.store, dataDir, await npmTarball('@lab/thing', '1.1.0'), { source: 'npm-mirror', actor: 'system' });
        await storeArchive(b.store, dataDir, await npmTarball('other', '2.0.0'), { source: 'upload', actor: 'system' });

        const all = await queryArtifacts(b.store, {}, { limit: 10, offset: 0 });
        expect(all.total).toBe(3);
        expect((await queryArtifacts(b.store, { q: 'THI' }, { limit: 10, offset: 0 })).items.map((a) => a.version).sort()).toEqual(['1.0.0', '1.1.0']);
        expect((await queryArtifacts(b.store, { q: '%' }, { limit: 10, offset: 0 })).total).toBe(0);
        expect((await queryArtifacts(b.store, { source: 'npm-mirror' }, { limit: 10, offset: 0 })).items.map((a) => a.version)).toEqual(['1.1.0']);
        expect((await queryArtifacts(b.store, { ecosystem: 'npm', name: 'other' }, { limit: 1, offset: 0 })).total).toBe(1);
        expect((await queryArtifacts(b.store, {}, { limit: 2, offset: 2 })).items).toHaveLength(1);

        expect((await readArtifact(b.store, v1.artifact.id))?.registry).toEqual({ versions: ['1.0.0'] });
        expect(await readArtifact(b.store, '00000000-0000-4000-8000-000000000000')).toBeNull();
        expect((await lookupArtifact(b.store, 'npm', '@lab/thing', '1.1.0'))?.source).toBe('npm-mirror');
        expect(await lookupArtifact(b.store, 'npm', '@lab/thing', '9.9.9')).toBeNull();
        const updated = await updateArtifactRegistry(b.store, v1.artifact.id, { versions: ['1.0.0', '1.1.0'] });
        expect(updated?.registry).toEqual({ versions: ['1.0.0', '1.1.0'] });

        const source = new StoreSource(b.store);
        expect([...(await source.versions('npm', '@lab/thing'))].sort()).toEqual(['1.0.0', '1.1.0']);
        expect(await source.fetch('npm', '@lab/thing', '1.0.0')).toMatchObject({ name: '@lab/thing', version: '1.0.0', sha256: v1.artifact.sha256, source: 'store' });
        expect(await source.fetch('npm', '@lab/thing', '3.0.0')).toBeNull();
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    });

    it('records one row when two connections record the same archive at once', async () => {
      const b = await fixture.open(backend.name);
      const identity = identifyArchive(await npmTarball('racer', '1.0.0'), {});
      const other = b.another();
      const results = await Promise.all([
        ...Array.from({ length: 4 }, () => saveArtifact(b.store, identity, { source: 'upload', actor: 'a' })),
        ...Array.from({ length: 4 }, () => saveArtifact(other, identity, { source: 'upload', actor: 'b' })),
      ]);
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.artifact.id)).size).toBe(1);
      expect((await queryArtifacts(other, { name: 'racer' }, { limit: 10, offset: 0 })).total).toBe(1);
    });

    it.skipIf(backend.name !== 'postgres' || !hasCorpora())('two servers sharing the archive folder: a release uploaded through A is listed, read and scanned through B', async () => {
      const b = await fixture.open(backend.name);
      const storeDir = await mkdtemp(path.join(tmpdir(), 'pkgscan-shared-store-'));
      const previous = process.env[STORE_DIR_ENV];
      process.env[STORE_DIR_ENV] = storeDir;
      const config = { databaseUrl: b.url as string };
      const one = await startServer(config);
      const two = await startServer(config);
      if (previous === undefined) delete process.env[STORE_DIR_ENV];
      else process.env[STORE_DIR_ENV] = previous;
      try {
        expect(one.platform.dataDir).toBe(storeDir);
        expect(two.platform.dataDir).toBe(storeDir);
        await createUser(one, 'admin', 'root@example.org');
        const admin = await loginAs(one, 'root@example.org');
        const bytes = new Uint8Array(await readFile(corpusPath('packages', 'benign', 'npm', 'ms-2.1.3.tgz')));
        const up = await fetch(`${one.api}/packages/import?filename=ms-2.1.3.tgz`, { method: 'POST', headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/octet-stream' }, body: bytes });
        expect(up.status).toBe(201);
        const artifact = (await up.json()) as StoredArtifact;
        const listed = (await (await call(two, 'GET', '/packages/store?ecosystem=npm', { token: admin.token })).json()) as PageOf<StoredArtifact>;
        expect(listed.items.map((a) => a.id)).toEqual([artifact.id]);
        // The same bytes through B are already stored: 200, the one row.
        const again = await fetch(`${two.api}/packages/import?filename=ms-2.1.3.tgz`, { method: 'POST', headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/octet-stream' }, body: bytes });
        expect(again.status).toBe(200);
        expect(((await again.json()) as StoredArtifact).id).toBe(artifact.id);
        const scan = await call(two, 'POST', '/scans', { token: admin.token, body: { ecosystem: 'npm', name: 'ms', version: '2.1.3', environment: 'dev' } });
        expect(scan.status).toBe(200);
        const verdict = (await scan.json()) as ScanVerdict;
        expect([verdict.name, verdict.version, verdict.package.sha256]).toEqual(['ms', '2.1.3', artifact.sha256]);
        const page = (await (await call(one, 'GET', '/packages/npm/ms', { token: admin.token })).json()) as PackageOverview;
        expect(page.stored_releases.map((a) => a.sha256)).toEqual([artifact.sha256]);
        // Each upload's audit entry committed with its row, in the one chain both servers read.
        const audit = (await (await call(two, 'GET', '/audit?action=package.import', { token: admin.token })).json()) as PageOf<AuditEntry>;
        expect(audit.items.map((e) => [e.details['artifact_id'], e.details['created']]).reverse()).toEqual([[artifact.id, true], [artifact.id, false]]);
      } finally {
        await one.close();
        await two.close();
        await rm(storeDir, { recursive: true, force: true });
      }
    });
  });
}
