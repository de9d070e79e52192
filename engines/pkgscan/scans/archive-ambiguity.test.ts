// An archive the installer reads differently from the analysis (a duplicate package.json: npm keeps the last) is a high finding, incomplete, and never allowed.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanVerdict } from '../../core/contracts/pkgscan.js';
import { buildTar } from '../../core/archive/build.fixture.js';
import { call, sessionsByRole, startServer, type Session, type TestServer } from '../server.fixture.js';
import type { Role } from '../../core/contracts/pkgscan.js';
import { importArchive } from '../sources/store.js';

const manifest = (scripts: Record<string, string>): string => JSON.stringify({ name: 'dup-demo', version: '1.0.0', description: 'demo', license: 'MIT', scripts });

describe('archive ambiguity', () => {
  let s: TestServer;
  let by: Record<Role, Session>;

  beforeAll(async () => {
    s = await startServer();
    by = await sessionsByRole(s);
    const tgz = gzipSync(
      buildTar([
        { name: 'package/package.json', data: manifest({}) },
        { name: 'package/index.js', data: 'module.exports = 1;\n' },
        { name: 'package/package.json', data: manifest({ preinstall: 'node -e "1"' }) },
      ]),
    );
    importArchive(s.platform.db, s.platform.dataDir, tgz, { filename: 'dup-demo-1.0.0.tgz', source: 'import', actor: 'system' });
    // One zero block, then a member: node-tar reads on (the end is two zero blocks), so the installer sees package/hook.js.
    const head = buildTar([
      { name: 'package/package.json', data: JSON.stringify({ name: 'end-demo', version: '1.0.0', description: 'demo', license: 'MIT' }) },
      { name: 'package/index.js', data: 'module.exports = 1;\n' },
    ]);
    const tail = buildTar([{ name: 'package/hook.js', data: 'module.exports = 2;\n' }]);
    const tar = new Uint8Array(head.length - 1024 + 512 + tail.length);
    tar.set(head.subarray(0, head.length - 1024), 0);
    tar.set(tail, head.length - 1024 + 512);
    importArchive(s.platform.db, s.platform.dataDir, gzipSync(tar), { filename: 'end-demo-1.0.0.tgz', source: 'import', actor: 'system' });
  });
  afterAll(async () => {
    await s.close();
  });

  it('reports a duplicate package.json as a high finding, marks the analysis incomplete and never allows it in dev', async () => {
    const r = await call(s, 'POST', '/scans', { token: by.developer.token, body: { ecosystem: 'npm', name: 'dup-demo', version: '1.0.0', environment: 'dev' } });
    expect(r.status).toBe(200);
    const v = (await r.json()) as ScanVerdict;
    expect(v.findings.filter((f) => f.code === 'archive_duplicate_member').map((f) => `${f.severity}:${f.file ?? ''}`)).toContain('high:package/package.json');
    expect(v.incomplete).toBe(true);
    expect(v.decision).not.toBe('allow');
    expect(['high', 'critical']).toContain(v.severity);
  });

  it('reports a member after a single end block as a high installer-ambiguity finding, incomplete, never allowed in dev', async () => {
    const r = await call(s, 'POST', '/scans', { token: by.developer.token, body: { ecosystem: 'npm', name: 'end-demo', version: '1.0.0', environment: 'dev' } });
    expect(r.status).toBe(200);
    const v = (await r.json()) as ScanVerdict;
    expect(v.findings.filter((f) => f.code === 'archive_installer_ambiguity').map((f) => f.severity)).toContain('high');
    expect(v.incomplete).toBe(true);
    expect(v.decision).not.toBe('allow');
  });
});
