// @vitest-environment jsdom
// connectGateway against a fake client: online, unauthorized, unreachable, and job events reaching the store.
import { describe, expect, it, vi } from 'vitest';
import type { GatewayHealth, JobInfo } from '../../../engines/core/contracts/gateway';
import { ApiError, type ApiClient } from '../api/client';
import { createShellStore } from '../store';
import { connectGateway, parseJobEvent } from './connection';

const health: GatewayHealth = { status: 'ok', version: '0.1.0', uptime_s: 3, services: [], workers: { size: 2, busy: 0, queued: 0 } };
const services = [{ name: 'caseassess', title: 'Case assessment', workspace: 'Assessment', base: '/svc/caseassess' }];
const job: JobInfo = { id: 'j1', service: 'caseassess', type: 'caseassess.assess', state: 'running', fraction: 0.5, started_at: '2025-01-01T00:00:00Z' };

function fakeClient(routes: Record<string, () => unknown>, events = ''): ApiClient & { opened: number } {
  const c = {
    apiBase: 'http://127.0.0.1:1',
    opened: 0,
    get: async <T,>(path: string) => {
      const r = routes[path];
      if (!r) throw new ApiError(404, 'not_found', 'no route');
      return r() as T;
    },
    post: async <T,>() => ({}) as T,
    put: async <T,>() => ({}) as T,
    patch: async <T,>() => ({}) as T,
    delete: async <T,>() => ({}) as T,
    upload: () => Promise.reject(new Error('unused')),
    open: async (_path: string, options?: { signal?: AbortSignal }) => {
      c.opened++;
      const body = new ReadableStream<Uint8Array>({
        start(ctrl) {
          ctrl.enqueue(new TextEncoder().encode(events));
          // Stay open like a real event stream until the shell aborts it.
          options?.signal?.addEventListener('abort', () => ctrl.error(new DOMException('aborted', 'AbortError')));
        },
      });
      return new Response(body, { status: 200 });
    },
  };
  return c;
}

describe('connectGateway', () => {
  it('goes online, loads services and jobs, and applies job events', async () => {
    const store = createShellStore();
    const client = fakeClient(
      { '/api/health': () => health, '/api/services': () => services, '/api/jobs': () => ({ items: [], total: 0 }) },
      `event: job\ndata: ${JSON.stringify(job)}\n\n`,
    );
    const conn = connectGateway(store, client, { healthEveryMs: 60_000 });
    await vi.waitFor(() => expect(store.getState().jobs['j1']?.fraction).toBe(0.5));
    expect(store.getState().connection).toBe('online');
    expect(store.getState().services.map((s) => s.name)).toEqual(['caseassess']);
    expect(store.getState().active).toBe('caseassess');
    expect(store.getState().health?.version).toBe('0.1.0');
    expect(client.opened).toBe(1);
    conn.stop();
  });

  it('asks for health, services and jobs at once on the first connection', async () => {
    const store = createShellStore();
    const asked: string[] = [];
    const answer = new Map<string, (v: unknown) => void>();
    const client = fakeClient({});
    client.get = <T,>(path: string): Promise<T> => {
      asked.push(path);
      return new Promise<T>((resolve) => answer.set(path, resolve as (v: unknown) => void));
    };
    const conn = connectGateway(store, client, { healthEveryMs: 60_000 });
    // Nothing has answered yet, and all three are asked.
    await vi.waitFor(() => expect([...asked].sort()).toEqual(['/api/health', '/api/jobs', '/api/services']));
    answer.get('/api/jobs')?.({ items: [], total: 0 });
    answer.get('/api/services')?.(services);
    answer.get('/api/health')?.(health);
    await vi.waitFor(() => expect(store.getState().connection).toBe('online'));
    expect(store.getState().services.map((s) => s.name)).toEqual(['caseassess']);
    conn.stop();
  });

  it('shows unauthorized on a 401 from the services list', async () => {
    const store = createShellStore();
    const client = fakeClient({
      '/api/health': () => health,
      '/api/services': () => {
        throw new ApiError(401, 'unauthorized', 'missing or invalid token', 'req-00000009');
      },
    });
    const conn = connectGateway(store, client, { healthEveryMs: 60_000 });
    await vi.waitFor(() => expect(store.getState().connection).toBe('unauthorized'));
    expect(store.getState().lastError?.requestId).toBe('req-00000009');
    conn.stop();
  });

  it('shows unreachable when health does not answer, and recovers on refresh', async () => {
    const store = createShellStore();
    let up = false;
    const client = fakeClient({
      '/api/health': () => {
        if (!up) throw new ApiError(0, 'unreachable', 'The gateway did not answer.');
        return health;
      },
      '/api/services': () => services,
      '/api/jobs': () => [],
    });
    const conn = connectGateway(store, client, { healthEveryMs: 60_000 });
    await vi.waitFor(() => expect(store.getState().connection).toBe('unreachable'));
    up = true;
    await conn.refresh();
    expect(store.getState().connection).toBe('online');
    conn.stop();
  });

  it('reports another gateway error as failed with its message', async () => {
    const store = createShellStore();
    const client = fakeClient({
      '/api/health': () => health,
      '/api/services': () => {
        throw new ApiError(500, 'internal', 'internal error', 'req-00000010');
      },
    });
    const conn = connectGateway(store, client, { healthEveryMs: 60_000 });
    await vi.waitFor(() => expect(store.getState().connection).toBe('failed'));
    expect(store.getState().lastError?.message).toBe('internal error');
    conn.stop();
  });
});

describe('parseJobEvent', () => {
  it('accepts a job and skips anything else', () => {
    expect(parseJobEvent(JSON.stringify(job))?.id).toBe('j1');
    expect(parseJobEvent('{"id": 3}')).toBeUndefined();
    expect(parseJobEvent('not json')).toBeUndefined();
  });
});
