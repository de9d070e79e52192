// The engine worker SIGKILLed while it runs a service's job, through the real gateway and its real worker processes: a
// clear 500 `worker_exited` (never a hang), nothing half-stored, earlier results intact, and the same request works again.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { familySamples } from '../../engines/petriage/corpus.js';
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
