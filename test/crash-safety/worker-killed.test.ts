// The engine worker SIGKILLed while it runs a service's job, through the real gateway and its real worker processes: a
// clear 500 `worker_exited` (never a hang), nothing half-stored, earlier results intact, and the same request works again.
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { familySamples } from '../../engines/petriage/corpus.js';
import { main as pkgscanCli } from '../../engines/pkgscan/cli.js';
import { ANALYZE_JOB } from '../../engines/pkgscan/scans/analysis.js';
import { npmTarball } from '../../engines/pkgscan/sources/archives.fixture.js';
import { demo } from '../../engines/replay/index.js';
import type { Workstation } from '../../main/workstation.js';
import { errorCode, integrityOf, request, tempDir, workerPids, workstationOn, type Reply } from './workstation.fixture.js';

let folder: ReturnType<typeof tempDir>;
let ws: Workstation;

beforeAll(async () => {
  folder = tempDir('worker-killed');
  ws = await workstationOn(folder.dir);
}, 60_000);

afterAll(async () => {
  await ws?.close();
  folder?.remove();
});

/**
 * Sends the request; the moment the gateway hands a job of `type` to a worker (the host's `running` event, in this
 * process), every engine worker is SIGKILLed, so the job dies in its worker whatever its speed.
 */
async function killedDuring(type: string, send: () => Promise<Reply>): Promise<Reply> {
  let killed = 0;
  const stop = ws.host.subscribe((job) => {
    if (job.type !== type || job.state !== 'running' || killed > 0) return;
    for (const pid of workerPids()) {
      process.kill(pid, 'SIGKILL');
      killed++;
    }
  });
  try {
    const reply = await send();
    expect(killed).toBeGreaterThan(0);
    return reply;
  } finally {
    stop();
  }
}

interface Case {
  readonly service: string;
  readonly job: string;
  /** What the service lists of what it stored, to compare before and after. */
  readonly list: string;
  send(): Promise<Reply>;
}

const capture = Buffer.from(demo(30, { seed: 3 }).pcap);
const pe = Buffer.from(familySamples(1, 5)[0]!.bytes);
const kase = { case_id: 'worker-killed', title: 'Killed', techniques: ['T1566.001', 'T1059.001', 'T1003.001'].map((id, i) => ({ evidence_id: `E${i}`, id })) };

const cases: readonly Case[] = [
  { service: 'replay', job: 'replay.analyze', list: '/svc/replay/api/stories', send: () => request(ws, 'POST', '/svc/replay/api/analyze?name=demo.pcap', capture) },
  { service: 'petriage', job: 'petriage.analyze', list: '/svc/petriage/api/analyses', send: () => request(ws, 'POST', '/svc/petriage/api/analyze?name=sample.exe', pe) },
  { service: 'caseassess', job: 'caseassess.assess', list: '/svc/caseassess/assessments', send: () => request(ws, 'POST', '/svc/caseassess/assess', kase) },
];

describe.each(cases)('$service: the worker killed mid-job', ({ job, list, send }) => {
  it('answers 500 worker_exited, stores nothing of it, keeps the earlier result, and the same request works again', async () => {
    const first = await send();
    expect(first.status).toBe(200);
    const stored = (await request(ws, 'GET', list)).text;
    const killed = await killedDuring(job, send);
    expect({ status: killed.status, code: errorCode(killed) }).toEqual({ status: 500, code: 'worker_exited' });
    expect((await request(ws, 'GET', list)).text).toBe(stored);
    const again = await send();
    expect(again.status).toBe(200);
    expect(integrityOf(path.join(folder.dir, 'vitrine.db'))).toBe('ok');
  }, 180_000);
});

describe('pkgscan: the worker killed mid-scan', () => {
  const admin = { email: 'admin@example.org', password: 'a long admin password' };
  let token: string;
  const api = (method: string, route: string, body?: unknown): Promise<Reply> => request(ws, method, `/svc/pkgscan/api/v1${route}`, body, token);

  beforeAll(async () => {
    // The lowest accepted password cost: the same code path, less CPU on a shared machine.
    process.env['PKGSCAN_SCRYPT'] = '16384:8:1';
    const created = await pkgscanCli(['create-admin', '--email', admin.email], { stdin: Readable.from([`${admin.password}\n`]), db: ws.db });
    expect(created.code).toBe(0);
    const login = await request(ws, 'POST', '/svc/pkgscan/api/v1/auth/login', admin);
    expect(login.status).toBe(200);
    token = login.json<{ access_token: string }>().access_token;
    const imported = await api('POST', '/packages/import?filename=killed-pkg-1.0.0.tgz', Buffer.from(await npmTarball('killed-pkg', '1.0.0')));
    expect(imported.status).toBe(201);
  }, 120_000);

  afterAll(() => {
    delete process.env['PKGSCAN_SCRYPT'];
  });

  it('answers 500 worker_exited, stores no verdict, audit entry or event of it, keeps the earlier scan, and the same scan works again', async () => {
    const scan = (): Promise<Reply> => api('POST', '/scans', { ecosystem: 'npm', name: 'killed-pkg', version: '1.0.0' });
    const first = await scan();
    expect(first.status).toBe(200);
    const stored = async (): Promise<string[]> => {
      const replies = [await api('GET', '/scans'), await api('GET', '/audit?action_prefix=scan.'), await api('GET', '/events')];
      for (const r of replies) expect(r.status).toBe(200);
      return replies.map((r) => r.text);
    };
    const before = await stored();
    const killed = await killedDuring(ANALYZE_JOB, scan);
    expect({ status: killed.status, code: errorCode(killed) }).toEqual({ status: 500, code: 'worker_exited' });
    expect(await stored()).toEqual(before);
    const again = await scan();
    expect(again.status).toBe(200);
    expect((await api('GET', '/scans')).json<{ total: number }>().total).toBe(2);
    expect(integrityOf(path.join(folder.dir, 'vitrine.db'))).toBe('ok');
  }, 180_000);
});
