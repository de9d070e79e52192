// openRelease on the 189 corpus releases (names, versions, install scripts against the ground truth), on built wheels and sdists, and on damaged input.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { buildTar, buildZip } from '../../core/archive/build.fixture.js';
import { VitrineError } from '../../core/errors.js';
import { pep503 } from '../../core/manifests/index.js';
import { openRelease } from './index.js';
import type { PackageRelease } from './index.js';

interface TruthFile {
  readonly file: string;
  readonly ecosystem: 'npm' | 'pypi';
  readonly name: string;
  readonly version: string;
  readonly install_scripts?: Record<string, string>;
}

const truth: readonly TruthFile[] = hasCorpora() ? (JSON.parse(readFileSync(corpusPath('packages', 'GROUND_TRUTH.json'), 'utf8')) as { files: TruthFile[] }).files : [];

/** The ground truth names this release by its research dataset's folders; the archive itself declares calculator_2c397c49ab20c445 1000.0.6. */
const DECLARED_OTHERWISE: Record<string, { name: string; version: string }> = {
  'malicious/pypi/calculator-2c397c49ab20c445.tar.gz': { name: 'calculator-2c397c49ab20c445', version: '1000.0.6' },
};

function expectValidation(fn: () => unknown): VitrineError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(VitrineError);
    expect((error as VitrineError).code).toBe('validation_failed');
    return error as VitrineError;
  }
  throw new Error('expected a validation error');
}

describe.runIf(hasCorpora())('openRelease on the package corpus', () => {
  it('opens all 189 releases with the ground-truth ecosystem, name and version', () => {
    expect(truth.length).toBe(189);
    for (const f of truth) {
      // Bytes in memory only: nothing from these archives is written or run.
      const bytes = readFileSync(corpusPath('packages', f.file));
      const r = openRelease(bytes, { filename: path.basename(f.file) });
      const want = DECLARED_OTHERWISE[f.file] ?? { name: f.ecosystem === 'pypi' ? pep503(f.name) : f.name, version: f.version };
      expect([r.ecosystem, r.name, r.version], f.file).toEqual([f.ecosystem, want.name, want.version]);
      expect(r.kind).toBe(f.ecosystem === 'npm' ? 'npm-tgz' : 'sdist-tar');
      expect(r.complete, f.file).toBe(true);
      expect(r.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
      expect(r.files.length).toBeGreaterThan(0);
      for (const file of r.files) {
        expect(file.data?.length).toBe(file.size);
        expect(file.archivePath.endsWith(file.path)).toBe(true);
      }
      if (f.ecosystem === 'npm') {
        expect(r.files.some((x) => x.path === 'package.json'), f.file).toBe(true);
        // Every install-time script the ground truth lists is in the declared scripts, word for word.
        for (const [k, v] of Object.entries(f.install_scripts ?? {})) expect(r.metadata.scripts[k], `${f.file} ${k}`).toBe(v);
      }
    }
  });

  it('opens every release without a file name too, and npm names come from package.json', () => {
    for (const f of truth) {
      const r = openRelease(readFileSync(corpusPath('packages', f.file)));
      expect(r.ecosystem).toBe(f.ecosystem);
      if (f.ecosystem === 'npm') expect([r.name, r.version]).toEqual([f.name, f.version]);
      if (f.ecosystem === 'pypi' && DECLARED_OTHERWISE[f.file] === undefined) expect(r.name, f.file).toBe(pep503(f.name));
    }
  });

  it('reads declared metadata from a real package.json and PKG-INFO', () => {
    const a = openRelease(readFileSync(corpusPath('packages', 'benign/npm/async-3.2.6.tgz')));
    expect(a.metadata).toMatchObject({ name: 'async', version: '3.2.6', license: 'MIT', repository: 'https://github.com/caolan/async.git', author: { name: 'Caolan McMahon' }, homepage: 'https://caolan.github.io/async/' });
    const pypi = truth.find((f) => f.ecosystem === 'pypi' && f.file.startsWith('benign/'));
    if (pypi === undefined) throw new Error('no benign pypi release');
    const p = openRelease(readFileSync(corpusPath('packages', pypi.file)), { filename: path.basename(pypi.file) });
    expect(p.files.every((x) => !x.path.startsWith(`${path.basename(pypi.file, '.tar.gz')}/`))).toBe(true);
  });

  it('keeps the release readable but incomplete when the archive is cut', () => {
    const file = 'benign/npm/async-3.2.6.tgz';
    const bytes = readFileSync(corpusPath('packages', file));
    for (const frac of [0.05, 0.3, 0.6, 0.9]) {
      const r = openRelease(bytes.subarray(0, Math.floor(bytes.length * frac)), { filename: 'async-3.2.6.tgz' });
      expect(r.complete).toBe(false);
      expect(r.archiveIssues.map((i) => i.code)).toContain('truncated');
      expect([r.name, r.version]).toEqual(['async', '3.2.6']);
    }
  });
});

const METADATA = [
  'Metadata-Version: 2.1',
  'Name: My_Package.Name',
  'Version: 1.2.3',
  'Summary: A test package',
  'Home-page: https://example.org/home',
  'Author-email: "Doe, Jane" <jane@example.org>, Bob <bob@example.org>',
  'Maintainer-email: Team <team@example.org>',
  'License: MIT',
  'Project-URL: Source, https://example.org/src',
  'Requires-Dist: requests (>=2.0)',
  'Requires-Dist: Typing_Extensions>=4 ; python_version < "3.11"',
  'Requires-Dist: rich[jupyter]; extra == "cli"',
  'Description-Content-Type: text/markdown',
  'Keywords: one,',
  '  two',
  '',
  'Body text: not a header',
].join('\n');

describe('openRelease on built releases', () => {
  it('reads a wheel: METADATA headers, entry points, executable bits', () => {
    const whl = buildZip([
      { name: 'my_package/__init__.py', data: 'x = 1\n' },
      { name: 'my_package/run.sh', data: '#!/bin/sh\n', unixMode: 0o100755 },
      { name: 'my_package_name-1.2.3.dist-info/METADATA', data: METADATA, deflate: true },
      { name: 'my_package_name-1.2.3.dist-info/entry_points.txt', data: '[console_scripts]\nmytool = my_package:main\n[other]\nx = y\n' },
    ]);
    const r = openRelease(whl, { filename: 'my_package_name-1.2.3-py3-none-any.whl' });
    expect(r).toMatchObject({ ecosystem: 'pypi', kind: 'wheel', name: 'my-package-name', version: '1.2.3', complete: true });
    expect(r.metadata).toMatchObject({
      description: 'A test package',
      homepage: 'https://example.org/home',
      repository: 'https://example.org/src',
      license: 'MIT',
      author: { name: 'Doe, Jane', email: 'jane@example.org' },
      maintainers: [{ name: 'Team', email: 'team@example.org' }],
      entryPoints: ['mytool'],
    });
    expect(r.metadata.dependencies).toEqual({ requests: '(>=2.0)', 'typing-extensions': '>=4 ; python_version < "3.11"', rich: '[jupyter]; extra == "cli"' });
    expect(r.files.map((f) => [f.path, f.executable])).toEqual([
      ['my_package/__init__.py', false],
      ['my_package/run.sh', true],
      ['my_package_name-1.2.3.dist-info/METADATA', false],
      ['my_package_name-1.2.3.dist-info/entry_points.txt', false],
    ]);
    expect(r.files[0]?.sha256).toBe(createHash('sha256').update('x = 1\n').digest('hex'));
  });

  it('reads an sdist zip with PKG-INFO and strips its top folder', () => {
    const r = openRelease(buildZip([{ name: 'pkg-0.1/PKG-INFO', data: 'Name: pkg\nVersion: 0.1\n' }, { name: 'pkg-0.1/setup.py', data: 'import os\n' }]));
    expect(r).toMatchObject({ kind: 'sdist-zip', name: 'pkg', version: '0.1' });
    expect(r.files.map((f) => f.path)).toEqual(['PKG-INFO', 'setup.py']);
  });

  it('falls back to setup.cfg, pyproject and setup.py literals (never run) when there is no PKG-INFO', () => {
    const cfg = openRelease(gzipSync(buildTar([{ name: 'a-1/setup.cfg', data: '[metadata]\nname = From_Cfg\nversion = 2.0\nauthor = Ann\n[options]\ninstall_requires =\n    six>=1\n    attrs\n' }, { name: 'a-1/setup.py', data: 'setup()' }])));
    expect([cfg.name, cfg.version, cfg.metadata.author?.name]).toEqual(['from-cfg', '2.0', 'Ann']);
    expect(cfg.metadata.dependencies).toEqual({ six: '>=1', attrs: '' });
    const toml = openRelease(gzipSync(buildTar([{ name: 'b-1/pyproject.toml', data: '[project]\nname = "from-toml"\nversion = "3.1"\ndependencies = ["idna>=3"]\n[project.scripts]\nfoo = "b:main"\n' }])));
    expect([toml.name, toml.version, toml.metadata.entryPoints, toml.metadata.dependencies]).toEqual(['from-toml', '3.1', ['foo'], { idna: '>=3' }]);
    const py = openRelease(gzipSync(buildTar([{ name: 'c-9/setup.py', data: 'import os\nos.system("echo never run")\nsetup(name="from_py", version="0.0.7")\n' }])));
    expect([py.name, py.version]).toEqual(['from-py', '0.0.7']);
    const dynamic = openRelease(gzipSync(buildTar([{ name: 'dyn-4.5/setup.py', data: 'setup(name="dyn", version=VERSION)\n' }])));
    expect([dynamic.name, dynamic.version]).toEqual(['dyn', '4.5']);
  });

  it("takes the commands setup.py's literal entry points install when no metadata file names them", () => {
    const scripts = 'setup(\n    name="t",\n    entry_points={\n        "console_scripts": [\n            "pip=t.shim:main",\n            \'t-run = t.cli:run\',\n        ],\n        "gui_scripts": ["t-gui=t.gui"],\n    },\n)\n';
    const sdist = openRelease(gzipSync(buildTar([{ name: 't-1.0/PKG-INFO', data: 'Name: t\nVersion: 1.0\n' }, { name: 't-1.0/setup.py', data: scripts }])));
    expect(sdist.metadata.entryPoints).toEqual(['pip', 't-run', 't-gui']);
    const cfg = openRelease(gzipSync(buildTar([{ name: 't-1.0/PKG-INFO', data: 'Name: t\nVersion: 1.0\n' }, { name: 't-1.0/setup.cfg', data: '[options.entry_points]\nconsole_scripts =\n    tool = t:main\n' }, { name: 't-1.0/setup.py', data: scripts }])));
    expect(cfg.metadata.entryPoints).toEqual(['tool']);
    const none = openRelease(gzipSync(buildTar([{ name: 't-1.0/PKG-INFO', data: 'Name: t\nVersion: 1.0\n' }, { name: 't-1.0/setup.py', data: 'setup(name="t", entry_points=ENTRY)\n' }])));
    expect(none.metadata.entryPoints).toEqual([]);
    // a list cut off before its closing bracket (a truncated file) names no command, rather than a guess
    const cut = openRelease(gzipSync(buildTar([{ name: 't-1.0/PKG-INFO', data: 'Name: t\nVersion: 1.0\n' }, { name: 't-1.0/setup.py', data: scripts.slice(0, scripts.indexOf("'t-run")) }])));
    expect(cut.metadata.entryPoints).toEqual([]);
  });

  it('reads npm package.json forms: author string, license object, repository string, bin string, any top folder', () => {
    const pkg = {
      name: '@scope/tool',
      version: '1.0.0',
      license: { type: 'ISC' },
      repository: 'github:me/tool',
      author: 'Me Myself <me@example.org> (https://example.org)',
      contributors: [{ name: 'C', email: 'c@example.org' }],
      scripts: { preinstall: 'node x.js', test: 'vitest' },
      dependencies: { a: '^1' },
      optionalDependencies: { b: '~2' },
      bin: './cli.js',
    };
    const r = openRelease(gzipSync(buildTar([{ name: 'tool/package.json', data: JSON.stringify(pkg) }, { name: 'tool/cli.js', data: '#!/usr/bin/env node', mode: 0o755 }, { name: 'tool/inner.tgz', data: gzipSync(buildTar([])) }])));
    expect(r).toMatchObject({ ecosystem: 'npm', kind: 'npm-tgz', name: '@scope/tool', version: '1.0.0', filename: '@scope/tool-1.0.0.tgz' });
    expect(r.metadata).toMatchObject({
      license: 'ISC',
      repository: 'github:me/tool',
      author: { name: 'Me Myself', email: 'me@example.org' },
      maintainers: [{ name: 'C', email: 'c@example.org' }],
      scripts: { preinstall: 'node x.js', test: 'vitest' },
      dependencies: { a: '^1', b: '~2' },
      entryPoints: ['tool'],
    });
    expect(r.files.map((f) => [f.path, f.executable, f.archiveFormat ?? ''])).toEqual([
      ['package.json', false, ''],
      ['cli.js', true, ''],
      ['inner.tgz', false, 'gzip'],
    ]);
  });

  it('carries archive issues and marks the release incomplete', () => {
    const r = openRelease(gzipSync(buildTar([{ name: 'package/package.json', data: '{"name":"x","version":"1.0.0"}' }, { name: 'package/../../evil', data: 'x' }, { name: 'package/big', data: 'y'.repeat(3000) }])), { limits: { maxEntryBytes: 1000 } });
    expect(r.archiveIssues.map((i) => i.code)).toEqual(['path_traversal', 'member_too_large']);
    expect(r.complete).toBe(false);
    expect(r.files.find((f) => f.path === 'big')).toMatchObject({ sha256: '', size: 3000 });
  });

  it('falls back to the file name for an archive that declares nothing', () => {
    const r = openRelease(gzipSync(buildTar([{ name: 'package/package.json', data: 'not json' }])), { filename: 'left-pad-1.3.0.tgz' });
    expect([r.name, r.version]).toEqual(['left-pad', '1.3.0']);
  });

  it('refuses what is not an npm or PyPI release, without echoing names', () => {
    const junk = expectValidation(() => openRelease(new TextEncoder().encode('hello, not an archive'), { filename: 'secret-name-1.0.tgz' }));
    expect(junk.message).not.toContain('secret');
    expectValidation(() => openRelease(gzipSync(buildTar([{ name: 'README.md', data: 'hi' }]))));
    expectValidation(() => openRelease(gzipSync(buildTar([{ name: 'package/package.json', data: '{}' }]))));
    expectValidation(() => openRelease(buildZip([{ name: 'x.txt', data: 'x' }])));
    expectValidation(() => openRelease(gzipSync(buildTar([])), { ecosystem: 'cargo' as unknown as 'npm' }));
  });

  it('never throws anything but a validation error on damaged corpus-like input', () => {
    const base = gzipSync(buildTar([{ name: 'package/package.json', data: '{"name":"x","version":"1.0.0"}' }, { name: 'package/index.js', data: 'module.exports = 1;\n'.repeat(200) }]));
    let seed = 7;
    for (let n = 0; n < 200; n++) {
      const copy = Uint8Array.from(base);
      seed = (seed * 1103515245 + 12345) >>> 0;
      const at = seed % copy.length;
      copy[at] = (copy[at] ?? 0) ^ (1 + (seed % 255));
      let r: PackageRelease | undefined;
      try {
        r = openRelease(copy.subarray(0, copy.length - (seed % 40)), { filename: 'x-1.0.0.tgz' });
      } catch (error) {
        expect(error).toBeInstanceOf(VitrineError);
      }
      if (r !== undefined && r.version === '1.0.0' && r.files.length === 2 && r.archiveIssues.length === 0) expect(r.complete).toBe(true);
    }
  });
});
