// Routes /diffs: diff two releases of one package, the stored diffs with filters, one diff.
import { z } from 'zod';
import { abortOnClientClose, parseBody, requestIdOf } from '../../core/http/index.js';
import { isScanEcosystem, type ScanDeps } from '../scans/scan.js';
import type { Platform } from '../platform.js';
import { getByIdRoute, listRoute, type RouteDef } from '../routing/http.js';
import { normalizeName } from '../sources/resolve.js';
import { diffReleases, diffRequestSchema } from './diff.js';
import { getDiff, listDiffs } from './store.js';


export const diffsQuery = z.object({
  package: z.string().min(1).max(214).optional(),
  ecosystem: z.string().min(1).max(32).optional(),
  drift_only: z.enum(['true', 'false', '1', '0']).optional(),
});

/** The package filter as stored (npm as given, PyPI per PEP 503); an unknown ecosystem matches nothing rather than failing. */
function packageKey(ecosystem: string | undefined, name: string): string {
  try {
    return normalizeName(ecosystem !== undefined && isScanEcosystem(ecosystem) ? ecosystem : 'npm', name);
  } catch {
    return name;
  }
}

export function diffRoutes(p: Platform, deps: ScanDeps): RouteDef[] {
  return [
    {
      method: 'post',
      path: '/diffs',
      errors: { 404: 'no configured package source holds one of the two releases' },
      access: 'diff:create',
      tag: 'diffs',
      summary:
        'Diff two releases of one package from the configured sources (`ecosystem` npm or pypi, default npm); 201 with a new diff, 200 with the stored one for the same pair and analyzer version; an escalated result publishes behavior_drift_detected, new maintainers maintainer_changed',
      body: diffRequestSchema,
      status: 201,
      handler: async (req, res, caller) => {
        const body = parseBody(diffRequestSchema, req);
        const signal = abortOnClientClose(res);
        const d = await diffReleases(p, deps, body, caller?.id ?? 'anonymous', requestIdOf(res), signal);
        res.status(d.repeated ? 200 : 201).json(d);
      },
    },
    listRoute({
      path: '/diffs',
      access: 'scan:read',
      tag: 'diffs',
      summary: 'Stored release diffs, newest first; filters package (exact name), ecosystem, drift_only (escalated ones); paginated',
      query: diffsQuery,
      list: (q, limit, offset) =>
        listDiffs(
          p.store,
          { ...(q.package !== undefined ? { name: packageKey(q.ecosystem, q.package) } : {}), ecosystem: q.ecosystem, driftOnly: q.drift_only === 'true' || q.drift_only === '1' },
          limit,
          offset,
        ),
    }),
    getByIdRoute({
      path: '/diffs/:id',
      access: 'scan:read',
      tag: 'diffs',
      summary: 'One release diff: the summary, the findings new in the newer release, capability, file and maintainer changes',
      what: 'diff',
      get: (id) => getDiff(p.store, id),
    }),
  ];
}
