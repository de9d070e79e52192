// Project routes end to end over HTTP: projects, scans within and over the limits, components, graph, SBOMs (validated) with their event and audit entries.
import { readFileSync } from 'node:fs';
import express, { type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import type { DependencyGraph, Project, ProjectComponent, ProjectScan } from '../../core/contracts/pkgscan-projects.js';
import type { PageOf } from '../../core/contracts/pkgscan.js';
import { errorHandler, jsonBody, notFound, requestId, route } from '../../core/http/index.js';
import { listen, type Listening } from '../../core/http/server.js';
import { validateCycloneDx, validateSpdx } from '../../core/sbom/index.js';
import { MAX_JSON_BODY } from '../config.js';
import { listEvents } from '../events/events.js';
import { routeTable } from '../http.js';
import { call, sessionsByRole, startServer, type TestServer } from '../server.fixture.js';
import { PROJECT_SCAN_BODY_LIMIT } from './files.js';
import { projectRoutes } from './http.js';

let s: TestServer;
let local: Listening;
let base: string;

beforeAll(async () => {
  s = await startServer();
  // the routes mounted as the pkgscan router mounts them (body limit per route), without authentication
  const app = express();
  app.use(requestId());
  const api = express.Router();
  for (const def of projectRoutes(s.platform)) {
    const handlers: RequestHandler[] = [];
    if (def.body !== undefined) handlers.push(jsonBody(def.bodyLimit ?? MAX_JSON_BODY));
    handlers.push(route((req, res) => def.handler(req, res, undefined)));
    api[def.method](def.path, ...handlers);
  }
  api.use(notFound());
  api.use(errorHandler());
  app.use('/api/v1', api);
  local = await listen(app, { port: 0 });
  base = `${local.url}/api/v1`;
});

afterAll(async () => {
  await local.close();
  await s.close();
});

const post = (path: string, body: unknown): Promise<Response> => fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const get = (path: string): Promise<Response> => fetch(`${base}${path}`);

async function newProject(name: string): Promise<Project> {
  const r = await post('/projects', { name, description: 'test' });
  expect(r.status).toBe(201);
  return (await r.json()) as Project;
}

describe('project routes', () => {
  it('creates, lists and reads projects; a duplicate name is 409', async () => {
    const p = await newProject('Web App');
    expect(p).toMatchObject({ name: 'Web App', description: 'test', last_scan: null });
    const dup = await post('/projects', { name: 'web app' });
    expect(dup.status).toBe(409);
    expect(((await dup.json()) as { error: { code: string } }).error.code).toBe('conflict');
    expect((await post('/projects', { name: '' })).status).toBe(422);
    const list = (await (await get('/projects?q=web')).json()) as PageOf<Project>;
    expect(list.items.map((x) => x.id)).toContain(p.id);
    expect((await get(`/projects/${p.id}`)).status).toBe(200);
    expect((await get('/projects/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await get('/projects/not-a-uuid')).status).toBe(404);
  });

  it.skipIf(!hasCorpora())('scans corpus files and serves findings, components, graph and both SBOMs', async () => {
    const p = await newProject('capa');
    const lf = (rel: string): string => readFileSync(corpusPath(`supplychain/${rel}`), 'utf8');
    const files = {
      'web/package.json': lf('lockfiles/npm/v3-capa-explorer/package.json'),
      'web/package-lock.json': lf('lockfiles/npm/v3-capa-explorer/package-lock.json'),
      'Dockerfile': lf('docker/rita/Dockerfile'),
      'deploy/compose.yaml': lf('docker/dependency-track/compose.yaml'),
      'README.md': '# not read',
    };
    const r = await post(`/projects/${p.id}/scans`, { files, environment: 'prod' });
    expect(r.status).toBe(201);
    const scan = (await r.json()) as ProjectScan;
    expect(scan.decision).toBe('block'); // the compose file's literal passwords are high
    expect(scan.counts).toMatchObject({ files: 5, components: 315 });
    expect(scan.skipped_files).toEqual(['README.md']);
    expect(scan.manifests.map((m) => m.format).sort()).toEqual(['compose', 'dockerfile', 'package-json', 'package-lock']);
    expect(scan.findings.find((f) => f.code === 'dockerfile_untagged_image')).toMatchObject({ file: 'Dockerfile', line: 32, rule_id: 'DL3006' });
    expect(scan.findings.find((f) => f.code === 'compose_secret_in_environment')).toMatchObject({ file: 'deploy/compose.yaml', line: 67 });

    const again = (await get(`/projects/${p.id}/scans/${scan.id}`)).status;
    expect(again).toBe(200);
    const history = (await (await get(`/projects/${p.id}/scans`)).json()) as PageOf<{ id: string }>;
    expect(history.items.map((x) => x.id)).toEqual([scan.id]);
    expect(((await (await get(`/projects/${p.id}`)).json()) as Project).last_scan?.id).toBe(scan.id);

    const direct = (await (await get(`/projects/${p.id}/scans/${scan.id}/components?direct=true&limit=5`)).json()) as PageOf<ProjectComponent>;
    expect(direct.total).toBe(20);
    expect(direct.items).toHaveLength(5);
    expect(direct.items.every((c) => c.direct && c.environment === 'prod' && c.verdict === null)).toBe(true);
    const all = (await (await get(`/projects/${p.id}/scans/${scan.id}/components?limit=500`)).json()) as PageOf<ProjectComponent>;
    expect(all.total).toBe(315);

    const graph = (await (await get(`/projects/${p.id}/scans/${scan.id}/graph`)).json()) as DependencyGraph;
    expect(graph.nodes).toHaveLength(316);
    expect(graph.metrics.depth).toBeGreaterThan(2);
    expect(graph.metrics.single_points_of_failure.length).toBeGreaterThan(0);

    const events = (await listEvents(s.platform.store, { type: 'sbom_generated' }, 50, 0)).total;
    const cdx = await get(`/projects/${p.id}/scans/${scan.id}/sbom?format=cyclonedx`);
    expect(cdx.headers.get('content-type')).toMatch(/cyclonedx\+json/);
    const cdxDoc = (await cdx.json()) as Record<string, unknown>;
    expect(await validateCycloneDx(cdxDoc)).toEqual([]);
    expect((cdxDoc['components'] as unknown[]).length).toBe(315);
    const spdx = (await (await get(`/projects/${p.id}/scans/${scan.id}/sbom?format=spdx`)).json()) as Record<string, unknown>;
    expect(validateSpdx(spdx)).toEqual([]);
    expect((spdx['packages'] as unknown[]).length).toBe(316);
    expect((await listEvents(s.platform.store, { type: 'sbom_generated' }, 50, 0)).total).toBe(events + 2);
    expect((await get(`/projects/${p.id}/scans/${scan.id}/sbom?format=xml`)).status).toBe(400);
    expect((await s.platform.audit.page({ actionPrefix: 'project.' }, 50, 0)).items.map((e) => e.action)).toEqual(expect.arrayContaining(['project.create', 'project.scan', 'project.sbom']));
  });

  it('enriches components with the newest stored verdict of the same environment and raises the decision', async () => {
    const p = await newProject('enriched');
    const insert = s.platform.db.prepare(
      `INSERT INTO pkgscan_scans (id, ecosystem, name, version, environment, decision, severity, risk_score, findings_count, incomplete, package_sha256, analyzer_version, created_by, created_at, verdict_json)
       VALUES (?, 'pypi', 'flask', '3.0.0', ?, ?, 'high', 0.9, 1, 0, 'x', '1', 'u', ?, '{}')`,
    );
    insert.run('v-old', 'prod', 'allow', '2026-01-01T00:00:00.000Z');
    insert.run('v-new', 'prod', 'block', '2026-02-01T00:00:00.000Z');
    insert.run('v-dev', 'dev', 'allow', '2026-03-01T00:00:00.000Z');
    const scan = (await (await post(`/projects/${p.id}/scans`, { files: { 'requirements.txt': 'flask==3.0.0\n' }, environment: 'prod' })).json()) as ProjectScan;
    // No advisories imported here: the one finding says the components are unassessed (prod's unassessed rule: warn, medium).
    expect(scan.findings.map((f) => `${f.code}:${f.severity}`)).toEqual(['vulnerabilities_not_assessed:medium']);
    expect(scan.decision).toBe('block');
    const comps = (await (await get(`/projects/${p.id}/scans/${scan.id}/components`)).json()) as PageOf<ProjectComponent>;
    expect(comps.items[0]?.verdict).toMatchObject({ scan_id: 'v-new', decision: 'block' });
    const dev = (await (await post(`/projects/${p.id}/scans`, { files: { 'requirements.txt': 'flask==3.0.0\n' }, environment: 'dev' })).json()) as ProjectScan;
    expect(dev.decision).toBe('allow');
  });

  it('applies the active policy\'s unassessed rule to unassessed components as a package verdict does: warn in prod, allow in dev', async () => {
    const p = await newProject('unassessed');
    const files = { 'requirements.txt': 'requests==2.31.0\n' };
    const prod = (await (await post(`/projects/${p.id}/scans`, { files, environment: 'prod' })).json()) as ProjectScan;
    expect(prod.decision).toBe('warn');
    expect(prod.findings.find((f) => f.code === 'vulnerabilities_not_assessed')).toMatchObject({ severity: 'medium', message: expect.stringContaining('requests 2.31.0') as unknown });
    expect(prod.decision_reasons.join(' ')).toMatch(/vulnerabilities\.unassessed rule gives warn/);
    const dev = (await (await post(`/projects/${p.id}/scans`, { files, environment: 'dev' })).json()) as ProjectScan;
    expect(dev.decision).toBe('allow');
    expect(dev.findings.find((f) => f.code === 'vulnerabilities_not_assessed')?.severity).toBe('info');
  });

  it('enforces the limits: 50 files, 1 MB a file, 5 MB in all; bad paths and shapes are 422', async () => {
    const p = await newProject('limits');
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`requirements-${i}.txt`, 'a==1\n']));
    expect((await post(`/projects/${p.id}/scans`, { files: many })).status).toBe(413);
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`r/requirements-${i}.txt`, 'a==1\n']));
    expect((await post(`/projects/${p.id}/scans`, { files: fifty })).status).toBe(201);
    const big = 'a==1\n'.padEnd(1_000_001, '#');
    expect((await post(`/projects/${p.id}/scans`, { files: { 'requirements.txt': big } })).status).toBe(413);
    const atLimit = '# x\n'.padEnd(1_000_000, '#');
    expect((await post(`/projects/${p.id}/scans`, { files: { 'requirements.txt': atLimit } })).status).toBe(201);
    const six = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`notes-${i}.txt`, 'x'.repeat(900_000)]));
    const tooMuch = await post(`/projects/${p.id}/scans`, { files: six });
    expect(tooMuch.status).toBe(413);
    const err = (await tooMuch.json()) as { error: { code: string; message: string } };
    expect(err.error.code).toBe('payload_too_large');
    expect(err.error.message).not.toContain('notes-');
    for (const bad of ['../etc/passwd', '/abs/requirements.txt', 'a//b.txt', 'C:/x.txt'])
      expect((await post(`/projects/${p.id}/scans`, { files: { [bad]: 'a==1' } })).status).toBe(422);
    expect((await post(`/projects/${p.id}/scans`, { files: {} })).status).toBe(422);
    expect((await post(`/projects/${p.id}/scans`, { files: { 'a.txt': 1 } })).status).toBe(422);
    expect((await post(`/projects/${p.id}/scans`, { files: { 'a.txt': 'x' }, extra: 1 })).status).toBe(422);
    expect((await post(`/projects/${p.id}/scans`, { files: { 'a.txt': 'x' }, environment: 'Bad Env' })).status).toBe(422);
    expect((await post('/projects/00000000-0000-4000-8000-000000000000/scans', { files: { 'a.txt': 'x' } })).status).toBe(404);
    // a body past the route's own limit is refused before parsing
    const huge = await fetch(`${base}/projects/${p.id}/scans`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"files":{"a":"${'x'.repeat(PROJECT_SCAN_BODY_LIMIT)}"}}` });
    expect(huge.status).toBe(413);
  });
});

// The project routes must be in the pkgscan route table: a router without them fails here rather than skipping.
const wired = (t: TestServer): boolean => routeTable(t.platform).some((r) => r.path === '/projects/:id/scans');

describe('project routes in the pkgscan router', () => {
  it('need project:write to write and project:read to read', async () => {
    expect(wired(s), 'the project routes are in the pkgscan route table').toBe(true);
    const sessions = await sessionsByRole(s);
    expect((await call(s, 'GET', '/projects')).status).toBe(401);
    expect((await call(s, 'POST', '/projects', { token: sessions.read_only.token, body: { name: 'ro' } })).status).toBe(403);
    const created = await call(s, 'POST', '/projects', { token: sessions.developer.token, body: { name: 'dev project' } });
    expect(created.status).toBe(201);
    const p = (await created.json()) as Project;
    expect((await call(s, 'GET', `/projects/${p.id}`, { token: sessions.auditor.token })).status).toBe(200);
    const scan = await call(s, 'POST', `/projects/${p.id}/scans`, { token: sessions.developer.token, body: { files: { 'requirements.txt': 'flask==3.0.0\n'.padEnd(400_000, '#') } } });
    expect(scan.status).toBe(201);
  });
});
