// Every value of the supply-chain corpus ground truth (GROUND_TRUTH_lockfiles.json) matched by the parsers, and every pin's lines checked against the text.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusPath } from '../../../test/corpora.js';
import { pep503, pinEntriesOf, pinsOf, readManifest } from './index.js';
import type { ManifestDocument } from './index.js';
import { readLegacyDependencies } from './package-lock.js';

interface GroundTruth {
  readonly files: Record<string, Record<string, unknown>>;
}

const GT = JSON.parse(readFileSync(corpusPath('supplychain', 'GROUND_TRUTH_lockfiles.json'), 'utf8')) as GroundTruth;
const read = (rel: string): string => readFileSync(corpusPath('supplychain', rel), 'utf8');
const base = (rel: string): string => rel.split('/').pop() ?? rel;

type Check = (doc: ManifestDocument, expected: unknown, rel: string) => void;

/** One check per ground-truth field; a field without a check fails the test, so no expected value goes unmatched. */
const CHECKS: Record<string, Check> = {
  lockfileVersion: (doc, v) => expect(doc.formatVersion).toBe(String(v)),
  'lock-version': (doc, v) => expect(doc.formatVersion).toBe(v),
  metadata_version: (doc, v) => expect(doc.formatVersion).toBe(v),
  version: (doc, v, rel) => {
    // npm files: the project's version (null when absent); TOML locks: the format version
    if (doc.format === 'package-lock') expect(doc.project?.version ?? null).toBe(v);
    else expect(doc.formatVersion).toBe(String(v));
    expect(rel).not.toBe('');
  },
  name: (doc, v) => expect(doc.project?.name ?? null).toBe(v),
  module: (doc, v) => expect(doc.project?.name).toBe(v),
  format: (doc, v) => expect(doc.formatVersion === '1' ? 'v1' : 'berry').toBe(v),
  require_entries: (doc, v) => expect(doc.entries.length).toBe(v),
  indirect: (doc, v) => expect(doc.entries.filter((e) => e.direct === false).length).toBe(v),
  distinct_modules: (doc, v) => expect(pinsOf(doc).length).toBe(v),
  lines: (doc, v) => expect(doc.entries.reduce((n, e) => n + (e.checksums?.length ?? 0), 0)).toBe(v),
  // every module version in go.sum has exactly one go.mod hash line, so the versions count them
  go_mod_hash_lines: (doc, v) => expect(doc.entries.length).toBe(v),
  v1_dependencies_recursive: (_doc, v, rel) => expect(readLegacyDependencies(read(rel)).length).toBe(v),
  packages_entries_excluding_root: (doc, v) => expect(doc.entries.length).toBe(v),
  packages_entries: (doc, v) => expect(doc.entries.length).toBe(v),
  // uv: the project's own table has no version and is the document's project, not an entry
  packages: (doc, v) => expect(doc.entries.length + (doc.format === 'uv-lock' && doc.project !== undefined ? 1 : 0)).toBe(v),
  requirement_lines: (doc, v) => expect(doc.requirements?.length).toBe(v),
  entries: (doc, v) => expect(doc.entries.length).toBe(v),
  // the ground truth gives bun.lock no count (its note says so); bun-lock.test.ts counts its packages map itself
  note: (doc, v) => {
    if (typeof v === 'string' && v.startsWith('JSONC')) {
      expect(doc.format).toBe('bun-lock');
      expect(doc.warnings).toEqual([]);
      expect(pinsOf(doc).length).toBeGreaterThan(0);
    }
  },
};

describe('supply-chain corpus ground truth', () => {
  const files = Object.entries(GT.files);

  it('has ground truth for every lock file of the corpus', () => {
    expect(files.length).toBeGreaterThanOrEqual(23);
    const dir = corpusPath('supplychain', 'lockfiles');
    const locks = (readdirSync(dir, { recursive: true }) as string[])
      .map((f) => f.split(path.sep).join('/'))
      .filter((f) => /(\.lock|lock\.ya?ml|lock\.json|go\.(mod|sum)|requirements[^/]*\.txt)$/.test(f));
    expect(locks.length).toBeGreaterThan(0);
    for (const f of locks) expect(Object.keys(GT.files)).toContain(`lockfiles/${f}`);
  });

  it.each(files)('%s matches every expected value', (rel, expected) => {
    expect.hasAssertions();
    const doc = readManifest(base(rel), read(rel));
    for (const [field, value] of Object.entries(expected)) {
      const check = CHECKS[field];
      if (check === undefined) throw new Error(`no check for ground-truth field ${field}`);
      check(doc, value, rel);
    }
  });
});

describe('pin lines on the corpus', () => {
  const withLines = Object.keys(GT.files);

  it.each(withLines)('%s: each pin line carries its version and each key line names its package', (rel) => {
    const text = read(rel);
    const doc = readManifest(base(rel), text);
    const pins = pinEntriesOf(doc);
    if (doc.format === 'package-lock' && doc.formatVersion === '1') {
      expect(pins).toBeNull();
      return;
    }
    expect(pins).not.toBeNull();
    expect(pins?.length).toBe(pinsOf(doc).length);
    const lines = text.split('\n');
    const entries = pinsOf(doc);
    (pins ?? []).forEach((p, i) => {
      const entry = entries[i];
      expect(lines[p.line]).toContain(p.version);
      const keyText = lines[p.keyLine] ?? '';
      const named = entry?.alias ?? entry?.rawName ?? p.name;
      const found = doc.ecosystem === 'pypi' ? pep503(keyText).includes(p.name) : keyText.includes(named);
      expect(found, `${rel} line ${p.keyLine} names ${named}`).toBe(true);
      expect(p.keyLine).toBeLessThanOrEqual(p.line);
    });
  });
});
