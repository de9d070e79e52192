// The disk fills while the workstation writes: a clear 507 in the error shape, earlier rows intact, answers again once space is freed.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demo } from '../../engines/replay/index.js';
import type { Workstation } from '../../main/workstation.js';
import { errorCode, integrityOf, request, serveProcess, smallDisk, tempDir, waitFor, workstationOn } from './workstation.fixture.js';

const techniques = ['T1566.001', 'T1059.001', 'T1003.001', 'T1021.002', 'T1071.001'];
const caseFile = (id: string, n = 5): unknown => ({ case_id: id, title: `Case ${id}`, techniques: Array.from({ length: n }, (_, i) => ({ evidence_id: `E${i}`, id: techniques[i % techniques.length] })) });

let folder: ReturnType<typeof tempDir>;
let ws: Workstation;

beforeAll(async () => {
  folder = tempDir('disk-full');
  ws = await workstationOn(folder.dir);
}, 60_000);

afterAll(async () => {
  await ws?.close();
  folder?.remove();
});

describe('the store fills up', () => {
  it('answers 507 insufficient_storage, keeps what was stored, and stores again once there is room', async () => {
    const first = await request(ws, 'POST', '/svc/caseassess/cases', caseFile('before-full'));
    expect(first.status).toBe(201);
    // No page more than the store holds now: the next insert needs room it cannot get (SQLITE_FULL).
    const pages = ws.db.pragma('page_count', { simple: true }) as number;
    ws.db.pragma(`max_page_count = ${pages}`);
    const full = await request(ws, 'POST', '/svc/caseassess/cases', caseFile('while-full', 400));
    expect({ status: full.status, code: errorCode(full) }).toEqual({ status: 507, code: 'insufficient_storage' });
    expect(full.json<{ error: { message: string } }>().error.message).toMatch(/space/);
    const list = await request(ws, 'GET', '/svc/caseassess/cases');
    expect(list.status).toBe(200);
    expect(list.json<{ items: { case_id: string }[] }>().items.map((c) => c.case_id)).toEqual(['before-full']);
    ws.db.pragma('max_page_count = 1073741823');
    const after = await request(ws, 'POST', '/svc/caseassess/cases', caseFile('after-full', 400));
    expect(after.status).toBe(201);
    expect(integrityOf(path.join(folder.dir, 'vitrine.db'))).toBe('ok');
  });
});

// Mounted while the file is collected, removed by the file's own afterAll (a describe's hooks do not run when a filter skips all its tests).
const uploadDisk = smallDisk(1024);
const serveDisk = smallDisk(16 * 1024);
afterAll(() => {
  uploadDisk?.remove();
  serveDisk?.remove();
});

describe('an upload spooled to a full disk', () => {
  const disk = uploadDisk;

  it.runIf(disk !== undefined)('replay: 507 insufficient_storage, nothing left in the spool folder, stories kept; analysed once there is room', async () => {
    const d = disk!;
    const capture = Buffer.from(demo(20, { seed: 7 }).pcap);
    const analyze = (): ReturnType<typeof request> => request(ws, 'POST', '/svc/replay/api/analyze?name=demo.pcap', capture);
    const before = await analyze();
    expect(before.status).toBe(200);
    const stories = (await request(ws, 'GET', '/svc/replay/api/stories')).text;
    const previous = process.env['TMPDIR'];
    process.env['TMPDIR'] = d.dir;
    try {
      d.fill();
      const full = await analyze();
      expect({ status: full.status, code: errorCode(full) }).toEqual({ status: 507, code: 'insufficient_storage' });
      expect(readdirSync(d.dir)).toEqual(['filler']);
      expect((await request(ws, 'GET', '/svc/replay/api/stories')).text).toBe(stories);
      d.free();
      const after = await analyze();
      expect(after.status).toBe(200);
      // The spool folder goes once the answer is out.
      await waitFor('the spool folder to go', () => readdirSync(d.dir).length === 0);
    } finally {
      if (previous === undefined) delete process.env['TMPDIR'];
      else process.env['TMPDIR'] = previous;
    }
  }, 120_000);
});

describe('vitrine serve starting on a full disk', () => {
  const disk = serveDisk;

  it.runIf(disk !== undefined)('says there is no space left (exit 1), leaves no empty token file, and starts once there is room', async () => {
    const d = disk!;
    const home = path.join(d.dir, 'home');
    d.fill();
    try {
      const r = spawnSync(process.execPath, ['--import', 'tsx', path.resolve(import.meta.dirname, '../../main/headless.ts'), 'serve', '--port', '0'], {
        env: { ...process.env, VITRINE_HOME: home },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.stderr).toMatch(/^vitrine: no space left/);
      expect(r.status).toBe(1);
      expect(existsSync(path.join(home, 'token'))).toBe(false);
    } finally {
      d.free();
    }
    const s = await serveProcess(home);
    try {
      expect((await request(s, 'GET', '/api/health')).status).toBe(200);
    } finally {
      await s.stop();
    }
    expect(integrityOf(path.join(home, 'vitrine.db'))).toBe('ok');
  }, 120_000);
});
