// /api/console: the Console's routes behind the gateway's token. Start a run from an argv array, stream its output as
// server-sent events, signal it, and list each command line's commands and options for completion.
import path from 'node:path';
import express, { type Router } from 'express';
import { z } from 'zod';
import type { ConsoleCatalogue } from '../../engines/core/contracts/console.js';
import { VitrineError } from '../../engines/core/errors.js';
import { jsonBody, parseBody, route } from '../../engines/core/http/index.js';
import { consoleCatalogue, type ConsoleExecutable } from './commands.js';
import { argvSchema, resolveCwd, type ConsoleRoots } from './executables.js';
import { ConsoleRuns, type RunEvent, type RunsOptions } from './runs.js';

export const HEARTBEAT_MS = 15_000;
const RUN_ID = z.uuid();

const startSchema = z.strictObject({
  argv: argvSchema,
  cwd: z.string().max(4096).optional(),
  cols: z.number().int().min(2).max(1000).optional(),
  rows: z.number().int().min(1).max(1000).optional(),
});

const signalSchema = z.strictObject({ signal: z.enum(['SIGINT', 'SIGKILL']) });

/** `cd`: `to` relative to `from` (default the data folder); '' or '~' is the data folder, '~/x' below it. */
const cwdSchema = z.strictObject({ from: z.string().max(4096).optional(), to: z.string().max(4096) });

export interface ConsoleRouterOptions extends Partial<RunsOptions> {
  readonly dataDir: string;
  /** Default FORENSIC_EVIDENCE_ROOT of the workstation's environment. */
  readonly evidenceRoot?: string;
  readonly heartbeatMs?: number;
  /** Tests give a fixed catalogue; default the one read from the CLIs' own help. */
  readonly catalogue?: () => Promise<ConsoleExecutable[]>;
}

/** Frames of one run event: `out`/`err` carry the text as a JSON string, `exit` the exit as JSON. */
export function runEventFrame(e: RunEvent): string {
  return e.kind === 'exit' ? `event: exit\ndata: ${JSON.stringify(e.exit)}\n\n` : `event: ${e.kind}\ndata: ${JSON.stringify(e.text)}\n\n`;
}

export interface ConsoleRouter {
  readonly router: Router;
  readonly runs: ConsoleRuns;
}

export function createConsole(options: ConsoleRouterOptions): ConsoleRouter {
  const envRoot = process.env['FORENSIC_EVIDENCE_ROOT'];
  const evidenceRoot = options.evidenceRoot ?? (envRoot !== undefined && envRoot !== '' ? path.resolve(envRoot) : undefined);
  const roots: ConsoleRoots = { dataDir: options.dataDir, evidenceRoot };
  const runs = new ConsoleRuns({ ...options, evidenceRoot });
  const catalogue = options.catalogue ?? consoleCatalogue;
  const router = express.Router();
  const body = jsonBody(64 * 1024);

  const runOf = (raw: unknown): string => {
    const id = RUN_ID.safeParse(raw);
    if (!id.success || runs.get(id.data) === undefined) throw new VitrineError('not_found', 'no such run');
    return id.data;
  };

  router.get(
    '/commands',
    route(async (_req, res) => {
      const answer: ConsoleCatalogue = { home: options.dataDir, evidence_root: evidenceRoot ?? null, executables: await catalogue() };
      res.json(answer);
    }),
  );
  router.post(
    '/cwd',
    body,
    route((req, res) => {
      const { from, to } = parseBody(cwdSchema, req, 'cwd');
      const base = resolveCwd(roots, from);
      const target = to === '' || to === '~' ? roots.dataDir : to.startsWith('~/') ? path.join(roots.dataDir, to.slice(2)) : path.resolve(base, to);
      res.json({ cwd: resolveCwd(roots, target) });
    }),
  );
  router.get('/runs', (_req, res) => {
    res.json(runs.list());
  });
  router.post(
    '/runs',
    body,
    route((req, res) => {
      const r = parseBody(startSchema, req, 'run');
      res.status(201).json(runs.start(r));
    }),
  );
  router.get(
    '/runs/:id',
    route((req, res) => {
      res.json(runs.get(runOf(req.params['id'])));
    }),
  );
  router.post(
    '/runs/:id/signal',
    body,
    route((req, res) => {
      const id = runOf(req.params['id']);
      const { signal } = parseBody(signalSchema, req, 'signal');
      if (!runs.cancel(id, signal === 'SIGKILL')) throw new VitrineError('conflict', 'the run has already finished');
      res.json(runs.get(id));
    }),
  );
  router.get(
    '/runs/:id/stream',
    route((req, res) => {
      const id = runOf(req.params['id']);
      res.status(200);
      res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('X-Accel-Buffering', 'no');
      res.flushHeaders();
      res.write(': run\n\n');
      const held: { heartbeat?: NodeJS.Timeout; off?: (() => void) | undefined } = {};
      let done = false;
      const cleanup = (): void => {
        if (done) return;
        done = true;
        clearInterval(held.heartbeat);
        held.off?.();
      };
      held.off = runs.subscribe(id, (e) => {
        res.write(runEventFrame(e));
        if (e.kind === 'exit') {
          cleanup();
          res.end();
        }
      });
      if (done) return;
      held.heartbeat = setInterval(() => res.write(': heartbeat\n\n'), options.heartbeatMs ?? HEARTBEAT_MS);
      req.on('close', cleanup);
      res.on('close', cleanup);
      res.on('error', cleanup);
    }),
  );
  return { router, runs };
}
