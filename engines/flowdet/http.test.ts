// The HTTP contract of `flowdet serve`: health, schema, bounded scoring, refusals, studies with progress and cancel.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type Listening } from '../core/http/server.js';
import { bundleText } from './bundle.js';
import { loadData } from './data/datasets.js';
import { createStandaloneApp } from './http.js';
import { studyOnData, studySizes } from './studies/run.js';

let server: Listening;
let bare: Listening;
let flow: Record<string, number>;
const dir = mkdtempSync(path.join(tmpdir(), 'flowdet-http-'));

beforeAll(async () => {
  const loaded = await loadData('synthetic', { syntheticRows: 1200, seed: 2 });
  const sizes = { ...studySizes(true), attackRows: 10 };
  const { model } = await studyOnData(loaded, { data: 'synthetic', quick: true, seed: 2 }, sizes, () => {}, new Set(['attack', 'harden', 'explain', 'poison', 'drift']));
  const modelPath = path.join(dir, 'model.json');
  writeFileSync(modelPath, bundleText(model).text);
  const names = loaded.table.schema.features.map((f) => f.name);
  const i = Array.from(loaded.test).find((r) => loaded.table.y[r] === 1)!;
  flow = Object.fromEntries(names.map((n, k) => [n, loaded.table.x.data[i * names.length + k]!]));
  server = await listen(createStandaloneApp({ modelPath, dataDir: dir }), { port: 0 });
  bare = await listen(createStandaloneApp({ modelPath: path.join(dir, 'absent.json') }), { port: 0 });
}, 120_000);

afterAll(async () => {
  await server.close();
  await bare.close();
});

const post = (base: string, p: string, body: unknown, type = 'application/json') => fetch(`${base}${p}`, { method: 'POST', headers: { 'content-type': type }, body: typeof body === 'string' ? body : JSON.stringify(body) });

describe('flowdet HTTP API', () => {
  it('GET /health names the loaded model and the limits', async () => {
    const body = (await (await fetch(`${server.url}/health`)).json()) as { status: string; model: { loaded: boolean; dataset: string; sha256: string }; limits: { max_flows: number } };
    expect(body.status).toBe('ok');
    expect(body.model).toMatchObject({ loaded: true, dataset: 'synthetic' });
    expect(body.model.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(body.limits.max_flows).toBe(1000);
    const none = (await (await fetch(`${bare.url}/health`)).json()) as { model: { loaded: boolean } };
    expect(none.model.loaded).toBe(false);
  });

  it('GET /schema: features with classes, attacker-controllable ones, relations and notes', async () => {
    const body = (await (await fetch(`${server.url}/schema`)).json()) as { dataset: string; features: { name: string; classes: string[] }[]; controllable: string[]; relations: unknown[]; notes: string[] };
    expect(body.dataset).toBe('synthetic');
    expect(body.controllable).toContain('Flow Duration');
    expect(body.features.find((f) => f.name === 'Flow Bytes/s')?.classes).toEqual(['derived']);
    expect(body.relations.length).toBeGreaterThan(0);
    const unsw = (await (await fetch(`${server.url}/schema?dataset=unsw_nb15`)).json()) as { features: { name: string }[] };
    expect(unsw.features).toHaveLength(42);
    expect((await fetch(`${server.url}/schema?dataset=other`)).status).toBe(400);
  });

  it('POST /score: a verdict per flow, SHAP and a counterfactual with explain; missing features are 0', async () => {
    const res = await post(server.url, '/score', { explain: true, flows: [flow, { 'Flow Duration': 10 }] });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { results: { verdict: string; score: number; explanation?: { contributions: unknown[]; counterfactual: unknown } }[] };
    expect(body.results).toHaveLength(2);
    expect(['malicious', 'benign']).toContain(body.results[0]!.verdict);
    expect(body.results[0]!.explanation!.contributions.length).toBeGreaterThan(0);
  });

  it('POST /score refuses bad requests with 4xx and paths, never values', async () => {
    const bad = await post(server.url, '/score', { flows: [{ 'Flow Duration': 'secret-value' }] });
    expect(bad.status).toBe(422);
    expect(await bad.text()).not.toContain('secret-value');
    expect((await post(server.url, '/score', { flows: [] })).status).toBe(422);
    expect((await post(server.url, '/score', { flows: Array(1001).fill({}) })).status).toBe(422);
    expect((await post(server.url, '/score', '{"flows": [', 'application/json')).status).toBe(400);
    expect((await post(server.url, '/score', 'x', 'text/plain')).status).toBe(415);
    expect((await post(server.url, '/score', JSON.stringify({ flows: [{ pad: 'x'.repeat(5 * 1024 * 1024) }] }))).status).toBe(413);
    expect((await post(bare.url, '/score', { flows: [{}] })).status).toBe(503);
  });

  it('studies run as jobs with progress, results and cancel', async () => {
    const res = await post(server.url, '/studies', { kind: 'seeds', data: 'synthetic', quick: true, seeds: [0, 1] });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    let status = 'running';
    let body: { status: string; progress: { fraction: number }; result?: { format: string } } | undefined;
    for (let k = 0; k < 600 && status === 'running'; k++) {
      await new Promise((r) => setTimeout(r, 200));
      body = (await (await fetch(`${server.url}/studies/${id}`)).json()) as typeof body;
      status = body!.status;
    }
    expect(status).toBe('done');
    expect(body!.result!.format).toBe('vitrine-flowdet-seeds');
    const run = (await (await post(server.url, '/studies', { kind: 'run', data: 'synthetic', quick: true })).json()) as { id: string };
    const del = await fetch(`${server.url}/studies/${run.id}`, { method: 'DELETE' });
    expect(del.status).toBe(202);
    for (let k = 0; k < 600 && status !== 'cancelled'; k++) {
      await new Promise((r) => setTimeout(r, 200));
      status = ((await (await fetch(`${server.url}/studies/${run.id}`)).json()) as { status: string }).status;
    }
    expect(status).toBe('cancelled');
    expect((await fetch(`${server.url}/studies/00000000-0000-0000-0000-000000000000`)).status).toBe(404);
    expect((await post(server.url, '/studies', { kind: 'run', data: '/etc/passwd' })).status).toBe(422);
  }, 240_000);
});

describe('flowdet documentation', () => {
  it('serves the OpenAPI document with the score request schema', async () => {
    const res = await fetch(`${server.url}/docs/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };
    expect(Object.keys(doc.paths)).toEqual(['/health', '/schema', '/score', '/studies', '/studies/{id}']);
    expect(doc.components.schemas['ScoreRequest']).toBeDefined();
  });
});
