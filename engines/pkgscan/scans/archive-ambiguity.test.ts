// An archive the installer reads differently from the analysis (a duplicate package.json: npm keeps the last) is a high finding, incomplete, and never allowed.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScanVerdict } from '../../core/contracts/pkgscan.js';
import { buildTar } from '../../core/archive/build.fixture.js';
import { call, sessionsByRole, startServer, type Session, type TestServer } from '../testutil.js';
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
});
