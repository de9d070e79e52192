// The HTTP contract of `flowdet serve`: health, schema, bounded scoring, refusals, studies with progress and cancel.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createServiceApp, listen, standaloneContext, type Listening } from '../core/http/server.js';
import { bundleText } from './bundle.js';
import { loadData } from './data/datasets.js';
import { syntheticCsv, syntheticFlows } from './data/synthetic.js';
import { scoreEnsemble } from './detectors/models.js';
import { createRouter, createStandaloneApp, defaultResourcesDir, MAX_STUDY_CSV_BYTES } from './http.js';
import { flowdetService } from './service.js';
import { studyOnData, studySizes } from './studies/run.js';

let server: Listening;
let bare: Listening;
let mounted: Listening;
let flow: Record<string, number>;
let benignFlow: Record<string, number>;
let expected: { mal: number; ben: number };
let modelPath: string;
const dir = mkdtempSync(path.join(tmpdir(), 'flowdet-http-'));

beforeAll(async () => {
  const loaded = await loadData('synthetic', { syntheticRows: 1200, seed: 2 });
  const sizes = { ...studySizes(true), attackRows: 10 };
  const { model } = await studyOnData(loaded, { data: 'synthetic', quick: true, seed: 2 }, sizes, () => {}, new Set(['attack', 'harden', 'explain', 'poison', 'drift']));
  modelPath = path.join(dir, 'model.json');
  writeFileSync(modelPath, bundleText(model).text);
  const names = loaded.table.schema.features.map((f) => f.name);
  const C = names.length;
  const row = (i: number): Float64Array => Float64Array.from(loaded.table.x.data.subarray(i * C, (i + 1) * C));
  const p = scoreEnsemble(model.ensemble, { rows: loaded.table.rows, cols: C, data: loaded.table.x.data });
  // A malicious test flow the model flags and a benign one it passes: the route must give exactly these answers.
  const i = Array.from(loaded.test).find((r) => loaded.table.y[r] === 1 && p[r]! >= 0.5)!;
  const j = Array.from(loaded.test).find((r) => loaded.table.y[r] === 0 && p[r]! < 0.5)!;
  flow = Object.fromEntries(names.map((n, k) => [n, row(i)[k]!]));
  benignFlow = Object.fromEntries(names.map((n, k) => [n, row(j)[k]!]));
  expected = { mal: p[i]!, ben: p[j]! };
  server = await listen(createStandaloneApp({ modelPath, dataDir: dir }), { port: 0 });
  bare = await listen(createStandaloneApp({ modelPath: path.join(dir, 'absent.json') }), { port: 0 });
  // The router as the gateway mounts it (the gateway asks for its token on every route): with the study routes.
  const ctx = standaloneContext(flowdetService, { dataDir: dir }, defaultResourcesDir);
  mounted = await listen(createServiceApp(createRouter(ctx, { modelPath: path.join(dir, 'studies-model.json') })), { port: 0 });
}, 120_000);

afterAll(async () => {
  await server.close();
  await bare.close();
  await mounted.close();
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

  it('POST /score: the model\'s verdict per flow, its card and counts, SHAP and a counterfactual with explain', async () => {
    const res = await post(server.url, '/score', { explain: true, flows: [flow, benignFlow] });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { model: { dataset: string; training_rows: number }; counts: { malicious: number; benign: number }; results: { verdict: string; score: number; explanation?: { contributions: unknown[]; counterfactual: null | { valid: boolean } } }[] };
    expect(body.results.map((r) => r.verdict)).toEqual(['malicious', 'benign']);
    expect(body.results[0]!.score).toBe(expected.mal);
    expect(body.results[1]!.score).toBe(expected.ben);
    expect(body.counts).toEqual({ flows: 2, malicious: 1, benign: 1 });
    expect(body.model.dataset).toBe('synthetic');
    expect(body.model.training_rows).toBeGreaterThan(0);
    expect(body.results[0]!.explanation!.contributions.length).toBeGreaterThan(0);
    expect(body.results[0]!.explanation!.counterfactual).not.toBeNull();
    expect(body.results[0]!.explanation!.counterfactual!.valid).toBe(true);
    expect(body.results[1]!.explanation!.counterfactual).toBeNull();
  });

  it('POST /score reads a missing feature as 0 and lists it (the spec\'s default); defaults: false refuses the flow by the feature\'s name', async () => {
    const res = await post(server.url, '/score', { flows: [{ 'Flow Duration': 10 }] });
    expect(res.status).toBe(200);
    const ok = (await res.json()) as { columns: { defaulted: { feature: string; flows: number }[]; used: string[] }; warnings: string[]; results: { score: number }[] };
    expect(ok.columns.used).toEqual(['Flow Duration']);
    expect(ok.columns.defaulted).toContainEqual({ feature: 'Total Fwd Packets', flows: 1 });
    expect(ok.warnings.join(' ')).toMatch(/read as 0/);
    const asked = (await (await post(server.url, '/score', { defaults: true, flows: [{ 'Flow Duration': 10 }] })).json()) as typeof ok;
    expect(asked.results[0]!.score).toBe(ok.results[0]!.score);
    // An empty flow is every feature 0.
    expect((await post(server.url, '/score', { flows: [{}] })).status).toBe(200);
    const refused = await post(server.url, '/score', { defaults: false, flows: [{ 'Flow Duration': 10 }] });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toMatch(/lacks the base feature \\?"Destination Port\\?"/);
  });

  it('flowdet serve only scores: no study route, nothing writes the served model', async () => {
    const before = readFileSync(modelPath, 'utf8');
    expect((await post(server.url, '/studies', { kind: 'run', data: 'synthetic', quick: true, save_model: true })).status).toBe(404);
    expect((await fetch(`${server.url}/studies`)).status).toBe(404);
    expect((await fetch(`${server.url}/model`, { method: 'PUT', body: '{}' })).status).toBe(404);
    expect(readFileSync(modelPath, 'utf8')).toBe(before);
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

  it('trains on an uploaded CSV of the user\'s own flows and serves that model; lists the datasets present', async () => {
    const datasets = (await (await fetch(`${mounted.url}/datasets`)).json()) as { items: { name: string; present: boolean }[] };
    expect(datasets.items.find((d) => d.name === 'synthetic')?.present).toBe(true);
    expect(datasets.items.map((d) => d.name)).toEqual(['synthetic', 'cicids2017', 'unsw_nb15']);
    expect((await post(mounted.url, '/studies', { kind: 'run', data: 'csv', quick: true })).status).toBe(422);
    expect((await post(mounted.url, '/studies', { kind: 'run', data: 'csv', csv: 'a,b\n', csv_name: '../etc/passwd' })).status).toBe(422);
    const csv = syntheticCsv(syntheticFlows(700, { seed: 6 }));
    const res = await post(mounted.url, '/studies', { kind: 'run', data: 'csv', csv, csv_name: 'my flows.csv', quick: true, save_model: true });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    let status = 'running';
    for (let k = 0; k < 900 && status === 'running'; k++) {
      await new Promise((r) => setTimeout(r, 200));
      // The in-process study holds the event loop between its stages: a kept-alive connection may be reset meanwhile.
      const view = await fetch(`${mounted.url}/studies/${id}`, { headers: { connection: 'close' } }).then((r) => r.json() as Promise<{ status: string }>, () => ({ status: 'running' }));
      status = view.status;
    }
    expect(status).toBe('done');
    const health = (await (await fetch(`${mounted.url}/health`)).json()) as { model: { loaded: boolean; card: { data: string; training_rows: number; test: { accuracy: number } } } };
    expect(health.model.card.data).toBe('my flows.csv');
    expect(health.model.card.training_rows).toBe(490);
    const scored = (await (await post(mounted.url, '/score', { flows: [flow] })).json()) as { model: { data: string } };
    expect(scored.model.data).toBe('my flows.csv');
  }, 240_000);

  it('studies run as jobs with progress, results and cancel', async () => {
    const res = await post(mounted.url, '/studies', { kind: 'seeds', data: 'synthetic', quick: true, seeds: [0, 1] });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    let status = 'running';
    let body: { status: string; progress: { fraction: number }; result?: { format: string } } | undefined;
    for (let k = 0; k < 600 && status === 'running'; k++) {
      await new Promise((r) => setTimeout(r, 200));
      body = (await (await fetch(`${mounted.url}/studies/${id}`)).json()) as typeof body;
      status = body!.status;
    }
    expect(status).toBe('done');
    expect(body!.result!.format).toBe('vitrine-flowdet-seeds');
    const run = (await (await post(mounted.url, '/studies', { kind: 'run', data: 'synthetic', quick: true })).json()) as { id: string };
    const del = await fetch(`${mounted.url}/studies/${run.id}`, { method: 'DELETE' });
    expect(del.status).toBe(202);
    for (let k = 0; k < 600 && status !== 'cancelled'; k++) {
      await new Promise((r) => setTimeout(r, 200));
      status = ((await (await fetch(`${mounted.url}/studies/${run.id}`)).json()) as { status: string }).status;
    }
    expect(status).toBe('cancelled');
    expect((await fetch(`${mounted.url}/studies/00000000-0000-0000-0000-000000000000`)).status).toBe(404);
    expect((await post(mounted.url, '/studies', { kind: 'run', data: '/etc/passwd' })).status).toBe(422);
  }, 240_000);
});

describe('flowdet documentation', () => {
  it('every status the study routes answer is one the OpenAPI document lists for them', async () => {
    const doc = (await (await fetch(`${server.url}/docs/openapi.json`)).json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    const listed = (route: string, method: string): string[] => Object.keys(doc.paths[route]?.[method]?.responses ?? {});
    // No data folder: an uploaded CSV has nowhere to go.
    const noFolder = await listen(createServiceApp(createRouter(standaloneContext(flowdetService, {}, defaultResourcesDir), { modelPath: path.join(dir, 'none.json') })), { port: 0 });
    try {
      const answers: [string, string, Response][] = [
        ['/studies', 'post', await post(mounted.url, '/studies', '{"kind":')],
        ['/studies', 'post', await post(mounted.url, '/studies', '{}', 'text/plain')],
        ['/studies', 'post', await post(mounted.url, '/studies', { kind: 'run', data: 'csv', csv: 'x'.repeat(MAX_STUDY_CSV_BYTES + 64 * 1024) })],
        ['/studies', 'post', await post(mounted.url, '/studies', { kind: 'run', data: 'nope' })],
        ['/studies', 'post', await post(noFolder.url, '/studies', { kind: 'run', data: 'csv', csv: 'a,b\n1,2\n' })],
        ['/studies/{id}', 'get', await fetch(`${mounted.url}/studies/nope`)],
        ['/studies/{id}', 'delete', await fetch(`${mounted.url}/studies/nope`, { method: 'DELETE' })],
        ['/schema', 'get', await fetch(`${mounted.url}/schema?dataset=nope`)],
        ['/score', 'post', await post(server.url, '/score', '{"flows":')],
      ];
      const undocumented = answers.filter(([route, method, res]) => !listed(route, method).includes(String(res.status))).map(([route, method, res]) => `${method.toUpperCase()} ${route}: ${res.status}`);
      expect(answers.map(([, , res]) => res.status)).toEqual([400, 415, 413, 422, 503, 404, 404, 400, 400]);
      expect(undocumented).toEqual([]);
    } finally {
      await noFolder.close();
    }
  });


  it('serves the OpenAPI document with the score request schema', async () => {
    const res = await fetch(`${server.url}/docs/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { paths: Record<string, unknown>; components: { schemas: Record<string, unknown> } };
    expect(Object.keys(doc.paths)).toEqual(['/health', '/schema', '/score', '/datasets', '/studies', '/studies/{id}']);
    expect(doc.components.schemas['ScoreRequest']).toBeDefined();
  });
});
