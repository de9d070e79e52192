// Tests for package-lock.json and npm-shrinkwrap.json: versions 1 to 3, lines, aliases, workspaces, and the corpus files.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath } from '../../../test/corpora.js';
import { ecosystemFor, parseManifest, parseManifestEntries, pinEntries, pinLines, readManifest } from './index.js';
import { readLegacyDependencies } from './package-lock.js';

const corpus = (dir: string): string => readFileSync(corpusPath('supplychain', 'lockfiles', 'npm', dir, 'package-lock.json'), 'utf8');

const V3 = `{
  "name": "demo",
  "version": "1.0.0",
  "lockfileVersion": 3,
  "packages": {
    "": {
      "name": "demo",
      "workspaces": ["packages/*"],
      "dependencies": { "left-pad": "^1.3.0", "sw-cjs": "npm:string-width@^4" },
      "devDependencies": { "gitdep": "github:o/r" }
    },
    "node_modules/left-pad": {
      "version": "1.3.0",
      "resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz",
      "integrity": "sha512-AAAA"
    },
    "node_modules/sw-cjs": {
      "name": "string-width",
      "version": "4.2.3",
      "resolved": "https://registry.npmjs.org/string-width/-/string-width-4.2.3.tgz"
    },
    "node_modules/gitdep": {
      "version": "0.1.0",
      "resolved": "git+ssh://git@github.com/o/r.git#0123456789abcdef",
      "dev": true
    },
    "node_modules/mine": { "resolved": "packages/mine", "link": true },
    "packages/mine": { "name": "mine", "version": "0.0.1" },
    "node_modules/left-pad/node_modules/left-pad": { "version": "1.3.0" },
    "node_modules/a/node_modules/left-pad": { "version": "1.1.0", "optional": true }
  }
}`;

describe('package-lock.json', () => {
  it('reads a v3 file: aliases, git sources, links and workspace members', () => {
    const doc = readManifest('package-lock.json', V3);
    expect(doc).toMatchObject({ format: 'package-lock', ecosystem: 'npm', formatVersion: '3', lineMap: true, project: { name: 'demo', version: '1.0.0' } });
    expect(doc.warnings).toEqual([]);
    expect(doc.entries.map((e) => [e.name, e.version, e.source, e.direct])).toEqual([
      ['left-pad', '1.3.0', 'registry', true],
      ['string-width', '4.2.3', 'registry', true],
      ['gitdep', '0.1.0', 'git', true],
      ['mine', '0.0.1', 'workspace', undefined],
      ['left-pad', '1.3.0', undefined, false],
      ['left-pad', '1.1.0', undefined, false],
    ]);
    expect(doc.entries[1]?.alias).toBe('sw-cjs');
    expect(doc.entries[0]?.checksums).toEqual(['sha512-AAAA']);
    expect(doc.entries[2]?.dev).toBe(true);
    // one pin per (name, version); workspace members are not pins
    expect(pinEntries('package-lock.json', V3)).toEqual([
      { name: 'left-pad', version: '1.3.0', line: 12, keyLine: 11 },
      { name: 'string-width', version: '4.2.3', line: 18, keyLine: 16 },
      { name: 'gitdep', version: '0.1.0', line: 22, keyLine: 21 },
      { name: 'left-pad', version: '1.1.0', line: 29, keyLine: 29 },
    ]);
    // the older views keep the first entry of a name in file order
    expect(parseManifest('package-lock.json', V3).get('left-pad')).toBe('1.3.0');
    expect(pinLines('package-lock.json', V3)?.get('left-pad')).toBe(12);
  });

  it('reads npm-shrinkwrap.json the same way', () => {
    expect(ecosystemFor('npm-shrinkwrap.json')).toBe('npm');
    expect(readManifest('sub/npm-shrinkwrap.json', V3).format).toBe('npm-shrinkwrap');
    expect(pinEntries('npm-shrinkwrap.json', V3)).toEqual(pinEntries('package-lock.json', V3));
  });

  it('gives no pin entries for a version 1 file (no line map), but still its pairs', () => {
    const v1 = JSON.stringify(
      {
        name: 'x',
        lockfileVersion: 1,
        dependencies: {
          a: { version: '1.0.0', dependencies: { b: { version: '2.0.0' } } },
          alias: { version: 'npm:real@3.0.0' },
          b: { version: '1.0.0', dev: true },
        },
      },
      null,
      2,
    );
    expect(pinEntries('package-lock.json', v1)).toBeNull();
    expect(pinLines('package-lock.json', v1)).toBeNull();
    const entries = parseManifestEntries('package-lock.json', v1);
    expect(entries.map((e) => [e.name, e.version, e.alias])).toEqual([
      ['a', '1.0.0', undefined],
      ['b', '2.0.0', undefined],
      ['real', '3.0.0', 'alias'],
      ['b', '1.0.0', undefined],
    ]);
    expect(entries.every((e) => e.line === undefined && e.keyLine === undefined)).toBe(true);
  });

  it('warns when the two layouts of a version 2 file disagree', () => {
    const v2 = JSON.stringify({
      lockfileVersion: 2,
      packages: { '': {}, 'node_modules/a': { version: '1.0.0' } },
      dependencies: { a: { version: '1.0.1' } },
    });
    const doc = readManifest('package-lock.json', v2);
    expect(doc.entries.map((e) => e.version)).toEqual(['1.0.0']);
    expect(doc.warnings.map((w) => w.code)).toEqual(['malformed_entry']);
  });

  it('warns on wrongly typed entries and goes on', () => {
    const text = JSON.stringify({
      lockfileVersion: 3,
      packages: { '': {}, 'node_modules/a': 'nope', 'node_modules/b': { version: 7 }, 'node_modules/c': { version: '1.0.0' } },
    });
    const doc = readManifest('package-lock.json', text);
    expect(doc.entries.map((e) => e.name)).toEqual(['c']);
    expect(doc.warnings.map((w) => w.code)).toEqual(['malformed_entry', 'missing_version']);
  });

  it('reads v1 wrappy (corpus): 217 recursive dependencies, no line map', () => {
    const text = corpus('v1-wrappy');
    const doc = readManifest('package-lock.json', text);
    expect(doc).toMatchObject({ formatVersion: '1', lineMap: false, project: { name: 'wrappy', version: '1.0.2' } });
    expect(doc.entries).toHaveLength(217);
    expect(doc.warnings).toEqual([]);
    expect(pinEntries('package-lock.json', text)).toBeNull();
    expect(doc.entries[0]).toMatchObject({ name: 'abbrev', version: '1.0.9', dev: true, source: 'registry' });
    expect(doc.entries.find((e) => e.name === 'amdefine')).toMatchObject({ optional: true, dev: true });
  });

  it('reads v2 in-toto/attestation (corpus): 74 packages and 74 legacy dependencies that agree', () => {
    const text = corpus('v2-in-toto-attestation');
    const doc = readManifest('package-lock.json', text);
    expect(doc).toMatchObject({ formatVersion: '2', lineMap: true, project: { name: 'attestation' } });
    expect(doc.project?.version).toBeUndefined();
    expect(doc.entries).toHaveLength(74);
    expect(readLegacyDependencies(text)).toHaveLength(74);
    expect(doc.warnings).toEqual([]);
    const pins = pinEntries('package-lock.json', text);
    expect(pins?.[0]).toEqual({ name: '@types/debug', version: '4.1.13', line: 11, keyLine: 10 });
    expect(doc.entries.filter((e) => e.direct).map((e) => e.name)).toEqual(['markdownlint-cli']);
  });

  it('reads v3 capa explorer (corpus, 4-space indent): 328 packages, aliases by name field', () => {
    const text = corpus('v3-capa-explorer');
    const doc = readManifest('package-lock.json', text);
    expect(doc).toMatchObject({ formatVersion: '3', project: { name: 'capa-webui', version: '1.0.0' } });
    expect(doc.entries).toHaveLength(328);
    expect(doc.warnings).toEqual([]);
    const aliased = doc.entries.filter((e) => e.alias !== undefined).map((e) => [e.alias, e.name]);
    expect(aliased).toContainEqual(['string-width-cjs', 'string-width']);
    const lines = text.split('\n');
    for (const p of pinEntries('package-lock.json', text) ?? []) expect(lines[p.line]).toContain(`"version": "${p.version}"`);
  });

  it('reads v3 conftest example (corpus): 12 packages', () => {
    const doc = readManifest('package-lock.json', corpus('v3-conftest-example-ts'));
    expect(doc).toMatchObject({ formatVersion: '3', project: { name: 'conftest-example', version: '1.0.0' } });
    expect(doc.entries).toHaveLength(12);
    expect(
      doc.entries
        .filter((e) => e.direct)
        .map((e) => e.name)
        .sort(),
    ).toEqual(['js-yaml', 'kubernetes-types', 'ts-node', 'typescript']);
  });
});

describe('install scripts', () => {
  it('marks the entries npm records with hasInstallScript (capa-explorer: one)', () => {
    const doc = readManifest('package-lock.json', corpus('v3-capa-explorer'));
    const marked = doc.entries.filter((e) => e.installScript === true);
    expect(marked).toHaveLength(1);
    expect(doc.entries.filter((e) => e.installScript !== undefined && e.installScript !== true)).toHaveLength(0);
  });
  it('marks pnpm requiresBuild entries (v6.0 cdxgen test lock: four)', () => {
    const text = readFileSync(corpusPath('supplychain', 'lockfiles', 'pnpm', 'v6.0-cdxgen-test', 'pnpm-lock.yaml'), 'utf8');
    expect(readManifest('pnpm-lock.yaml', text).entries.filter((e) => e.installScript === true).length).toBe(4);
  });
});
