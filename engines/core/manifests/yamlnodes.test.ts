// YAML lock files the YAML structure fuzzer (tools/fuzz/yaml-mutate.ts, target pkgscan-yaml) wrote from corpus files:
// a mapping key that is not a plain value (a collection or an alias) is refused with parse_error before any entry is converted to data.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VitrineError } from '../errors.js';
import { corpusPath } from '../../../test/corpora.js';
import { readManifest } from './index.js';
import { hasComplexKey } from './yamlnodes.js';
import { parseDocument } from 'yaml';

const pnpm = (dir: string): string => readFileSync(corpusPath('supplychain', 'lockfiles', 'pnpm', dir, 'pnpm-lock.yaml'), 'utf8');
const yarn = (dir: string): string => readFileSync(corpusPath('supplychain', 'lockfiles', 'yarn', dir, 'yarn.lock'), 'utf8');

/** The text with `line` inserted before the first line matching `before`. */
function inserted(text: string, before: RegExp, line: string): string {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => before.test(l));
  expect(at).toBeGreaterThan(0);
  lines.splice(at, 0, line);
  return lines.join('\n');
}

function refusal(name: string, text: string): unknown {
  try {
    return readManifest(name, text);
  } catch (e) {
    return e instanceof VitrineError ? { code: e.code, message: e.message } : e;
  }
}

describe('YAML lock files with collection keys', () => {
  it('hasComplexKey finds a mapping, sequence or alias key at any depth and nothing in plain files', () => {
    expect(hasComplexKey(parseDocument('a: &k x\nb:\n  *k : 1\n').contents)).toBe(true);
    expect(hasComplexKey(parseDocument('a: &k x\nb: *k\n').contents)).toBe(false);
    expect(hasComplexKey(parseDocument('a:\n  b:\n    - c: 1\n      ? [x]\n      : 2\n').contents)).toBe(true);
    expect(hasComplexKey(parseDocument('a: {? {k: v} : 1}\n').contents)).toBe(true);
    expect(hasComplexKey(parseDocument('a:\n  ? ? ? k\n').contents)).toBe(true);
    expect(hasComplexKey(parseDocument('a: [1, {b: c}]\n"? x": 1\n').contents)).toBe(false);
    expect(hasComplexKey(parseDocument(pnpm('v6.0-cdxgen-test')).contents)).toBe(false);
  });

  it('pnpm-lock.yaml and yarn berry: nested explicit keys in an entry are refused (400 levels did not finish in 90 s)', () => {
    const v6 = pnpm('v6.0-cdxgen-test');
    expect(readManifest('pnpm-lock.yaml', v6).entries.length).toBeGreaterThan(10);
    for (const n of [1, 3, 400]) {
      const text = inserted(v6, /^ {4}resolution:/, `    ${'? '.repeat(n)}k: v`);
      expect(refusal('pnpm-lock.yaml', text)).toEqual({ code: 'parse_error', message: 'the YAML document has a mapping key that is not a plain value' });
    }
    const berry = yarn('berry-syft-fixture');
    expect(readManifest('yarn.lock', berry).entries.length).toBeGreaterThan(0);
    const text = inserted(berry, /^ {2}version:/, `  ${'? '.repeat(400)}k: v`);
    expect(refusal('yarn.lock', text)).toEqual({ code: 'parse_error', message: 'the YAML document has a mapping key that is not a plain value' });
  });
});
