// The package store routes with real sign-ins: upload (raw body, permission, audit, idempotence, refusals) and the paginated list.
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Request } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../core/contracts/pkgscan.js';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import type { Platform } from '../platform.js';
import { startSignedIn, type Session, type TestServer } from '../server.fixture.js';
import { readRawBody } from './http.js';
import { artifactBytes } from './store.js';
import { listArtifacts } from './store.js';
import { npmTarball, sdist, tgz } from './archives.fixture.js';

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

function upload(token: string, bytes: Uint8Array, query: string, type = 'application/octet-stream'): Promise<Response> {
  return fetch(`${api}/packages/import?${query}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': type }, body: bytes });
}

describe('POST /packages/import and GET /packages/store', () => {
  it.skipIf(!hasCorpora())('stores an upload (201), audits it, answers 200 on the same bytes again, and lists it', async () => {
    const bytes = new Uint8Array(await readFile(corpusPath('packages', 'benign', 'npm', 'ms-2.1.3.tgz')));
    const token = sessions.developer.token;
    const res = await upload(token, bytes, 'filename=ms-2.1.3.tgz&ecosystem=npm');
    expect(res.status).toBe(201);
    const a = (await res.json()) as { id: string; sha256: string; name: string; source: string; imported_by: string };
    expect(a).toMatchObject({ name: 'ms', source: 'upload', imported_by: sessions.developer.id });
    expect(artifactBytes(dataDir, a.sha256)).toEqual(bytes);
    const audit = await platform.audit.page({ action: 'package.import' }, 10, 0);
    expect(audit.items[0]).toMatchObject({ actor: sessions.developer.id, details: { artifact_id: a.id, name: 'ms', created: true } });
    expect((await upload(token, bytes, 'filename=ms-2.1.3.tgz')).status).toBe(200);
    const list = await fetch(`${api}/packages/store?ecosystem=npm&q=m&limit=5`, { headers: { authorization: `Bearer ${sessions.read_only.token}` } });
    expect(list.status).toBe(200);
    expect(await list.json()).toMatchObject({ total: 1, limit: 5, offset: 0, items: [{ id: a.id }] });
  });

  it('refuses without the permission, a wrong media type, a bad filename, a non-package', async () => {
    const bytes = await npmTarball('route-pkg', '1.0.0');
    expect((await upload(sessions.read_only.token, bytes, 'filename=a.tgz')).status).toBe(403);
    expect((await upload(sessions.auditor.token, bytes, 'filename=a.tgz')).status).toBe(403);
    expect((await upload(sessions.developer.token, bytes, 'filename=a.tgz', 'application/json')).status).toBe(415);
    expect((await upload(sessions.developer.token, bytes, 'filename=../../etc/passwd')).status).toBe(400);
    expect((await upload(sessions.developer.token, bytes, 'filename=a.tgz&ecosystem=cargo')).status).toBe(400);
    const bad = await upload(sessions.developer.token, new TextEncoder().encode('hello'), 'filename=a.tgz');
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('validation_failed');
    expect((await upload(sessions.security_analyst.token, bytes, 'filename=route-pkg-1.0.0.tgz')).status).toBe(201);
    const list = await fetch(`${api}/packages/store?ecosystem=rust`, { headers: { authorization: `Bearer ${sessions.read_only.token}` } });
    expect(list.status).toBe(400);
  });
});

describe('readRawBody', () => {
  const req = (chunks: string[], headers: Record<string, string>): Request => Object.assign(Readable.from(chunks.map((c) => Buffer.from(c))), { headers }) as unknown as Request;
  it('refuses by declared length before reading, and by counted bytes while reading', async () => {
    await expect(readRawBody(req(['x'], { 'content-type': 'application/octet-stream', 'content-length': '11' }), 10)).rejects.toMatchObject({ code: 'payload_too_large' });
    await expect(readRawBody(req(['12345', '67890', '1'], { 'content-type': 'application/octet-stream' }), 10)).rejects.toMatchObject({ code: 'payload_too_large' });
    expect(await readRawBody(req(['12345', '67890'], { 'content-type': 'Application/Octet-Stream; x=1' }), 10)).toEqual(new TextEncoder().encode('1234567890'));
    await expect(readRawBody(req([], {}), 10)).rejects.toMatchObject({ code: 'unsupported_media_type' });
  });

  it('takes identity from the archive only: a forged file name, ecosystem or an archive without metadata is 422 naming the field, and nothing is stored', async () => {
    const token = sessions.developer.token;
    const before = listArtifacts(platform.db, {}, { limit: 500, offset: 0 }).total;
    const answer = async (res: Response): Promise<{ status: number; code: string; path: string | undefined; message: string }> => {
      const body = (await res.json()) as { error: { code: string; message: string; details?: { path: string }[] } };
      return { status: res.status, code: body.error.code, path: body.error.details?.[0]?.path, message: body.error.message };
    };
    // A Python sdist sent as npm `ms` 2.1.4: the archive is PyPI's jinja2, the query says npm.
    const jinja = await sdist('Jinja2', '3.1.4');
    expect(await answer(await upload(token, jinja, 'filename=ms-2.1.4.tgz&ecosystem=npm'))).toMatchObject({ status: 422, code: 'validation_failed', path: 'ecosystem' });
    // The same without the ecosystem: the file name names another package than the archive declares.
    expect(await answer(await upload(token, jinja, 'filename=ms-2.1.4.tgz'))).toMatchObject({ status: 422, path: 'filename', message: expect.stringContaining('name disagrees') as unknown as string });
    // A tar.gz that holds only a README, named like an express release: no identity of its own.
    const readme = await tgz({ 'README.md': '# express\n' });
    expect(await answer(await upload(token, readme, 'filename=express-9.9.9.tgz&ecosystem=npm'))).toMatchObject({ status: 422, path: 'archive' });
    expect(await answer(await upload(token, readme, 'filename=express-9.9.9.tgz'))).toMatchObject({ status: 422 });
    // A real npm package under another release's file name: the version disagrees.
    const real = await npmTarball('ms', '2.1.3');
    expect(await answer(await upload(token, real, 'filename=ms-2.1.4.tgz&ecosystem=npm'))).toMatchObject({ status: 422, path: 'filename', message: expect.stringContaining('version disagrees') as unknown as string });
    expect(listArtifacts(platform.db, {}, { limit: 500, offset: 0 }).total).toBe(before);
    expect(listArtifacts(platform.db, { ecosystem: 'npm', name: 'ms' }, { limit: 500, offset: 0 }).items.map((a) => a.version)).not.toContain('2.1.4');
    expect(listArtifacts(platform.db, { ecosystem: 'npm', name: 'express' }, { limit: 500, offset: 0 }).total).toBe(0);
    // The archive's own identity, with a file name that does not parse as a release, is taken.
    const ok = await upload(token, jinja, 'filename=upload.tgz');
    expect(ok.status).toBe(201);
    expect(await ok.json()).toMatchObject({ ecosystem: 'pypi', name: 'jinja2', version: '3.1.4' });
  });
});
