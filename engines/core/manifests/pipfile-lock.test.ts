// Tests for Pipfile.lock: pipenv's own lock files (default and develop, hashes, markers, lines) and damaged entries.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ecosystemFor, pinEntries, readManifest } from './index.js';

const fixture = (dir: string): string => readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', dir, 'Pipfile.lock'), 'utf8');

describe('Pipfile.lock', () => {
  it('reads pipenv\'s root lock: every package pinned, develop marked dev, lines carry the version', () => {
    const text = fixture('pipenv-root');
    const doc = readManifest('Pipfile.lock', text);
    expect(doc.format).toBe('pipfile-lock');
    expect(doc.formatVersion).toBe('6');
    expect(doc.entries).toHaveLength(110);
    expect(doc.warnings).toEqual([]);
    const lines = text.split('\n');
    for (const p of pinEntries('Pipfile.lock', text) ?? []) {
      expect(lines[p.line]).toContain(`"==${p.version}"`);
      expect(lines[p.keyLine]?.toLowerCase().replace(/[-_.]+/g, '-')).toContain(`"${p.name}"`);
    }
    expect(doc.entries.find((e) => e.name === 'exceptiongroup')).toMatchObject({ version: '1.3.1', source: 'registry', resolved: 'https://pypi.org/simple', marker: "python_version >= '3.7'" });
    expect(doc.entries.every((e) => (e.checksums ?? []).length > 0)).toBe(true);
    expect(doc.entries.some((e) => e.dev === true)).toBe(true);
  });

  it('reads the examples lock and keeps the ecosystem answer', () => {
    expect(readManifest('examples/Pipfile.lock', fixture('pipenv-examples')).entries).toHaveLength(10);
    expect(ecosystemFor('Pipfile.lock')).toBe('pypi');
  });

  it('refuses truncated and non-object files cleanly', () => {
    const text = fixture('pipenv-examples');
    for (const cut of [1, 100, Math.floor(text.length / 2), text.length - 3]) expect(() => readManifest('Pipfile.lock', text.slice(0, cut))).toThrow(expect.objectContaining({ code: 'parse_error' }));
    expect(() => readManifest('Pipfile.lock', '[]')).toThrow(expect.objectContaining({ code: 'parse_error' }));
  });
});
