// Tests for go.sum: /go.mod lines, the highest version per module (pseudo-versions ordered), and osv-scanner's real go.sum.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath } from '../../../test/corpora.js';
import { pinEntries, readManifest } from './index.js';

const GOSUM = [
  'example.com/m v1.2.0 h1:aaa=',
  'example.com/m v1.2.0/go.mod h1:bbb=',
  'example.com/m v1.10.0/go.mod h1:ccc=',
  'example.com/m v1.10.0-rc.1 h1:ddd=',
  'example.com/p v0.0.0-20200101000000-aaaaaaaaaaaa/go.mod h1:eee=',
  'example.com/p v0.0.0-20210101000000-bbbbbbbbbbbb/go.mod h1:fff=',
  'example.com/p v0.0.0-20190101000000-cccccccccccc h1:ggg=',
  'not a valid line at all',
  'example.com/q notaversion h1:hhh=',
  '',
].join('\n');

describe('go.sum', () => {
  it('keeps the highest version per module with the line of its hash', () => {
    const doc = readManifest('go.sum', GOSUM);
    expect(doc).toMatchObject({ format: 'go-sum', ecosystem: 'golang' });
    expect(doc.entries.map((e) => [e.name, e.version, e.line, e.checksums?.length])).toEqual([
      ['example.com/m', 'v1.2.0', 0, 2],
      ['example.com/m', 'v1.10.0', 2, 1],
      ['example.com/m', 'v1.10.0-rc.1', 3, 1],
      ['example.com/p', 'v0.0.0-20200101000000-aaaaaaaaaaaa', 4, 1],
      ['example.com/p', 'v0.0.0-20210101000000-bbbbbbbbbbbb', 5, 1],
      ['example.com/p', 'v0.0.0-20190101000000-cccccccccccc', 6, 1],
    ]);
    expect(doc.warnings.map((w) => [w.code, w.line])).toEqual([
      ['unparsed_line', 7],
      ['malformed_entry', 8],
    ]);
    expect(pinEntries('go.sum', GOSUM)).toEqual([
      { name: 'example.com/m', version: 'v1.10.0', line: 2, keyLine: 2 },
      { name: 'example.com/p', version: 'v0.0.0-20210101000000-bbbbbbbbbbbb', line: 5, keyLine: 5 },
    ]);
  });

  it('reads osv-scanner go.sum (corpus): 670 hash lines, 397 module versions (one go.mod hash line each), 279 modules', () => {
    const text = readFileSync(corpusPath('supplychain', 'lockfiles', 'go', 'osv-scanner', 'go.sum'), 'utf8');
    const doc = readManifest('go.sum', text);
    expect(doc.warnings).toEqual([]);
    expect(doc.entries.reduce((n, e) => n + (e.checksums?.length ?? 0), 0)).toBe(670);
    expect(doc.entries).toHaveLength(397);
    const pins = pinEntries('go.sum', text) ?? [];
    expect(pins).toHaveLength(279);
    // docker/cli appears once, as a +incompatible release
    expect(pins.find((p) => p.name === 'github.com/docker/cli')?.version).toBe('v29.7.1+incompatible');
    const lines = text.split('\n');
    for (const p of pins) expect(lines[p.line]?.startsWith(`${p.name} ${p.version}`)).toBe(true);
  });
});
