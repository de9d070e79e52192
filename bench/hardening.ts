// `npm run bench -- hardening`: /health latency (p50/p99) of a pkgscan server with real worker processes while each
// hostile input of the hardening round is sent, how long each takes to finish or be refused; and the linear
// steps on their own: the STIX pattern tokenizer against the regex it replaced, and CycloneDX validation.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createForkHost } from '../main/host/fork-host.js';
import type { Project } from '../engines/core/contracts/pkgscan-projects.js';
import { listen } from '../engines/core/http/server.js';
import { validateCycloneDx } from '../engines/core/sbom/index.js';
import { patternValues } from '../engines/core/stix-import.js';
import { createStandaloneApp } from '../engines/pkgscan/http.js';
import type { Platform } from '../engines/pkgscan/platform.js';
import { healthOnce, stallInputs } from '../engines/pkgscan/projects/stall.fixture.js';
import { sessionsByRole, TEST_SCRYPT } from '../engines/pkgscan/testutil.js';

const q = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
const ms = (n: number): string => `${n.toFixed(1)} ms`;

// ---- the linear steps alone
{
  const hostile = `${'a-'.repeat(50_000)}[ipv4-addr:value = '10.0.0.1']`;
  const OLD = /([a-z0-9-]+:[A-Za-z0-9_.'*[\]-]+)\s*(NOT\s+)?(=|!=|<>|<=|>=|<|>|MATCHES|LIKE|IN|ISSUBSET|ISSUPERSET)\s*('(?:[^'\\]|\\.)*'|-?\d+(?:\.\d+)?|\([^)]*\))/g;
  let t = performance.now();
  patternValues(hostile);
  const tok = performance.now() - t;
  t = performance.now();
  const matched = [...hostile.matchAll(OLD)].length;
  const rx = performance.now() - t;
  console.log(`STIX pattern of ${hostile.length} characters: tokenizer ${ms(tok)}, the regex it replaced ${ms(rx)} (${matched} match)`);
  for (const n of [15_000, 30_000]) {
    const doc = { bomFormat: 'CycloneDX', specVersion: '1.6', version: 1, components: Array.from({ length: n }, (_, i) => ({ type: 'library', 'bom-ref': `r${i}`, name: `n${i}`, version: '1.0.0', purl: `pkg:npm/n${i}@1.0.0` })), dependencies: [{ ref: 'root', dependsOn: Array.from({ length: n }, (_, i) => `r${i}`) }] };
    t = performance.now();
    const problems = await validateCycloneDx(doc);
    console.log(`CycloneDX validation of ${n} components: ${ms(performance.now() - t)} (${problems.length} problems)`);
  }
}

// ---- health while each input is sent
const dataDir = mkdtempSync(path.join(tmpdir(), 'vitrine-bench-hardening-'));
const host = createForkHost({ size: 2, jobModules: [fileURLToPath(new URL('../engines/pkgscan/jobs.ts', import.meta.url))], log: () => undefined });
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
const api = `${listening.url}/api/v1`;
try {
  if (platform === undefined) throw new Error('no platform');
  const admin = (await sessionsByRole({ url: listening.url, api, platform, close: () => listening.close() })).admin;
  const project = (await (await fetch(`${api}/projects`, { method: 'POST', headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'bench' }) })).json()) as Project;
  const all: number[] = [];
  const inputs = stallInputs();
  for (const input of inputs) {
    const lat: number[] = [];
    let polling = true;
    const poller = (async (): Promise<void> => {
      while (polling) {
        const t = performance.now();
        await healthOnce(`${api}/health/live`);
        lat.push(performance.now() - t);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const t = performance.now();
    const res = await input.send(api, admin.token, project.id);
    await res.arrayBuffer();
    const took = performance.now() - t;
    polling = false;
    await poller;
    lat.sort((a, b) => a - b);
    all.push(...lat);
    console.log(`${input.name}: ${res.status} in ${(took / 1000).toFixed(1)} s; health p50 ${ms(q(lat, 0.5))}, p99 ${ms(q(lat, 0.99))}, max ${ms(lat.at(-1) ?? NaN)} over ${lat.length} polls`);
  }
  all.sort((a, b) => a - b);
  console.log(`all inputs: health p50 ${ms(q(all, 0.5))}, p99 ${ms(q(all, 0.99))} over ${all.length} polls`);
} finally {
  await listening.close();
  await host.close();
  rmSync(dataDir, { recursive: true, force: true });
}
