// The first TAXII request adds the bundled assessments to the collection: on a full store it answers 507 (a TAXII
// error), tries again on the next request, and the OpenAPI document lists 503 and 507 on every TAXII operation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type Listening } from '../core/http/server.js';
import { openMemoryStore } from '../core/store.js';
import { createStandaloneApp } from './http.js';
import { openApiDocument } from './openapi.js';
import { attribService } from './service.js';
import { COLLECTIONS } from './taxii/collections.js';

const TAXII = 'application/taxii+json;version=2.1';
const db = openMemoryStore([attribService]);
let server: Listening;

beforeAll(async () => {
  server = await listen(createStandaloneApp({ token: '', db }), { port: 0 });
});
afterAll(async () => {
  await server.close();
});

const assessments = COLLECTIONS.find((c) => c.key === 'assessments')!;
const get = (p: string): Promise<Response> => fetch(`${server.url}/taxii2${p}`, { headers: { accept: TAXII } });
const stored = (): number => db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM attrib_taxii_objects').get()!.n;

describe('seeding the TAXII collection on first use', () => {
  it('a full store answers 507 as a TAXII error, then the collection is seeded once there is room', async () => {
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    try {
      for (const p of ['/', `/api/collections/${assessments.id}/objects/`]) {
        const res = await get(p);
        expect(res.status, p).toBe(507);
        expect(res.headers.get('content-type')).toBe(TAXII);
        expect(await res.json()).toMatchObject({ http_status: '507', error_code: 'insufficient_storage' });
      }
    } finally {
      db.pragma('max_page_count = 1073741823');
    }
    const res = await get(`/api/collections/${assessments.id}/objects/`);
    expect(res.status).toBe(200);
    const objects = ((await res.json()) as { objects: unknown[] }).objects;
    expect(objects.length).toBeGreaterThan(0);
    // Seeded once: later requests add nothing.
    const n = stored();
    expect((await get(`/api/collections/${assessments.id}/manifest/`)).status).toBe(200);
    expect(stored()).toBe(n);
  });

  it('the OpenAPI document lists 503 and 507 on every TAXII operation, GET included', () => {
    const paths = openApiDocument()['paths'] as Record<string, Record<string, { responses: Record<string, unknown> }>>;
    const taxii = Object.entries(paths).filter(([p]) => p.startsWith('/taxii2/'));
    expect(taxii.length).toBeGreaterThan(5);
    for (const [p, ops] of taxii)
      for (const [method, op] of Object.entries(ops)) {
        expect(Object.keys(op.responses), `${method} ${p}`).toEqual(expect.arrayContaining(['500', '503', '507']));
        expect(JSON.stringify(op.responses['507'])).toMatch(/bundled assessments/);
      }
  });
});
