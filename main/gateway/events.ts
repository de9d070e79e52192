// GET /api/events: job changes as server-sent events, a heartbeat comment to keep idle connections open.
import type { RequestHandler } from 'express';
import type { JobInfo } from '../../engines/core/contracts/gateway.js';
import type { EngineHost } from '../host/host.js';

export const HEARTBEAT_MS = 15_000;

/** One SSE frame: `event: job` with the JobInfo as JSON data (JSON has no raw newlines, so one data line). */
export function jobEventFrame(job: JobInfo): string {
  return `event: job\ndata: ${JSON.stringify(job)}\n\n`;
}

export function eventStream(host: EngineHost, heartbeatMs: number = HEARTBEAT_MS): RequestHandler {
  return (req, res) => {
    res.status(200);
    res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Connection', 'keep-alive');
    res.flushHeaders();
    res.write('retry: 3000\n: connected\n\n');
    // Jobs already under way, so a client that connects late sees them without a second request.
    for (const job of host.jobs().reverse()) if (job.state === 'queued' || job.state === 'running') res.write(jobEventFrame(job));
    const off = host.subscribe((job) => {
      res.write(jobEventFrame(job));
    });
    const heartbeat = setInterval(() => {
      res.write(': heartbeat\n\n');
    }, heartbeatMs);
    let closed = false;
    const cleanup = (): void => {
      if (closed) return;
      closed = true;
      clearInterval(heartbeat);
      off();
    };
    req.on('close', cleanup);
    res.on('close', cleanup);
    res.on('error', cleanup);
  };
}
