// Processes that die mid-job, and two servers on one data folder, with real `vitrine serve` processes: the store opens and
// checks ok after a crash, earlier results stay readable, an interrupted case is failed (never running forever) and
// analysing again works; a second server neither fails the first one's running case nor damages the store.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CaseSummary } from '../../engines/core/contracts/forensic.js';
import { errorCode, integrityOf, request, serveProcess, tempDir, waitFor, workerPids, type ServeProcess, type Server } from './workstation.fixture.js';

const data = tempDir('interrupted-data');
const evidence = tempDir('interrupted-evidence');
const servers: ServeProcess[] = [];
const store = path.join(data.dir, 'vitrine.db');

/** An sshd auth log of `lines` lines (a guessing run and a few logins): seconds of work for the forensic worker. */
function authLog(lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const t = `Mar  3 ${String(Math.floor(i / 3600) % 24).padStart(2, '0')}:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`;
    const what = i % 7 === 0 ? 'Accepted password' : 'Failed password';
    out.push(`${t} web01 sshd[${1000 + (i % 5000)}]: ${what} for user${i % 13} from 203.0.113.${1 + (i % 250)} port ${40000 + (i % 20000)} ssh2`);
  }
  return `${out.join('\n')}\n`;
}

async function serve(): Promise<ServeProcess> {
  const s = await serveProcess(data.dir, { FORENSIC_EVIDENCE_ROOT: evidence.dir });
  servers.push(s);
  return s;
}

const pathCase = (s: Server, wait = false, file = 'auth.log'): ReturnType<typeof request> =>
  request(s, 'POST', `/svc/forensic/api/cases/path${wait ? '?wait=true' : ''}`, { paths: [file], kind: 'authlog', year: 2024 });

const caseOf = async (s: Server, id: string): Promise<CaseSummary> => (await request(s, 'GET', `/svc/forensic/api/cases/${id}`)).json<CaseSummary>();

/** Starts a path case and resolves with its id once its worker has begun (status running). */
async function runningCase(s: Server, file = 'auth.log'): Promise<string> {
  const started = await pathCase(s, false, file);
  expect(started.status).toBe(202);
  const id = started.json<CaseSummary>().id;
  await waitFor('the case to run', async () => (await caseOf(s, id)).status === 'running', 180_000);
  return id;
}

let earlier: string;

beforeAll(async () => {
  writeFileSync(path.join(evidence.dir, 'auth.log'), authLog(6_000));
  // Minutes of work: still running while a second server starts.
  writeFileSync(path.join(evidence.dir, 'big.log'), authLog(200_000));
}, 60_000);

afterAll(async () => {
  for (const s of servers) await s.kill();
  // A killed server's workers and monitoring worker notice within half a second (their parent watch) and end.
  await new Promise((r) => setTimeout(r, 1000));
  data.remove();
  evidence.remove();
});

describe('a job interrupted', () => {
  it('forensic: the engine worker killed mid-case fails the case (worker_exited); the earlier case stays; analysing again works', async () => {
    const s = await serve();
    const first = await pathCase(s, true);
    expect(first.status).toBe(200);
    earlier = first.json<CaseSummary>().id;
    const id = await runningCase(s);
    const workers = workerPids(s.pid);
    expect(workers.length).toBeGreaterThan(0);
    for (const pid of workers) process.kill(pid, 'SIGKILL');
    const failed = await waitFor('the case to fail', async () => {
      const c = await caseOf(s, id);
      return c.status === 'failed' ? c : undefined;
    });
    expect(failed.error).toBe('worker_exited');
    expect(await caseOf(s, earlier)).toMatchObject({ status: 'done' });
    const again = await pathCase(s, true);
    expect(again.status).toBe(200);
    expect(again.json<CaseSummary>().status).toBe('done');
    await s.stop();
    expect(integrityOf(store)).toBe('ok');
  }, 600_000);

  it('the server killed mid-case: the next start opens the store (integrity ok), fails the case as interrupted, and analyses again', async () => {
    const s1 = await serve();
    const id = await runningCase(s1);
    await s1.kill();
    const s2 = await serve();
    expect(await caseOf(s2, id)).toMatchObject({ status: 'failed', error: 'interrupted' });
    expect(await caseOf(s2, earlier)).toMatchObject({ status: 'done' });
    const again = await pathCase(s2, true);
    expect(again.json<CaseSummary>().status).toBe('done');
    await s2.stop();
    expect(integrityOf(store)).toBe('ok');
  }, 600_000);
});

describe('two servers on one data folder', () => {
  it("the second leaves the first one's running case alone, both write without damage, and a crash of the first is seen by the second", async () => {
    const a = await serve();
    const id = await runningCase(a, 'big.log');
    const b = await serve();
    // Before: the second server's start marked every queued or running case of the store interrupted.
    expect((await caseOf(b, id)).status).toBe('running');
    expect((await caseOf(a, id)).status).toBe('running');
    const techniques = ['T1566.001', 'T1059.001', 'T1003.001'];
    const writes = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        request(i % 2 === 0 ? a : b, 'POST', '/svc/caseassess/cases', { case_id: `two-${i}`, title: `Two ${i}`, techniques: techniques.map((t, j) => ({ evidence_id: `E${j}`, id: t })) }),
      ),
    );
    // A write that waited past the busy timeout would be a clear 503 `unavailable`; none should need to.
    expect(writes.map((w) => w.status === 201 ? 201 : `${w.status} ${errorCode(w) ?? ''}`)).toEqual(Array(24).fill(201));
    const listed = (await request(b, 'GET', '/svc/caseassess/cases?limit=100')).json<{ total: number }>();
    expect(listed.total).toBe(24);
    await a.kill();
    // The owner is gone: the next read on the second server fails the case instead of showing it running forever.
    expect(await caseOf(b, id)).toMatchObject({ status: 'failed', error: 'interrupted' });
    await b.stop();
    expect(integrityOf(store)).toBe('ok');
  }, 600_000);
});
