// abortOnClientClose on a real Express app: a client that goes away before its answer aborts the work; an answered one does not.
import { request as httpRequest } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { abortOnClientClose, route } from './index.js';
import { listen, type Listening } from './server.js';

let server: Listening;
let started: (signal: AbortSignal) => void = () => undefined;
let answered: (signal: AbortSignal) => void = () => undefined;

beforeAll(async () => {
  const app = express();
  app.get(
    '/slow',
    route(async (_req, res) => {
      const signal = abortOnClientClose(res);
      started(signal);
      // The work: waits until it is cancelled (the client left) or gives up after a while.
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, 5_000);
        signal.addEventListener('abort', () => {
          clearTimeout(t);
          resolve();
        });
      });
      if (!res.headersSent && !signal.aborted) res.json({ done: true });
    }),
  );
  app.get('/quick', (_req, res) => {
    const signal = abortOnClientClose(res);
    res.json({ done: true });
    res.on('close', () => answered(signal));
  });
  server = await listen(app);
});
afterAll(async () => {
  await server.close();
});

describe('abortOnClientClose', () => {
  it('aborts when the client goes away before the answer', async () => {
    const signal = await new Promise<AbortSignal>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: server.port, path: '/slow' });
      req.on('error', () => undefined);
      // Leave once the handler is running.
      started = (s) => {
        req.destroy();
        resolve(s);
      };
      req.end();
      setTimeout(() => reject(new Error('the handler did not start')), 4_000);
    });
    await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve())));
    expect(signal.aborted).toBe(true);
  });

  it('does not abort once the answer is sent', async () => {
    const signal = await new Promise<AbortSignal>((resolve, reject) => {
      answered = resolve;
      const req = httpRequest({ host: '127.0.0.1', port: server.port, path: '/quick' }, (res) => {
        res.resume();
      });
      req.on('error', reject);
      req.end();
    });
    expect(signal.aborted).toBe(false);
  });
});
