// Attestations over HTTP: POST /packages/store/{id}/attestations beside POST /packages/import, verified offline in a worker job; and the provenance downgrade rule end to end (a verified release, then a later one without, scanned in prod).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role, ScanVerdict } from '../../core/contracts/pkgscan.js';
import type { Platform } from '../platform.js';
import { startSignedIn, type Session, type TestServer } from '../server.fixture.js';
import { getArtifact, type StoredArtifact } from './store.js';
import { npmTarball } from './archives.fixture.js';

const testdata = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'provenance', 'testdata');

let server: TestServer;
let platform: Platform;
let sessions: Record<Role, Session>;
let api: string;

beforeAll(async () => {
  ({ server, platform, sessions, api } = await startSignedIn());
});

afterAll(async () => {
  await server.close();
});

async function importArchive(token: string, file: string, bytes?: Uint8Array): Promise<StoredArtifact> {
  const body = bytes ?? new Uint8Array(await readFile(path.join(testdata, file)));
  const res = await fetch(`${api}/packages/import?filename=${file}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' }, body });
  expect([200, 201]).toContain(res.status);
  return (await res.json()) as StoredArtifact;
}

function attach(token: string, id: string, body: string | Uint8Array, type = 'application/json'): Promise<Response> {
  return fetch(`${api}/packages/store/${id}/attestations`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': type }, body });
}

interface AttachAnswer {
  artifact: StoredArtifact;
  provenance: { status: string; kind: string | null; source_repository: string | null };
  problems: string[];
}

async function scan(token: string, name: string, version: string, environment: string): Promise<ScanVerdict> {
  const res = await fetch(`${api}/scans`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ ecosystem: 'npm', name, version, environment }) });
  expect(res.status).toBe(200);
  return (await res.json()) as ScanVerdict;
}

describe('POST /packages/store/{id}/attestations', () => {
  it('npm: the real attestations document of @playwright/cli 0.1.1 verifies offline against the stored tarball and is stored with the release; audited', async () => {
    const token = sessions.developer.token;
    const a = await importArchive(token, 'playwright-cli-0.1.1.tgz');
    expect(a).toMatchObject({ ecosystem: 'npm', name: '@playwright/cli', version: '0.1.1' });
    const doc = await readFile(path.join(testdata, 'playwright-cli-0.1.1.attestations.json'), 'utf8');
    const res = await attach(token, a.id, doc);
    expect(res.status).toBe(200);
    const body = (await res.json()) as AttachAnswer;
    expect(body.provenance).toMatchObject({ status: 'verified', kind: 'npm-provenance' });
    expect(body.provenance.source_repository).toMatch(/github\.com/);
    expect(body.problems).toEqual([]);
    expect(body.artifact.registry?.attestations?.length).toBe(1);
    expect(getArtifact(platform.db, a.id)?.registry?.attestations?.length).toBe(1);
    const audit = await platform.audit.page({ action: 'package.attestations' }, 10, 0);
    expect(audit.items[0]).toMatchObject({ actor: sessions.developer.id, details: { artifact_id: a.id, status: 'verified', kind: 'npm-provenance' } });
  });

  it('PyPI: a tampered PEP 740 provenance object is stored and reads invalid with the reason; the real one then replaces it and verifies', async () => {
    const token = sessions.developer.token;
    const a = await importArchive(token, 'pypi_attestations-0.0.19.tar.gz');
    const real = await readFile(path.join(testdata, 'pypi_attestations-0.0.19.tar.gz.provenance'), 'utf8');
    const doc = JSON.parse(real) as { attestation_bundles: { attestations: { envelope: { signature: string } }[] }[] };
    const env = doc.attestation_bundles[0]?.attestations[0]?.envelope;
    expect(env).toBeDefined();
    if (env !== undefined) env.signature = Buffer.from('x'.repeat(70)).toString('base64');
    const bad = await attach(token, a.id, JSON.stringify(doc));
    expect(bad.status).toBe(200);
    const badBody = (await bad.json()) as AttachAnswer;
    expect(badBody.provenance.status).toBe('invalid');
    expect(badBody.problems.length).toBeGreaterThan(0);
    expect(badBody.problems[0]).toMatch(/^Provenance invalid/);
    const good = (await (await attach(token, a.id, real)).json()) as AttachAnswer;
    expect(good.provenance).toMatchObject({ status: 'verified', kind: 'pep740' });
    // Replaced, not appended: one provenance object.
    expect(good.artifact.registry?.attestations?.length).toBe(1);
  });

  it('npm: a document for other bytes (the real attestations attached to another tarball of the same name) is invalid', async () => {
    const token = sessions.developer.token;
    const other = await importArchive(token, 'playwright-cli-0.1.1.tgz', await npmTarball('@playwright/cli', '0.1.1', { description: 'not the published bytes' }));
    const doc = await readFile(path.join(testdata, 'playwright-cli-0.1.1.attestations.json'), 'utf8');
    const body = (await (await attach(token, other.id, doc)).json()) as AttachAnswer;
    expect(body.provenance.status).toBe('invalid');
  });

  it('refuses: another media type (415), not JSON or not an object (422), too large (413), an unknown release (404), a role without scan:create (403)', async () => {
    const token = sessions.developer.token;
    const a = await importArchive(token, 'playwright-cli-0.1.1.tgz');
    expect((await attach(token, a.id, '{}', 'application/octet-stream')).status).toBe(415);
    const notJson = await attach(token, a.id, 'not json');
    expect(notJson.status).toBe(422);
    expect(((await notJson.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'validation_failed' });
    expect((await attach(token, a.id, '[1, 2]')).status).toBe(422);
    expect((await attach(token, a.id, '')).status).toBe(422);
    const big = `{"pad":"${'a'.repeat(4 * 1024 * 1024)}"}`;
    expect((await attach(token, a.id, big)).status).toBe(413);
    expect((await attach(token, '00000000-0000-4000-8000-000000000000', '{}')).status).toBe(404);
    expect((await attach(token, 'not-an-id', '{}')).status).toBe(404);
    expect((await attach(sessions.read_only.token, a.id, '{}')).status).toBe(403);
    // Nothing above changed what the release carries.
    expect(getArtifact(platform.db, a.id)?.registry?.attestations?.length).toBe(1);
  });
});

describe('provenance downgrade, end to end', () => {
  // A store of its own: the tests above also store another archive claiming @playwright/cli 0.1.1.
  beforeAll(async () => {
    await server.close();
    ({ server, platform, sessions, api } = await startSignedIn());
  });

  it('a verified @playwright/cli 0.1.1, then 0.1.2 without attestations: prod blocks 0.1.2 with the downgrade reason; dev only warns', async () => {
    const token = sessions.security_analyst.token;
    const first = await importArchive(token, 'playwright-cli-0.1.1.tgz');
    const doc = await readFile(path.join(testdata, 'playwright-cli-0.1.1.attestations.json'), 'utf8');
    expect(((await (await attach(token, first.id, doc)).json()) as AttachAnswer).provenance.status).toBe('verified');
    const v1 = await scan(token, '@playwright/cli', '0.1.1', 'prod');
    expect(v1.provenance.status).toBe('verified');
    expect(v1.policy_reasons.map((r) => r.rule)).not.toContain('provenance.downgrade');
    expect(v1.policy_reasons.filter((r) => r.rule.startsWith('provenance'))).toEqual([]);

    await importArchive(token, 'playwright-cli-0.1.2.tgz', await npmTarball('@playwright/cli', '0.1.2', { bin: { 'playwright-cli': 'index.js' } }));
    const v2 = await scan(token, '@playwright/cli', '0.1.2', 'prod');
    expect(v2.provenance.status).toBe('absent');
    expect(v2.decision).toBe('block');
    const reason = v2.policy_reasons.find((r) => r.rule === 'provenance.downgrade');
    expect(reason).toMatchObject({ effect: 'block' });
    expect(reason?.message).toMatch(/earlier release .* verified provenance/);
    const dev = await scan(token, '@playwright/cli', '0.1.2', 'dev');
    expect(dev.policy_reasons.find((r) => r.rule === 'provenance.downgrade')).toMatchObject({ effect: 'warn' });
  });
});
