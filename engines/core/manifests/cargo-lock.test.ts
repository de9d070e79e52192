// Tests for Cargo.lock: versions 1 to 4, sources, checksums (inline and v1 metadata), and the two real lock files.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath } from '../../../test/corpora.js';
import { ecosystemFor, pinEntries, readManifest } from './index.js';

describe('Cargo.lock', () => {
  it('reads evtx Cargo.lock (corpus): version 4, 209 packages, the local crate has no source', () => {
    const text = readFileSync(corpusPath('supplychain', 'lockfiles', 'rust', 'evtx', 'Cargo.lock'), 'utf8');
    const doc = readManifest('Cargo.lock', text);
    expect(ecosystemFor('Cargo.lock')).toBe('cargo');
    expect(doc).toMatchObject({ format: 'cargo-lock', ecosystem: 'cargo', formatVersion: '4', lineMap: true });
    expect(doc.entries).toHaveLength(209);
    expect(doc.warnings).toEqual([]);
    expect(pinEntries('Cargo.lock', text)?.[0]).toEqual({ name: 'ahash', version: '0.8.12', line: 6, keyLine: 5 });
    expect(doc.entries[0]).toMatchObject({ source: 'registry', resolved: 'https://github.com/rust-lang/crates.io-index', checksums: ['5a15f179cd60c4584b8a8c596927aadc462e27f2ca70c04e0071964a73ba7a75'] });
    const local = doc.entries.find((e) => e.name === 'evtx');
    expect(local?.source).toBe('path');
    expect(doc.entries.filter((e) => e.direct).length).toBeGreaterThan(0);
  });

  it('reads the trivy Cargo.lock fixture (corpus): version 4, 10 packages', () => {
    const text = readFileSync(corpusPath('supplychain', 'reports', 'trivy', 'inputs', 'cargo', 'Cargo.lock'), 'utf8');
    const doc = readManifest('Cargo.lock', text);
    expect(doc.formatVersion).toBe('4');
    expect(doc.entries).toHaveLength(10);
  });

  it('reads version 1 checksums from [metadata] and git sources, one pin per version', () => {
    const text = `[[package]]
name = "rand"
version = "0.7.3"
source = "registry+https://github.com/rust-lang/crates.io-index"

[[package]]
name = "rand"
version = "0.8.5"
source = "git+https://github.com/rust-random/rand?rev=abc#abc"
dependencies = [
 "rand_core 0.6.4 (registry+https://github.com/rust-lang/crates.io-index)",
]

[metadata]
"checksum rand 0.7.3 (registry+https://github.com/rust-lang/crates.io-index)" = "ffff"
`;
    const doc = readManifest('Cargo.lock', text);
    expect(doc.formatVersion).toBe('1');
    expect(doc.entries.map((e) => [e.version, e.source, e.checksums])).toEqual([
      ['0.7.3', 'registry', ['ffff']],
      ['0.8.5', 'git', undefined],
    ]);
    expect(doc.entries[1]?.dependencies).toEqual(['rand_core']);
    expect(pinEntries('Cargo.lock', text)).toHaveLength(2);
  });
});
