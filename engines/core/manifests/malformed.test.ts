// Bad input never crashes or hangs a parser: crafted scenarios in testdata/, truncated corpus files, random bytes, hostile sizes and nesting.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { corpusPath } from '../../../test/corpora.js';
import { VitrineError } from '../errors.js';
import { DEFAULT_MAX_CHARS, pinEntriesOf, pinsOf, readManifest } from './index.js';
import type { ManifestDocument } from './index.js';

const TESTDATA = path.join(path.dirname(fileURLToPath(import.meta.url)), 'testdata');

interface Expectation {
  readonly error?: string;
  readonly pins?: number;
  readonly lineMap?: boolean;
  readonly warnings?: readonly string[];
}

/** Parses and returns the document, or the VitrineError; any other thrown value fails the test. */
function attempt(name: string, text: string): ManifestDocument | VitrineError {
  try {
    return readManifest(name, text);
  } catch (err) {
    if (err instanceof VitrineError) return err;
    throw new Error(`a parser threw something other than a VitrineError for ${name}`, { cause: err });
  }
}

describe('crafted scenarios (testdata/)', () => {
  const scenarios = readdirSync(TESTDATA, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();

  it('has scenarios', () => {
    expect(scenarios.length).toBeGreaterThanOrEqual(15);
  });

  it.each(scenarios)('%s', (scenario) => {
    const dir = path.join(TESTDATA, scenario);
    const expected = JSON.parse(readFileSync(path.join(dir, 'expect.json'), 'utf8')) as Expectation;
    const file = readdirSync(dir).find((f) => f !== 'expect.json');
    expect(file).toBeDefined();
    const text = readFileSync(path.join(dir, file ?? ''), 'utf8');
    const result = attempt(file ?? '', text);
    if (expected.error !== undefined) {
      expect(result).toBeInstanceOf(VitrineError);
      const err = result as VitrineError;
      expect(err.code).toBe(expected.error);
      // the message is ours: it never quotes the file or names it
      expect(err.message).not.toContain(file ?? '');
      expect(err.message).not.toMatch(/lol|serde|sha512|1\.0\.0/);
      return;
    }
    expect(result).not.toBeInstanceOf(VitrineError);
    const doc = result as ManifestDocument;
    if (expected.pins !== undefined) expect(pinsOf(doc)).toHaveLength(expected.pins);
    if (expected.lineMap !== undefined) expect(doc.lineMap).toBe(expected.lineMap);
    if (expected.warnings !== undefined) expect(doc.warnings.map((w) => w.code)).toEqual(expected.warnings);
    if (doc.lineMap) expect(pinEntriesOf(doc)).toHaveLength(pinsOf(doc).length);
  });
});

describe('truncated corpus files', () => {
  const files: [string, string][] = [
    ['npm/v3-capa-explorer/package-lock.json', 'package-lock.json'],
    ['npm/v1-wrappy/package-lock.json', 'package-lock.json'],
    ['pnpm/v9.0-cdxgen/pnpm-lock.yaml', 'pnpm-lock.yaml'],
    ['pnpm/v5.4-cdxgen-test/pnpm-lock.yaml', 'pnpm-lock.yaml'],
    ['bun/evtx-viewer/bun.lock', 'bun.lock'],
    ['yarn/berry-syft-fixture/yarn.lock', 'yarn.lock'],
    ['yarn/v1-timesketch-frontend-v3/yarn.lock', 'yarn.lock'],
    ['python/guarddog/poetry.lock', 'poetry.lock'],
    ['python/guarddog/uv.lock', 'uv.lock'],
    ['rust/evtx/Cargo.lock', 'Cargo.lock'],
    ['go/osv-scanner/go.mod', 'go.mod'],
    ['go/osv-scanner/go.sum', 'go.sum'],
    ['python/timesketch/requirements.txt', 'requirements.txt'],
  ];

  it.each(files)('%s cut anywhere gives a document or parse_error', (rel, name) => {
    expect.hasAssertions();
    const text = readFileSync(corpusPath('supplychain', 'lockfiles', rel), 'utf8');
    const full = readManifest(name, text);
    for (const fraction of [0.01, 0.13, 0.5, 0.77, 0.999]) {
      const cut = text.slice(0, Math.floor(text.length * fraction));
      const result = attempt(name, cut);
      if (result instanceof VitrineError) {
        expect(result.code).toBe('parse_error');
        continue;
      }
      // a cut file can only lose entries, never invent them
      expect(result.entries.length).toBeLessThanOrEqual(full.entries.length);
    }
    // JSON cut mid-document is never valid
    if (name.endsWith('.json')) expect(attempt(name, text.slice(0, text.length - 3))).toBeInstanceOf(VitrineError);
  });
});

describe('hostile input', () => {
  /** Deterministic bytes (a linear congruential generator), so a failure reproduces. */
  function noise(seed: number, length: number): string {
    let x = seed;
    const out: string[] = [];
    for (let i = 0; i < length; i++) {
      x = (x * 1103515245 + 12345) % 2147483648;
      out.push(String.fromCharCode(x % 256));
    }
    return out.join('');
  }

  it.each(['requirements.txt', 'package-lock.json', 'yarn.lock', 'pnpm-lock.yaml', 'bun.lock', 'poetry.lock', 'uv.lock', 'Cargo.lock', 'go.mod', 'go.sum'])(
    'random bytes as %s: a document with warnings or parse_error',
    (name) => {
      expect.hasAssertions();
      for (const seed of [1, 2, 3]) {
        const result = attempt(name, noise(seed, 20_000));
        if (!(result instanceof VitrineError)) expect(pinsOf(result).length).toBeLessThan(50);
      }
      // noise behind a berry marker goes to the YAML reader
      const berry = attempt(name, `__metadata:\n  version: 6\n${noise(4, 5000)}`);
      if (berry instanceof VitrineError) expect(berry.code).toBe('parse_error');
    },
  );

  it('refuses text over the default size limit before reading it', () => {
    const huge = 'a'.repeat(DEFAULT_MAX_CHARS + 1);
    const result = attempt('package-lock.json', huge);
    expect(result).toBeInstanceOf(VitrineError);
    expect((result as VitrineError).code).toBe('parse_error');
  });

  it('keeps at most 200 warnings but counts them all', () => {
    const text = '!!!\n'.repeat(1000);
    const doc = readManifest('requirements.txt', text);
    expect(doc.warnings).toHaveLength(200);
    expect(doc.warningCount).toBe(1000);
  });

  it('reads long lines and lines built to slow regular expressions', () => {
    const long = `${'a'.repeat(200_000)}==1.0\n`;
    expect(pinsOf(readManifest('requirements.txt', long))).toHaveLength(1);
    const spaces = `x${' '.repeat(100_000)}#${' \t'.repeat(50_000)}\n`;
    expect(readManifest('requirements.txt', spaces).requirements).toHaveLength(1);
    const extras = `x[${','.repeat(100_000)}\n`;
    expect(readManifest('requirements.txt', extras).warnings.map((w) => w.code)).toEqual(['unparsed_line']);
    const key = `"${'@'.repeat(100_000)}":\n  version "1"\n`;
    expect(attempt('yarn.lock', key)).toBeDefined();
    const goLine = `${'a '.repeat(100_000)}\n`;
    expect(readManifest('go.sum', goLine).warnings).toHaveLength(1);
  });

  it('refuses deeply nested YAML and TOML with parse_error', () => {
    expect.hasAssertions();
    const yaml = `lockfileVersion: '9.0'\npackages: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`;
    const y = attempt('pnpm-lock.yaml', yaml);
    if (y instanceof VitrineError) expect(y.code).toBe('parse_error');
    else expect(pinsOf(y)).toEqual([]);
    const toml = `x = ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`;
    const t = attempt('Cargo.lock', toml);
    if (t instanceof VitrineError) expect(t.code).toBe('parse_error');
    else expect(pinsOf(t)).toEqual([]);
  });

  it('reads a large generated lock file', () => {
    const n = 50_000;
    const packages: Record<string, unknown> = { '': {} };
    for (let i = 0; i < n; i++) packages[`node_modules/p${i}`] = { version: `1.0.${i}` };
    const doc = readManifest('package-lock.json', JSON.stringify({ lockfileVersion: 3, packages }, null, 2));
    expect(doc.entries).toHaveLength(n);
    expect(pinEntriesOf(doc)?.[n - 1]).toMatchObject({ name: `p${n - 1}`, version: `1.0.${n - 1}` });
  });
});
