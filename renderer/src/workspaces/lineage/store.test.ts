// The Lineage store against a scripted API client: which routes it calls, what it highlights, and that late answers never overwrite newer ones.
import { describe, expect, it } from 'vitest';
import type { BacktrackBody, GateSummary, LayerBlast, RunDetail, RunGraph, RunListItem, RunPage } from '../../../../engines/core/contracts/provgate';
import { ApiError, type ApiClient, type RequestOptions } from '../../api/client';
import { createLineageStore } from './store';
import graphJson from './testdata/cve-origin.graph.json';

const graph = graphJson as RunGraph;
const RUN = '11111111-2222-4333-8444-555555555555';
const item: RunListItem = {
  runId: RUN,
  createdAt: '2026-11-22T01:00:00.000Z',
  source: 'demo',
  scenario: 'cve-origin',
  verdict: 'block',
  reasons: 1,
  blocks: 1,
  warns: 0,
  envelopes: 7,
  rejected: 0,
  nodes: 22,
  edges: 30,
  findings: 1,
  envelopesSha256: null,
};
const detail: RunDetail = { ...item, decision: graph.decision, comment: '## Provenance gate: BLOCK\n' };
const base = graph.nodes.find((n) => n.kind === 'layer' && n.label === 'sha256:1d0447543fac');
const baseDigest = String(base?.attrs['digest']);

interface Call {
  readonly method: string;
  readonly path: string;
  readonly query: RequestOptions['query'];
  readonly body?: unknown;
}

/** A client answering from a table; `hold` keeps a route's answer until released. */
function fakeClient(answers: Record<string, (q: RequestOptions['query'], body?: unknown) => unknown>) {
  const calls: Call[] = [];
  const held = new Map<string, () => void>();
  const holding = new Set<string>();
  const answer = async <T,>(method: string, p: string, options?: RequestOptions, body?: unknown): Promise<T> => {
    calls.push({ method, path: p, query: options?.query, ...(body === undefined ? {} : { body }) });
    const key = `${method} ${p}`;
    if (holding.has(key)) await new Promise<void>((resolve) => held.set(key, resolve));
    const fn = answers[key];
    if (!fn) throw new ApiError(404, 'not_found', 'no such route');
    const v = fn(options?.query, body);
    if (v instanceof ApiError) throw v;
    return v as T;
  };
  const client: ApiClient = {
    apiBase: '',
    get: (p, o) => answer('GET', p, o),
    post: (p, b, o) => answer('POST', p, o, b),
    open: () => Promise.reject(new Error('not used')),
    upload: () => Promise.reject(new Error('not used')),
    put: (p, b, o) => answer('PUT', p, o, b),
    patch: (p, b, o) => answer('PATCH', p, o, b),
    delete: (p, o) => answer('DELETE', p, o),
  };
  return {
    client,
    calls,
    hold: (key: string) => holding.add(key),
    release: (key: string) => {
      holding.delete(key);
      held.get(key)?.();
    },
  };
}

const story: BacktrackBody = {
  query: 'CVE-2020-14343',
  stories: [
    {
      finding: { id: graph.findings[0]?.id ?? '', cve: 'CVE-2020-14343', severity: 'critical', title: 't', source: 'trivy', reachable: true },
      dependency: { name: 'pyyaml', version: '5.3', purl: 'pkg:pypi/pyyaml@5.3' },
      introducedBy: { sha: 'a1b2c3d4e5f6', pr: 42, author: 'dev@example.com', timestamp: null, subject: 'Add pyyaml (#42)' },
      path: graph.decision.reasons[0]?.path.slice() ?? [],
      pathIds: graph.decision.reasons[0]?.pathIds.slice() ?? [],
      builds: [],
      blastRadius: { images: [], services: ['api', 'worker'], containers: [] },
    },
  ],
};
const blast: LayerBlast = {
  layers: [baseDigest],
  images: ['ghcr.io/demo/api'],
  services: ['api', 'web', 'worker'],
  containers: [],
  ids: { service: graph.nodes.filter((n) => n.kind === 'service').map((n) => n.id) },
};

const P = '/svc/provgate';
const routes = {
  [`GET ${P}/healthz`]: () => ({ status: 'ok', service: 'provgate', version: '0.1.0', trustedKeys: 0, trustProblem: 'the GATE_PUBKEY file cannot be read' }),
  [`GET ${P}/v1/runs`]: (): RunPage => ({ items: [item], total: 1, limit: 50, offset: 0 }),
  [`GET ${P}/v1/runs/${RUN}/graph`]: () => graph,
  [`GET ${P}/v1/runs/${RUN}`]: () => detail,
  [`GET ${P}/v1/runs/${RUN}/backtrack`]: (q: RequestOptions['query']) => ({ ...story, query: String(q?.['q']) }),
  [`GET ${P}/v1/runs/${RUN}/blast`]: () => blast,
  [`POST ${P}/v1/demo/cve-origin`]: (): GateSummary => ({ ...item, decision: graph.decision, expected: 'block' }),
};

describe('Lineage store', () => {
  it('a demo run: posts the scenario, lists runs, opens the run and its first blocking reason with the origin path highlighted', async () => {
    const api = fakeClient(routes);
    const store = createLineageStore(api.client, P);
    await store.getState().runDemo('cve-origin');
    const s = store.getState();
    expect(s.busy).toBeNull();
    expect(s.last?.expected).toBe('block');
    expect(s.runs?.items).toHaveLength(1);
    expect(s.runId).toBe(RUN);
    expect(s.detail?.comment).toContain('BLOCK');
    expect(s.focus).toMatchObject({ kind: 'reason', index: 0 });
    expect(s.highlight).toMatchObject({ kind: 'path', pathIds: graph.decision.reasons[0]?.pathIds });
    expect(s.stories?.stories[0]?.introducedBy?.pr).toBe(42);
    // The reason's finding is what is backtracked.
    expect(api.calls.find((c) => c.path.endsWith('/backtrack'))?.query).toEqual({ q: 'CVE-2020-14343' });
  });

  it('a layer click asks for its blast radius by digest and highlights what it reached', async () => {
    const api = fakeClient(routes);
    const store = createLineageStore(api.client, P);
    await store.getState().openRun(RUN);
    await store.getState().selectNode(base?.id ?? '');
    const s = store.getState();
    expect(api.calls.at(-1)).toMatchObject({ path: `${P}/v1/runs/${RUN}/blast`, query: { layer: baseDigest } });
    expect(s.blast?.services).toEqual(['api', 'web', 'worker']);
    expect(s.highlight?.kind).toBe('blast');
    if (s.highlight?.kind === 'blast') {
      expect(s.highlight.layerIds).toEqual([base?.id]);
      expect(s.highlight.reached.size).toBe(3);
    }
    expect(s.stories).toBeNull();
  });

  it('a node with a finding is backtracked by the finding id; a plain node is only marked', async () => {
    const api = fakeClient(routes);
    const store = createLineageStore(api.client, P);
    await store.getState().openRun(RUN);
    const dep = graph.findings[0]?.nodeId ?? '';
    await store.getState().selectNode(dep);
    expect(api.calls.at(-1)?.query).toEqual({ q: graph.findings[0]?.id });
    expect(store.getState().highlight?.kind).toBe('path');
    const service = graph.nodes.find((n) => n.kind === 'service')?.id ?? '';
    await store.getState().selectNode(service);
    expect(store.getState().highlight).toEqual({ kind: 'node', id: service });
    store.getState().clearFocus();
    expect(store.getState().highlight).toBeNull();
  });

  it('a slow backtrack answer does not overwrite the blast radius asked for after it', async () => {
    const api = fakeClient(routes);
    const store = createLineageStore(api.client, P);
    await store.getState().openRun(RUN);
    api.hold(`GET ${P}/v1/runs/${RUN}/backtrack`);
    const slow = store.getState().backtrack('pyyaml');
    await store.getState().selectNode(base?.id ?? '');
    api.release(`GET ${P}/v1/runs/${RUN}/backtrack`);
    await slow;
    expect(store.getState().highlight?.kind).toBe('blast');
    expect(store.getState().stories).toBeNull();
  });

  it('health: the trusted key count and problem; a failed health call is no error, only no hint', async () => {
    const store = createLineageStore(fakeClient(routes).client, P);
    await store.getState().loadHealth();
    expect(store.getState().health).toMatchObject({ trustedKeys: 0, trustProblem: 'the GATE_PUBKEY file cannot be read' });
    const bare = createLineageStore(fakeClient({}).client, P);
    await bare.getState().loadHealth();
    expect(bare.getState().health).toBeNull();
  });

  it('errors land where they belong: a refused gate keeps the open run; a missing run says so', async () => {
    const api = fakeClient({
      ...routes,
      [`POST ${P}/v1/gate`]: () => new ApiError(422, 'validation_failed', 'malformed envelopes', 'r1', [{ path: '[0].payload', issue: 'Required' }]),
    });
    const store = createLineageStore(api.client, P);
    await store.getState().openRun(RUN);
    await store.getState().gate([{}], 'x.json', { lenient: false, typosquat: false });
    expect(store.getState().submitError?.status).toBe(422);
    expect(store.getState().runId).toBe(RUN);
    expect(store.getState().graph).not.toBeNull();
    await store.getState().gate([{}], 'x.json', { lenient: true, typosquat: true });
    expect(api.calls.at(-1)?.query).toEqual({ lenient: 'true', typosquat: 'true' });
    await store.getState().openRun('99999999-2222-4333-8444-555555555555');
    expect(store.getState().runError?.status).toBe(404);
    expect(store.getState().graph).toBeNull();
  });
});
