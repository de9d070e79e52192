// The HTTP contract of `attrib serve`: health, scenarios, ACH and STIX (bundled and inline, overrides), limits, token, Host allow-list, TAXII 2.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileBundleTexts } from '../core/stix-import.fixture.js';
import { listen, type Listening } from '../core/http/server.js';
import { validateStixObject } from '../core/stix.js';
import { openMemoryStore } from '../core/store.js';
import { allowedHostsFromEnv, createStandaloneApp, serveAllowedHosts } from './http.js';
import { LOOPBACK_HOSTS } from '../core/http/security.js';
import { statusWithHost } from '../core/http/host.fixture.js';
import { attribService } from './service.js';
import { overrideLog } from './store.js';
import type { ExtractResponse } from '../core/contracts/ach.js';
import { assessmentSchema, attributionSchema, errorBodySchema, healthSchema, scenarioListSchema } from './schemas.js';

const TAXII = 'application/taxii+json;version=2.1';
const TOKEN = 'test-token-0123456789';
let open: Listening;
let locked: Listening;
const db = openMemoryStore([attribService]);

beforeAll(async () => {
  open = await listen(createStandaloneApp({ token: '', apiDocs: true, db }), { port: 0 });
  locked = await listen(createStandaloneApp({ token: TOKEN, apiDocs: false }), { port: 0 });
});
afterAll(async () => {
  await open.close();
  await locked.close();
});

const post = (server: Listening, p: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${p}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
const taxii = (p: string, accept = TAXII) => fetch(`${open.url}/taxii2${p}`, { headers: { accept } });

async function expectError(res: Response, status: number, code: string, secret?: string): Promise<void> {
  expect(res.status).toBe(status);
  const text = await res.text();
  expect(errorBodySchema.parse(JSON.parse(text)).error.code).toBe(code);
  if (secret !== undefined) expect(text).not.toContain(secret);
}

const inline = {
  actors: [
    { id: 'A1', name: 'Actor one', techniques: ['T1059.001', 'T1486'] },
    { id: 'A2', name: 'Actor two', techniques: ['T1566.001'] },
  ],
  evidence: [
    { id: 'E1', summary: 'PowerShell used to stage the payload', techniques: ['T1059.001'], credibility: 'high', relevance: 'high' },
    { id: 'E2', summary: 'Phishing attachment', techniques: ['T1566.001'], credibility: 'low' },
  ],
};

describe('attrib HTTP API', () => {
  it('GET / is the workbench page with a token field, open even with a token, under a strict CSP', async () => {
    const res = await fetch(`${locked.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await res.text();
    expect(html).toContain('id="token"');
    expect(html).not.toMatch(/<script>/);
    expect((await fetch(`${locked.url}/workbench.js`)).status).toBe(200);
    expect((await fetch(`${locked.url}/workbench.css`)).status).toBe(200);
  });

  it('GET /health: version, knowledge-base size, limits', async () => {
    const res = await fetch(`${open.url}/health`);
    expect(res.status).toBe(200);
    const h = healthSchema.parse(await res.json());
    expect(h.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(h.scenarios).toBeGreaterThanOrEqual(3);
    expect(h.limits).toEqual({ max_body_bytes: 1_000_000, max_text_chars: 500000 });
    expect(h.kb.loaded).toBe(true);
    expect(h.kb.techniques).toBeGreaterThan(500);
    expect(h.kb.groups).toBeGreaterThan(100);
  });

  it('GET /scenarios lists at least three bundled scenarios', async () => {
    const list = scenarioListSchema.parse(await (await fetch(`${open.url}/scenarios`)).json());
    expect(list.source).toBe('bundled');
    expect(list.scenarios.map((s) => s.name)).toEqual(expect.arrayContaining(['ceremony-wiper', 'ransomware-hospital', 'supply-chain-build']));
    expect((await fetch(`${open.url}/scenarios/ceremony-wiper`)).status).toBe(200);
    await expectError(await fetch(`${open.url}/scenarios/nope`), 404, 'not_found');
  });

  it('POST /ach on a bundled scenario with an override recorded with who and when', async () => {
    const res = await post(open, '/ach', { scenario: 'ceremony-wiper', overrides: ['E3:H2=I'], analyst: 'j.doe' });
    expect(res.status).toBe(200);
    const a = assessmentSchema.parse(await res.json());
    expect(a.leader).toBe('H1');
    expect(a.overrides).toEqual([expect.objectContaining({ evidence: 'E3', hypothesis: 'H2', rating: 'I', previous: 'CC', by: 'j.doe' })]);
    expect(a.evidence.find((e) => e.id === 'E3')!.cells.find((c) => c.hypothesis === 'H2')!.source).toBe('override');
  });

  it('overrides go to the hash-chained log and the STIX to TAXII, unless the request is a preview', async () => {
    const stored = (): number => db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM attrib_taxii_objects').get()!.n;
    const logged = overrideLog(db).count();
    const objects = stored();
    expect((await post(open, '/ach', { scenario: 'supply-chain-build', overrides: ['E8:H2=N'], analyst: 'preview-user', preview: true })).status).toBe(200);
    expect(overrideLog(db).count()).toBe(logged);
    expect(stored()).toBe(objects);
    expect((await post(open, '/ach', { scenario: 'supply-chain-build', overrides: ['E8:H2=N', 'E5:H3=I'], analyst: 'a.analyst' })).status).toBe(200);
    expect(overrideLog(db).count()).toBe(logged + 2);
    const last = overrideLog(db).head()!;
    expect(last).toMatchObject({ kind: 'ach.override', actor: 'a.analyst', payload: expect.objectContaining({ evidence: 'E5', hypothesis: 'H3', rating: 'I', previous: 'II' }) });
    expect(overrideLog(db).verify().ok).toBe(true);
    expect(stored()).toBeGreaterThan(objects);
  });

  it('POST /ach on inline actors and evidence derives ratings from the actors techniques', async () => {
    const a = assessmentSchema.parse(await (await post(open, '/ach', inline)).json());
    expect(a.hypotheses.map((h) => h.id).sort()).toEqual(['A1', 'A2']);
    expect(a.leader).toBe('A1');
    expect(a.evidence[0]!.cells.map((c) => [c.hypothesis, c.rating, c.source])).toEqual([
      ['A1', 'C', 'derived'],
      ['A2', 'I', 'derived'],
    ]);
  });

  it('GET /groups: knowledge-base groups searched by id, name or alias (a name that starts with the query first), each an ACH actor with its techniques; inline hypotheses made of them score, evidence keeps its whole text (detail)', async () => {
    const res = await fetch(`${open.url}/groups?q=apt2&limit=5`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items: { id: string; name: string; attack_id: string; aliases?: string[]; techniques: string[] }[]; total: number; limit: number };
    expect(body.limit).toBe(5);
    expect(body.items[0]!.name.toLowerCase().startsWith('apt2')).toBe(true);
    const apt29 = body.items.find((g) => g.name === 'APT29')!;
    expect(apt29).toMatchObject({ id: 'G0016', attack_id: 'G0016' });
    expect(apt29.techniques.length).toBeGreaterThan(20);
    const byAlias = (await (await fetch(`${open.url}/groups?q=cozy%20bear`)).json()) as { items: { id: string }[] };
    expect(byAlias.items.map((g) => g.id)).toContain('G0016');
    const all = (await (await fetch(`${open.url}/groups?limit=500`)).json()) as { total: number };
    expect(all.total).toBeGreaterThan(100);
    await expectError(await fetch(`${open.url}/groups?q=${'x'.repeat(101)}`), 400, 'bad_request');
    // A hypothesis made of a picked group and a free-text one, scored inline: the group's techniques rate the evidence.
    const a = (await (
      await post(open, '/ach', {
        actors: [apt29],
        hypotheses: [
          { id: 'H1', title: 'APT29', actor: 'G0016' },
          { id: 'H2', title: 'An insider' },
        ],
        evidence: [{ id: 'E1', summary: 'PowerShell', detail: 'An encoded PowerShell command staged the second-stage loader.', techniques: ['T1059.001'], ratings: { H2: 'I' } }],
        preview: true,
      })
    ).json()) as { leader: string; evidence: { detail?: string; cells: { hypothesis: string; rating: string; source: string }[] }[] };
    expect(a.leader).toBe('H1');
    // The row's short label (summary) and its whole text (detail) both come back.
    expect(a.evidence[0]!.detail).toBe('An encoded PowerShell command staged the second-stage loader.');
    expect(a.evidence[0]!.cells).toEqual(expect.arrayContaining([expect.objectContaining({ hypothesis: 'H1', rating: 'C', source: 'derived' }), expect.objectContaining({ hypothesis: 'H2', rating: 'I', source: 'scenario' })]));
  });

  it('POST /stix gives a valid STIX 2.1 bundle', async () => {
    const res = await post(open, '/stix', { scenario: 'ransomware-hospital' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/stix+json');
    const bundle = (await res.json()) as { type: string; objects: { type: string }[] };
    expect(validateStixObject(bundle)).toEqual([]);
    expect(bundle.objects.map((o) => o.type)).toEqual(expect.arrayContaining(['identity', 'intrusion-set', 'attack-pattern', 'report', 'note']));
  });

  it('refuses malformed requests without echoing them', async () => {
    const secret = 'SECRET-VALUE-xyz';
    await expectError(await post(open, '/ach', { scenario: secret.toLowerCase() }), 404, 'not_found', secret.toLowerCase());
    await expectError(await post(open, '/ach', { scenario: 'ceremony-wiper', overrides: [`E1:H1=${secret}`] }), 422, 'validation_failed', secret);
    await expectError(await post(open, '/ach', { scenario: 'ceremony-wiper', overrides: ['E99:H1=C'] }), 422, 'validation_failed');
    await expectError(await post(open, '/ach', { actors: inline.actors, evidence: [{ id: 'E1', summary: secret, ratings: { NOPE: 'C' } }] }), 422, 'validation_failed', secret);
    await expectError(await post(open, '/ach', '{"scenario": '), 400, 'bad_request');
    await expectError(await post(open, '/ach', {}), 422, 'validation_failed');
    await expectError(await post(open, '/ach', 'x', { 'content-type': 'text/plain' }), 415, 'unsupported_media_type');
  });

  it('POST /extract: spans into the submitted text, a 4.5 layer, a valid STIX bundle, stored for TAXII', async () => {
    const text = 'The loader fetched hxxp://update-check[.]example[.]com/a.bin and ran it with PowerShell (T1059.001).\nIt then deleted shadow copies.';
    const res = await post(open, '/extract', { text, name: 'sample report' });
    expect(res.status).toBe(200);
    const r = (await res.json()) as ExtractResponse;
    const url = r.extraction.indicators.find((i) => i.type === 'url');
    expect(url?.value).toBe('http://update-check.example.com/a.bin');
    expect(text.slice(url!.start, url!.end)).toBe('hxxp://update-check[.]example[.]com/a.bin');
    const t = r.extraction.techniques.find((x) => x.id === 'T1059.001' && x.source === 'id');
    expect(text.slice(t!.start, t!.end)).toBe('T1059.001');
    expect(r.layer.versions.layer).toBe('4.5');
    expect(validateStixObject(r.stix)).toEqual([]);
    const cols = (await (await taxii('/api/collections/')).json()) as { collections: { id: string; title: string }[] };
    const id = cols.collections.find((c) => c.title === 'Report extractions')!.id;
    const env = (await (await taxii(`/api/collections/${id}/objects/?match[type]=indicator`)).json()) as { objects: unknown[] };
    expect(env.objects.length).toBeGreaterThan(0);
  });

  it('POST /extract with classifier: true uses the shipped model (sentence spans marked as the classifier\'s, with a probability)', async () => {
    const text = 'The actor created a scheduled task to run the payload at every logon so that it survives reboots.';
    const r = (await (await post(open, '/extract', { text, classifier: true })).json()) as ExtractResponse;
    expect(r.extraction.warnings.join(' ')).not.toContain('no classifier model');
    for (const t of r.extraction.techniques.filter((x) => x.source === 'classifier')) {
      expect(t.probability).toBeGreaterThan(0);
      expect(t.end).toBeLessThanOrEqual(text.length);
    }
  });

  it('POST /extract refuses text over 500,000 characters (413) and a missing text (422)', async () => {
    await expectError(await post(open, '/extract', { text: 'a'.repeat(500_001) }), 413, 'payload_too_large');
    expect((await post(open, '/extract', { text: 'a'.repeat(500_000) })).status).toBe(200);
    await expectError(await post(open, '/extract', { txt: 'x' }), 422, 'validation_failed');
  });

  it('POST /attribute: the shortlist with reasons; period and known_infrastructure reach the score', async () => {
    const text =
      'Spearphishing attachments (T1566.001) dropped a loader that ran PowerShell (T1059.001), dumped LSASS memory (T1003.001) and beaconed to 198.51.100.23.';
    const plain = attributionSchema.parse(await (await post(open, '/attribute', { text, shortlist: 5 })).json());
    expect(plain.shortlist).toHaveLength(5);
    expect(plain.shortlist.every((c) => (c.reasons ?? []).some((r) => r.kind === 'techniques'))).toBe(true);
    expect(plain.shortlist.some((c) => (c.reasons ?? []).some((r) => r.kind === 'time' || r.kind === 'infrastructure'))).toBe(false);

    const res = await post(open, '/attribute', { text, shortlist: 5, period: { from: '2020-03', to: '2021' }, known_infrastructure: [{ group: 'G0099', indicators: ['ipv4:198.51.100.23'] }] });
    expect(res.status).toBe(200);
    const r = attributionSchema.parse(await res.json());
    const g = r.shortlist.find((c) => c.id === 'G0099');
    expect(g?.shared_infrastructure).toEqual(['198.51.100.23']);
    expect(g?.reasons?.find((x) => x.kind === 'infrastructure')?.detail).toBe("1 of the report's 1 indicators recorded as this group's infrastructure: 198.51.100.23");
    expect(r.shortlist.every((c) => (c.reasons ?? []).some((x) => x.kind === 'time' && /^documented activity \d{4} to \d{4}/.test(x.detail)))).toBe(true);
    // Each score is the sum of its reasons' contributions (to the rounding of each part).
    for (const c of r.shortlist) expect((c.reasons ?? []).reduce((s, x) => s + x.contribution, 0)).toBeCloseTo(c.score, 2);
  });

  it('POST /attribute refuses a malformed period, group id or unknown field (422 naming the field, not the value), and text over the limit (413)', async () => {
    const bad = async (body: unknown, field: string, secret: string) => {
      const res = await post(open, '/attribute', body);
      expect(res.status).toBe(422);
      const text = await res.text();
      expect(text).toContain(field);
      expect(text).not.toContain(secret);
    };
    await bad({ text: 'x', period: { from: 'spring-of-2021' } }, 'period.from', 'spring-of-2021');
    await bad({ text: 'x', period: { from: '2022', to: '2019' } }, 'period.to', '2019');
    await bad({ text: 'x', known_infrastructure: [{ group: 'Fancy-Secret', indicators: ['1.2.3.4'] }] }, 'known_infrastructure[0].group', 'Fancy-Secret');
    await bad({ text: 'x', shortlist: 0 }, 'shortlist', 'never');
    await bad({ text: 'x', knownInfrastructure: [] }, 'knownInfrastructure', 'never');
    await expectError(await post(open, '/attribute', { text: 'a'.repeat(500_001) }), 413, 'payload_too_large');
    expect((await post(locked, '/attribute', { text: 'x' })).status).toBe(401);
  });

  it('/matrices/import/stix: a bundle nested too deep, with a number past the double range or an object of too many members is 422, never a 500', async () => {
    for (const [, text] of hostileBundleTexts()) await expectError(await post(open, '/matrices/import/stix', text), 422, 'validation_failed', 'secret');
  });

  it('the 1 MB cap holds on every route but /matrices/import/stix, which takes up to 8 MiB (a deliberate exception)', async () => {
    const padded = (bytes: number, n = 0) => {
      const bundle = { type: 'bundle', id: `bundle--5d0092c5-5f74-4287-9642-33f4c354e5${n}d`, objects: [{ type: 'malware', spec_version: '2.1', id: 'malware--31b940d4-6f7f-459a-80ea-9c1f17b5891b', created: '2020-01-01T00:00:00.000Z', modified: '2020-01-01T00:00:00.000Z', name: 'Padding', is_family: true, description: '' }] };
      bundle.objects[0]!.description = 'p'.repeat(bytes - JSON.stringify(bundle).length);
      return JSON.stringify(bundle);
    };
    const two = padded(2 * 1024 * 1024);
    // The same 2 MiB body: over the cap on an ordinary route, accepted by the import.
    await expectError(await post(open, '/ach', two), 413, 'payload_too_large');
    await expectError(await post(open, '/matrices/evidence', two), 413, 'payload_too_large');
    expect((await post(open, '/matrices/import/stix', two)).status).toBe(201);
    expect((await post(open, '/matrices/import/stix', padded(8 * 1024 * 1024 - 16, 1))).status).toBe(201);
    await expectError(await post(open, '/matrices/import/stix', padded(8 * 1024 * 1024 + 16, 2)), 413, 'payload_too_large');
  });

  it('1 MB is 1,000,000 bytes, as the spec reads MB beside MiB: a body of exactly 1,000,000 bytes is read, one byte more is 413', async () => {
    // 'é' is two bytes of UTF-8 and one character, so the text stays under 500,000 characters while the body reaches 1 MB.
    const body = (bytes: number) => {
      const text = 'é'.repeat(499_994) + 'a'.repeat(bytes - 11 - 2 * 499_994);
      const raw = JSON.stringify({ text });
      expect(Buffer.byteLength(raw)).toBe(bytes);
      return raw;
    };
    expect((await post(open, '/extract', body(1_000_000))).status).toBe(200);
    const over = await post(open, '/extract', body(1_000_001));
    expect(over.status).toBe(413);
    expect(((await over.json()) as { error: { message: string } }).error.message).toBe('request body is too large');
  });

  it('refuses a body over 1 MB with 413', async () => {
    const big = { ...inline, title: 'x', evidence: [{ id: 'E1', summary: 'y'.repeat(900), source: 'z'.repeat(1_100_000) }] };
    const res = await post(open, '/ach', big);
    await expectError(res, 413, 'payload_too_large');
  });

  it('with ATTR_API_TOKEN, everything but /health needs the bearer token (401 with WWW-Authenticate)', async () => {
    expect((await fetch(`${locked.url}/health`)).status).toBe(200);
    const res = await fetch(`${locked.url}/scenarios`);
    expect(res.headers.get('www-authenticate')).toContain('Bearer');
    await expectError(res, 401, 'unauthorized');
    await expectError(await fetch(`${locked.url}/scenarios`, { headers: { authorization: 'Bearer wrong' } }), 401, 'unauthorized');
    expect((await fetch(`${locked.url}/scenarios`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    const taxii401 = await fetch(`${locked.url}/taxii2/api/collections/`, { headers: { accept: TAXII } });
    expect(taxii401.status).toBe(401);
    // Under /taxii2 the 401 is a TAXII error message with the TAXII media type, as every TAXII answer.
    expect(taxii401.headers.get('content-type')).toBe(TAXII);
    expect(taxii401.headers.get('www-authenticate')).toContain('Bearer');
    expect(await taxii401.json()).toMatchObject({ http_status: '401', error_code: 'unauthorized' });
    expect((await post(locked, '/ach', { scenario: 'ceremony-wiper' }, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
  });

  it('refuses a Host outside the allow-list (403)', async () => {
    const status = await statusWithHost(`${open.url}/health`, 'evil.example');
    expect(status).toBe(403);
  });

  it('ATTR_ALLOWED_HOSTS replaces the loopback names', async () => {
    expect(allowedHostsFromEnv({ ATTR_ALLOWED_HOSTS: ' Intel.Example , localhost,' })).toEqual(['intel.example', 'localhost']);
    expect(allowedHostsFromEnv({})).toBeUndefined();
    const saved = process.env['ATTR_ALLOWED_HOSTS'];
    process.env['ATTR_ALLOWED_HOSTS'] = 'intel.example';
    const server = await listen(createStandaloneApp({ token: '' }), { port: 0 });
    try {
      const status = (host: string): Promise<number> => statusWithHost(`${server.url}/health`, host);
      expect(await status('intel.example:8720')).toBe(200);
      expect(await status('127.0.0.1')).toBe(403);
    } finally {
      await server.close();
      if (saved === undefined) delete process.env['ATTR_ALLOWED_HOSTS'];
      else process.env['ATTR_ALLOWED_HOSTS'] = saved;
    }
  });

  it('ATTR_ALLOWED_HOSTS keeps the loopback name the server is bound to', async () => {
    expect(serveAllowedHosts(undefined, LOOPBACK_HOSTS, '127.0.0.1')).toEqual([...LOOPBACK_HOSTS]);
    const list = serveAllowedHosts(['intel.example'], LOOPBACK_HOSTS, '127.0.0.1');
    expect(list).toContain('intel.example');
    expect(list).toContain('127.0.0.1');
    expect(list).not.toContain('localhost');
    expect(serveAllowedHosts(['intel.example'], LOOPBACK_HOSTS, 'LocalHost')).toContain('localhost');
    expect(serveAllowedHosts(['intel.example'], LOOPBACK_HOSTS, '::1')).toEqual(expect.arrayContaining(['::1', '[::1]']));
    const remote = ['127.0.0.1', 'localhost', '[::1]', '::1', '10.0.0.5', '[10.0.0.5]'];
    expect(serveAllowedHosts(['intel.example'], remote, '10.0.0.5')).toEqual(expect.arrayContaining(['intel.example', '10.0.0.5']));
    const server = await listen(createStandaloneApp({ token: '', allowedHosts: list }), { port: 0 });
    try {
      const status = (host: string): Promise<number> => statusWithHost(`${server.url}/health`, host);
      expect(await status(`127.0.0.1:${new URL(server.url).port}`)).toBe(200);
      expect(await status('intel.example')).toBe(200);
      expect(await status('evil.example')).toBe(403);
    } finally {
      await server.close();
    }
  });

  it('serves /docs only when asked', async () => {
    expect((await fetch(`${open.url}/docs/openapi.json`)).status).toBe(200);
    expect((await fetch(`${locked.url}/docs/openapi.json`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });

  it('/docs/openapi.json lists the token 401 on every operation but GET /health, 400 for malformed bodies, TAXII 406 and 404', async () => {
    const doc = (await (await fetch(`${open.url}/docs/openapi.json`)).json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    for (const [p, operations] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(operations)) {
        const statuses = Object.keys(op.responses);
        if (p === '/health') expect(statuses, p).not.toContain('401');
        else expect(statuses, `${method} ${p}`).toContain('401');
        if (p.startsWith('/taxii2/')) expect(statuses, `${method} ${p}`).toContain('406');
        if (p.includes('{')) expect(statuses, `${method} ${p}`).toContain('404');
      }
    }
    expect(Object.keys(doc.paths['/ach']?.['post']?.responses ?? {})).toContain('400');
    // What the document says is what the locked server does.
    expect((await fetch(`${locked.url}/scenarios`)).status).toBe(401);
    expect((await fetch(`${open.url}/taxii2/api/collections/nope/manifest/`, { headers: { accept: TAXII } })).status).toBe(404);
    expect((await fetch(`${open.url}/taxii2/api/`, { headers: { accept: 'application/json' } })).status).toBe(406);
  });
});

describe('TAXII 2.1', () => {
  interface Envelope {
    more: boolean;
    next?: string;
    objects: { id: string; type: string; modified?: string }[];
  }

  it('discovery, API root and collections in the TAXII media type', async () => {
    const d = await taxii('/');
    expect(d.status).toBe(200);
    expect(d.headers.get('content-type')).toBe(TAXII);
    const discovery = (await d.json()) as { api_roots: string[]; default: string };
    expect(discovery.api_roots).toHaveLength(1);
    expect(discovery.default).toMatch(/\/taxii2\/api\/$/);
    const root = (await (await taxii('/api/')).json()) as { versions: string[]; max_content_length: number };
    expect(root.versions).toEqual([TAXII]);
    expect(root.max_content_length).toBe(1_000_000);
    const cols = (await (await taxii('/api/collections/')).json()) as { collections: { id: string; can_read: boolean; can_write: boolean; title: string }[] };
    expect(cols.collections.map((c) => c.title)).toEqual(['ACH assessments', 'Report extractions']);
    expect(cols.collections.every((c) => c.can_read && !c.can_write)).toBe(true);
  });

  it('version negotiation: 406 for an unsupported Accept, taxii+json without a version is 2.1', async () => {
    expect((await taxii('/', 'application/taxii+json;version=2.0')).status).toBe(406);
    expect((await taxii('/', 'application/json')).status).toBe(406);
    const res = await taxii('/', 'application/taxii+json');
    expect(res.status).toBe(200);
  });

  it('objects with pagination and filters, object versions, manifest; writes refused', async () => {
    const cols = (await (await taxii('/api/collections/')).json()) as { collections: { id: string; title: string }[] };
    const id = cols.collections.find((c) => c.title === 'ACH assessments')!.id;
    const all = (await (await taxii(`/api/collections/${id}/objects/?limit=500`)).json()) as Envelope;
    expect(all.objects.length).toBeGreaterThan(10);
    for (const o of all.objects) expect(validateStixObject(o)).toEqual([]);

    const page1 = await taxii(`/api/collections/${id}/objects/?limit=3`);
    expect(page1.headers.get('x-taxii-date-added-first')).toMatch(/Z$/);
    const p1 = (await page1.json()) as Envelope;
    expect(p1.objects).toHaveLength(3);
    expect(p1.more).toBe(true);
    const p2 = (await (await taxii(`/api/collections/${id}/objects/?limit=3&next=${p1.next!}`)).json()) as Envelope;
    expect(p2.objects[0]!.id).not.toBe(p1.objects[0]!.id);

    const reports = (await (await taxii(`/api/collections/${id}/objects/?match[type]=report,intrusion-set`)).json()) as Envelope;
    expect(reports.objects.length).toBeGreaterThan(0);
    expect(new Set(reports.objects.map((o) => o.type))).toEqual(new Set(['report', 'intrusion-set']));

    const one = all.objects.find((o) => o.type === 'intrusion-set')!;
    const got = (await (await taxii(`/api/collections/${id}/objects/${one.id}/`)).json()) as Envelope;
    expect(got.objects.map((o) => o.id)).toEqual([one.id]);
    const versions = (await (await taxii(`/api/collections/${id}/objects/${one.id}/versions/`)).json()) as { versions: string[] };
    expect(versions.versions.length).toBeGreaterThanOrEqual(1);
    expect((await taxii(`/api/collections/${id}/objects/indicator--00000000-0000-4000-8000-000000000000/`)).status).toBe(404);

    const manifest = (await (await taxii(`/api/collections/${id}/manifest/?match[id]=${one.id}`)).json()) as { objects: { id: string; media_type: string; version: string }[] };
    expect(manifest.objects[0]).toMatchObject({ id: one.id, media_type: 'application/stix+json;version=2.1' });

    const future = (await (await taxii(`/api/collections/${id}/objects/?added_after=2999-01-01T00:00:00Z`)).json()) as Envelope;
    expect(future.objects).toEqual([]);
    expect((await taxii(`/api/collections/${id}/objects/?added_after=yesterday`)).status).toBe(400);
    expect((await taxii('/api/collections/not-a-collection/objects/')).status).toBe(404);
    // A path parameter that is not valid percent-encoding is the client's error, in the TAXII error shape.
    for (const bad of ['/api/collections/%ZZ/objects/', '/api/status/%E2%82', `/api/collections/${id}/objects/%ZZ/`]) {
      const r = await taxii(bad);
      expect(r.status).toBe(400);
      expect(r.headers.get('content-type')).toBe(TAXII);
      expect(await r.json()).toMatchObject({ http_status: '400', error_code: 'bad_request', title: 'malformed request' });
    }
    expect((await taxii(`/api/collections/${id}/objects/?next=abc`)).status).toBe(400);
    expect((await taxii(`/api/collections/${id}/objects/?match[version]=sometime`)).status).toBe(400);
    const clipped = (await (await taxii(`/api/collections/${id}/objects/?limit=100000`)).json()) as Envelope;
    expect(clipped.objects.length).toBeLessThanOrEqual(500);
    const firsts = (await (await taxii(`/api/collections/${id}/objects/?match[version]=first&match[id]=${one.id}`)).json()) as Envelope;
    const alls = (await (await taxii(`/api/collections/${id}/objects/?match[version]=all&match[id]=${one.id}`)).json()) as Envelope;
    expect(firsts.objects).toHaveLength(1);
    expect(alls.objects.length).toBe(versions.versions.length);
    const write = await fetch(`${open.url}/taxii2/api/collections/${id}/objects/`, { method: 'POST', headers: { accept: TAXII, 'content-type': TAXII }, body: '{}' });
    expect(write.status).toBe(403);
    expect(((await write.json()) as { http_status: string }).http_status).toBe('403');
  });
});
