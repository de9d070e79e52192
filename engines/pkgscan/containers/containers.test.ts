// Container scans: the checks on the real fixture image (set-uid, planted key, secrets never echoed, whiteouts, upgrade), the decision rules, and the routes (auth before the body, 413, 415, one at a time, incomplete never clean).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ContainerFinding, ContainerScan, ContainerScanListItem } from '../../core/contracts/pkgscan-containers.js';
import type { PageOf, Permission } from '../../core/contracts/pkgscan.js';
import { VitrineError } from '../../core/errors.js';
import { errorHandler, requestId, route } from '../../core/http/index.js';
import { listen, type Listening } from '../../core/http/server.js';
import { InProcessRunner } from '../../core/jobs/in-process.js';
import type { JobRunner, RunOptions } from '../../core/jobs/protocol.js';
import { readImage } from '../../core/oci/index.js';
import { validateCycloneDx } from '../../core/sbom/index.js';
import { openMemoryStore } from '../../core/store.js';
import { hasPermission } from '../auth/roles.js';
import { defaultResourcesDir } from '../config.js';
import { createPlatform, type Platform } from '../platform.js';
import type { RouteDef } from '../routing/http.js';
import { openApiDocument } from '../openapi.js';
import { pkgscanService } from '../service.js';
import { PASSWORD, TEST_SCRYPT } from '../server.fixture.js';
import { advisoryStoreOf } from '../vulns/advisories.js';
import { analyzeImage, CONTAINER_SCAN_JOB, containerScanJob, UPLOAD_DIR, type ContainerAnalysis } from './analyze.js';
import { containerRoutes, sweepContainerUploads } from './http.js';
import { decide } from './scan.js';
import { envSecrets, findSecrets, SECRET_RULES } from './secrets.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../test/fixtures/images');
const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(path.join(FIXTURES, name)));

const byCode = (fs: readonly ContainerFinding[], code: string): ContainerFinding[] => fs.filter((f) => f.code === code);

describe('checks on the real fixture image', () => {
  let a: ContainerAnalysis;
  const bytes = fixture('debian-layers.docker.tar');
  beforeAll(async () => {
    a = await analyzeImage(bytes, { imageRef: 'fixture:1' });
  });

  it('sees the set-uid binary a layer added, with its layer', () => {
    expect(byCode(a.findings, 'setuid_unexpected')).toEqual([expect.objectContaining({ file: 'usr/local/bin/netcheck', layer: 1, severity: 'high', match: '4755' })]);
  });

  it('sees the planted private key and the planted cloud key with rule ids, masked', () => {
    const secrets = byCode(a.findings, 'secret_in_file');
    expect(secrets.find((f) => f.rule_id === 'private-key')).toMatchObject({ file: 'root/.ssh/id_ed25519', layer: 1, match: '-----BEGIN OPENSSH PRIVATE KEY-----', deleted_later: false });
    expect(secrets.find((f) => f.rule_id === 'aws-access-key-id')).toMatchObject({ file: 'opt/app/settings.env', line: 1, match: 'AKIA****' });
    // deleted by layer 3, still in layer 2's bytes
    expect(secrets.find((f) => f.rule_id === 'github-pat')).toMatchObject({ file: 'opt/app/.deploy-token', layer: 1, deleted_later: true, severity: 'critical' });
  });

  it('never echoes a secret: the key body, the token and the password appear nowhere in the result', () => {
    const read = readImage(bytes, {
      onLayer: () => undefined,
    });
    const env = read.config?.env ?? [];
    const token = env.find((e) => e.startsWith('GITHUB_TOKEN='))?.slice(13) ?? '';
    const password = env.find((e) => e.startsWith('DB_PASSWORD='))?.slice(12) ?? '';
    expect(token).toMatch(/^ghp_/);
    const json = JSON.stringify(a);
    expect(json).not.toContain(token);
    expect(json).not.toContain(password);
    expect(json).not.toContain(token.slice(4, 12));
    expect(json).not.toMatch(/b3BlbnNzaC1rZXktdjE/); // the base64 body of every OpenSSH private key
    expect(a.summary.env_names).toEqual(['DB_PASSWORD', 'GITHUB_TOKEN', 'PATH']);
  });

  it('flags the configured user (none), the environment secrets by name and by format, the world-writable file', () => {
    expect(byCode(a.findings, 'image_user_unset')).toHaveLength(1);
    expect(byCode(a.findings, 'env_secret_value')).toEqual([expect.objectContaining({ rule_id: 'github-pat', severity: 'critical', match: 'ghp_****' })]);
    expect(byCode(a.findings, 'env_secret_name')).toEqual([expect.objectContaining({ rule_id: 'DB_PASSWORD', severity: 'high', match: '****' })]);
    expect(byCode(a.findings, 'world_writable_system_file')).toEqual([expect.objectContaining({ file: 'usr/local/etc/shared.conf', layer: 1 })]);
  });

  it('lists packages with purls and layers, the layers with what each added, and a CycloneDX 1.6 SBOM that validates', async () => {
    expect(a.complete).toBe(true);
    expect(a.packages.map((p) => `${p.type}:${p.name}@${p.version}#${p.layer}`)).toEqual([
      'deb:base-files@12.4+deb12u15#0',
      'deb:busybox-static@1:1.35.0-4+deb12u1+b1#0',
      'deb:distro-info-data@0.58+deb12u7#1',
      'deb:netbase@6.4#0',
      'npm:semver@7.8.6#2',
      'pypi:PyYAML@6.0#2',
    ]);
    expect(a.layers[1]?.packages_upgraded).toEqual([{ type: 'deb', name: 'distro-info-data', from: '0.58+deb12u6', to: '0.58+deb12u7' }]);
    expect(a.layers[1]?.packages_removed).toEqual([{ type: 'deb', name: 'media-types', version: '10.0.0' }]);
    expect(a.tools.find((t) => t.name === 'sbom')?.status).toBe('ok');
    const sbom = a.sbom as Record<string, unknown>;
    expect(await validateCycloneDx(sbom)).toEqual([]);
    const purls = (sbom['components'] as { purl?: string }[]).map((c) => c.purl).filter((x) => x !== undefined);
    expect(purls).toEqual(a.packages.map((p) => p.purl));
  });

  it('an image cut short is incomplete, with a finding that keeps it from being clean', async () => {
    const cut = await analyzeImage(bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    expect(cut.complete).toBe(false);
    expect(byCode(cut.findings, 'image_incomplete').length).toBeGreaterThan(0);
    expect(cut.incompleteReasons.length).toBeGreaterThan(0);
    expect(cut.tools.find((t) => t.name === 'archive')?.status).toBe('partial');
  });

  it('caps the bytes scanned per file and in all, and says so', async () => {
    const capped = await analyzeImage(bytes, { secretBudget: { perFile: 64, total: 4096 } });
    const s = capped.tools.find((t) => t.name === 'secrets');
    expect(s?.status).toBe('partial');
    expect(s?.message).toMatch(/total cap/);
  });
});

describe('build history', () => {
  it('finds a credential in a layer command and withholds the command', async () => {
    const { buildTar } = await import('../../core/archive/build.fixture.js');
    const token = `ghp_${'Ab1'.repeat(12)}`;
    const config = { config: { User: 'app' }, history: [{ created_by: `RUN curl -H "Authorization: token ${token}" https://example.org/x` }, { created_by: 'ENV A=b', empty_layer: true }], rootfs: { diff_ids: [] } };
    const image = buildTar([
      { name: 'manifest.json', data: JSON.stringify([{ Config: 'c.json', Layers: ['l.tar'] }]) },
      { name: 'c.json', data: JSON.stringify(config) },
      { name: 'l.tar', data: buildTar([{ name: 'etc/hostname', data: 'x' }]) },
    ]);
    const a = await analyzeImage(image);
    expect(byCode(a.findings, 'secret_in_history')).toEqual([expect.objectContaining({ rule_id: 'github-pat', layer: 0, match: 'ghp_****' })]);
    expect(a.layers[0]?.created_by).toMatch(/withheld/);
    expect(JSON.stringify(a)).not.toContain(token);
    expect(byCode(a.findings, 'image_user_unset')).toEqual([]);
  });
});

describe('secret rules', () => {
  it('match their formats, skip documentation placeholders, and report the rule id', () => {
    const cases: [string, string][] = [
      ['key = "AKIAQWERTYUIOPASDFGH"', 'aws-access-key-id'],
      ['aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKZ', ''],
      ['aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQWERTYKZ1', 'aws-secret-access-key'],
      [`glpat-${'a'.repeat(20)}`, 'gitlab-pat'],
      [`xoxb-${'1'.repeat(12)}-abcdefghij`, 'slack-access-token'],
      [`"type": "service_account", "private_key": "x"`, 'gcp-service-account'],
      [`npm_${'A1b2'.repeat(9)}`, 'npm-access-token'],
      [`sk_live_${'x1'.repeat(12)}`, 'stripe-secret-token'],
      ['AKIAIOSFODNN7EXAMPLE', ''],
    ];
    for (const [text, id] of cases) {
      const hits = findSecrets(text);
      expect(hits.map((h) => h.rule.id), text).toEqual(id === '' ? [] : [id]);
      for (const h of hits) expect(text).not.toContain(h.masked.replace('****', '') + text.slice(8, 16).replace(/./g, '') + 'Z'.repeat(30));
    }
    expect(new Set(SECRET_RULES.map((r) => r.id)).size).toBe(SECRET_RULES.length);
  });

  it('finds environment secrets by name with a real value, not references or empties', () => {
    expect(envSecrets(['DB_PASSWORD=s3cr3t-value', 'API_KEY_FILE=/run/secrets/api', 'TOKEN=', 'PATH=/usr/bin', 'SECRET_KEY=${SECRET}']).map((e) => e.name)).toEqual(['DB_PASSWORD']);
  });
});

describe('decision', () => {
  const f = (severity: ContainerFinding['severity']): ContainerFinding => ({ code: 'x', category: 'config', severity, title: 't', file: null, layer: null, rule_id: null, match: null, line: null });
  it('critical/high block, medium warns, else allow; incomplete or unassessed is at least warn', () => {
    expect(decide([f('critical')], true, 'ok')).toBe('block');
    expect(decide([f('high'), f('low')], true, 'ok')).toBe('block');
    expect(decide([f('medium')], true, 'ok')).toBe('warn');
    expect(decide([f('low'), f('info')], true, 'ok')).toBe('allow');
    expect(decide([], true, 'ok')).toBe('allow');
    expect(decide([], false, 'ok')).toBe('warn');
    expect(decide([f('low')], true, 'not_requested')).toBe('warn');
    expect(decide([], true, 'partial')).toBe('warn');
    expect(decide([f('high')], false, 'unavailable')).toBe('block');
  });
});

// ---- routes -----------------------------------------------------------------------------------------------------

/** The route table's authorisation step as pkgscan's http.ts applies it (401, 403), before any handler reads a body. */
function authorize(p: Platform, access: RouteDef['access']): RequestHandler {
  return (req, res, next) => {
    const h = req.headers.authorization;
    if (h === undefined || !h.startsWith('Bearer ')) {
      next(new VitrineError('unauthorized', 'authentication required'));
      return;
    }
    p.auth.authenticate(h.slice(7)).then(
      (user) => {
        if (access !== 'authenticated' && !hasPermission(user.role, access as Permission)) next(new VitrineError('forbidden', 'no permission'));
        else {
          res.locals['pkgscanUser'] = user;
          next();
        }
      },
      (err: unknown) => next(err),
    );
  };
}

/** Holds each job until released: a running scan the second upload can meet. */
class GatedRunner implements JobRunner {
  private readonly inner = new InProcessRunner({ [CONTAINER_SCAN_JOB]: containerScanJob });
  gate: Promise<void> = Promise.resolve();
  started = 0;
  async run(type: string, payload: unknown, options?: RunOptions): Promise<unknown> {
    this.started++;
    await this.gate;
    return this.inner.run(type, payload, options);
  }
}

describe('routes /containers/scans', () => {
  let server: Listening;
  let p: Platform;
  let base: string;
  const tokens: Record<string, string> = {};
  const runner = new GatedRunner();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'vitrine-containers-'));

  beforeAll(async () => {
    p = createPlatform({ db: openMemoryStore([pkgscanService]), jobs: runner, dataDir, resourcesDir: defaultResourcesDir() }, { scrypt: TEST_SCRYPT });
    for (const role of ['developer', 'auditor'] as const) {
      await p.auth.createUser({ email: `${role}@example.org`, password: PASSWORD, role }, 'system', null);
      tokens[role] = (await p.auth.login(`${role}@example.org`, PASSWORD, 'test-request-1')).access_token;
    }
    const app = express();
    app.use(requestId());
    const api = express.Router();
    for (const def of containerRoutes(p)) api[def.method](def.path, authorize(p, def.access), route((req, res) => def.handler(req, res, res.locals['pkgscanUser'] as never)));
    app.use('/api/v1', api);
    app.use(errorHandler());
    server = await listen(app, { port: 0 });
    base = `${server.url}/api/v1`;
  });
  afterAll(async () => {
    await server.close();
  });

  const upload = (body: Uint8Array, query = '', token: string | undefined = tokens['developer'], type = 'application/octet-stream'): Promise<Response> =>
    fetch(`${base}/containers/scans${query}`, { method: 'POST', headers: { 'content-type': type, ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}) }, body });

  /** A request that declares a body and sends none of it: only an answer given before reading can come back. */
  const declareOnly = (length: number, token?: string): Promise<{ status: number; headers: Record<string, unknown> }> =>
    new Promise((resolve, reject) => {
      const u = new URL(`${base}/containers/scans`);
      const req = httpRequest({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: { 'content-type': 'application/octet-stream', 'content-length': String(length), ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}) } }, (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, headers: res.headers });
        req.destroy();
      });
      req.on('error', reject);
      req.flushHeaders();
    });

  it('documents its routes in the OpenAPI document the route table generates', () => {
    const doc = openApiDocument(containerRoutes(p), p.config, '.') as { paths: Record<string, Record<string, { parameters?: { name: string }[] }>> };
    expect(Object.keys(doc.paths).sort()).toEqual(['/api/v1/containers/scans', '/api/v1/containers/scans/{id}', '/api/v1/containers/scans/{id}/sbom'].sort());
    expect(doc.paths['/api/v1/containers/scans']?.['post']?.parameters?.map((x) => x.name)).toEqual(['image_ref', 'vulnerabilities']);
  });

  it('checks authorisation before reading the body: 401 without a token, 403 without container:scan', async () => {
    expect((await declareOnly(1000)).status).toBe(401);
    expect((await declareOnly(1000, tokens['auditor'])).status).toBe(403);
  });

  it('refuses a declared body over 256 MiB with 413 and the wrong media type with 415, reading nothing', async () => {
    expect((await declareOnly(256 * 1024 * 1024 + 1, tokens['developer'])).status).toBe(413);
    expect((await upload(new Uint8Array(10), '', tokens['developer'], 'application/json')).status).toBe(415);
    expect((await upload(new Uint8Array(0))).status).toBe(400);
  });

  let scanId = '';
  it('scans the fixture image: 201, blocked by the planted secrets and set-uid binary, stored and audited, upload removed', async () => {
    const res = await upload(fixture('debian-layers.oci.tar'), '?image_ref=vitrine%2Ffixture%3A1');
    expect(res.status).toBe(201);
    const s = (await res.json()) as ContainerScan;
    scanId = s.id;
    expect(s).toMatchObject({ image_ref: 'vitrine/fixture:1', status: 'complete', decision: 'block', severity: 'critical', package_count: 6 });
    expect(s.summary.vulnerabilities).toBe('not_requested');
    expect(s.findings.some((f) => f.code === 'vulnerabilities_not_assessed')).toBe(true);
    expect(s.tools.find((t) => t.name === 'vulnerabilities')?.status).toBe('skipped');
    expect(s.layers.map((l) => l.files_added)).toEqual([221, 8, 7]);
    expect(readdirSync(path.join(dataDir, UPLOAD_DIR))).toEqual([]);
    const audit = await p.audit.page({ action: 'container.scan' }, 10, 0);
    expect(audit.total).toBe(1);
    expect(audit.items[0]?.details).toMatchObject({ scan_id: s.id, decision: 'block', status: 'complete' });
  });

  it('lists, shows one scan, serves its SBOM (valid CycloneDX 1.6), 404 for unknown ids', async () => {
    const h = { authorization: `Bearer ${tokens['auditor'] ?? ''}` };
    const list = (await (await fetch(`${base}/containers/scans?limit=10`, { headers: h })).json()) as PageOf<ContainerScanListItem>;
    expect(list.total).toBeGreaterThanOrEqual(1);
    expect(list.items[0]).toMatchObject({ id: scanId, decision: 'block' });
    const one = await fetch(`${base}/containers/scans/${scanId}`, { headers: h });
    expect(((await one.json()) as ContainerScan).packages).toHaveLength(6);
    const sbomRes = await fetch(`${base}/containers/scans/${scanId}/sbom`, { headers: h });
    expect(sbomRes.headers.get('content-type')).toMatch(/application\/vnd\.cyclonedx\+json/);
    expect(await validateCycloneDx((await sbomRes.json()) as Record<string, unknown>)).toEqual([]);
    expect((await fetch(`${base}/containers/scans/00000000-0000-4000-8000-000000000000`, { headers: h })).status).toBe(404);
    expect((await fetch(`${base}/containers/scans/nope/sbom`, { headers: h })).status).toBe(404);
  });

  it('stores a cut image as incomplete, never clean; vulnerabilities=true with no advisory data is not assessed (at least warn)', async () => {
    const bytes = fixture('debian-layers.docker.tar');
    const res = await upload(bytes.subarray(0, Math.floor(bytes.length * 0.3)), '?vulnerabilities=true');
    expect(res.status).toBe(201);
    const s = (await res.json()) as ContainerScan;
    expect(s.status).toBe('incomplete');
    expect(s.decision).not.toBe('allow');
    expect(s.summary.vulnerabilities).toBe('partial');
    expect(s.findings.map((f) => f.code)).toEqual(expect.arrayContaining(['image_incomplete', 'vulnerabilities_not_assessed']));
    const whole = (await (await upload(bytes, '?vulnerabilities=1')).json()) as ContainerScan;
    expect(whole.summary.vulnerabilities).toBe('unavailable');
    expect(whole.tools.find((t) => t.name === 'vulnerabilities')?.status).toBe('unavailable');
    const garbage = (await (await upload(new TextEncoder().encode('definitely not a tarball'))).json()) as ContainerScan;
    expect(garbage).toMatchObject({ status: 'incomplete', decision: 'warn' });
  });

  it('with advisory data for every ecosystem, looks Debian packages up by source package and reports advisories per layer', async () => {
    const today = new Date().toISOString();
    const day = today.slice(0, 10);
    const osv = (id: string, ecosystem: string, name: string, fixed: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
      id,
      modified: today,
      summary: `summary of ${id}`,
      affected: [{ package: { ecosystem, name }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed }] }] }],
      ...extra,
    });
    const write = (name: string, body: string): string => {
      const f = path.join(dataDir, name);
      writeFileSync(f, body);
      return f;
    };
    const store = advisoryStoreOf(p.db);
    await store.importFile(write('busybox.json', JSON.stringify(osv('DSA-0001-1', 'Debian:12', 'busybox', '1:1.36.1-1', { aliases: ['CVE-2099-0001'], database_specific: { severity: 'HIGH' } }))));
    await store.importFile(write('pyyaml.json', JSON.stringify(osv('GHSA-aaaa-bbbb-cccc', 'PyPI', 'PyYAML', '6.0.1', { database_specific: { severity: 'MODERATE' } }))));
    await store.importFile(write('npm.json', JSON.stringify(osv('GHSA-dddd-eeee-ffff', 'npm', 'left-pad', '9.0.0'))));
    await store.importFile(write('kev.json', JSON.stringify({ catalogVersion: day, dateReleased: today, count: 1, vulnerabilities: [{ cveID: 'CVE-2099-0002', vendorProject: 'V', product: 'P', vulnerabilityName: 'N', dateAdded: day, dueDate: day, knownRansomwareCampaignUse: 'Unknown' }] })));
    await store.importFile(write('epss.csv', `#model_version:v2025.03.14,score_date:${day}T00:00:00+0000\ncve,epss,percentile\nCVE-2099-0001,0.5,0.9\n`));
    const res = await upload(fixture('debian-layers.oci.tar'), '?vulnerabilities=true');
    const s = (await res.json()) as ContainerScan;
    expect(s.summary.vulnerabilities).toBe('ok');
    expect(s.tools.find((t) => t.name === 'vulnerabilities')?.status).toBe('ok');
    expect(s.findings.some((f) => f.code === 'vulnerabilities_not_assessed')).toBe(false);
    const v = s.findings.filter((f) => f.code === 'vulnerability');
    expect(v.map((f) => `${f.rule_id} ${f.package?.name ?? ''} ${f.layer ?? ''}`).sort()).toEqual(['DSA-0001-1 busybox-static 0', 'GHSA-aaaa-bbbb-cccc PyYAML 2']);
    expect(s.advisories.map((a) => a.name).sort()).toEqual(['PyYAML', 'busybox-static']);
  });

  it('runs one scan at a time: a second upload meanwhile gets 429 with Retry-After', async () => {
    let release: () => void = () => undefined;
    runner.gate = new Promise((r) => {
      release = r;
    });
    const before = runner.started;
    const first = upload(fixture('debian-layers.oci.tar'));
    while (runner.started === before) await new Promise((r) => setTimeout(r, 10));
    const second = await upload(fixture('debian-layers.oci.tar'));
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('30');
    release();
    expect((await first).status).toBe(201);
    runner.gate = Promise.resolve();
    expect((await upload(fixture('debian-layers.oci.tar'))).status).toBe(201);
  });
});

describe('migration 10', () => {
  it('creates the container scans table with its checks', () => {
    const db = openMemoryStore([pkgscanService]);
    expect(db.prepare("SELECT version FROM schema_migrations WHERE service = 'pkgscan' AND version = 10").get()).toEqual({ version: 10 });
    const insert = (status: string, decision: string): unknown =>
      db.prepare("INSERT INTO pkgscan_container_scans (id, status, decision, package_count, finding_count, upload_sha256, upload_size, created_by, created_at, report_json) VALUES (?, ?, ?, 0, 0, '', 0, 'u', 't', '{}')").run(`${status}-${decision}`, status, decision);
    expect(() => insert('complete', 'allow')).not.toThrow();
    expect(() => insert('clean', 'allow')).toThrow();
    expect(() => insert('incomplete', 'pass')).toThrow();
  });
});

describe('container uploads after a crash', () => {
  it('at start, image uploads older than the process are removed; newer ones and other files stay', () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'vitrine-uploads-'));
    const dir = path.join(home, 'container-uploads');
    mkdirSync(dir);
    const old = path.join(dir, '0b7f3a52-4c1e-4d7a-9b0e-1f2a3b4c5d6e.tar');
    const fresh = path.join(dir, '1b7f3a52-4c1e-4d7a-9b0e-1f2a3b4c5d6e.tar');
    const other = path.join(dir, 'notes.txt');
    for (const f of [old, fresh, other]) writeFileSync(f, 'x');
    utimesSync(old, new Date('2020-01-01'), new Date('2020-01-01'));
    utimesSync(other, new Date('2020-01-01'), new Date('2020-01-01'));
    expect(sweepContainerUploads(home)).toBe(1);
    expect(readdirSync(dir).sort()).toEqual(['1b7f3a52-4c1e-4d7a-9b0e-1f2a3b4c5d6e.tar', 'notes.txt']);
    rmSync(home, { recursive: true, force: true });
  });
});
