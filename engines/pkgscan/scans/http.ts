// Routes /scans and /packages/{ecosystem}/{name}: run a package scan, the history with filters, one verdict, the stats overview, everything stored about a package.
import { z } from 'zod';
import { severitySchema } from '../vocabulary.js';
import type { PackageOverview } from '../../core/contracts/pkgscan.js';
import { VitrineError } from '../../core/errors.js';
import { abortOnClientClose, parseBody, requestIdOf } from '../../core/http/index.js';
import type { Platform } from '../platform.js';
import { getByIdRoute, listRoute, type RouteDef } from '../routing/http.js';
import { advisoriesOfPackage, getScan, listScans, newestVerdicts, scanStats } from './store.js';
import { isScanEcosystem, scanPackage, scanRequestSchema, type ScanDeps } from './scan.js';
import { normalizeName } from '../sources/resolve.js';
import { queryArtifacts } from '../sources/store.js';
import { listDiffs } from '../diffs/store.js';
import { findWatched } from '../monitoring/monitoring.js';


export const scansQuery = z.object({
  decision: z.enum(['allow', 'warn', 'block']).optional(),
  severity: severitySchema.optional(),
  q: z.string().min(1).max(200).optional(),
  ecosystem: z.string().min(1).max(32).optional(),
});

/** Everything stored about one package; undefined when nothing is. */
export async function packageOverview(p: Platform, ecosystemParam: string, nameParam: string): Promise<PackageOverview | undefined> {
  if (!isScanEcosystem(ecosystemParam)) return undefined;
  let name: string;
  try {
    name = normalizeName(ecosystemParam, nameParam);
  } catch {
    return undefined;
  }
  const verdicts = await newestVerdicts(p.store, ecosystemParam, name);
  const stored = (await queryArtifacts(p.store, { ecosystem: ecosystemParam, name }, { limit: 500, offset: 0 })).items;
  if (verdicts.length === 0 && stored.length === 0) return undefined;
  return {
    ecosystem: ecosystemParam,
    name,
    verdicts,
    advisories: await advisoriesOfPackage(p.store, ecosystemParam, name),
    monitoring: ((await findWatched(p.store, ecosystemParam, name)) ?? null) as Readonly<Record<string, unknown>> | null,
    diffs: (await listDiffs(p.store, { ecosystem: ecosystemParam, name }, 50, 0)).items as unknown as Readonly<Record<string, unknown>>[],
    stored_releases: stored.map((a) => ({ version: a.version, filename: a.filename, sha256: a.sha256, source: a.source })),
  };
}

export function scanRoutes(p: Platform, deps: ScanDeps): RouteDef[] {
  const packagePage: RouteDef['handler'] = async (req, res) => {
    const scope = req.params['scope'];
    const name = scope !== undefined ? `${String(scope)}/${String(req.params['name'])}` : String(req.params['name']);
    const o = await packageOverview(p, String(req.params['ecosystem']), name);
    if (o === undefined) throw new VitrineError('not_found', 'nothing is stored about that package');
    res.json(o);
  };
  return [
    {
      method: 'post',
      path: '/scans',
      errors: { 404: 'no configured package source holds that release (never a verdict for another release)' },
      access: 'scan:create',
      tag: 'scans',
      summary: 'Scan a package release from the configured sources and return the verdict (404 when no source holds that version)',
      body: scanRequestSchema,
      handler: async (req, res, caller) => {
        const body = parseBody(scanRequestSchema, req);
        const signal = abortOnClientClose(res);
        const verdict = await scanPackage(p, deps, body, caller?.id ?? 'anonymous', requestIdOf(res), { signal });
        res.json(verdict);
      },
    },
    listRoute({
      path: '/scans',
      access: 'scan:read',
      tag: 'scans',
      summary: 'Scan history, newest first; filters decision, severity, q (name or version substring), ecosystem; paginated',
      query: scansQuery,
      list: (q, limit, offset) => listScans(p.store, q, limit, offset),
    }),
    {
      method: 'get',
      path: '/scans/stats/overview',
      access: 'scan:read',
      tag: 'scans',
      summary: 'Totals by decision and severity, blocked in the last 30 days, average risk, most frequent finding codes',
      handler: async (_req, res) => {
        res.json(await scanStats(p.store));
      },
    },
    getByIdRoute({
      path: '/scans/:id',
      access: 'scan:read',
      tag: 'scans',
      summary: 'One verdict with its findings',
      what: 'scan',
      get: (id) => getScan(p.store, id),
    }),
    {
      method: 'get',
      path: '/packages/:ecosystem/:name',
      access: 'scan:read',
      tag: 'packages',
      summary: 'Everything stored about one package (PyPI names per PEP 503; scoped npm names as @scope%2Fname or @scope/name): verdicts per version and environment, advisories, stored releases; 404 when nothing is stored',
      handler: packagePage,
    },
    {
      method: 'get',
      path: '/packages/:ecosystem/:scope/:name',
      access: 'scan:read',
      tag: 'packages',
      summary: 'The same for a scoped npm name written with a plain slash',
      handler: packagePage,
    },
  ];
}
