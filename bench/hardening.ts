// `npm run bench -- hardening`: /health latency (p50/p99) of a pkgscan server with real worker processes while each
// hostile input of the hardening round is sent, how long each takes to finish or be refused; and the linear
// steps on their own: the STIX pattern tokenizer against the regex it replaced, and CycloneDX validation.
// The server runs on a store file (as the workstation does), so the jobs that write the store (advisory imports) run in
// workers too. Besides the project, advisory and image inputs: package uploads (a gzip bomb named as an npm tarball, a
// real release) and attestation uploads (real, tampered). Health latency is given as measured and corrected for the
// polls a stall held back (HdrHistogram's correction: a 1 s answer stands for the 100 polls of 10 ms it delayed).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { buildTar } from '../engines/core/archive/build.fixture.js';
import { createForkHost } from '../main/host/fork-host.js';
import type { Project } from '../engines/core/contracts/pkgscan-projects.js';
import { listen } from '../engines/core/http/server.js';
import { validateCycloneDx } from '../engines/core/sbom/index.js';
import { patternValues } from '../engines/core/stix-import.js';
import { openStore } from '../engines/core/store.js';
import { createStandaloneApp } from '../engines/pkgscan/http.js';
import { pkgscanService } from '../engines/pkgscan/service.js';
import type { Platform } from '../engines/pkgscan/platform.js';
import { healthOnce, stallInputs, type StallInput } from '../engines/pkgscan/projects/stall.fixture.js';
import { sessionsByRole, TEST_SCRYPT } from '../engines/pkgscan/server.fixture.js';

const q = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
const ms = (n: number): string => `${n.toFixed(1)} ms`;
const POLL_MS = 10;

/** The samples plus those a slow answer held back: an answer of L ms stands also for L - i, L - 2i, ... (> i). */
function withHeldBackPolls(lat: readonly number[], interval: number): number[] {
  const out: number[] = [];
  for (const l of lat) {
    out.push(l);
    for (let missed = l - interval; missed > interval; missed -= interval) out.push(missed);
  }
  return out;
}

// ---- package store uploads: a gzip bomb named as an npm tarball, a real release, its real attestations and a tampered copy
const testdata = fileURLToPath(new URL('../engines/pkgscan/provenance/testdata/', import.meta.url));

/** An npm tarball whose second member is 128 MiB of zeros: about 130 KB on the wire. */
function gzipBombTarball(): Promise<Uint8Array> {
  const tar = buildTar([
    { name: 'package/package.json', data: JSON.stringify({ name: 'bomb', version: '1.0.0' }) },
    { name: 'package/zero.bin', data: new Uint8Array(128 * 1024 * 1024) },
  ]);
  return Promise.resolve(new Uint8Array(gzipSync(tar, { level: 9 })));
}

const raw = (url: string, token: string, body: Uint8Array | string, type = 'application/octet-stream'): Promise<Response> =>
  fetch(url, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': type }, body });

/** Uploads a release, then its attestation document; answers the attestation upload. */
async function attach(api: string, token: string, doc: string): Promise<Response> {
  const tgz = new Uint8Array(readFileSync(path.join(testdata, 'playwright-cli-0.1.1.tgz')));
  const stored = await raw(`${api}/packages/import?filename=playwright-cli-0.1.1.tgz`, token, tgz);
  const { id } = (await stored.json()) as { id: string };
  return raw(`${api}/packages/store/${id}/attestations`, token, doc, 'application/json');
}

function uploadInputs(bomb: Uint8Array): Promise<StallInput[]> {
  const doc = readFileSync(path.join(testdata, 'playwright-cli-0.1.1.attestations.json'), 'utf8');
  const tampered = doc.replace(/"payload":"(.)/, (_m, c: string) => `"payload":"${c === 'A' ? 'B' : 'A'}`);
  return Promise.resolve([
    { name: 'package upload: 128 MiB of zeros gzipped as an npm tarball', accept: [201, 413, 422], send: (api, token) => raw(`${api}/packages/import?filename=bomb-1.0.0.tgz`, token, bomb) },
    { name: 'package upload, then its real attestations', accept: [200], send: (api, token) => attach(api, token, doc) },
    { name: 'attestation upload, tampered', accept: [200], send: (api, token) => attach(api, token, tampered) },
  ]);
}

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
const db = openStore(path.join(dataDir, 'vitrine.db'), [pkgscanService]);
const host = createForkHost({ size: 2, jobModules: [fileURLToPath(new URL('../engines/pkgscan/jobs.ts', import.meta.url))], log: () => undefined });
let platform: Platform | undefined;
const app = createStandaloneApp({
  config: { scrypt: TEST_SCRYPT, rateLimits: { windowMs: 60_000, authPerClient: 100_000, perClient: 100_000, perUser: 100_000 } },
  jobs: host,
  db,
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
  const corrected: number[] = [];
  const inputs: StallInput[] = [...stallInputs(), ...(await uploadInputs(await gzipBombTarball()))];
  for (const input of inputs) {
    const lat: number[] = [];
    let polling = true;
    const poller = (async (): Promise<void> => {
      while (polling) {
        const t = performance.now();
        await healthOnce(`${api}/health/live`);
        lat.push(performance.now() - t);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    })();
    const t = performance.now();
    const res = await input.send(api, admin.token, project.id);
    await res.arrayBuffer();
    const took = performance.now() - t;
    polling = false;
    await poller;
    const fixed = withHeldBackPolls(lat, POLL_MS);
    lat.sort((a, b) => a - b);
    fixed.sort((a, b) => a - b);
    all.push(...lat);
    corrected.push(...fixed);
    const ok = input.accept.includes(res.status) ? '' : ` (NOT one of ${input.accept.join('/')})`;
    console.log(`${input.name}: ${res.status}${ok} in ${(took / 1000).toFixed(1)} s; health p50 ${ms(q(lat, 0.5))}, p99 ${ms(q(lat, 0.99))}, max ${ms(lat.at(-1) ?? NaN)} over ${lat.length} polls; corrected p99 ${ms(q(fixed, 0.99))}`);
  }
  all.sort((a, b) => a - b);
  corrected.sort((a, b) => a - b);
  console.log(`all inputs: health p50 ${ms(q(all, 0.5))}, p99 ${ms(q(all, 0.99))}, max ${ms(all.at(-1) ?? NaN)} over ${all.length} polls; corrected for held-back polls p50 ${ms(q(corrected, 0.5))}, p99 ${ms(q(corrected, 0.99))}`);
} finally {
  await listening.close();
  await host.close();
  db.close();
  rmSync(dataDir, { recursive: true, force: true });
}
