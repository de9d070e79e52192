// Tests for pnpm-lock.yaml versions 5 to 9: key layouts, peer suffixes, direct dependencies, and the five corpus files.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath } from '../../../test/corpora.js';
import { pinEntries, readManifest } from './index.js';
import { splitPnpmKey } from './pnpm-lock.js';

const corpus = (dir: string): string => readFileSync(corpusPath('supplychain', 'lockfiles', 'pnpm', dir, 'pnpm-lock.yaml'), 'utf8');

describe('pnpm-lock.yaml', () => {
  it('splits keys of every layout', () => {
    expect(splitPnpmKey('/acorn/8.8.0', 5)).toEqual({ name: 'acorn', version: '8.8.0' });
    expect(splitPnpmKey('/acorn-jsx/5.3.2_acorn@8.8.0', 5)).toEqual({ name: 'acorn-jsx', version: '5.3.2' });
    expect(splitPnpmKey('/@babel/core/7.0.0', 5)).toEqual({ name: '@babel/core', version: '7.0.0' });
    expect(splitPnpmKey('/@babel/code-frame@7.18.6', 6)).toEqual({ name: '@babel/code-frame', version: '7.18.6' });
    expect(splitPnpmKey('/react-dom@18.2.0(react@18.2.0)', 6)).toEqual({ name: 'react-dom', version: '18.2.0' });
    expect(splitPnpmKey('@appthreat/atom@2.4.3', 9)).toEqual({ name: '@appthreat/atom', version: '2.4.3' });
    expect(splitPnpmKey('github.com/o/r/0123abc', 5)).toBeUndefined();
  });

  it('reads the syft v5 fixture with peer suffixes (corpus): 3 packages, all direct', () => {
    const text = corpus('v5-syft-peer-suffix');
    const doc = readManifest('pnpm-lock.yaml', text);
    expect(doc).toMatchObject({ format: 'pnpm-lock', ecosystem: 'npm', formatVersion: '5.4', lineMap: true });
    expect(doc.warnings).toEqual([]);
    expect(doc.entries.map((e) => [e.name, e.version, e.direct])).toEqual([
      ['acorn', '8.8.0', true],
      ['acorn-jsx', '5.3.2', true],
      ['webpack-cli', '4.10.0', true],
    ]);
    expect(pinEntries('pnpm-lock.yaml', text)?.[1]).toEqual({ name: 'acorn-jsx', version: '5.3.2', line: 18, keyLine: 18 });
  });

  it('reads the cdxgen v5.3 file (corpus): 7 packages, one direct', () => {
    const doc = readManifest('pnpm-lock.yaml', corpus('v5.3-cdxgen-test'));
    expect(doc.formatVersion).toBe('5.3');
    expect(doc.entries).toHaveLength(7);
    expect(doc.entries.filter((e) => e.direct).map((e) => e.name)).toEqual(['chalk']);
    expect(doc.entries.find((e) => e.name === 'chalk')?.dependencies).toEqual(['ansi-styles', 'escape-string-regexp', 'has-ansi', 'strip-ansi', 'supports-color']);
  });

  it('reads the 4-space-indented v5.4 file (corpus edge case): 1 package', () => {
    const text = corpus('v5.4-cdxgen-test');
    const doc = readManifest('pnpm-lock.yaml', text);
    expect(doc.formatVersion).toBe('5.4');
    expect(pinEntries('pnpm-lock.yaml', text)).toEqual([{ name: '@ampproject/remapping', version: '2.2.0', line: 10, keyLine: 10 }]);
  });

  it('reads the cdxgen v6.0 file (corpus): 200 packages, dev flags, direct from {specifier, version}', () => {
    const doc = readManifest('pnpm-lock.yaml', corpus('v6.0-cdxgen-test'));
    expect(doc.formatVersion).toBe('6.0');
    expect(doc.entries).toHaveLength(200);
    expect(doc.warnings).toEqual([]);
    expect(doc.entries[0]).toMatchObject({ name: '@babel/code-frame', version: '7.18.6', dev: true });
    expect(
      doc.entries
        .filter((e) => e.direct)
        .map((e) => `${e.name}@${e.version}`)
        .sort(),
    ).toEqual(['@cyclonedx/cdxgen@8.2.1', 'typescript@5.0.2']);
  });

  it('reads cdxgen own v9.0 lock (corpus): 308 packages, direct from importers', () => {
    const text = corpus('v9.0-cdxgen');
    const doc = readManifest('pnpm-lock.yaml', text);
    expect(doc.formatVersion).toBe('9.0');
    expect(doc.entries).toHaveLength(308);
    expect(doc.warnings).toEqual([]);
    expect(doc.entries.some((e) => e.direct)).toBe(true);
    const lines = text.split('\n');
    for (const p of pinEntries('pnpm-lock.yaml', text) ?? []) expect(lines[p.keyLine]).toContain(`${p.name}@${p.version}`);
  });

  it('takes name and version fields of non-registry packages, and reads versions as written', () => {
    const text = `lockfileVersion: 5.10
packages:
  github.com/o/r/0123abc:
    resolution: {tarball: https://codeload.github.com/o/r/tar.gz/0123abc}
    name: r
    version: 1.2.0
  /plain/1.0.0:
    resolution: {integrity: sha512-BBBB}
`;
    const doc = readManifest('pnpm-lock.yaml', text);
    expect(doc.formatVersion).toBe('5.10');
    expect(doc.entries.map((e) => [e.name, e.version, e.line, e.keyLine, e.source])).toEqual([
      ['r', '1.2.0', 5, 2, 'url'],
      ['plain', '1.0.0', 6, 6, 'registry'],
    ]);
    expect(doc.entries[1]?.checksums).toEqual(['sha512-BBBB']);
  });

  it('warns on entries it cannot name and on an unknown lockfileVersion', () => {
    const doc = readManifest('pnpm-lock.yaml', 'lockfileVersion: 42\npackages:\n  nonsense: {}\n  /ok/1.0.0: {}\n');
    expect(doc.entries.map((e) => e.name)).toEqual(['ok']);
    expect(doc.warnings.map((w) => w.code)).toEqual(['unsupported_version', 'malformed_entry']);
  });
});

describe('pnpm v9 snapshots', () => {
  it('gives v9 entries the dependencies their snapshots record', () => {
    const text = readFileSync(corpusPath('supplychain', 'lockfiles', 'pnpm', 'v9.0-cdxgen', 'pnpm-lock.yaml'), 'utf8');
    const doc = readManifest('pnpm-lock.yaml', text);
    const withDeps = doc.entries.filter((e) => (e.dependencies ?? []).length > 0);
    expect(withDeps.length).toBeGreaterThan(100);
    const names = new Set(doc.entries.map((e) => e.name));
    // every recorded dependency is itself a locked package
    for (const e of withDeps) for (const d of e.dependencies ?? []) expect(names.has(d)).toBe(true);
  });
});

describe('pnpm-lock.yaml with anchors and aliases', () => {
  it('resolves `packages: *pkgs` and merge keys into components', () => {
    const text = [
      "lockfileVersion: '9.0'",
      'x-pkgs: &pkgs',
      '  left-pad@1.3.0:',
      '    resolution: &res {integrity: sha512-AAAA}',
      '  is-odd@3.0.1:',
      '    <<: {resolution: {integrity: sha512-BBBB}}',
      'packages: *pkgs',
      '',
    ].join('\n');
    const doc = readManifest('pnpm-lock.yaml', text);
    expect(doc.entries.map((e) => `${e.name}@${e.version}`).sort()).toEqual(['is-odd@3.0.1', 'left-pad@1.3.0']);
    expect(doc.entries.find((e) => e.name === 'is-odd')?.checksums).toEqual(['sha512-BBBB']);
    expect(doc.entries.find((e) => e.name === 'left-pad')?.checksums).toEqual(['sha512-AAAA']);
  });

  it('refuses a billion-laughs lock with a clear parse error, quickly and without expanding it', () => {
    const lines = ["lockfileVersion: '9.0'", 'a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 10; i++) lines.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(', ')}]`);
    lines.push('packages:\n  left-pad@1.3.0:\n    resolution: *j');
    expect(() => readManifest('pnpm-lock.yaml', lines.join('\n'))).toThrow(/aliases past the limit/);
    expect(() => readManifest('pnpm-lock.yaml', "lockfileVersion: '9.0'\npackages: &p\n  a@1.0.0: *p\n")).toThrow(/refers to a node that contains it/);
  });
});
