// Metadata checks (typosquats against the shipped popular lists, binaries, e-mail domains, URL dependencies, dependency confusion), the risk score, and runAnalyzers' run records.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPopular, parsePopular, popularFile, POPULAR_RELATIVE } from '../../core/popular/index.js';
import { REPO_ROOT } from '../../../test/corpora.js';
import { analyzeMetadata } from './metadata.js';
import { flaggedMalicious, runAnalyzers, scoreRisk } from './risk.js';
import { releaseOf } from './release.fixture.js';
import { editDistance, typosquatOf } from './typosquat.js';
import type { Analyzer, AnalyzerContext, ScanFinding } from './types.js';

const resourcesDir = path.join(REPO_ROOT, 'resources');
const ctx: AnalyzerContext = { resourcesDir, internalNamespaces: ['@acme/', 'acme-'] };
const npmNames = loadPopular('npm', path.join(resourcesDir, POPULAR_RELATIVE.npm)) ?? [];
const pypiNames = loadPopular('pypi', path.join(resourcesDir, POPULAR_RELATIVE.pypi)) ?? [];

describe('the shared popular-name lists', () => {
  it('ship 10,000 npm names (most downloaded first, header saying where they came from) and the PyPI list provgate reads', () => {
    expect(npmNames).toHaveLength(10_000);
    for (const n of ['lodash', 'react', 'express', 'electron', 'uglify-js']) expect(npmNames).toContain(n);
    expect(pypiNames.length).toBeGreaterThan(14_000);
    expect(pypiNames.slice(0, 1)).toEqual(['boto3']);
    expect(popularFile('npm', '/r', { VITRINE_TOP_NPM: '/x.txt' })).toBe('/x.txt');
    expect(parsePopular('npm', '# c\n@Scope/Pkg\nlodash\nlodash\nnot a name\n')).toEqual(['@scope/pkg', 'lodash']);
  });
});

describe('typosquatting', () => {
  it('finds edit-distance, swap, separator, affix and homoglyph imitations of a more popular name', () => {
    expect(editDistance('reqeusts', 'requests')).toBe(1);
    expect(typosquatOf('reqeusts', 'pypi', pypiNames)).toEqual({ target: 'requests', how: 'transposition' });
    expect(typosquatOf('lodahs', 'npm', npmNames)?.target).toBe('lodash');
    expect(typosquatOf('electorn', 'npm', npmNames)?.target).toBe('electron');
    expect(typosquatOf('python-openssl', 'pypi', pypiNames)?.target).toBe('pyopenssl');
    expect(typosquatOf('l0dash', 'npm', npmNames)?.target).toBe('lodash');
  });
  it('never flags a popular name itself', () => {
    for (const n of ['requests', 'urllib3', 'six']) expect(typosquatOf(n, 'pypi', pypiNames)).toBeNull();
    for (const n of ['lodash', 'react', 'react-dom', 'debug']) expect(typosquatOf(n, 'npm', npmNames)).toBeNull();
  });
});

describe('metadata analyzer', () => {
  const codes = (fs: readonly ScanFinding[]) => fs.map((f) => f.code);
  it('reports context findings, never above medium for a release of ordinary dependencies', async () => {
    const elf = new Uint8Array(128);
    elf.set([0x7f, 0x45, 0x4c, 0x46]);
    const r = releaseOf('npm', { 'index.js': 'module.exports = 1', 'payload.bin': elf }, {
      name: '@acme/internal-tool',
      version: '99.10.9',
      description: '',
      author: { name: 'x', email: 'x@mailinator.com' },
      maintainers: [{ email: 'ops@micros0ft.com' }],
      dependencies: { evil: 'git+https://example.org/x.git', ok: '^1.0.0' },
      scripts: { postinstall: 'node index.js' },
    });
    const out = await analyzeMetadata({ ...r, registry: { versions: ['99.10.9'] } }, ctx);
    expect(codes(out.findings)).toEqual(expect.arrayContaining(['release_zero', 'unusual_version', 'empty_description', 'bundled_binary', 'disposable_email', 'deceptive_email_domain', 'direct_url_dependency', 'declares_install_scripts', 'dependency_confusion']));
    expect(out.findings.every((f) => f.severity !== 'high' && f.severity !== 'critical')).toBe(true);
    expect(scoreRisk(out.findings, []).score).toBeLessThan(0.7);
  });
  it('a dependency fetched over plain HTTP from an internet host is high; HTTPS, git and a local server stay medium', async () => {
    const r = releaseOf('npm', { 'index.js': 'module.exports = 1' }, {
      dependencies: { a: 'http://packages.example-cdn.com/npm/a', b: 'https://cdn.example.com/b-1.0.0.tgz', c: 'git+http://git.example.org/c.git', d: 'http://localhost:4873/d.tgz', e: 'http://127.0.0.1/e.tgz', f: '^1.0.0' },
    });
    const deps = (await analyzeMetadata(r, ctx)).findings.filter((x) => x.code === 'direct_url_dependency');
    expect(deps.map((x) => `${x.match?.split(':')[0] ?? ''} ${x.severity}`).sort()).toEqual(['a high', 'b medium', 'c high', 'd medium', 'e medium']);
  });
  it("a popular package taken from another account's repository is high; the package's own fork and an unknown name stay medium", async () => {
    const r = releaseOf('npm', { 'index.js': 'module.exports = 1' }, {
      repository: 'git+https://github.com/rateguard/express-rate-guard.git',
      dependencies: { 'lru-cache': 'github:isaacs-oss/node-lru-cache#c7b1e3f9', lodash: 'rateguard/lodash#fix-merge', 'left-padder-x': 'someone/left-padder-x', debug: 'git+https://gitlab.com/dbg-mirror/debug.git' },
    });
    const deps = (await analyzeMetadata(r, ctx)).findings.filter((x) => x.code === 'direct_url_dependency');
    expect(deps.map((x) => `${x.match?.split(':')[0] ?? ''} ${x.severity}`).sort()).toEqual(['debug high', 'left-padder-x medium', 'lodash medium', 'lru-cache high']);
  });
  it('a PyPI direct reference (a build requirement too) is high: the index takes none in its metadata', async () => {
    const r = releaseOf('pypi', { 'x/__init__.py': '' }, { dependencies: { 'setuptools-git-ext': '@ https://pkg-files-cdn.net/w/x-2.0-py3-none-any.whl', requests: '>=2' } });
    const deps = (await analyzeMetadata(r, ctx)).findings.filter((x) => x.code === 'direct_url_dependency');
    expect(deps.map((x) => x.severity)).toEqual(['high']);
  });
  it('an npm-shrinkwrap.json resolving packages from a host other than the public registries is high; a package-lock is not read', async () => {
    const wrap = (resolved: string): string => JSON.stringify({ lockfileVersion: 3, packages: { '': { name: 'x' }, 'node_modules/ms': { resolved: 'https://registry.npmjs.org/ms/-/ms-2.1.3.tgz' }, 'node_modules/follow-redirects': { resolved } } });
    const found = async (files: Record<string, string>): Promise<ScanFinding | undefined> => (await analyzeMetadata(releaseOf('npm', { 'index.js': '', ...files }), ctx)).findings.find((x) => x.code === 'lockfile_foreign_source');
    expect((await found({ 'npm-shrinkwrap.json': wrap('https://registry.npmjs-cdn.org/follow-redirects/-/follow-redirects-1.15.6.tgz') }))?.match).toBe('registry.npmjs-cdn.org');
    expect(await found({ 'npm-shrinkwrap.json': wrap('https://registry.npmjs.org/follow-redirects/-/follow-redirects-1.15.6.tgz') })).toBeUndefined();
    expect(await found({ 'package-lock.json': wrap('https://registry.npmjs-cdn.org/f.tgz') })).toBeUndefined();
    // broken and v1 lockfiles
    expect(await found({ 'npm-shrinkwrap.json': '{"lockfileVersion": 1, "dependencies": {"a": {"resolved": "http://198.51.100.4/a.tgz", "dependencies": {' })).toBeUndefined();
    expect((await found({ 'npm-shrinkwrap.json': JSON.stringify({ lockfileVersion: 1, dependencies: { a: { resolved: 'https://registry.npmjs.org/a.tgz', dependencies: { b: { resolved: 'http://198.51.100.4/b.tgz' } } } } }) }))?.match).toBe('198.51.100.4');
  });
  it("node-pre-gyp's prebuilt-module host over plain HTTP or at a bare IP address is high; its own HTTPS host is not a finding", async () => {
    const host = async (h: unknown): Promise<string | undefined> => {
      const pkg = JSON.stringify({ name: 'x', version: '1.0.0', binary: { module_name: 'x', module_path: './lib/binding', host: h } });
      return (await analyzeMetadata(releaseOf('npm', { 'package.json': pkg, 'index.js': '' }), ctx)).findings.find((x) => x.code === 'prebuilt_binary_host')?.severity;
    };
    expect(await host('http://203.0.113.23/bcrypt-prebuilt')).toBe('high');
    expect(await host('https://198.51.100.7:8443/x')).toBe('high');
    expect(await host('http://prebuilt.example-cdn.net/x')).toBe('high');
    expect(await host('https://github.com/kelektiv/node.bcrypt.js/releases/download/')).toBeUndefined();
    // a host dressed as GitHub's release storage
    expect(await host('https://github-release-assets.com/bcrypt/v5.1.1/')).toBe('high');
    expect(await host('http://localhost:8080/')).toBeUndefined();
    expect(await host(42)).toBeUndefined();
    const broken = await analyzeMetadata(releaseOf('npm', { 'package.json': '{"binary": {"host": "http://1.2.3.4"', 'index.js': '' }), ctx);
    expect(broken.findings.some((x) => x.code === 'prebuilt_binary_host')).toBe(false);
  });
  it("source code under a compiled module's name (.node, .so, .pyd) or a binary format's (.woff2) is high, and the source rules read it; a real binary, a linker script and an LFS pointer are not", async () => {
    const js = "var h = require('https');\nmodule.exports = { tokenize: function (s) { return s.split(' '); } };\n";
    const py = 'import json as _j\n\ndef dumps(o):\n    return _j.dumps(o)\n';
    const elf = new Uint8Array(128);
    elf.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]);
    const r = releaseOf('pypi', { 'a/__init__.py': '', 'build/Release/fxp.node': js, 'a/_speedups.cpython-311-x86_64-linux-gnu.so': py, 'a/_real.so': elf, 'lib/libc.so': '/* GNU ld script */\nGROUP ( libc.so.6 )\n', 'lib/big.so': 'version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 12\n', 'public/fonts/inter-var.woff2': js, 'assets/real.woff2': new Uint8Array([0x77, 0x4f, 0x46, 0x32, 0, 1, 0, 0]) });
    const found = (await analyzeMetadata(r, ctx)).findings.filter((x) => x.code === 'source_as_native_module');
    expect(found.map((x) => [x.file, x.severity, /JavaScript|Python/.exec(x.title)?.[0]])).toEqual([
      ['build/Release/fxp.node', 'high', 'JavaScript'],
      ['a/_speedups.cpython-311-x86_64-linux-gnu.so', 'high', 'Python'],
      ['public/fonts/inter-var.woff2', 'high', 'JavaScript'],
    ]);
  });
  it("a command named after an everyday system command is high, unless the package is that tool", async () => {
    const shadow = async (name: string, entryPoints: string[]): Promise<string | undefined> =>
      (await analyzeMetadata(releaseOf('pypi', { 'a/__init__.py': '' }, { name, entryPoints }), ctx)).findings.find((x) => x.code === 'shadows_system_command')?.match ?? undefined;
    expect(await shadow('shellkit', ['pip', 'pip3', 'ls', 'shellkit'])).toBe('pip, pip3, ls');
    expect(await shadow('pip', ['pip', 'pip3'])).toBeUndefined();
    expect(await shadow('nodejs-bin', ['node', 'npm', 'npx'])).toBeUndefined();
    expect(await shadow('pip-helper-tools', ['ls'])).toBe('ls');
    expect(await shadow('pip-fastresolve', ['pip', 'pip3', 'pip-fastresolve'])).toBe('pip, pip3');
    expect(await shadow('python3', ['python3'])).toBeUndefined();
    expect(await shadow('apt-get', ['apt-get'])).toBeUndefined();
    expect(await shadow('awsprof-tools', ['aws', 'awsprof'])).toBe('aws');
    expect(await shadow('awscli', ['aws', 'aws_completer'])).toBeUndefined();
    expect(await shadow('azure-cli', ['az'])).toBeUndefined();
    expect(await shadow('black', ['black', 'blackd'])).toBeUndefined();
  });
  it('an ordinary release gives nothing worth a warning', async () => {
    const r = releaseOf('npm', { 'index.js': 'module.exports = 1', 'lib/a.js': '', 'README.md': '' }, { name: 'lodash', version: '4.17.21', description: 'Lodash modular utilities.', author: { email: 'john@example.org' } });
    expect((await analyzeMetadata(r, ctx)).findings.filter((f) => f.severity !== 'info')).toEqual([]);
  });
});

describe('risk and runAnalyzers', () => {
  const f = (code: string, severity: ScanFinding['severity'], category: ScanFinding['category']): ScanFinding => ({ code, severity, category, title: code, file: null, line: null, match: null, technique: null, analyzer: 't' });
  it('scores 0 for nothing, >= 0.7 for one critical code finding, counts a code once', () => {
    expect(scoreRisk([], []).score).toBe(0);
    expect(scoreRisk([f('a', 'critical', 'code_execution')], []).score).toBeGreaterThanOrEqual(0.7);
    const many = Array.from({ length: 20 }, () => f('same', 'medium', 'exfiltration'));
    expect(scoreRisk(many, []).score).toBe(scoreRisk(many.slice(0, 1), []).score);
    expect(scoreRisk([], [], { vulnerabilities: 1 }).dimensions.vulnerabilities).toBe(1);
  });
  it('an analyzer that throws is a failed run, the others still run; a cancelled scan marks the rest timed out', async () => {
    const boom: Analyzer = { name: 'boom', version: '1', analyze: () => { throw new Error('secret /path/in/message'); } };
    const ok: Analyzer = { name: 'ok', version: '1', analyze: () => ({ findings: [f('x', 'high', 'exfiltration')] }) };
    const r = releaseOf('npm', { 'index.js': '' });
    const res = await runAnalyzers(r, ctx, [boom, ok]);
    expect(res.runs.map((x) => [x.name, x.status])).toEqual([['boom', 'failed'], ['ok', 'ok']]);
    expect(res.runs[0]?.message).not.toMatch(/secret|path/);
    expect(flaggedMalicious(res)).toBe(true);
    const ac = new AbortController();
    ac.abort();
    const cancelled = await runAnalyzers(r, { ...ctx, signal: ac.signal }, [ok]);
    expect(cancelled.runs[0]?.status).toBe('timed_out');
  });
  it('the default analyzers run on a release and report their runs', async () => {
    const res = await runAnalyzers(releaseOf('pypi', { 'setup.py': 'from setuptools import setup\nsetup(name="x")\n' }), ctx);
    expect(res.runs.map((x) => x.name)).toEqual(['source-rules', 'metadata']);
    expect(res.runs.every((x) => x.status === 'ok')).toBe(true);
  });
});
