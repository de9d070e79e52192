// The hardening round's hostile inputs against a pkgscan server (its jobs in this host's worker processes) while a second client polls its health: each one
// finishes or is refused with a clear status, and health answers throughout. Latency is measured by
// `npm run bench -- hardening` (real workers), never asserted here.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createForkHost } from './fork-host.js';
import type { EngineHost } from './host.js';
import type { Project } from '../../engines/core/contracts/pkgscan-projects.js';
import { listen } from '../../engines/core/http/server.js';
import { createStandaloneApp } from '../../engines/pkgscan/http.js';
import type { Platform } from '../../engines/pkgscan/platform.js';
import { sessionsByRole, TEST_SCRYPT, type Session, type TestServer } from '../../engines/pkgscan/server.fixture.js';
import { healthOnce, stallInputs } from '../../engines/pkgscan/projects/stall.fixture.js';

let server: TestServer;
let admin: Session;
let project: Project;
let host: EngineHost;
let dataDir: string;

/** A pkgscan server whose jobs run in real worker processes, as in the workstation (parsing never holds this loop). */
async function startWithWorkers(): Promise<TestServer> {
  dataDir = mkdtempSync(path.join(tmpdir(), 'vitrine-stall-'));
  host = createForkHost({ size: 2, jobModules: [fileURLToPath(new URL('../../engines/pkgscan/jobs.ts', import.meta.url))], log: () => undefined });
  let platform: Platform | undefined;
  const app = createStandaloneApp({
    config: { scrypt: TEST_SCRYPT, rateLimits: { windowMs: 60_000, authPerClient: 100_000, perClient: 100_000, perUser: 100_000 } },
    jobs: host,
    dataDir,
    onPlatform: (p) => {
      platform = p;
    },
  });
  const listening = await listen(app, { port: 0 });
  if (!platform) throw new Error('no platform');
  return { url: listening.url, api: `${listening.url}/api/v1`, platform, close: () => listening.close() };
}

beforeAll(async () => {
  server = await startWithWorkers();
  admin = (await sessionsByRole(server)).admin;
  const r = await fetch(`${server.api}/projects`, { method: 'POST', headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'stall', description: 'hostile inputs' }) });
  project = (await r.json()) as Project;
});

afterAll(async () => {
  await server.close();
  await host.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('hostile inputs while health is polled', () => {
  for (const input of stallInputs())
    it(`${input.name}: finishes or is refused, and health answers all the while`, async () => {
      let polling = true;
      const health: number[] = [];
      const poller = (async (): Promise<void> => {
        while (polling) {
          health.push(await healthOnce(`${server.api}/health/live`));
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      const res = await input.send(server.api, admin.token, project.id);
      const body = await res.text();
      polling = false;
      await poller;
      expect(input.accept, `${input.name}: ${res.status} ${body.slice(0, 200)}`).toContain(res.status);
      // refusals are in the one error shape and echo nothing submitted
      if (res.status >= 400) expect((JSON.parse(body) as { error: { code: string } }).error.code).toMatch(/^[a-z_]+$/);
      expect(health.length).toBeGreaterThan(0);
      expect(health.every((s) => s === 200)).toBe(true);
    }, 120_000);
});
