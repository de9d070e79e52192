// @vitest-environment jsdom
// The API client: token header, query strings, the house error shape, and failures without one.
import { describe, expect, it, vi } from 'vitest';
import { ApiError, buildUrl, createApiClient, itemsOf } from './client';

const bridge = { apiBase: 'http://127.0.0.1:4100', token: 'tok_0123456789abcdef' };

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

describe('createApiClient', () => {
  it('sends the bearer token and Accept header, and parses JSON', async () => {
    const fetchImpl = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => json(200, { status: 'ok' }));
    const client = createApiClient(bridge, fetchImpl);
    await expect(client.get('/api/health')).resolves.toEqual({ status: 'ok' });
    const [url, init] = fetchImpl.mock.calls[0]!;
    expect(url).toBe('http://127.0.0.1:4100/api/health');
    const headers = init?.headers as Record<string, string>;
    expect(headers['Authorization']).toBe('Bearer tok_0123456789abcdef');
    expect(headers['Accept']).toBe('application/json');
    expect(init?.method).toBe('GET');
    expect(init?.credentials).toBe('omit');
  });

  it('with a user token, sends it as Authorization and the gateway token as X-Vitrine-Token; cookies only when asked', async () => {
    const fetchImpl = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => json(200, { id: 'u1' }));
    const client = createApiClient(bridge, fetchImpl);
    await client.patch('/svc/pkgscan/api/v1/users/u1', { active: false }, { userToken: 'jwt.a.b', withCredentials: true });
    const [, init] = fetchImpl.mock.calls[0]!;
    const headers = init?.headers as Record<string, string>;
    expect(init?.method).toBe('PATCH');
    expect(headers['Authorization']).toBe('Bearer jwt.a.b');
    expect(headers['X-Vitrine-Token']).toBe('tok_0123456789abcdef');
    expect(init?.credentials).toBe('same-origin');
    await client.delete('/svc/pkgscan/api/v1/x');
    await client.put('/svc/pkgscan/api/v1/policies/p1', { name: 'p' });
    expect(fetchImpl.mock.calls.map((c) => c[1]?.method)).toEqual(['PATCH', 'DELETE', 'PUT']);
    expect((fetchImpl.mock.calls[1]![1]?.headers as Record<string, string>)['X-Vitrine-Token']).toBeUndefined();
  });

  it('posts a JSON body with a query string', async () => {
    const fetchImpl = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => json(200, { leading: {} }));
    const client = createApiClient(bridge, fetchImpl);
    await client.post('/svc/caseassess/assess', { case_id: 'C1' }, { query: { format: 'stix', skip: undefined } });
    const [url, init] = fetchImpl.mock.calls[0]!;
    expect(url).toBe('http://127.0.0.1:4100/svc/caseassess/assess?format=stix');
    expect(init?.method).toBe('POST');
    expect((init?.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(JSON.parse(String(init?.body))).toEqual({ case_id: 'C1' });
  });

  it('turns the error body into an ApiError with code, message, request id and field details', async () => {
    const body = {
      error: {
        code: 'validation_failed',
        message: 'case is invalid',
        request_id: 'req-12345678',
        details: [{ path: 'techniques[0].id', issue: 'must look like T1234' }, { bogus: 1 }],
      },
    };
    const client = createApiClient(bridge, async () => json(422, body));
    const err = await client.post('/svc/caseassess/assess', {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    expect(e.status).toBe(422);
    expect(e.code).toBe('validation_failed');
    expect(e.message).toBe('case is invalid');
    expect(e.requestId).toBe('req-12345678');
    expect(e.details).toEqual([{ path: 'techniques[0].id', issue: 'must look like T1234' }]);
    expect(e.unauthorized).toBe(false);
  });

  it('marks 401 as unauthorized', async () => {
    const client = createApiClient(bridge, async () => json(401, { error: { code: 'unauthorized', message: 'missing or invalid token', request_id: 'r-abcdefgh' } }));
    const e = (await client.get('/api/services').catch((x: unknown) => x)) as ApiError;
    expect(e.unauthorized).toBe(true);
    expect(e.code).toBe('unauthorized');
  });

  it('describes an error without a house body by status only, taking the request id from the header', async () => {
    const client = createApiClient(bridge, async () => new Response('<html>secret page text</html>', { status: 502, headers: { 'X-Request-ID': 'hdr-req-0001' } }));
    const e = (await client.get('/api/jobs').catch((x: unknown) => x)) as ApiError;
    expect(e.status).toBe(502);
    expect(e.code).toBe('bad_response');
    expect(e.requestId).toBe('hdr-req-0001');
    expect(e.message).not.toContain('secret');
  });

  it('reports a network failure as unreachable (status 0)', async () => {
    const client = createApiClient(bridge, async () => {
      throw new TypeError('Failed to fetch');
    });
    const e = (await client.get('/api/health').catch((x: unknown) => x)) as ApiError;
    expect(e).toBeInstanceOf(ApiError);
    expect(e.unreachable).toBe(true);
    expect(e.code).toBe('unreachable');
  });

  it('lets an abort through as an AbortError, not an ApiError', async () => {
    const client = createApiClient(bridge, async () => {
      throw new DOMException('aborted', 'AbortError');
    });
    const e = await client.get('/api/events').catch((x: unknown) => x);
    expect(e).not.toBeInstanceOf(ApiError);
    expect((e as DOMException).name).toBe('AbortError');
  });

  it('rejects a 200 answer that is not JSON', async () => {
    const client = createApiClient(bridge, async () => new Response('not json', { status: 200 }));
    const e = (await client.get('/api/health').catch((x: unknown) => x)) as ApiError;
    expect(e.code).toBe('bad_response');
  });
});

describe('buildUrl and itemsOf', () => {
  it('joins base and path without doubled slashes', () => {
    expect(buildUrl('http://h:1/', '/api/x')).toBe('http://h:1/api/x');
    expect(buildUrl('http://h:1', 'api/x', { a: 1, b: true })).toBe('http://h:1/api/x?a=1&b=true');
  });

  it('accepts bare arrays and pages', () => {
    expect(itemsOf([1, 2])).toEqual([1, 2]);
    expect(itemsOf({ items: [3], total: 1 })).toEqual([3]);
    expect(itemsOf({ services: [4] })).toEqual([4]);
    expect(itemsOf({ nothing: true })).toEqual([]);
    expect(itemsOf(null)).toEqual([]);
  });
});
