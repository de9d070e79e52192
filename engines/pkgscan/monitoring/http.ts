// Routes /monitoring/packages: watch a package, the watch list (filter failing), one with its snapshot, change, stop, check now, its checks.
import { z } from 'zod';
import { VitrineError } from '../../core/errors.js';
import { abortOnClientClose, page, parseBody, parsePagination, requestIdOf } from '../../core/http/index.js';
import type { Platform } from '../platform.js';
import { listRoute, type RouteDef, UUID } from '../routing/http.js';
import type { ScanDeps } from '../scans/scan.js';
import { normalizeName } from '../sources/names.js';
import { isScanEcosystem } from '../scans/scan.js';
import { checkPackage, createWatched, deleteWatched, getWatched, listChecks, listWatched, updateWatched, watchPatchSchema, watchRequestSchema } from './monitoring.js';

const flag = z.enum(['true', 'false', '1', '0']).optional();
const asBool = (v: string | undefined): boolean | undefined => (v === undefined ? undefined : v === 'true' || v === '1');

export const watchListQuery = z.object({
  failing: flag,
  enabled: flag,
  ecosystem: z.string().min(1).max(32).optional(),
  package: z.string().min(1).max(214).optional(),
});

/** The package filter as stored (npm as given, PyPI per PEP 503); an unusable name matches nothing rather than failing. */
function nameKey(ecosystem: string | undefined, name: string): string {
  try {
    return normalizeName(ecosystem !== undefined && isScanEcosystem(ecosystem) ? ecosystem : 'npm', name);
  } catch {
    return name;
  }
}

function idParam(raw: unknown): string {
  const id = String(raw);
  if (!UUID.test(id)) throw new VitrineError('not_found', 'no such watched package');
  return id;
}

export function monitoringRoutes(p: Platform, deps: ScanDeps): RouteDef[] {
  return [
    {
      method: 'post',
      path: '/monitoring/packages',
      errors: { 409: 'this package is watched already' },
      access: 'monitor:write',
      tag: 'monitoring',
      summary: `Watch a package (\`ecosystem\` npm or pypi, default npm; poll_interval_seconds 300..604800, default 3600); 201; 409 when it is watched already. The first check (due at once) takes the baseline`,
      body: watchRequestSchema,
      status: 201,
      handler: async (req, res, caller) => {
        res.status(201).json(await createWatched(p, parseBody(watchRequestSchema, req), caller?.id ?? 'anonymous', requestIdOf(res)));
      },
    },
    listRoute({
      path: '/monitoring/packages',
      access: 'monitor:read',
      tag: 'monitoring',
      summary: 'Watched packages in the order they were added, with state, last and next check and snapshot; filters failing, enabled, ecosystem, package; paginated',
      query: watchListQuery,
      list: (q, limit, offset) =>
        listWatched(p.store, { failing: asBool(q.failing), enabled: asBool(q.enabled), ecosystem: q.ecosystem, ...(q.package !== undefined ? { name: nameKey(q.ecosystem, q.package) } : {}) }, limit, offset),
    }),
    {
      method: 'get',
      path: '/monitoring/packages/:id',
      access: 'monitor:read',
      tag: 'monitoring',
      summary: 'One watched package with its snapshot of what was last seen',
      handler: async (req, res) => {
        const w = await getWatched(p.store, idParam(req.params['id']));
        if (w === undefined) throw new VitrineError('not_found', 'no such watched package');
        res.json(w);
      },
    },
    {
      method: 'patch',
      path: '/monitoring/packages/:id',
      access: 'monitor:write',
      tag: 'monitoring',
      summary: 'Change enabled, approved_version (null: compare with the last one seen) or poll_interval_seconds (300..604800)',
      body: watchPatchSchema,
      handler: async (req, res, caller) => {
        const id = idParam(req.params['id']);
        res.json(await updateWatched(p, id, parseBody(watchPatchSchema, req), caller?.id ?? 'anonymous', requestIdOf(res)));
      },
    },
    {
      method: 'delete',
      path: '/monitoring/packages/:id',
      access: 'monitor:write',
      tag: 'monitoring',
      summary: 'Stop watching a package (204)',
      status: 204,
      handler: async (req, res, caller) => {
        await deleteWatched(p, idParam(req.params['id']), caller?.id ?? 'anonymous', requestIdOf(res));
        res.status(204).end();
      },
    },
    {
      method: 'post',
      path: '/monitoring/packages/:id/check',
      access: 'monitor:write',
      errors: { 409: 'another check of this package is running' },
      tag: 'monitoring',
      summary:
        'Check now: result baseline (first check), unchanged, new_release (with diff_id; publishes new_release_detected, risk_escalated when the risk rose, and the diff publishes behavior_drift_detected and maintainer_changed) or error (back-off; monitor_error on the first failure and every fifth). 409 while another check of it runs',
      handler: async (req, res, caller) => {
        const id = idParam(req.params['id']);
        const signal = abortOnClientClose(res);
        const requestId = requestIdOf(res);
        const actor = caller?.id ?? 'anonymous';
        res.json(await checkPackage(p, deps, id, actor, { trigger: 'manual', requestId, signal, audit: true }));
      },
    },
    {
      method: 'get',
      path: '/monitoring/packages/:id/checks',
      access: 'monitor:read',
      tag: 'monitoring',
      summary: 'The checks of one watched package, newest first; paginated',
      paged: true,
      handler: async (req, res) => {
        const id = idParam(req.params['id']);
        if ((await getWatched(p.store, id)) === undefined) throw new VitrineError('not_found', 'no such watched package');
        const pg = parsePagination(req);
        const r = await listChecks(p.store, id, pg.limit, pg.offset);
        res.json(page(r.items, r.total, pg));
      },
    },
  ];
}
