// The HTTP contract: /healthz, POST /v1/gate (422 on malformed envelopes), demo runs, stored runs with graph, backtrack, blast and Cypher.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceApp, listen, type Listening } from '../core/http/server.js';
import { InProcessRunner } from '../core/jobs/in-process.js';
import { openMemoryStore } from '../core/store.js';
import { defaultResourcesDir } from './index.js';
import { jobs } from './jobs.js';
import { provgateService } from './service.js';
import { envelopeToJson, trustedKeyOf } from './envelope.js';
import { createRouter, createStandaloneApp } from './http.js';
import { generateKeyPair, signingKeyFromPem } from './keys.js';
import { DEMO_BASE_LAYER, scenarioEnvelopes } from './synth.js';

const key = signingKeyFromPem(generateKeyPair().privatePem, 'ci');
let server: Listening;
let untrusting: Listening;

beforeAll(async () => {
  server = await listen(createStandaloneApp({ trusted: new Map([trustedKeyOf(key)]) }), { port: 0 });
  untrusting = await listen(createStandaloneApp({ trusted: new Map() }), { port: 0 });
});
afterAll(async () => {
  await server.close();
  await untrusting.close();
});

const post = (base: string, p: string, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  fetch(`${base}${p}`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
const envelopes = (name: Parameters<typeof scenarioEnvelopes>[0]) => scenarioEnvelopes(name, key).map(envelopeToJson);

interface Summary {
  runId: string;
  verdict: string;
  reasons: number;
  blocks: number;
  envelopes: number;
  decision: { verdict: string; reasons: { rule: string; path: string[] }[] };
  expected?: string;
}

describe('provgate HTTP API', () => {
  it('GET /healthz', async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', service: 'provgate', trustedKeys: 1 });
  });

  it('POST /v1/gate: the verdict summary and a run id; the run is stored with its graph', async () => {
    const res = await post(server.url, '/v1/gate', envelopes('cve-origin'));
    expect(res.status).toBe(200);
    const body = (await res.json()) as Summary;
    expect(body).toMatchObject({ verdict: 'block', envelopes: 7, blocks: 1 });
    expect(body.runId).toMatch(/^[0-9a-f-]{36}$/);
    const graph = (await (await fetch(`${server.url}/v1/runs/${body.runId}/graph`)).json()) as { nodes: unknown[]; edges: unknown[]; findings: unknown[]; decision: { verdict: string } };
    expect(graph.decision.verdict).toBe('block');
    expect(graph.findings).toHaveLength(1);
    expect(graph.nodes.length).toBeGreaterThan(10);
    const bt = (await (await fetch(`${server.url}/v1/runs/${body.runId}/backtrack?q=CVE-2020-14343`)).json()) as { stories: { introducedBy: { pr: number } }[] };
    expect(bt.stories[0]?.introducedBy.pr).toBe(42);
    const blast = (await (await fetch(`${server.url}/v1/runs/${body.runId}/blast?layer=${DEMO_BASE_LAYER.slice(0, 20)}`)).json()) as { services: string[] };
    expect(blast.services).toEqual(['api', 'web', 'worker']);
    const cypher = await fetch(`${server.url}/v1/runs/${body.runId}/cypher`);
    expect(cypher.headers.get('content-type')).toContain('text/plain');
    expect(await cypher.text()).toContain("MERGE (n:Provenance:Commit {id: ");
    const list = (await (await fetch(`${server.url}/v1/runs`)).json()) as { items: { runId: string; verdict: string }[]; total: number };
    expect(list.items.some((i) => i.runId === body.runId && i.verdict === 'block')).toBe(true);
  });

  it('POST /v1/gate with malformed envelopes: 422 with the path, never the value; lenient=true blocks instead', async () => {
    const bad = [...envelopes('clean'), { payloadType: 'x', payload: '!Zq9-secret!', signatures: [] }];
    const res = await post(server.url, '/v1/gate', bad);
    expect(res.status).toBe(422);
    const text = await res.text();
    expect(text).not.toContain('Zq9');
    const body = JSON.parse(text) as { error: { code: string; details: { path: string }[] } };
    expect(body.error.code).toBe('validation_failed');
    expect(body.error.details.map((d) => d.path)).toContain('[7].payload');
    expect((await post(server.url, '/v1/gate', { not: 'a list' })).status).toBe(422);
    const lenient = await post(server.url, '/v1/gate?lenient=true', bad);
    expect(lenient.status).toBe(200);
    expect(((await lenient.json()) as Summary).verdict).toBe('block');
    expect((await post(server.url, '/v1/gate', '[{"payloadType": ')).status).toBe(400);
    expect((await post(server.url, '/v1/gate', 'x', { 'content-type': 'text/plain' })).status).toBe(415);
  });

  it('POST /v1/gate: a list nested too deep, with a number past the double range or an object of too many members is 422 in both modes, never a 500', async () => {
    const first = JSON.stringify(envelopes('clean')[0]).slice(0, -1);
    const bodies = [
      `[${first},"x_data":${'['.repeat(100_000)}"secret-text"${']'.repeat(100_000)}}]`,
      `[${first},"x_data":["secret-text",1e400]}]`,
      `[${first},"x_data":{${Array.from({ length: 20_000 }, (_, i) => `"k${20_000 - i}":"secret-text"`).join(',')}}}]`,
    ];
    for (const body of bodies)
      for (const query of ['', '?lenient=true']) {
        const res = await post(server.url, `/v1/gate${query}`, body);
        expect(res.status).toBe(422);
        expect(await res.text()).not.toContain('secret');
      }
  });

  it('a tampered or untrusted envelope blocks with the reason', async () => {
    const tampered = (await (await post(server.url, '/v1/gate', envelopes('tampered'))).json()) as Summary;
    expect(tampered.verdict).toBe('block');
    expect(tampered.decision.reasons.some((r) => r.rule === 'provenance_integrity')).toBe(true);
    const demoSigned = scenarioEnvelopes('clean').map(envelopeToJson);
    const untrusted = (await (await post(server.url, '/v1/gate', demoSigned)).json()) as Summary;
    expect(untrusted.verdict).toBe('block');
  });

  it('a service that trusts no key answers 503 on /v1/gate but still runs demos', async () => {
    const res = await post(untrusting.url, '/v1/gate', envelopes('clean'));
    expect(res.status).toBe(503);
    const demo = await post(untrusting.url, '/v1/demo/unreachable', '');
    expect(demo.status).toBe(200);
    expect((await demo.json()) as Summary).toMatchObject({ verdict: 'warn', expected: 'warn' });
  });

  it('a bad GATE_PUBKEY does not stop the router: health says why, /v1/gate answers 503 with it, and no path leaks', async () => {
    const saved = process.env['GATE_PUBKEY'];
    process.env['GATE_PUBKEY'] = '/nonexistent/Zq9-key.pub';
    try {
      const bad = await listen(createStandaloneApp(), { port: 0 });
      try {
        const health = (await (await fetch(`${bad.url}/healthz`)).json()) as { trustedKeys: number; trustProblem?: string };
        expect(health).toMatchObject({ trustedKeys: 0, trustProblem: 'the GATE_PUBKEY file cannot be read' });
        const res = await post(bad.url, '/v1/gate', envelopes('clean'));
        expect(res.status).toBe(503);
        const text = await res.text();
        expect(text).toContain('GATE_PUBKEY file cannot be read');
        expect(text).not.toContain('Zq9');
      } finally {
        await bad.close();
      }
    } finally {
      if (saved === undefined) delete process.env['GATE_PUBKEY'];
      else process.env['GATE_PUBKEY'] = saved;
    }
  });

  it('POST /v1/demo/{scenario} runs every scenario to its verdict; unknown ones 404', async () => {
    for (const [scenario, verdict] of [
      ['clean', 'pass'],
      ['malicious-dep', 'block'],
      ['unsigned-missing', 'block'],
    ]) {
      const body = (await (await post(server.url, `/v1/demo/${scenario}`, '')).json()) as Summary;
      expect(body.verdict, scenario).toBe(verdict);
      expect(body.expected).toBe(verdict);
    }
    expect((await post(server.url, '/v1/demo/nope', '')).status).toBe(404);
  });

  it('GET /docs: Swagger UI from local files and an OpenAPI 3.1 document naming every route', async () => {
    const redirect = await fetch(`${server.url}/docs`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    const page = await fetch(`${server.url}/docs/`);
    expect(page.status).toBe(200);
    expect(await page.text()).not.toMatch(/<script>|https?:\/\//);
    for (const asset of ['swagger-ui.css', 'swagger-ui-bundle.js', 'init.js']) expect((await fetch(`${server.url}/docs/${asset}`)).status).toBe(200);
    const doc = (await (await fetch(`${server.url}/docs/openapi.json`)).json()) as { openapi: string; paths: Record<string, unknown>; components: { schemas: Record<string, { properties?: Record<string, unknown> }> } };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual(['/healthz', '/v1/demo/{scenario}', '/v1/gate', '/v1/keys', '/v1/keys/generate', '/v1/keys/log', '/v1/keys/{keyid}/revoke', '/v1/runs', '/v1/runs/{run}', '/v1/runs/{run}/backtrack', '/v1/runs/{run}/blast', '/v1/runs/{run}/cypher', '/v1/runs/{run}/graph']);
    expect(Object.keys(doc.components.schemas['BuildPayload']?.properties ?? {})).toEqual(expect.arrayContaining(['buildId', 'commit', 'image', 'layers', 'packages']));
    // Every paged list answers 400 for a limit or offset out of range, and says so.
    const responses = (p: string) => Object.keys((doc.paths[p] as { get: { responses: Record<string, unknown> } }).get.responses);
    for (const p of ['/v1/runs', '/v1/keys/log']) {
      expect(responses(p), p).toContain('400');
      expect((await fetch(`${server.url}${p}?limit=501`)).status).toBe(400);
    }
  });

  it('unknown runs 404, bad queries 400, unknown routes 404', async () => {
    expect((await fetch(`${server.url}/v1/runs/00000000-0000-4000-8000-000000000000/graph`)).status).toBe(404);
    expect((await fetch(`${server.url}/v1/runs/not-an-id/graph`)).status).toBe(404);
    const id = ((await (await post(server.url, '/v1/demo/clean', '')).json()) as Summary).runId;
    expect((await fetch(`${server.url}/v1/runs/${id}/backtrack`)).status).toBe(400);
    expect((await fetch(`${server.url}/v1/runs/${id}/blast?layer=zz`)).status).toBe(400);
    expect((await fetch(`${server.url}/v1/runs/${id}/blast?layer=zzzz`)).status).toBe(400);
    expect((await fetch(`${server.url}/v1/runs?limit=0`)).status).toBe(400);
    expect((await fetch(`${server.url}/nope`)).status).toBe(404);
  });
});

describe('POST /v1/gate?typosquat=true', () => {
  it('checks PyPI names against the shipped popular-package list: the typosquat blocks only when asked', async () => {
    const plain = (await (await post(server.url, '/v1/gate', envelopes('malicious-dep'))).json()) as Summary;
    expect(plain.decision.reasons.map((r) => r.rule)).not.toContain('malicious_dependency');
    const res = await post(server.url, '/v1/gate?typosquat=true', envelopes('malicious-dep'));
    expect(res.status).toBe(200);
    const checked = (await res.json()) as Summary;
    expect(checked.verdict).toBe('block');
    expect(checked.decision.reasons[0]).toMatchObject({ rule: 'malicious_dependency' });
    expect((await post(server.url, '/v1/gate?typosquat=maybe', envelopes('clean'))).status).toBe(400);
  });
});

describe('provgate mounted as the gateway mounts it (no explorer option)', () => {
  it('GET / answers a JSON pointer to the Lineage workspace, and the explorer files are not served', async () => {
    const ctx = { jobs: new InProcessRunner(jobs), db: openMemoryStore([provgateService]), dataDir: '', resourcesDir: defaultResourcesDir() };
    const mounted = await listen(createServiceApp(createRouter(ctx, { trusted: new Map() })), { port: 0 });
    try {
      const res = await fetch(`${mounted.url}/`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(await res.json()).toMatchObject({ service: 'provgate', ui: 'the Lineage workspace of the workstation' });
      expect((await fetch(`${mounted.url}/explorer.js`)).status).toBe(404);
      expect((await fetch(`${mounted.url}/healthz`)).status).toBe(200);
    } finally {
      await mounted.close();
    }
  });
});

describe('trusted keys managed over HTTP (no restart, no GATE_PUBKEY)', () => {
  it('import, gate, generate, revoke, audit; env keys listed but not revocable; bad input refused', async () => {
    const envKey = signingKeyFromPem(generateKeyPair().privatePem, 'ci-env');
    const ctx = { jobs: new InProcessRunner(jobs), db: openMemoryStore([provgateService]), dataDir: '', resourcesDir: defaultResourcesDir() };
    const app = await listen(createServiceApp(createRouter(ctx, { trusted: new Map() })), { port: 0 });
    const envApp = await listen(createServiceApp(createRouter({ ...ctx, db: openMemoryStore([provgateService]) }, { trusted: new Map([trustedKeyOf(envKey)]) })), { port: 0 });
    try {
      const pair = generateKeyPair();
      const mine = signingKeyFromPem(pair.privatePem, 'analyst');
      const signed = scenarioEnvelopes('clean', mine).map(envelopeToJson);
      // Nothing trusted yet: the 503 says where to add a key.
      const none = await post(app.url, '/v1/gate', signed);
      expect(none.status).toBe(503);
      expect(((await none.json()) as { error: { message: string } }).error.message).toMatch(/Lineage workspace/);

      const added = await post(app.url, '/v1/keys', { publicKey: pair.publicPem, keyid: 'analyst', label: 'my SBOM key' });
      expect(added.status).toBe(201);
      expect(await added.json()).toMatchObject({ keyid: 'analyst', source: 'store', status: 'active', origin: 'imported', revocable: true });
      const passed = (await (await post(app.url, '/v1/gate', signed)).json()) as Summary & { rejected: number };
      expect(passed.verdict).toBe('pass');
      expect(passed.rejected).toBe(0);
      expect(((await (await fetch(`${app.url}/healthz`)).json()) as { trustedKeys: number }).trustedKeys).toBe(1);

      const gen = await post(app.url, '/v1/keys/generate', { label: 'second' });
      expect(gen.status).toBe(201);
      expect(gen.headers.get('cache-control')).toBe('no-store');
      const g = (await gen.json()) as { key: { keyid: string; origin: string }; privateKeyPem: string };
      expect(g.privateKeyPem).toMatch(/BEGIN PRIVATE KEY/);
      expect(g.key.origin).toBe('generated');

      const revoked = await post(app.url, '/v1/keys/analyst/revoke', { reason: 'rotated' });
      expect(revoked.status).toBe(200);
      expect(await revoked.json()).toMatchObject({ status: 'revoked', revokeReason: 'rotated', revocable: false });
      const blocked = (await (await post(app.url, '/v1/gate', signed)).json()) as Summary;
      expect(blocked.verdict).toBe('block');
      const run = (await (await fetch(`${app.url}/v1/runs/${blocked.runId}/graph`)).json()) as { rejected: { reason: string }[] };
      expect(run.rejected[0]?.reason).toBe('envelope[0]: signed by a revoked key (analyst)');
      expect((await post(app.url, '/v1/keys/analyst/revoke', {})).status).toBe(409);
      expect((await post(app.url, '/v1/keys', { publicKey: pair.publicPem, keyid: 'analyst-2' })).status).toBe(409);
      expect((await post(app.url, '/v1/keys/nope/revoke', {})).status).toBe(404);

      const list = (await (await fetch(`${app.url}/v1/keys`)).json()) as { items: { keyid: string; status: string }[]; trusted: number };
      expect(list.items.map((k) => [k.keyid, k.status])).toEqual([
        ['analyst', 'revoked'],
        [g.key.keyid, 'active'],
      ]);
      expect(list.trusted).toBe(1);
      const log = (await (await fetch(`${app.url}/v1/keys/log`)).json()) as { items: { kind: string; actor: string }[]; verified: { ok: boolean } };
      expect(log.items.map((r) => r.kind)).toEqual(['key.add', 'key.add', 'key.revoke']);
      expect(log.verified.ok).toBe(true);

      // Refusals: a private key, junk, unknown fields, a control character in the label, not JSON. No value is echoed.
      const priv = await post(app.url, '/v1/keys', { publicKey: pair.privatePem });
      expect(priv.status).toBe(422);
      expect(await priv.text()).not.toContain('PRIVATE KEY-----\n');
      expect((await post(app.url, '/v1/keys', { publicKey: 'zzzz-not-a-key' })).status).toBe(422);
      expect((await post(app.url, '/v1/keys', { publicKey: pair.publicPem, extra: 1 })).status).toBe(422);
      expect((await post(app.url, '/v1/keys/generate', { label: 'a\nb' })).status).toBe(422);
      expect((await post(app.url, '/v1/keys', 'x', { 'content-type': 'text/plain' })).status).toBe(415);

      // GATE_PUBKEY keys: listed as env, refused for revocation, their id reserved.
      const envList = (await (await fetch(`${envApp.url}/v1/keys`)).json()) as { items: { keyid: string; source: string; revocable: boolean }[] };
      expect(envList.items).toEqual([expect.objectContaining({ keyid: 'ci-env', source: 'env', revocable: false })]);
      expect((await post(envApp.url, '/v1/keys/ci-env/revoke', {})).status).toBe(409);
      expect((await post(envApp.url, '/v1/keys', { publicKey: generateKeyPair().publicPem, keyid: 'ci-env' })).status).toBe(409);
      // The GATE_PUBKEY key's bytes under a new id: refused too (revoking that id would leave the key trusted under its env id).
      const envBytes = trustedKeyOf(envKey)[1];
      const hex = envBytes.type === 'ed25519' ? Buffer.from(envBytes.publicKey).toString('hex') : '';
      const again = await post(envApp.url, '/v1/keys', { publicKey: hex, keyid: 'ci-env-copy' });
      expect(again.status).toBe(409);
      expect(((await again.json()) as { error: { message: string } }).error.message).toContain('GATE_PUBKEY');
      // Bad ids and labels: the answer states the rule, not a generic pattern message.
      const badId = (await (await post(app.url, '/v1/keys/generate', { keyid: 'has space' })).json()) as { error: { message: string; details: { path: string; issue: string }[] } };
      expect(badId.error.details[0]).toEqual({ path: 'keyid', issue: expect.stringContaining('printable') });
      expect(badId.error.message).not.toContain('pattern');
      const badLabel = (await (await post(app.url, '/v1/keys/generate', { label: 'a\nb' })).json()) as { error: { details: { path: string; issue: string }[] } };
      expect(badLabel.error.details[0]).toEqual({ path: 'label', issue: expect.stringContaining('one line') });
    } finally {
      await app.close();
      await envApp.close();
    }
  });
});
