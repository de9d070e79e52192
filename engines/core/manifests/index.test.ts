// Tests for the library surface: ecosystem_for and format selection by file name, and the four spec views over one file.
import { describe, expect, it } from 'vitest';
import { VitrineError } from '../errors.js';
import { ecosystemFor, FORMATS, formatFor, KNOWN_FILE_NAMES, parseManifest, parseManifestEntries, pinEntries, pinLines, readManifest } from './index.js';

describe('ecosystemFor and formatFor', () => {
  it.each([
    ['requirements.txt', 'pypi', 'requirements'],
    ['requirements/dev.in', 'pypi', 'requirements'],
    ['poetry.lock', 'pypi', 'poetry-lock'],
    ['backend/uv.lock', 'pypi', 'uv-lock'],
    ['package-lock.json', 'npm', 'package-lock'],
    ['web\\npm-shrinkwrap.json', 'npm', 'npm-shrinkwrap'],
    ['yarn.lock', 'npm', 'yarn-lock'],
    ['pnpm-lock.yaml', 'npm', 'pnpm-lock'],
    ['go.mod', 'golang', 'go-mod'],
    ['a/b/go.sum', 'golang', 'go-sum'],
    ['Cargo.lock', 'cargo', 'cargo-lock'],
    ['web/bun.lock', 'npm', 'bun-lock'],
    ['bun.lockb', 'npm', 'bun-lockb'],
    // the spec's default for any other name
    ['package.json', 'pypi', 'requirements'],
    ['', 'pypi', 'requirements'],
  ])('%s is %s (%s)', (name, ecosystem, format) => {
    expect(ecosystemFor(name)).toBe(ecosystem);
    expect(formatFor(name)).toBe(format);
  });

  it('lists every format once and every file name once', () => {
    expect(new Set(FORMATS.map((f) => f.format)).size).toBe(FORMATS.length);
    expect(new Set(KNOWN_FILE_NAMES).size).toBe(KNOWN_FILE_NAMES.length);
  });
});

describe('the spec views', () => {
  const lock = `"a@^1":\n  version "1.0.0"\n\n"a@^2":\n  version "2.0.0"\n\nb@^1:\n  version "1.0.0"\n`;

  it('pin_entries and parse_manifest_entries keep one pin per version, pin_lines and parse_manifest the first per name', () => {
    expect(pinEntries('yarn.lock', lock)).toEqual([
      { name: 'a', version: '1.0.0', line: 1, keyLine: 0 },
      { name: 'a', version: '2.0.0', line: 4, keyLine: 3 },
      { name: 'b', version: '1.0.0', line: 7, keyLine: 6 },
    ]);
    expect(parseManifestEntries('yarn.lock', lock).map((e) => [e.name, e.version])).toEqual([
      ['a', '1.0.0'],
      ['a', '2.0.0'],
      ['b', '1.0.0'],
    ]);
    expect([...(pinLines('yarn.lock', lock) ?? [])]).toEqual([
      ['a', 1],
      ['b', 7],
    ]);
    expect([...parseManifest('yarn.lock', lock)]).toEqual([
      ['a', '1.0.0'],
      ['b', '1.0.0'],
    ]);
  });

  it('records what parsed the file and the SHA-256 of its text', () => {
    const doc = readManifest('yarn.lock', lock);
    expect(doc.parser).toBe('yarn-lock@1');
    expect(doc.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(readManifest('yarn.lock', `${lock}\n`).sha256).not.toBe(doc.sha256);
  });

  it('refuses text over the size limit with parse_error, and says nothing of the text', () => {
    const big = 'a==1\n'.repeat(100);
    let caught: unknown;
    try {
      readManifest('requirements.txt', big, { maxChars: 50 });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(VitrineError);
    expect((caught as VitrineError).code).toBe('parse_error');
    expect((caught as VitrineError).message).not.toContain('a==1');
  });

  it('refuses more entries than the entry limit', () => {
    expect(() => readManifest('requirements.txt', 'a==1\nb==2\nc==3\n', { maxEntries: 2 })).toThrow(VitrineError);
  });
});
