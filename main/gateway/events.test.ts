// GET /api/events on its own: frames, heartbeats, and the subscription dropped when the client goes away.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobInfo } from '../../engines/core/contracts/gateway.js';
import type { EngineHost, JobListener } from '../host/host.js';
import { eventStream, jobEventFrame } from './events.js';

const running: JobInfo = { id: 'j1', service: 'test', type: 'test.x', state: 'running', fraction: 0.25, started_at: '2026-01-01T00:00:00.000Z' };
const finished: JobInfo = { ...running, id: 'j0', state: 'succeeded', fraction: 1 };

/** A host that only lists jobs and records subscriptions. */
function fakeHost(): { host: EngineHost; listeners: Set<JobListener>; unsubscribed: Promise<void> } {
  const listeners = new Set<JobListener>();
  let onUnsubscribe: () => void = () => undefined;
  const unsubscribed = new Promise<void>((resolve) => (onUnsubscribe = resolve));
  const host: EngineHost = {
    run: () => Promise.resolve(null),
    cancel: () => false,
    jobs: () => [running, finished],
    subscribe: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        onUnsubscribe();
      };
    },
    stats: () => ({ size: 1, busy: 1, queued: 0, starting: 0 }),
    close: () => Promise.resolve(),
  };
  return { host, listeners, unsubscribed };
}

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => { s.closeAllConnections(); s.close(r); })));
});

async function serve(host: EngineHost, heartbeatMs: number): Promise<number> {
  const app = express();
  app.get('/events', eventStream(host, heartbeatMs));
  const server = await new Promise<http.Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  servers.push(server);
  return (server.address() as AddressInfo).port;
}

/** Reads the stream until `until` holds for the text so far. */
function readUntil(res: http.IncomingMessage, until: (text: string) => boolean): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    res.setEncoding('utf8');
    const onData = (chunk: string): void => {
      text += chunk;
      if (until(text)) {
        res.off('data', onData);
        resolve(text);
      }
    };
    res.on('data', onData);
  });
}

describe('eventStream', () => {
  it('writes one `event: job` frame with the JobInfo as JSON', () => {
    expect(jobEventFrame(running)).toBe(`event: job\ndata: ${JSON.stringify(running)}\n\n`);
  });

  it('sends jobs under way at once, then every change, heartbeats, and unsubscribes when the client leaves', async () => {
    const { host, listeners, unsubscribed } = fakeHost();
    const port = await serve(host, 20);
    const res = await new Promise<http.IncomingMessage>((resolve) => http.get({ host: '127.0.0.1', port, path: '/events' }, resolve));
    expect(res.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    const first = await readUntil(res, (t) => t.includes('"id":"j1"'));
    expect(first).not.toContain('"id":"j0"');
    expect(listeners.size).toBe(1);
    const update: JobInfo = { ...running, fraction: 0.75 };
    for (const l of listeners) l(update);
    expect(await readUntil(res, (t) => t.includes('"fraction":0.75'))).toContain('event: job');
    expect(await readUntil(res, (t) => t.includes(': heartbeat'))).toContain(': heartbeat');
    res.destroy();
    await unsubscribed;
    expect(listeners.size).toBe(0);
  });
});
