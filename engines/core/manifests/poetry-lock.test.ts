// Tests for poetry.lock: groups and categories, sources, hashes, lines, and guarddog's real lock file.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath } from '../../../test/corpora.js';
import { parseManifest, pinEntries, readManifest } from './index.js';

const POETRY = `# generated
[[package]]
name = "Flask_Login"
version = "0.6.3"
optional = false
groups = ["main"]
files = [
    {file = "Flask_Login-0.6.3.tar.gz", hash = "sha256:aaaa"},
]

[package.dependencies]
version = ">=1"
name = "x"

[[package]]
name = "black"
version = "26.5.1"
category = "dev"
optional = true

[package.source]
type = "git"
url = "https://github.com/psf/black.git"
reference = "main"

[[package]]
name = "black"
version = "25.1.0"
groups = ["dev"]

[metadata]
lock-version = "2.1"
`;

describe('poetry.lock', () => {
  it('reads names (PEP 503), versions, lines, dev groups, sources and hashes', () => {
    const doc = readManifest('poetry.lock', POETRY);
    expect(doc).toMatchObject({ format: 'poetry-lock', ecosystem: 'pypi', formatVersion: '2.1', lineMap: true });
    expect(doc.warnings).toEqual([]);
    expect(doc.entries[0]).toMatchObject({ name: 'flask-login', rawName: 'Flask_Login', version: '0.6.3', checksums: ['sha256:aaaa'], source: 'registry', dependencies: ['version', 'name'] });
    expect(doc.entries[0]?.dev).toBeUndefined();
    expect(doc.entries[1]).toMatchObject({ name: 'black', dev: true, optional: true, source: 'git', resolved: 'https://github.com/psf/black.git' });
    expect(doc.entries[2]).toMatchObject({ name: 'black', version: '25.1.0', dev: true });
    // a subtable's `name` or `version` key never moves a package's line
    expect(pinEntries('poetry.lock', POETRY)).toEqual([
      { name: 'flask-login', version: '0.6.3', line: 3, keyLine: 2 },
      { name: 'black', version: '26.5.1', line: 16, keyLine: 15 },
      { name: 'black', version: '25.1.0', line: 27, keyLine: 26 },
    ]);
    expect(parseManifest('poetry.lock', POETRY).get('black')).toBe('26.5.1');
  });

  it('reads guarddog poetry.lock (corpus): lock-version 2.1, 67 packages with lines', () => {
    const text = readFileSync(corpusPath('supplychain', 'lockfiles', 'python', 'guarddog', 'poetry.lock'), 'utf8');
    const doc = readManifest('poetry.lock', text);
    expect(doc.formatVersion).toBe('2.1');
    expect(doc.entries).toHaveLength(67);
    expect(doc.warnings).toEqual([]);
    expect(pinEntries('poetry.lock', text)?.[0]).toEqual({ name: 'ast-serialize', version: '0.5.0', line: 4, keyLine: 3 });
    expect(doc.entries[0]?.dev).toBe(true);
    expect(doc.entries.find((e) => e.name === 'black')?.dependencies).toContain('typing-extensions');
  });

  it('drops the line map with a warning when the tables cannot be matched to lines', () => {
    // an inline array of tables defines packages the line scan cannot see
    const text = 'package = [{name = "a", version = "1.0"}]\n';
    const doc = readManifest('poetry.lock', text);
    expect(doc.lineMap).toBe(false);
    expect(doc.entries.map((e) => [e.name, e.version])).toEqual([['a', '1.0']]);
    expect(doc.warnings.map((w) => w.code)).toEqual(['line_map_unavailable']);
    expect(pinEntries('poetry.lock', text)).toBeNull();
  });
});
