// Routes /projects: create and list projects, run a project scan over submitted files, and read its findings, components, graph and SBOMs.
import { z } from 'zod';
import { VitrineError } from '../../core/errors.js';
import { abortOnClientClose, parseBody, parsePagination, parseQuery, page, requestIdOf } from '../../core/http/index.js';
import type { Platform } from '../platform.js';
import { listRoute, type RouteDef, UUID } from '../routing/http.js';
import { booleanQuery } from '../users/http.js';
import { PROJECT_SCAN_BODY_LIMIT, projectScanSchema } from './files.js';
import { createProjectAudited, projectSbom, runProjectScan } from './scan.js';
import { getGraph, getProject, getProjectScan, listComponents, listProjects, listProjectScans } from './store.js';


export const projectCreateSchema = z.strictObject({
  name: z
    .string()
    .min(1)
    .max(200)
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f]+$/),
  description: z.string().max(2000).optional(),
});

const projectsQuery = z.object({ q: z.string().min(1).max(200).optional() });
const componentsQuery = z.object({ direct: booleanQuery.optional() });
const sbomQuery = z.object({ format: z.enum(['cyclonedx', 'spdx']).default('cyclonedx') });

async function projectIdOf(p: Platform, raw: unknown): Promise<string> {
  const id = String(raw);
  if (!UUID.test(id) || !(await getProject(p.store, id))) throw new VitrineError('not_found', 'no such project');
  return id;
}

async function scanIdOf(p: Platform, projectId: string, raw: unknown): Promise<string> {
  const id = String(raw);
  if (!UUID.test(id) || !(await getProjectScan(p.store, projectId, id))) throw new VitrineError('not_found', 'no such project scan');
  return id;
}

/** The project routes; the scan route needs a JSON body limit of PROJECT_SCAN_BODY_LIMIT (its `bodyLimit`). */
export function projectRoutes(p: Platform): RouteDef[] {
  return [
    {
      method: 'post',
      path: '/projects',
      errors: { 409: 'a project with this name exists' },
      access: 'project:write',
      tag: 'projects',
      summary: 'Create a project (name unique without regard to case; 409 when taken)',
      body: projectCreateSchema,
      status: 201,
      handler: async (req, res, caller) => {
        const body = parseBody(projectCreateSchema, req);
        const actor = caller?.id ?? 'anonymous';
        res.status(201).json(await createProjectAudited(p, { name: body.name.trim(), description: body.description }, actor, requestIdOf(res)));
      },
    },
    listRoute({
      path: '/projects',
      access: 'project:read',
      tag: 'projects',
      summary: 'Projects by name, each with its newest scan; filter q (name substring); paginated',
      query: projectsQuery,
      list: (q, limit, offset) => listProjects(p.store, q.q, limit, offset),
    }),
    {
      method: 'get',
      path: '/projects/:id',
      access: 'project:read',
      tag: 'projects',
      summary: 'One project',
      handler: async (req, res) => {
        res.json(await getProject(p.store, await projectIdOf(p, req.params['id'])));
      },
    },
    {
      method: 'post',
      path: '/projects/:id/scans',
      errors: { 413: 'more than 50 files, a file over 1,000,000 bytes, more than 5,000,000 bytes in all, or a body over 12 MiB' },
      access: 'project:write',
      tag: 'projects',
      summary:
        'Scan submitted manifest, lock, Dockerfile and Compose files ({files: {path: text}, environment?}); nothing is fetched or run. At most 50 files, 1 MB each, 5 MB in all (413 over a limit, 422 for a bad path or shape)',
      body: projectScanSchema,
      bodyLimit: PROJECT_SCAN_BODY_LIMIT,
      status: 201,
      handler: async (req, res, caller) => {
        const id = await projectIdOf(p, req.params['id']);
        const signal = abortOnClientClose(res);
        const scan = await runProjectScan(p, id, req.body as unknown, caller?.id ?? 'anonymous', requestIdOf(res), signal);
        res.status(201).json(scan);
      },
    },
    {
      method: 'get',
      path: '/projects/:id/scans',
      access: 'project:read',
      tag: 'projects',
      summary: 'Scan history of a project, newest first; paginated',
      paged: true,
      handler: async (req, res) => {
        const id = await projectIdOf(p, req.params['id']);
        const pg = parsePagination(req);
        const r = await listProjectScans(p.store, id, pg.limit, pg.offset);
        res.json(page(r.items, r.total, pg));
      },
    },
    {
      method: 'get',
      path: '/projects/:id/scans/:sid',
      access: 'project:read',
      tag: 'projects',
      summary: 'One project scan: decision, risk, manifests, findings, parser warnings, skipped files',
      handler: async (req, res) => {
        const id = await projectIdOf(p, req.params['id']);
        res.json(await getProjectScan(p.store, id, await scanIdOf(p, id, req.params['sid'])));
      },
    },
    {
      method: 'get',
      path: '/projects/:id/scans/:sid/components',
      access: 'project:read',
      tag: 'projects',
      summary: 'Components of a scan with the newest stored verdict each; filter direct; paginated',
      query: componentsQuery,
      paged: true,
      handler: async (req, res) => {
        const id = await projectIdOf(p, req.params['id']);
        const sid = await scanIdOf(p, id, req.params['sid']);
        const q = parseQuery(componentsQuery, req);
        const pg = parsePagination(req);
        const r = await listComponents(p.store, sid, q.direct, pg.limit, pg.offset);
        res.json(page(r.items, r.total, pg));
      },
    },
    {
      method: 'get',
      path: '/projects/:id/scans/:sid/graph',
      access: 'project:read',
      tag: 'projects',
      summary: 'Dependency graph: nodes, edges, metrics (depth, blast radius per node, single points of failure)',
      handler: async (req, res) => {
        const id = await projectIdOf(p, req.params['id']);
        res.json(await getGraph(p.store, await scanIdOf(p, id, req.params['sid'])));
      },
    },
    {
      method: 'get',
      path: '/projects/:id/scans/:sid/sbom',
      access: 'project:read',
      tag: 'projects',
      summary: 'SBOM of a scan: format=cyclonedx (CycloneDX 1.6 JSON, stored) or spdx (SPDX 2.3 JSON, rebuilt from stored components); publishes sbom_generated',
      query: sbomQuery,
      handler: async (req, res, caller) => {
        const id = await projectIdOf(p, req.params['id']);
        const sid = await scanIdOf(p, id, req.params['sid']);
        const q = parseQuery(sbomQuery, req);
        const doc = await projectSbom(p, id, sid, q.format, caller?.id ?? 'anonymous', requestIdOf(res));
        res.setHeader('Content-Type', q.format === 'cyclonedx' ? 'application/vnd.cyclonedx+json; version=1.6' : 'application/spdx+json');
        res.setHeader('Content-Disposition', `attachment; filename="sbom-${sid}.${q.format === 'cyclonedx' ? 'cdx' : 'spdx'}.json"`);
        res.send(JSON.stringify(doc));
      },
    },
  ];
}
