// Offline provenance through the import: attestation files saved next to archives are stored with the release and verified offline with the shipped trust root when it is analysed.
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMemoryStore } from '../../core/store.js';
import { analyzeStored } from '../scans/analysis.js';
import { migrations } from '../store.js';
import { attestationCandidates, importPaths } from './import.js';
import type { StoredArtifact } from './store.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const testdata = path.resolve(here, '..', 'provenance', 'testdata');
const resourcesDir = path.resolve(here, '..', '..', '..', 'resources');

let dir: string;
let dataDir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'pkgscan-att-'));
  dataDir = await mkdtemp(path.join(tmpdir(), 'pkgscan-att-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(dataDir, { recursive: true, force: true });
});

async function analyse(a: StoredArtifact) {
  return analyzeStored(
    { dataDir, resourcesDir, sha256: a.sha256, filename: a.filename, ecosystem: a.ecosystem, registry: a.registry as never, internalNamespaces: [] },
    { signal: new AbortController().signal, progress: () => undefined },
  );
}

describe('attestation files beside archives', () => {
  it('names the files it looks for per ecosystem', () => {
    expect(attestationCandidates('/x/cli-0.1.1.tgz', 'npm')).toEqual(['/x/cli-0.1.1.tgz.attestations.json', '/x/cli-0.1.1.attestations.json']);
    expect(attestationCandidates('/x/p-1.0.tar.gz', 'pypi')).toEqual(['/x/p-1.0.tar.gz.provenance', '/x/p-1.0.tar.gz.publish.attestation']);
  });

  it('npm: the registry attestations document next to the tarball verifies offline (SLSA provenance); without it the release has none', async () => {
    const db = openMemoryStore([{ name: 'pkgscan', migrations }]);
    await copyFile(path.join(testdata, 'playwright-cli-0.1.1.tgz'), path.join(dir, 'playwright-cli-0.1.1.tgz'));
    await copyFile(path.join(testdata, 'playwright-cli-0.1.1.attestations.json'), path.join(dir, 'playwright-cli-0.1.1.attestations.json'));
    const [r] = await importPaths(db, dataDir, [path.join(dir, 'playwright-cli-0.1.1.tgz')], 'u1');
    expect(r).toMatchObject({ status: 'imported', artifact: { ecosystem: 'npm', name: '@playwright/cli', version: '0.1.1' } });
    expect(r?.artifact?.registry?.attestations?.length).toBe(1);
    const analysis = await analyse(r?.artifact as StoredArtifact);
    expect(analysis.provenance).toMatchObject({ status: 'verified', kind: 'npm-provenance' });
    expect(analysis.provenance.source_repository).toMatch(/github\.com/);

    const bare = openMemoryStore([{ name: 'pkgscan', migrations }]);
    const other = await mkdtemp(path.join(tmpdir(), 'pkgscan-att-bare-'));
    try {
      await copyFile(path.join(testdata, 'playwright-cli-0.1.1.tgz'), path.join(other, 'playwright-cli-0.1.1.tgz'));
      const [b] = await importPaths(bare, dataDir, [path.join(other, 'playwright-cli-0.1.1.tgz')], 'u1');
      expect(b?.artifact?.registry).toBeNull();
      expect((await analyse(b?.artifact as StoredArtifact)).provenance.status).toBe('absent');
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });

  it('PyPI: the PEP 740 provenance object next to the sdist verifies offline; a tampered one is invalid', async () => {
    const db = openMemoryStore([{ name: 'pkgscan', migrations }]);
    await copyFile(path.join(testdata, 'pypi_attestations-0.0.19.tar.gz'), path.join(dir, 'pypi_attestations-0.0.19.tar.gz'));
    await copyFile(path.join(testdata, 'pypi_attestations-0.0.19.tar.gz.provenance'), path.join(dir, 'pypi_attestations-0.0.19.tar.gz.provenance'));
    const [r] = await importPaths(db, dataDir, [path.join(dir, 'pypi_attestations-0.0.19.tar.gz')], 'u1');
    expect(r).toMatchObject({ status: 'imported', artifact: { ecosystem: 'pypi', name: 'pypi-attestations', version: '0.0.19' } });
    expect((await analyse(r?.artifact as StoredArtifact)).provenance).toMatchObject({ status: 'verified', kind: 'pep740' });

    const db2 = openMemoryStore([{ name: 'pkgscan', migrations }]);
    const other = await mkdtemp(path.join(tmpdir(), 'pkgscan-att-bad-'));
    try {
      await copyFile(path.join(testdata, 'pypi_attestations-0.0.19.tar.gz'), path.join(other, 'pypi_attestations-0.0.19.tar.gz'));
      const doc = JSON.parse(await (await import('node:fs/promises')).readFile(path.join(testdata, 'pypi_attestations-0.0.19.tar.gz.provenance'), 'utf8')) as { attestation_bundles: { attestations: { envelope: { signature: string } }[] }[] };
      const env = doc.attestation_bundles[0]?.attestations[0]?.envelope;
      if (env !== undefined) env.signature = Buffer.from('x'.repeat(70)).toString('base64');
      await writeFile(path.join(other, 'pypi_attestations-0.0.19.tar.gz.provenance'), JSON.stringify(doc));
      const [b] = await importPaths(db2, dataDir, [path.join(other, 'pypi_attestations-0.0.19.tar.gz')], 'u1');
      expect((await analyse(b?.artifact as StoredArtifact)).provenance.status).toBe('invalid');
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });
});
