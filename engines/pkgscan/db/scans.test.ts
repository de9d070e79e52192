// Package scans, events, projects, diffs and container scans over HTTP on both backends (one parameterised suite). On
// PostgreSQL two servers share the database: scans run through both at once, and each server lists, counts and reads
// every verdict, event and audit entry; racing project creations leave one project.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AuditEntry, AuditVerification, PackageOverview, PageOf, ScanStats, ScanSummary, ScanVerdict, SecurityEvent } from '../../core/contracts/pkgscan.js';
import type { Project } from '../../core/contracts/pkgscan-projects.js';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { backendCases, backendFixture } from '../../../test/postgres/backends.js';
import type { PkgscanConfig } from '../config.js';
import { storeArchive } from '../sources/store.js';
import { call, createUser, loginAs, type Session, type TestServer, startServer } from '../server.fixture.js';

const fixture = backendFixture();
const BENIGN = 'benign/npm/ms-2.1.3.tgz';
const MALICIOUS = 'malicious/npm/nequi-api-utils-9.9.9.tgz';

async function json<T>(r: Response): Promise<T> {
  return (await r.json()) as T;
}

for (const backend of backendCases) {
  describe.skipIf(backend.skip || !hasCorpora())(`scans, events and projects on ${backend.title}${hasCorpora() ? '' : ' (skipped: no corpora)'}`, () => {
    async function servers(): Promise<{ one: TestServer; two: TestServer; admin: Session; close(): Promise<void> }> {
      const b = await fixture.open(backend.name);
      const config: Partial<PkgscanConfig> = b.url !== undefined ? { databaseUrl: b.url } : {};
      const one = await startServer(config);
      const two = backend.name === 'postgres' ? await startServer(config) : one;
      // Each server has its own archive folder here, so both store the archives; the index is the shared one (recorded once).
      for (const s of new Set([one, two]))
        for (const f of [BENIGN, MALICIOUS]) await storeArchive(s.platform.store, s.platform.dataDir, readFileSync(corpusPath('packages', f)), { filename: f.split('/').pop() ?? f, source: 'import', actor: 'system' });
      await createUser(one, 'admin', 'root@example.org');
      const admin = await loginAs(one, 'root@example.org');
      return {
        one,
        two,
        admin,
        close: async () => {
          await one.close();
          if (two !== one) await two.close();
        },
      };
    }

    it('scans through both servers at once: every verdict, summary, stat, event and audit entry is seen by each', async () => {
      const { one, two, admin, close } = await servers();
      try {
        const requests = [
          { s: one, body: { ecosystem: 'npm', name: 'ms', version: '2.1.3', environment: 'dev' } },
          { s: two, body: { ecosystem: 'npm', name: 'ms', version: '2.1.3', environment: 'prod' } },
          { s: one, body: { ecosystem: 'npm', name: 'nequi-api-utils', version: '9.9.9', environment: 'prod' } },
          { s: two, body: { ecosystem: 'npm', name: 'nequi-api-utils', version: '9.9.9', environment: 'dev' } },
        ];
        const answers = await Promise.all(requests.map((r) => call(r.s, 'POST', '/scans', { token: admin.token, body: r.body })));
        expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
        const verdicts = await Promise.all(answers.map((r) => json<ScanVerdict>(r)));
        for (const s of [one, two]) {
          const list = await json<PageOf<ScanSummary>>(await call(s, 'GET', '/scans?limit=50', { token: admin.token }));
          expect(list.total).toBe(4);
          expect(list.items.map((x) => x.id).sort()).toEqual(verdicts.map((v) => v.id).sort());
          // The assessment is read out of the stored verdict's JSON on either backend.
          for (const item of list.items) expect(item.assessment).toBe(verdicts.find((v) => v.id === item.id)?.assessment.verdict);
          expect((await json<PageOf<ScanSummary>>(await call(s, 'GET', '/scans?q=NEQUI&decision=block', { token: admin.token }))).items.map((x) => x.environment).sort()).toEqual(['dev', 'prod']);
          const stats = await json<ScanStats>(await call(s, 'GET', '/scans/stats/overview', { token: admin.token }));
          expect(stats.total).toBe(4);
          expect(stats.by_decision.block).toBe(2);
          expect(stats.top_finding_codes.length).toBeGreaterThan(0);
          for (const v of verdicts) expect((await json<ScanVerdict>(await call(s, 'GET', `/scans/${v.id}`, { token: admin.token }))).id).toBe(v.id);
          const page = await json<PackageOverview>(await call(s, 'GET', '/packages/npm/nequi-api-utils', { token: admin.token }));
          expect(page.verdicts.map((x) => x.environment).sort()).toEqual(['dev', 'prod']);
          const events = await json<PageOf<SecurityEvent>>(await call(s, 'GET', '/events?type=malicious_package_detected', { token: admin.token }));
          expect(events.total).toBe(2);
          // The drift report reads the feature vectors the scans stored with them.
          expect(await json<{ status: string; rows: number }>(await call(s, 'GET', '/ml/drift', { token: admin.token }))).toMatchObject({ status: 'insufficient_data', rows: 4 });
          const audit = await json<PageOf<AuditEntry>>(await call(s, 'GET', '/audit?action=scan.create', { token: admin.token }));
          expect(audit.items.map((e) => e.details['scan_id']).sort()).toEqual(verdicts.map((v) => v.id).sort());
        }
        // An event acknowledged on one server is acknowledged on the other, by the first acknowledger only.
        const event = (await json<PageOf<SecurityEvent>>(await call(one, 'GET', '/events?type=package_blocked', { token: admin.token }))).items[0] as SecurityEvent;
        const acks = await Promise.all([one, two].map((s) => call(s, 'POST', `/events/${event.id}/ack`, { token: admin.token })));
        expect(acks.map((r) => r.status)).toEqual([200, 200]);
        const ackEntries = await json<PageOf<AuditEntry>>(await call(two, 'GET', '/audit?action=event.ack', { token: admin.token }));
        expect(ackEntries.total).toBe(1);
        expect((await json<PageOf<SecurityEvent>>(await call(two, 'GET', '/events?acknowledged=true', { token: admin.token }))).items.map((e) => e.id)).toEqual([event.id]);
        const verified = await json<AuditVerification>(await call(two, 'GET', '/audit/verify', { token: admin.token }));
        expect(verified).toMatchObject({ ok: true, missing_triggers: [] });
      } finally {
        await close();
      }
    }, 180_000);

    it('racing creations of one project name through both servers: one 201, the rest 409; the project is seen by both', async () => {
      const { one, two, admin, close } = await servers();
      try {
        const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => call(i % 2 === 0 ? one : two, 'POST', '/projects', { token: admin.token, body: { name: i % 2 === 0 ? 'Lab Web' : 'lab web' } })));
        expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
        const created = await json<Project>(answers.find((r) => r.status === 201) as Response);
        for (const s of [one, two]) {
          expect((await json<PageOf<Project>>(await call(s, 'GET', '/projects?q=lab', { token: admin.token }))).items.map((p) => p.id)).toEqual([created.id]);
          expect((await call(s, 'GET', `/projects/${created.id}`, { token: admin.token })).status).toBe(200);
        }
        // A project scan stored through one server is read, with its SBOM, through the other.
        const scan = await call(one, 'POST', `/projects/${created.id}/scans`, { token: admin.token, body: { files: { 'requirements.txt': 'flask==3.0.0\nrequests==2.31.0\n' } } });
        expect(scan.status).toBe(201);
        const sid = (await json<{ id: string }>(scan)).id;
        expect((await json<PageOf<unknown>>(await call(two, 'GET', `/projects/${created.id}/scans/${sid}/components`, { token: admin.token }))).total).toBe(2);
        expect((await call(two, 'GET', `/projects/${created.id}/scans/${sid}/sbom?format=spdx`, { token: admin.token })).status).toBe(200);
        expect((await json<PageOf<SecurityEvent>>(await call(one, 'GET', '/events?type=sbom_generated', { token: admin.token }))).total).toBe(1);
        // Watching a package of the project works on either backend (the watched package points at the shared project).
        const watch = await call(two, 'POST', '/monitoring/packages', { token: admin.token, body: { name: 'left-pad', poll_interval_seconds: 300, project_id: created.id } });
        expect(watch.status).toBe(201);
        expect((await json<{ project_id: string }>(watch)).project_id).toBe(created.id);
        const unknown = await call(one, 'POST', '/monitoring/packages', { token: admin.token, body: { name: 'right-pad', poll_interval_seconds: 300, project_id: '00000000-0000-4000-8000-000000000000' } });
        expect(unknown.status).toBe(422);
        expect((await json<PageOf<unknown>>(await call(one, 'GET', '/diffs', { token: admin.token }))).total).toBe(0);
        expect((await json<PageOf<unknown>>(await call(two, 'GET', '/containers/scans', { token: admin.token }))).total).toBe(0);
      } finally {
        await close();
      }
    }, 180_000);
  });
}
