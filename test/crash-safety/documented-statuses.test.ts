// The statuses the crash-safety suites provoke are in the OpenAPI documents: 500 (internal, worker_exited) on every
// operation, 503 unavailable and 507 insufficient_storage on every operation that writes, and on pkgscan (whose store can
// be a PostgreSQL server that is down) 503 on reads too; forensic's reads of cases write (a case of a stopped process is
// marked failed by the read that finds it), so they list 503 and 507. withServerErrors (engines/core/http/openapi.ts) adds them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument as attrib } from '../../engines/attrib/openapi.js';
import { openApiDocument as caseassess } from '../../engines/caseassess/openapi.js';
import type { JsonObject } from '../../engines/core/http/openapi.js';
import { openApiDocument as flowdet } from '../../engines/flowdet/openapi.js';
import { openApiDocument as forensic } from '../../engines/forensic/openapi.js';
import { openApiDocument as petriage } from '../../engines/petriage/openapi.js';
import { startServer, type TestServer } from '../../engines/pkgscan/server.fixture.js';
import { openApiDocument as provgate } from '../../engines/provgate/openapi.js';
import { openApiDocument as replay } from '../../engines/replay/openapi.js';

type Doc = { paths: Record<string, Record<string, { responses?: Record<string, unknown> } | unknown[]>> };

/** Every operation of a document as [`method path`, its statuses]. */
function operations(doc: JsonObject): [string, string[]][] {
  const out: [string, string[]][] = [];
  for (const [p, item] of Object.entries((doc as Doc).paths))
    for (const [method, op] of Object.entries(item)) if (['get', 'put', 'post', 'delete', 'patch'].includes(method)) out.push([`${method} ${p}`, Object.keys((op as { responses?: Record<string, unknown> }).responses ?? {})]);
  return out;
}

/** Operations that store nothing although their method is not GET (their documents say so to withServerErrors). */
const STORE_NOTHING = new Set(['attrib post /attribute', 'attrib post /taxii2/api/collections/{collection}/objects/', 'flowdet post /score', 'petriage post /api/rule/validate']);

let pkgscan: TestServer;
let pkgscanDoc: JsonObject;

beforeAll(async () => {
  pkgscan = await startServer();
  pkgscanDoc = (await (await fetch(`${pkgscan.url}/openapi.json`)).json()) as JsonObject;
}, 60_000);

afterAll(async () => {
  await pkgscan?.close();
});

describe('the server-error statuses in the OpenAPI documents', () => {
  const documents = (): [string, JsonObject][] => [
    ['attrib', attrib()],
    ['caseassess', caseassess()],
    ['flowdet', flowdet()],
    ['forensic', forensic()],
    ['petriage', petriage()],
    ['provgate', provgate()],
    ['replay', replay()],
    ['pkgscan', pkgscanDoc],
  ];

  it('500 on every operation; 503 and 507 on every operation that writes', () => {
    const missing: string[] = [];
    for (const [service, doc] of documents()) {
      for (const [op, statuses] of operations(doc)) {
        const want = ['500'];
        if (!op.startsWith('get ') && !STORE_NOTHING.has(`${service} ${op}`)) want.push('503', '507');
        for (const s of want) if (!statuses.includes(s)) missing.push(`${service} ${op}: ${s}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('pkgscan lists 503 on its reads as well (its PostgreSQL server can be down), but not on liveness', () => {
    const ops = new Map(operations(pkgscanDoc));
    for (const [op, statuses] of ops) if (op !== 'get /api/v1/health/live') expect(statuses, op).toContain('503');
    expect(ops.get('get /api/v1/health/live')).not.toContain('503');
  });

  it('forensic lists 503 and 507 on the reads of cases (a read marks the case of a stopped process failed), not on the others', () => {
    const ops = new Map(operations(forensic()));
    for (const op of ['get /api/cases', 'get /api/cases/{id}', 'get /api/cases/{id}/custody', 'get /api/cases/{id}/events/{eventId}', 'get /api/cases/{id}/annotations']) expect(ops.get(op), op).toEqual(expect.arrayContaining(['500', '503', '507']));
    for (const op of ['get /api/health', 'get /api/scenarios', 'get /api/evidence']) expect(ops.get(op), op).not.toContain('507');
    expect(ops.get('delete /api/cases/{id}')).toEqual(expect.arrayContaining(['500', '503', '507']));
  });

  it('the operations the crash-safety and PostgreSQL suites provoke list what they answer', () => {
    const statuses = (doc: JsonObject, op: string): string[] => new Map(operations(doc)).get(op) ?? [];
    expect(statuses(caseassess(), 'post /cases')).toContain('507');
    expect(statuses(caseassess(), 'post /assess')).toContain('500');
    expect(statuses(replay(), 'post /api/analyze')).toEqual(expect.arrayContaining(['500', '507']));
    expect(statuses(petriage(), 'post /api/analyze')).toContain('500');
    expect(statuses(pkgscanDoc, 'post /api/v1/scans')).toEqual(expect.arrayContaining(['500', '503', '507']));
    expect(statuses(pkgscanDoc, 'post /api/v1/projects')).toEqual(expect.arrayContaining(['503', '507']));
    expect(statuses(pkgscanDoc, 'get /api/v1/projects')).toContain('503');
  });
});
