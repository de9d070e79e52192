// The pkgscan command line: first admin from stdin (never a default password), audit verification, usage errors.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { InProcessRunner } from '../core/jobs/in-process.js';
import { openMemoryStore } from '../core/store.js';
import { modulesLoadedByHelp } from '../core/cli-load.fixture.js';
import { main, type JobWorkers } from './cli.js';
import { jobs } from './jobs.js';
import { PROJECT_ANALYZE_JOB, PROJECT_FINISH_JOB } from './projects/jobs.js';
import { pkgscanService } from './service.js';
import { npmTarball } from './sources/archives.fixture.js';
import { findUserByEmail } from './users/users.js';

const stdin = (text: string): Readable => Readable.from([text]);

describe('pkgscan command line', () => {
  it('create-admin reads the password from stdin, refuses a short one, refuses a second admin without --force', async () => {
    const db = openMemoryStore([pkgscanService]);
    const short = await main(['create-admin', '--email', 'root@example.org'], { stdin: stdin('short\n'), db });
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/at least 12/);
    expect(short.stderr).not.toContain('short\n');
    const ok = await main(['create-admin', '--email', 'root@example.org'], { stdin: stdin('a long admin password\n'), db });
    expect(ok.code).toBe(0);
    expect(findUserByEmail(db, 'root@example.org')?.role).toBe('admin');
    expect(findUserByEmail(db, 'root@example.org')?.password_hash).toMatch(/^scrypt\$32768\$8\$3\$/);
    const second = await main(['create-admin', '--email', 'two@example.org'], { stdin: stdin('a long admin password\n'), db });
    expect(second.code).toBe(2);
    const auditor = await main(['create-admin', '--email', 'aud@example.org', '--role', 'auditor'], { stdin: stdin('a long auditor password\n'), db });
    expect(auditor.code).toBe(0);
    const v = await main(['verify-audit'], { stdin: stdin(''), db });
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/^ok 2 entries, head [0-9a-f]{64}/);
    const head = /head ([0-9a-f]{64})/.exec(v.stdout)?.[1] ?? '';
    expect((await main(['verify-audit', '--expect-head', head, '--expect-count', '2'], { stdin: stdin(''), db })).code).toBe(0);
    const shortened = await main(['verify-audit', '--expect-count', '3'], { stdin: stdin(''), db });
    expect(shortened.code).toBe(1);
    expect(shortened.stdout).toMatch(/count differs/);
    expect((await main(['verify-audit', '--expect-head', '0'.repeat(64)], { stdin: stdin(''), db })).code).toBe(1);
    expect((await main(['verify-audit', '--expect-head', 'nothex'], { stdin: stdin(''), db })).code).toBe(2);
    db.exec('DROP TRIGGER pkgscan_audit_no_delete; DROP TRIGGER pkgscan_audit_append_only; DELETE FROM pkgscan_audit WHERE seq = 2');
    const dropped = await main(['verify-audit'], { stdin: stdin(''), db });
    expect(dropped.code).toBe(1);
    expect(dropped.stdout).toMatch(/missing triggers: pkgscan_audit_no_delete, pkgscan_audit_append_only/);
  });

  it('verify-audit on a data folder without a store exits 2 and creates nothing (never "ok 0 entries")', async () => {
    const home = await mkdtemp(path.join(tmpdir(), 'pkgscan-verify-'));
    const missing = path.join(home, 'typo');
    vi.stubEnv('VITRINE_HOME', missing);
    vi.stubEnv('PKGSCAN_DATABASE_URL', '');
    try {
      const r = await main(['verify-audit'], { stdin: stdin('') });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('holds no store');
      expect(r.stderr).not.toContain(missing);
      await expect(readdir(home)).resolves.toEqual([]);
      // With a store there, it verifies as before.
      vi.stubEnv('VITRINE_HOME', home);
      expect((await main(['create-admin', '--email', 'root@example.org'], { stdin: stdin('a long admin password\n') })).code).toBe(0);
      expect((await main(['verify-audit'], { stdin: stdin('') })).stdout).toMatch(/^ok 1 entries/);
    } finally {
      vi.unstubAllEnvs();
      await rm(home, { recursive: true, force: true });
    }
  });

  it('import stores archives and audits each one as package.import (by system, without paths)', async () => {
    const db = openMemoryStore([pkgscanService]);
    const home = await mkdtemp(path.join(tmpdir(), 'pkgscan-cli-'));
    const before = process.env['VITRINE_HOME'];
    process.env['VITRINE_HOME'] = home;
    try {
      await writeFile(path.join(home, 'left-pad-1.3.0.tgz'), await npmTarball('left-pad', '1.3.0'));
      await writeFile(path.join(home, 'junk.tgz'), 'not an archive');
      const r = await main(['import', path.join(home, 'left-pad-1.3.0.tgz'), path.join(home, 'junk.tgz')], { stdin: stdin(''), db });
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^imported\t/m);
      const entries = db.prepare("SELECT actor, payload FROM pkgscan_audit WHERE kind = 'package.import'").all() as { actor: string; payload: string }[];
      expect(entries).toHaveLength(1);
      expect(entries[0]?.actor).toBe('system');
      expect(JSON.parse(entries[0]?.payload ?? '{}')).toMatchObject({ name: 'left-pad', version: '1.3.0', created: true });
      expect(entries[0]?.payload).not.toContain(home);
      // the scan reads the assessment first, then the decision and its gaps with what to do
      const scanned = await main(['scan', 'npm', 'left-pad', '1.3.0'], { stdin: stdin(''), db });
      expect(scanned.code).toBe(0);
      expect(scanned.stdout).toMatch(/^assessment: clean \(confidence 0\.\d\d\)/);
      expect(scanned.stdout).toMatch(/^WARN {2}npm left-pad 1\.3\.0 {2}\(environment prod/m);
      expect(scanned.stdout).toContain('gap provenance_missing (warn)');
    } finally {
      if (before === undefined) delete process.env['VITRINE_HOME'];
      else process.env['VITRINE_HOME'] = before;
      await rm(home, { recursive: true, force: true });
    }
  });

  it('serve runs its jobs through the worker processes it is given (a project scan goes to them) and closes them when it stops', async () => {
    const db = openMemoryStore([pkgscanService]);
    expect((await main(['create-admin', '--email', 'root@example.org'], { stdin: stdin('a long admin password\n'), db })).code).toBe(0);
    const seen: string[] = [];
    let closed = 0;
    const inner = new InProcessRunner(jobs);
    const workers: JobWorkers = {
      run: (type, payload, options) => (seen.push(type), inner.run(type, payload, options)),
      close: () => ((closed += 1), Promise.resolve()),
    };
    let printed = '';
    const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((printed += String(chunk)), true));
    const err = vi.spyOn(process.stderr, 'write');
    try {
      const serving = main(['serve', '--port', '0'], { stdin: stdin(''), db, workers: () => workers });
      await vi.waitFor(() => expect(printed).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/));
      const base = `${/listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(printed)?.[1] ?? ''}/api/v1`;
      const login = await fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'root@example.org', password: 'a long admin password' }) });
      const token = ((await login.json()) as { access_token: string }).access_token;
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const project = (await (await fetch(`${base}/projects`, { method: 'POST', headers, body: JSON.stringify({ name: 'cli serve' }) })).json()) as { id: string };
      const scan = await fetch(`${base}/projects/${project.id}/scans`, { method: 'POST', headers, body: JSON.stringify({ files: { 'requirements.txt': 'requests==2.31.0\n' } }) });
      expect(scan.status).toBe(201);
      expect(seen).toEqual([PROJECT_ANALYZE_JOB, PROJECT_FINISH_JOB]);
      expect(closed).toBe(0);
      process.emit('SIGTERM');
      expect((await serving).code).toBe(0);
      expect(closed).toBe(1);
      // the store it was given stays open for its owner
      expect(db.prepare("SELECT COUNT(*) AS n FROM pkgscan_audit WHERE kind = 'project.scan'").get()).toEqual({ n: 1 });
      expect(err.mock.calls.map((c) => String(c[0])).join('')).not.toMatch(/no worker processes/);
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  });

  it('usage errors exit 2', async () => {
    expect((await main(['create-admin'], { stdin: stdin('') })).code).toBe(2);
    expect((await main(['create-admin', '--email', 'a@b.c', '--role', 'root'], { stdin: stdin('') })).code).toBe(2);
    expect((await main(['frobnicate'], { stdin: stdin('') })).code).toBe(2);
    expect((await main(['--version'], { stdin: stdin('') })).stdout).toMatch(/^pkgscan /);
  });
});

describe('pkgscan --help loads only the command line', { timeout: 180_000 }, () => {
  it('answers --help without loading the platform, the store, scans, the HTTP app, the server or PostgreSQL', () => {
    const { code, modules } = modulesLoadedByHelp('engines/pkgscan/cli.ts');
    expect(code).toBe(0);
    for (const heavy of ['engines/pkgscan/platform.ts', 'engines/pkgscan/http.ts', 'engines/pkgscan/service.ts', 'engines/pkgscan/db/commands.ts', 'engines/pkgscan/db/open.ts', 'engines/pkgscan/scans/scan.ts', 'engines/core/store.ts', 'engines/core/http/server.ts']) expect(modules).not.toContain(heavy);
    // Of the service's own modules, only the command line, its text and the settings that text names.
    expect(modules.filter((m) => m.startsWith('engines/pkgscan/'))).toEqual(['engines/pkgscan/cli-meta.ts', 'engines/pkgscan/cli.ts', 'engines/pkgscan/config.ts', 'engines/pkgscan/db/url.ts']);
  });
});
