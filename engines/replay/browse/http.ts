// The read routes of the alert and flow browsers: analyses, one analysis, its alerts and its flows, by page with filters.
import { isIP } from 'node:net';
import type { Request, Router } from 'express';
import { z } from 'zod';
import { VitrineError } from '../../core/errors.js';
import { page, parsePagination, parseQuery } from '../../core/http/index.js';
import type { ServiceContext } from '../../core/service.js';
import { RULES } from '../detect/index.js';
import type { Severity, Stage } from '../types.js';
import { flowCounts, getAnalysisDetail, listAnalyses, queryAlerts, queryFlows } from './store.js';

const ANALYSIS_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const RULE_NAMES = RULES.map((r) => r.name) as [string, ...string[]];
const SEVERITY_NAMES = ['low', 'medium', 'high', 'critical'] as const satisfies readonly Severity[];
const STAGE_NAMES = ['recon', 'access', 'movement', 'action'] as const satisfies readonly Stage[];

/** A comma-separated list of allowed names (`severity=high,critical`). */
function listOf<T extends string>(values: readonly [T, ...T[]]) {
  return z
    .string()
    .max(1000)
    .transform((v) => v.split(',').map((s) => s.trim()).filter((s) => s !== ''))
    .pipe(z.array(z.enum(values)).max(values.length * 2));
}

/** An address as the parser writes it (IPv4 dotted, IPv6 lower-case RFC 5952); matched whole. */
const host = z
  .string()
  .trim()
  .max(45)
  .refine((v) => isIP(v) !== 0, 'an IPv4 or IPv6 address')
  .transform((v) => v.toLowerCase());
const time = z.coerce.number().finite().min(0).max(1e11);
const order = z.enum(['asc', 'desc']);

export const alertsQuery = z.object({
  rule: listOf(RULE_NAMES).optional(),
  severity: listOf(SEVERITY_NAMES).optional(),
  stage: listOf(STAGE_NAMES).optional(),
  host: host.optional(),
  from: time.optional(),
  to: time.optional(),
  in_story: z.enum(['story', 'none', 'any']).default('any'),
  sort: z.enum(['time', 'severity', 'rule', 'src', 'story']).default('time'),
  order: order.default('asc'),
});

export const flowsQuery = z.object({
  host: host.optional(),
  port: z.coerce.number().int().min(0).max(65535).optional(),
  protocol: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9][a-z0-9/_-]{0,31}$/, 'a transport or protocol name such as tcp, dns or tcp/445')
    .optional(),
  from: time.optional(),
  to: time.optional(),
  sort: z.enum(['time', 'duration', 'bytes', 'packets', 'orig_h', 'resp_h', 'resp_p', 'protocol', 'state']).default('time'),
  order: order.default('asc'),
});

function analysisId(req: Request): string {
  const raw: unknown = req.params['id'];
  const id = typeof raw === 'string' ? raw : '';
  if (!ANALYSIS_ID.test(id)) throw new VitrineError('not_found', 'no such analysis');
  return id;
}

/** Adds GET /api/analyses, /api/analyses/{id}, /api/analyses/{id}/alerts and /api/analyses/{id}/flows to the replay router. */
export function addBrowseRoutes(router: Router, ctx: ServiceContext): void {
  router.get('/api/analyses', (req, res) => {
    const p = parsePagination(req);
    const { items, total } = listAnalyses(ctx.db, p);
    res.json(page(items, total, p));
  });

  router.get('/api/analyses/:id', (req, res) => {
    const detail = getAnalysisDetail(ctx.db, analysisId(req));
    if (!detail) throw new VitrineError('not_found', 'no such analysis');
    res.json(detail);
  });

  router.get('/api/analyses/:id/alerts', (req, res) => {
    const id = analysisId(req);
    const p = parsePagination(req);
    const q = parseQuery(alertsQuery, req);
    if (!flowCounts(ctx.db, id)) throw new VitrineError('not_found', 'no such analysis');
    const { items, total } = queryAlerts(ctx.db, id, {
      ...p,
      rule: q.rule,
      severity: q.severity,
      stage: q.stage,
      host: q.host,
      from: q.from,
      to: q.to,
      in_story: q.in_story === 'any' ? undefined : q.in_story,
      sort: q.sort,
      order: q.order,
    });
    res.json(page(items, total, p));
  });

  router.get('/api/analyses/:id/flows', (req, res) => {
    const id = analysisId(req);
    const p = parsePagination(req);
    const q = parseQuery(flowsQuery, req);
    const counts = flowCounts(ctx.db, id);
    if (!counts) throw new VitrineError('not_found', 'no such analysis');
    const { items, total } = queryFlows(ctx.db, id, { ...p, host: q.host, port: q.port, protocol: q.protocol, from: q.from, to: q.to, sort: q.sort, order: q.order });
    res.json({ ...page(items, total, p), ...counts });
  });
}
