// Advisory uploads parsed in worker jobs: against a store file, the gateway streams the body to a temp file and runs pkgscan.advisory_detect and pkgscan.advisory_import (which open their own connection); a job that dies leaves the import failed and no temp file.
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Database } from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Role } from '../../core/contracts/pkgscan.js';
import type { AdvisoryImport, LookupResult } from '../../core/contracts/pkgscan-vulns.js';
import { VitrineError } from '../../core/errors.js';
import { listen } from '../../core/http/server.js';
import { InProcessRunner } from '../../core/jobs/in-process.js';
import type { JobRunner, RunOptions } from '../../core/jobs/protocol.js';
import { openStore } from '../../core/store.js';
import { createStandaloneApp } from '../http.js';
import { jobs } from '../jobs.js';
import type { Platform } from '../platform.js';
import { pkgscanService } from '../service.js';
import { sessionsByRole, TEST_SCRYPT, type Session, type TestServer } from '../server.fixture.js';
import { advisoryStoreOf } from './advisories.js';
import { ADVISORY_DETECT_JOB, ADVISORY_IMPORT_JOB, advisoryImportJob, advisoryUploadPath } from './jobs.js';

const recent = new Date(Date.now() - 86_400_000).toISOString();
const record = { id: 'GHSA-wwww-xxxx-yyyy', modified: recent, aliases: ['CVE-2025-5151'], summary: 'worker flaw', affected: [{ package: { ecosystem: 'npm', name: 'worker-lib' }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '2.0.0' }] }] }] };

/** Runs the real job table in this process, recording each job type, unless `override` answers for that type. */
class RecordingRunner implements JobRunner {
  readonly seen: string[] = [];
  private readonly inner = new InProcessRunner(jobs);
  override: ((type: string, payload: unknown) => Promise<unknown> | undefined) | undefined;

  run(type: string, payload: unknown, options?: RunOptions): Promise<unknown> {
    this.seen.push(type);
    return this.override?.(type, payload) ?? this.inner.run(type, payload, options);
  }
}

let home: string;
let db: Database;
let runner: RecordingRunner;
let server: TestServer;
let sessions: Record<Role, Session>;

beforeEach(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'vitrine-adv-worker-'));
  db = openStore(path.join(home, 'vitrine.db'), [pkgscanService]);
  runner = new RecordingRunner();
  let platform: Platform | undefined;
  const app = createStandaloneApp({
    db,
    dataDir: home,
    jobs: runner,
    config: { scrypt: TEST_SCRYPT, rateLimits: { windowMs: 60_000, authPerClient: 100_000, perClient: 100_000, perUser: 100_000 } },
    onPlatform: (p) => {
      platform = p;
    },
  });
  const listening = await listen(app, { port: 0 });
  if (platform === undefined) throw new Error('no platform');
  server = { url: listening.url, api: `${listening.url}/api/v1`, platform, close: () => listening.close() };
  sessions = await sessionsByRole(server);
});

afterEach(async () => {
  await server.close();
  db.close();
  await rm(home, { recursive: true, force: true });
});

const upload = (body: string): Promise<Response> =>
  fetch(`${server.api}/vulnerabilities/import?filename=adv.json`, { method: 'POST', headers: { authorization: `Bearer ${sessions.admin.token}`, 'content-type': 'application/octet-stream' }, body });

const tempFiles = (): string[] => (existsSync(path.join(home, 'tmp')) ? readdirSync(path.join(home, 'tmp')).filter((n) => n.startsWith('advisories-')) : []);

describe('advisory import in worker jobs', () => {
  it('recognises and imports in jobs that write through their own connection; the gateway reads the result and a lookup sees it', async () => {
    const res = await upload(JSON.stringify(record));
    expect(res.status).toBe(201);
    const imp = (await res.json()) as AdvisoryImport;
    expect(imp).toMatchObject({ kind: 'osv-json', status: 'done', records: 1, inserted: 1 });
    expect(runner.seen).toEqual([ADVISORY_DETECT_JOB, ADVISORY_IMPORT_JOB]);
    const look = await fetch(`${server.api}/vulnerabilities/lookup?ecosystem=npm&name=worker-lib&version=1.0.0`, { headers: { authorization: `Bearer ${sessions.read_only.token}` } });
    expect(((await look.json()) as LookupResult).items.map((i) => i.id)).toEqual(['GHSA-wwww-xxxx-yyyy']);
    expect(tempFiles()).toEqual([]);
  });

  it('a file that is no advisory source is refused by the recognising job (415), nothing imported, no temp file', async () => {
    const res = await upload('hello there');
    expect(res.status).toBe(415);
    expect(runner.seen).toEqual([ADVISORY_DETECT_JOB]);
    expect(advisoryStoreOf(db).sources().sources).toEqual([]);
    expect(tempFiles()).toEqual([]);
  });

  it('an import whose worker dies mid-way is failed at once (not left running) and its temp file removed', async () => {
    let importId: string | undefined;
    runner.override = (type, payload) => {
      if (type !== ADVISORY_IMPORT_JOB) return undefined;
      // The worker began (its row says running, under a pid that no longer exists), then its process ended.
      importId = (payload as { id: string }).id;
      db.prepare("INSERT INTO vuln_imports (id, kind, started_at, status, owner_pid) VALUES (?, 'osv-json', ?, 'running', 4199999)").run(importId, recent);
      return Promise.reject(new VitrineError('internal', 'the worker process ended before the job finished'));
    };
    const res = await upload(JSON.stringify(record));
    expect(res.status).toBe(500);
    expect(importId).toBeDefined();
    expect(advisoryStoreOf(db).importRecord(importId ?? '')).toMatchObject({ status: 'failed', warning_samples: [expect.stringMatching(/interrupted/) as unknown as string] });
    expect(tempFiles()).toEqual([]);
    const poll = await fetch(`${server.api}/vulnerabilities/imports/${importId ?? ''}`, { headers: { authorization: `Bearer ${sessions.read_only.token}` } });
    expect(((await poll.json()) as AdvisoryImport).status).toBe('failed');
  });

  it('the import job checks its payload: an upload outside <data>/tmp or a store that is no file is refused', async () => {
    const ctx = { signal: new AbortController().signal, progress: () => undefined, log: () => undefined };
    const id = '22222222-2222-4222-8222-222222222222';
    await expect(advisoryImportJob({ dataDir: home, id, database: path.join(home, 'vitrine.db'), kind: 'osv-json' }, ctx)).rejects.toMatchObject({ code: 'not_found' });
    await expect(advisoryImportJob({ dataDir: home, id: '../../etc/passwd', database: path.join(home, 'vitrine.db'), kind: 'osv-json' }, ctx)).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(advisoryImportJob({ dataDir: home, id, database: path.join(home, 'vitrine.db'), kind: 'osv-dir' }, ctx)).rejects.toMatchObject({ code: 'validation_failed' });
    await mkdir(path.join(home, 'tmp'), { recursive: true });
    await writeFile(advisoryUploadPath(home, id), JSON.stringify(record));
    await expect(advisoryImportJob({ dataDir: home, id, database: path.join(home, 'missing.db'), kind: 'osv-json' }, ctx)).rejects.toMatchObject({ code: 'unavailable' });
    await expect(advisoryImportJob({ dataDir: home, id, database: 'vitrine.db', kind: 'osv-json' }, ctx)).rejects.toMatchObject({ code: 'unavailable' });
    expect(existsSync(path.join(home, 'missing.db'))).toBe(false);
    expect(await advisoryImportJob({ dataDir: home, id, database: path.join(home, 'vitrine.db'), kind: 'osv-json' }, ctx)).toMatchObject({ id, status: 'done', records: 1 });
  });
});
