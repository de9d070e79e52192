// The HTTP contract of `caseassess serve`: routes, status codes, 422 with paths but no values, history, docs from local files, loopback only.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusWithHost } from '../core/http/host.fixture.js';
import { listen, type Listening } from '../core/http/server.js';
import { validateStixObject } from '../core/stix.js';
import { createStandaloneApp } from './http.js';
import { loadKnowledgeGraph } from './index.js';
import { actorListItemSchema, assessmentSchema, errorBodySchema, healthSchema, pageOf, storedAssessmentSchema, storedSummarySchema } from './schemas.js';

let server: Listening;
const kg = loadKnowledgeGraph();
const apt29 = kg.file.actors.find((a) => a.name === 'APT29');
const goodCase = { case_id: 'http-1', title: 'HTTP case', techniques: (apt29?.techniques ?? []).slice(0, 20).map((id, i) => ({ evidence_id: `E${i}`, id })) };

beforeAll(async () => {
  server = await listen(createStandaloneApp(), { port: 0 });
});
afterAll(async () => {
  await server.close();
});

const post = (p: string, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  fetch(`${server.url}${p}`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });

describe('caseassess HTTP API', () => {
  it('GET /health: status, number of actors, knowledge-graph metadata', async () => {
    const res = await fetch(`${server.url}/health`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^[A-Za-z0-9._-]{8,64}$/);
    const body = healthSchema.parse(await res.json());
    expect(body.actor_count).toBe(kg.file.actors.length);
    expect(body.kg).toMatchObject({ source: 'MITRE ATT&CK Enterprise', attack_version: '18.1', sha256: kg.sha256 });
  });

  it('GET /actors: ATT&CK group id and suspected sponsor state, paged, with alias search', async () => {
    const all = pageOf(actorListItemSchema).parse(await (await fetch(`${server.url}/actors?limit=500`)).json());
    expect(all.total).toBe(kg.file.actors.length);
    expect(all.items.find((a) => a.attack_id === 'G0007')).toMatchObject({ name: 'APT28', sponsor_state: 'Russia' });
    const fancy = pageOf(actorListItemSchema).parse(await (await fetch(`${server.url}/actors?q=Fancy%20Bear`)).json());
    expect(fancy.items[0]?.attack_id).toBe('G0007');
    const nk = pageOf(actorListItemSchema).parse(await (await fetch(`${server.url}/actors?sponsor=North%20Korea&limit=2&offset=1`)).json());
    expect(nk.limit).toBe(2);
    expect(nk.offset).toBe(1);
    for (const a of nk.items) expect(a.sponsor_state).toBe('North Korea');
    expect((await fetch(`${server.url}/actors?limit=0`)).status).toBe(400);
  });

  it('POST /assess: the assessment as JSON, stored in the history', async () => {
    const res = await post('/assess', goodCase);
    expect(res.status).toBe(200);
    const body = assessmentSchema.parse(await res.json());
    expect(body.leading.name).toBe('APT29');
    const id = res.headers.get('x-assessment-id') ?? '';
    const stored = storedAssessmentSchema.parse(await (await fetch(`${server.url}/assessments/${id}`)).json());
    expect(stored.assessment).toEqual(body);
    const history = pageOf(storedSummarySchema).parse(await (await fetch(`${server.url}/assessments`)).json());
    expect(history.items.some((i) => i.id === id && i.leading_attack_id === 'G0016')).toBe(true);
    expect((await fetch(`${server.url}/assessments/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await fetch(`${server.url}/assessments/not-an-id`)).status).toBe(404);
  });

  it('POST /assess?format=stix: a valid STIX 2.1 bundle, the same ids twice', async () => {
    const res = await post('/assess?format=stix', goodCase);
    expect(res.headers.get('content-type')).toBe('application/stix+json;version=2.1');
    expect((await post('/assess', goodCase)).headers.get('content-type')).toMatch(/^application\/json/);
    const first = (await res.json()) as { id: string; type: string };
    const second = (await (await post('/assess?format=stix', goodCase)).json()) as { id: string };
    expect(first.type).toBe('bundle');
    expect(validateStixObject(first)).toEqual([]);
    expect(second.id).toBe(first.id);
    expect((await post('/assess?format=xml', goodCase)).status).toBe(400);
  });

  it('an invalid case gets 422 with the field path and never the value', async () => {
    const secret = 'Zq9-secret-value';
    const bad = [
      { case_id: 'x', techniques: [{ evidence_id: 'E1', id: secret }] },
      { case_id: 'x', regions: [{ evidence_id: 'E1', name: 'Peru', confidence: secret }] },
      { techniques: [], title: secret },
      [secret],
    ];
    const paths = ['techniques[0].id', 'regions[0].confidence', 'case_id', ''];
    for (const [i, kase] of bad.entries()) {
      const res = await post('/assess', kase);
      expect(res.status).toBe(422);
      const text = await res.text();
      expect(text).not.toContain(secret);
      const body = errorBodySchema.parse(JSON.parse(text));
      expect(body.error.code).toBe('validation_failed');
      expect(body.error.details?.map((d) => d.path)).toContain(paths[i]);
      expect(body.error.request_id).toBe(res.headers.get('x-request-id'));
    }
  });

  it('malformed JSON is 400, another media type 415, an unknown route 404, all without echo', async () => {
    const malformed = await post('/assess', '{"case_id": "Zq9-secret');
    expect(malformed.status).toBe(400);
    expect(await malformed.text()).not.toContain('Zq9');
    expect((await post('/assess', 'case_id=x', { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await fetch(`${server.url}/nope`)).status).toBe(404);
  });

  it('refuses a Host header that is not loopback (DNS rebinding)', async () => {
    expect(await statusWithHost(`${server.url}/health`, 'attacker.example')).toBe(403);
    expect(await statusWithHost(`${server.url}/health`, `127.0.0.1:${server.port}`)).toBe(200);
  });

  it('GET /docs: Swagger UI from local files, its initializer, and an OpenAPI 3.1 document generated from the schemas', async () => {
    const redirect = await fetch(`${server.url}/docs`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('docs/');
    const page = await fetch(`${server.url}/docs/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(html).not.toMatch(/<script>|https?:\/\//);
    for (const asset of ['swagger-ui.css', 'swagger-ui-bundle.js', 'init.js']) {
      expect(html).toContain(`"${asset}"`);
      expect((await fetch(`${server.url}/docs/${asset}`)).status).toBe(200);
    }
    const doc = (await (await fetch(`${server.url}/docs/openapi.json`)).json()) as { openapi: string; paths: Record<string, unknown>; components: { schemas: Record<string, { properties?: Record<string, unknown> }> } };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual(['/actors', '/assess', '/assessments', '/assessments/{id}', '/cases', '/cases/evidence', '/cases/import/stix', '/cases/{id}', '/health']);
    expect(Object.keys(doc.components.schemas['Case']?.properties ?? {})).toEqual(expect.arrayContaining(['case_id', 'techniques', 'software', 'indicators', 'sectors', 'regions', 'time_window']));
    expect(doc.components.schemas['Assessment']?.properties).toHaveProperty('leading');
    // Every paged list answers 400 for a limit or offset out of range, and says so.
    const responses = (p: string) => Object.keys((doc.paths[p] as { get: { responses: Record<string, unknown> } }).get.responses);
    for (const p of ['/actors', '/assessments', '/cases']) {
      expect(responses(p), p).toContain('400');
      expect((await fetch(`${server.url}${p}?limit=501`)).status).toBe(400);
    }
  });
});

describe('a knowledge graph that cannot be loaded', () => {
  it('makes /health answer 503 without naming the file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'caseassess-'));
    const file = path.join(dir, 'kg.json');
    writeFileSync(file, readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'testdata', 'not-a-kg.json')));
    const broken = await listen(createStandaloneApp({ kgPath: file }), { port: 0 });
    try {
      const res = await fetch(`${broken.url}/health`);
      expect(res.status).toBe(503);
      const text = await res.text();
      expect(text).not.toContain(dir);
      expect(JSON.parse(text)).toMatchObject({ error: { code: 'unavailable' } });
    } finally {
      await broken.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
