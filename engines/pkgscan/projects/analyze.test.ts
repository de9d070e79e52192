// Project analysis on the corpus lock files (component counts, direct flags, graph, valid CycloneDX) and on small files built to trip each hygiene and confusion check.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import type { StoredVerdictRef } from '../../core/contracts/pkgscan-projects.js';
import { validateCycloneDx } from '../../core/sbom/index.js';
import { analyzeFiles, analyzeProject, type AnalyzeOptions } from './analyze.js';
import type { SubmittedFile } from './files.js';
import type { UnassessedEffect } from './policy.js';
import type { VulnerabilityAssessment } from '../../core/contracts/pkgscan.js';

const OPTS: AnalyzeOptions = {
  projectName: 'demo',
  environment: 'prod',
  internalNamespaces: ['@acme/', 'acme-'],
  verdictOf: () => undefined,
  serial: '3f0c1b8e-6c5a-4a77-9a8e-2f1d7d2a9b10',
  created: '2026-11-27T03:00:00.000Z',
  toolVersion: '0.1.0',
};

const file = (path: string, text: string): SubmittedFile => ({ path, text, bytes: Buffer.byteLength(text) });

function corpusDir(rel: string): SubmittedFile[] {
  const dir = corpusPath(`supplychain/lockfiles/${rel}`);
  return readdirSync(dir).map((f) => file(f, readFileSync(`${dir}/${f}`, 'utf8')));
}

const codes = (files: SubmittedFile[], o: Partial<AnalyzeOptions> = {}): string[] => analyzeProject(files, { ...OPTS, ...o }).findings.map((f) => `${f.code}:${f.severity}`);

describe.skipIf(!hasCorpora())('project analysis on the corpus', () => {
  // component counts agree with the manifests library's pins (and cdxgen's counts in docs/manifests.md)
  const expected: [string, number, number][] = [
    ['npm/v3-capa-explorer', 315, 20],
    ['npm/v2-in-toto-attestation', 74, 1],
    ['npm/v3-conftest-example-ts', 12, 4],
    ['npm/v1-wrappy', 209, 1],
    ['yarn/v1-timesketch-frontend-v3', 468, 40],
    ['pnpm/v9.0-cdxgen', 308, 61],
    ['pnpm/v6.0-cdxgen-test', 200, 2],
    // 326 packages entries; tslib@2.8.1 is locked twice (two nested copies), so one component
    ['bun/evtx-viewer', 325, 25],
    ['go/osv-scanner', 206, 30],
    ['rust/evtx', 207, 35],
    ['python/in-toto', 10, 10],
    // 37 pinned lines and 15 declared with a range (components without a version, their range a property)
    ['python/timesketch', 52, 52],
  ];
  for (const [dir, components, direct] of expected)
    it(`${dir}: ${components} components, ${direct} direct, a connected graph and a valid CycloneDX`, async () => {
      const a = analyzeProject(corpusDir(dir), OPTS);
      expect(a.components).toHaveLength(components);
      expect(a.components.filter((c) => c.direct)).toHaveLength(direct);
      expect(a.parserWarnings.filter((w) => w.code === 'parse_error')).toEqual([]);
      expect(a.graph.nodes).toHaveLength(components + 1);
      const reached = a.graph.nodes.filter((n) => n.depth !== null).length;
      expect(reached).toBe(a.graph.nodes.length);
      expect(await validateCycloneDx(a.sbom)).toEqual([]);
      for (const c of a.components) expect(c.purl).toMatch(/^pkg:(npm|pypi|golang|cargo)\//);
    });

  it('guarddog: the stale uv.lock is found (its pins disagree with pyproject)', () => {
    const a = analyzeProject(corpusDir('python/guarddog'), OPTS);
    const stale = a.findings.filter((f) => f.code === 'lock_version_mismatch' || f.code === 'lock_missing_dependency');
    expect(stale.find((f) => f.package?.name === 'disposable-email-domains')).toMatchObject({ code: 'lock_version_mismatch', file: 'pyproject.toml', line: 24 });
    expect(a.decision).toBe('warn');
  });

  it('capa-explorer: the one install script, and dependencies range-pinned under a lock are info only', () => {
    const a = analyzeProject(corpusDir('npm/v3-capa-explorer'), OPTS);
    expect(a.findings.filter((f) => f.code === 'install_script')).toHaveLength(1);
    expect(new Set(a.findings.filter((f) => f.code === 'range_pinned_dependency').map((f) => f.severity))).toEqual(new Set(['info']));
    expect(a.decision).toBe('allow');
    const spof = a.graph.metrics.single_points_of_failure[0];
    expect(spof?.disconnects).toBeGreaterThan(10);
  });
});

const LOCK = (resolved: string, name = '@acme/util', extra = ''): string => `{
  "name": "app",
  "lockfileVersion": 3,
  "packages": {
    "": { "name": "app", "dependencies": { "${name}": "1.0.0" } },
    "node_modules/${name}": {
      "version": "1.0.0",
      "resolved": "${resolved}",
      "integrity": "sha512-${Buffer.alloc(64, 3).toString('base64')}"${extra}
    }
  }
}`;

describe('hygiene and dependency confusion', () => {
  it('a manifest without its lock, unpinned and git dependencies', () => {
    const pkg = JSON.stringify({ name: 'app', dependencies: { a: '*', b: '^1.0.0', c: 'github:x/y', d: '1.2.3', e: 'file:../e' } }, null, 2);
    const c = codes([file('package.json', pkg)]);
    expect(c).toEqual(expect.arrayContaining(['missing_lock:medium', 'unpinned_dependency:medium', 'range_pinned_dependency:low', 'git_dependency:medium', 'path_dependency:low']));
    expect(analyzeProject([file('package.json', pkg)], OPTS).decision).toBe('warn');
  });

  it('a lock that disagrees with its manifest', () => {
    const pkg = JSON.stringify({ name: 'app', dependencies: { left: '^2.0.0', gone: '1.0.0' } }, null, 2);
    const lock = `{"name":"app","lockfileVersion":3,"packages":{"":{"name":"app"},"node_modules/left":{"version":"1.0.0","resolved":"https://registry.npmjs.org/left/-/left-1.0.0.tgz"}}}`;
    const f = analyzeProject([file('package.json', pkg), file('package-lock.json', lock)], OPTS).findings;
    expect(f.find((x) => x.code === 'lock_version_mismatch')).toMatchObject({ file: 'package.json', line: 4, package: { name: 'left' } });
    expect(f.find((x) => x.code === 'lock_missing_dependency')).toMatchObject({ package: { name: 'gone' } });
  });

  it('findings name the package and version in the message and in the structured package field', () => {
    const lock = LOCK('https://registry.npmjs.org/left-pad/-/left-pad-1.0.0.tgz', 'left-pad', ',\n      "hasInstallScript": true');
    const a = analyzeProject([file('package-lock.json', lock)], OPTS);
    expect(a.findings.find((f) => f.code === 'install_script')).toEqual({
      code: 'install_script',
      category: 'hygiene',
      severity: 'low',
      file: 'package-lock.json',
      line: 6,
      message: 'left-pad 1.0.0 runs an install script when installed (package-lock.json line 6)',
      package: { ecosystem: 'npm', name: 'left-pad', version: '1.0.0' },
    });
    const req = analyzeProject([file('requirements.txt', 'flask\nrequests>=2.0\n')], OPTS).findings.map((f) => f.message);
    expect(req).toEqual(expect.arrayContaining(['flask has no version constraint (requirements.txt line 1)', 'requests is constrained to a range (>=2.0), not pinned (requirements.txt line 2)']));
    const pkg = JSON.stringify({ name: 'app', dependencies: { left: '^2.0.0' } }, null, 2);
    const stale = `{"name":"app","lockfileVersion":3,"packages":{"":{"name":"app"},"node_modules/left":{"version":"1.0.0","resolved":"https://registry.npmjs.org/left/-/left-1.0.0.tgz"}}}`;
    const mismatch = analyzeProject([file('package.json', pkg), file('package-lock.json', stale)], OPTS).findings.find((f) => f.code === 'lock_version_mismatch');
    expect(mismatch).toMatchObject({ package: { ecosystem: 'npm', name: 'left', version: '1.0.0' }, message: expect.stringMatching(/^left 1\.0\.0 in the package-lock file does not satisfy the manifest's constraint \^2\.0\.0/) as unknown });
  });

  it('an internal package resolved from the public registry is critical', () => {
    expect(codes([file('package-lock.json', LOCK('https://registry.npmjs.org/@acme/util/-/util-1.0.0.tgz'))])).toContain('internal_package_from_public_registry:critical');
  });

  it('an internal package scoped by .npmrc and resolved from the internal registry is fine', () => {
    const c = codes([file('package-lock.json', LOCK('https://npm.acme.example/@acme/util/-/util-1.0.0.tgz')), file('.npmrc', '@acme:registry=https://npm.acme.example/\n')]);
    expect(c.filter((x) => x.startsWith('internal_') || x.startsWith('unexpected_'))).toEqual([]);
  });

  it('an unscoped internal name without an internal resolution is high; an unknown registry host is medium', () => {
    expect(codes([file('package-lock.json', LOCK('', 'acme-tools'))])).toContain('internal_package_not_pinned:high');
    const c = codes([file('package-lock.json', LOCK('https://mirror.example.net/left/-/left-1.0.0.tgz', 'left'))]);
    expect(c).toContain('unexpected_registry:medium');
  });

  it('declared internal names without a scope mapping, and pip extra indexes', () => {
    const pkg = JSON.stringify({ dependencies: { '@acme/ui': '1.0.0' } });
    expect(codes([file('package.json', pkg)])).toContain('internal_package_not_pinned:high');
    const req = '--extra-index-url https://pypi.acme.example/simple\nacme-core==1.0\nrequests\n';
    const c = codes([file('requirements.txt', req)]);
    expect(c).toEqual(expect.arrayContaining(['extra_index_url:high', 'unpinned_dependency:medium']));
  });

  it('npm install scripts and a plain-text .npmrc token', () => {
    const c = codes([file('package-lock.json', LOCK('https://registry.npmjs.org/left/-/left-1.0.0.tgz', 'left', ',\n      "hasInstallScript": true')), file('.npmrc', '//registry.npmjs.org/:_authToken=npm_abcdefabcdef\n')]);
    expect(c).toEqual(expect.arrayContaining(['install_script:low', 'npmrc_credential:high']));
  });

  it('raises the decision to the worst stored component verdict', () => {
    const verdict: StoredVerdictRef = { scan_id: 's1', decision: 'block', severity: 'high', risk_score: 0.9, created_at: '2026-01-01T00:00:00Z' };
    const a = analyzeProject([file('requirements.txt', 'flask==3.0.0\n')], { ...OPTS, verdictOf: (e, n, v) => (e === 'pypi' && n === 'flask' && v === '3.0.0' ? verdict : undefined) });
    expect(a.findings).toEqual([]);
    expect(a.decision).toBe('block');
    expect(a.decisionReasons.join(' ')).toMatch(/raised to block/);
    expect(a.components[0]?.verdict).toEqual(verdict);
  });

  it('advisories of the components from the store: a known-exploited one blocks, unassessed components are said, never read as clean', () => {
    const advisory = { id: 'GHSA-test-0000-0002', aliases: ['CVE-2099-0002'], summary: 'test', severity: 'medium' as const, score: 5, kev: true, kev_date_added: '2099-01-01', epss: 0.2, epss_percentile: 0.9, fixed_versions: ['3.0.1'], malicious: false };
    const a = analyzeProject([file('requirements.txt', 'flask==3.0.0\nclick==8.1.0\n')], {
      ...OPTS,
      vulnerabilitiesOf: (e, n) =>
        e === 'pypi' && n === 'flask' ? { status: 'ok', message: '', missing_sources: [], items: [advisory] } : { status: 'partial', message: 'kev stale', missing_sources: ['kev'], items: [] },
    });
    const vuln = a.findings.find((f) => f.code === 'vulnerable_dependency');
    expect(vuln).toMatchObject({ severity: 'high', category: 'vulnerability', file: 'requirements.txt', package: { ecosystem: 'pypi', name: 'flask', version: '3.0.0' } });
    expect(vuln?.message).toMatch(/GHSA-test-0000-0002 \(known exploited\); fixed in 3\.0\.1/);
    // no policy effect given: warn (medium), never a silent allow
    expect(a.findings.find((f) => f.code === 'vulnerabilities_not_assessed')).toMatchObject({ severity: 'medium', message: expect.stringMatching(/^1 of 2 components .*\(click 8\.1\.0\)/) as unknown });
    expect(a.decision).toBe('block');
    const mal = analyzeProject([file('requirements.txt', 'flask==3.0.0\n')], { ...OPTS, vulnerabilitiesOf: () => ({ status: 'ok', message: '', missing_sources: [], items: [{ ...advisory, id: 'MAL-2099-1', kev: false, malicious: true }] }) });
    expect(mal.findings.map((f) => `${f.code}:${f.severity}`)).toEqual(['malicious_dependency:critical']);
  });

  it('unassessed components follow the policy\'s unassessed effect, as a package verdict does', () => {
    const unavailable = (): VulnerabilityAssessment => ({ status: 'unavailable', message: 'no advisories', missing_sources: ['osv'], items: [] });
    const scan = (unassessedEffect: UnassessedEffect): ReturnType<typeof analyzeProject> => analyzeProject([file('requirements.txt', 'flask==3.0.0\n')], { ...OPTS, vulnerabilitiesOf: unavailable, unassessedEffect });
    const row = (a: ReturnType<typeof analyzeProject>): string => `${a.decision}:${a.findings.map((f) => `${f.code}:${f.severity}`).join(',')}`;
    expect(row(scan('allow'))).toBe('allow:vulnerabilities_not_assessed:info');
    expect(row(scan('warn'))).toBe('warn:vulnerabilities_not_assessed:medium');
    expect(row(scan('block'))).toBe('block:vulnerabilities_not_assessed:high');
    expect(scan('warn').decisionReasons.join(' ')).toMatch(/vulnerabilities\.unassessed rule gives warn/);
  });

  it('malformed and truncated files cost a parser warning and a finding, never the scan', () => {
    const a = analyzeProject(
      [file('package-lock.json', '{"lockfileVersion": 3, "packages": {'), file('pyproject.toml', '[project\n'), file('pnpm-lock.yaml', 'lockfileVersion: 9\npackages: [\n'), file('notes.md', '# hi'), file('go.mod', 'module x\nrequire (\n  a/b v1.0.0\n  ???\n')],
      OPTS,
    );
    expect(a.parserWarnings.filter((w) => w.code === 'parse_error').map((w) => w.file).sort()).toEqual(['package-lock.json', 'pnpm-lock.yaml', 'pyproject.toml']);
    expect(a.findings.filter((f) => f.code === 'manifest_unparsed')).toHaveLength(3);
    expect(a.skippedFiles).toEqual(['notes.md']);
    expect(a.parserWarnings.some((w) => w.file === 'go.mod' && w.line === 4)).toBe(true);
    expect(a.decision).toBe('warn');
  });
});

describe('bun lockfiles', () => {
  const BUN = `{
  "lockfileVersion": 1,
  "workspaces": {
    "": { "name": "app", "dependencies": { "left-pad": "^1.3.0", }, "devDependencies": { "is-odd": "^3.0.0" } },
  },
  "packages": {
    "left-pad": ["left-pad@1.3.0", "", {}, "sha512-AAAA"],
    "is-odd": ["is-odd@3.0.1", "", { "dependencies": { "is-number": "^6.0.0" } }, "sha512-BBBB"],
    "is-number": ["is-number@6.0.0", "", {}, "sha512-CCCC"],
    "@acme/util": ["@acme/util@1.0.0", "https://registry.npmjs.org/@acme/util/-/util-1.0.0.tgz", {}, "sha512-DDDD"],
  },
}
`;

  it('bun.lock beside package.json: components, dev flags, graph edges, no missing_lock, and confusion checks', async () => {
    const pkg = file('package.json', '{"name":"app","dependencies":{"left-pad":"^1.3.0"},"devDependencies":{"is-odd":"^3.0.0"}}');
    const a = analyzeProject([pkg, file('bun.lock', BUN)], OPTS);
    expect(a.manifests.find((m) => m.file === 'bun.lock')).toMatchObject({ format: 'bun-lock', ecosystem: 'npm', format_version: '1', status: 'parsed', entries: 4 });
    expect(a.components.map((c) => [c.name, c.version, c.direct, c.dev])).toEqual([
      ['is-odd', '3.0.1', true, true],
      ['left-pad', '1.3.0', true, false],
      ['@acme/util', '1.0.0', false, false],
      ['is-number', '6.0.0', false, true],
    ]);
    expect(a.components.find((c) => c.name === 'left-pad')?.purl).toBe('pkg:npm/left-pad@1.3.0');
    expect(a.graph.edges).toContainEqual({ from: 'pkg:npm/is-odd@3.0.1', to: 'pkg:npm/is-number@6.0.0' });
    const codes = a.findings.map((f) => f.code);
    expect(codes).not.toContain('missing_lock');
    expect(codes).toContain('internal_package_from_public_registry');
    expect(await validateCycloneDx(a.sbom)).toEqual([]);
  });

  it('bun.lockb is recognised and refused with how to get a bun.lock, not read as a requirements file', () => {
    const a = analyzeProject([file('package.json', '{"name":"app","dependencies":{"left-pad":"^1.3.0"}}'), file('bun.lockb', '#!/usr/bin/env bun\nbun-lockfile-format-v0\n\u0002\u0000')], OPTS);
    expect(a.manifests.find((m) => m.file === 'bun.lockb')).toMatchObject({ format: 'bun-lockb', ecosystem: null, status: 'failed' });
    expect(a.parserWarnings.find((w) => w.file === 'bun.lockb')?.message).toMatch(/binary lockfile.*bun install --save-text-lockfile/);
    expect(a.findings.map((f) => f.code)).toEqual(expect.arrayContaining(['manifest_unparsed']));
    expect(a.findings.map((f) => f.code)).not.toContain('missing_lock');
    expect(a.skippedFiles).toEqual([]);
    expect(a.components).toEqual([]);
  });
});

describe('the worker job', () => {
  it('validates its payload and returns the same file analysis as in process', async () => {
    const { projectAnalyzeJob } = await import('./jobs.js');
    const ctx = { signal: new AbortController().signal, progress: () => undefined, log: () => undefined };
    const files = [file('requirements.txt', 'flask==3.0.0\nrequests\n'), file('Dockerfile', 'FROM alpine\n')];
    const viaJob = projectAnalyzeJob({ projectName: 'demo', internalNamespaces: [], files: files.map((f) => ({ path: f.path, text: f.text })) }, ctx);
    const inProcess = analyzeFiles(files, { projectName: 'demo', internalNamespaces: [] });
    // JSON text, not an object graph: one string crosses the worker channel
    expect(typeof viaJob.json).toBe('string');
    expect(JSON.parse(viaJob.json)).toEqual(JSON.parse(JSON.stringify(inProcess)));
    expect(JSON.parse(viaJob.keys)).toEqual(inProcess.components.map((c) => [c.ecosystem, c.name, c.version]));
    expect(inProcess.components.length).toBeGreaterThan(0);
    expect(() => projectAnalyzeJob({ projectName: 'demo', internalNamespaces: [], files: [] }, ctx)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
    expect(() => projectAnalyzeJob({ projectName: 'demo', files: [{ path: 'a', text: 'b' }] }, ctx)).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });
});

describe('a file that could not be read leaves the scan incomplete', () => {
  it('never allows a project whose compose file or lock file fails to parse', () => {
    const ok = analyzeProject([file('compose.yaml', 'services:\n  web:\n    image: x:1\n    user: app\n')], OPTS);
    expect(ok.decision).toBe('allow');
    for (const bad of [file('compose.yaml', 'services: [unclosed'), file('pnpm-lock.yaml', 'packages: [unclosed')]) {
      const a = analyzeProject([bad], OPTS);
      expect(a.decision, bad.path).toBe('warn');
      expect(a.manifests.map((m) => m.status)).toEqual(['failed']);
      expect(a.decisionReasons.join(' ')).toMatch(/incomplete/);
    }
  });
});

describe('declared dependencies no lock resolves', () => {
  it('are components without a version, their declared range a property, as cdxgen lists them', async () => {
    const a = analyzeProject([file('requirements.txt', 'flask\nrequests>=2.0\nsix==1.16.0\n'), file('web/package.json', JSON.stringify({ name: 'w', dependencies: { 'left-pad': '^1.3.0' } }))], OPTS);
    expect(a.components.map((c) => [c.ecosystem, c.name, c.version, c.declared_range ?? null]).sort()).toEqual([
      ['npm', 'left-pad', '', '^1.3.0'],
      ['pypi', 'flask', '', null],
      ['pypi', 'requests', '', '>=2.0'],
      ['pypi', 'six', '1.16.0', null],
    ]);
    const comps = a.sbom['components'] as { name: string; version?: string; properties: { name: string; value: string }[] }[];
    const leftPad = comps.find((c) => c.name === 'left-pad');
    expect(leftPad?.version).toBeUndefined();
    expect(leftPad?.properties).toContainEqual({ name: 'vitrine:declared_range', value: '^1.3.0' });
    expect(await validateCycloneDx(a.sbom)).toEqual([]);
  });
});
