// Tests for the line-tracking JSON reader: agreement with JSON.parse, key lines, and refusal of malformed text.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { corpusPath } from '../../../test/corpora.js';
import { VitrineError } from '../errors.js';
import { parseJsonWithLines } from './jsonlines.js';

describe('parseJsonWithLines', () => {
  it('returns what JSON.parse returns, on real lock files', () => {
    expect.hasAssertions();
    for (const f of ['v1-wrappy', 'v2-in-toto-attestation', 'v3-capa-explorer', 'v3-conftest-example-ts']) {
      const text = readFileSync(corpusPath('supplychain', 'lockfiles', 'npm', f, 'package-lock.json'), 'utf8');
      expect(JSON.parse(JSON.stringify(parseJsonWithLines(text).value))).toEqual(JSON.parse(text));
    }
  });

  it('records the 0-based line of each key, the last duplicate winning', () => {
    const text = '{\n  "a": 1,\n  "b": {\n    "c": [1, {"d": "x\\ny"}]\n  },\n  "a": 2\n}';
    const { value, keyLines } = parseJsonWithLines(text);
    const v = value as { a: number; b: { c: [number, { d: string }] } };
    expect(v.a).toBe(2);
    expect(keyLines.get(v)?.get('a')).toBe(5);
    expect(keyLines.get(v)?.get('b')).toBe(2);
    expect(keyLines.get(v.b)?.get('c')).toBe(3);
    expect(keyLines.get(v.b.c[1])?.get('d')).toBe(3);
    expect(v.b.c[1].d).toBe('x\ny');
  });

  it('treats __proto__ as an ordinary key', () => {
    const { value } = parseJsonWithLines('{"__proto__": {"polluted": true}}');
    expect(Object.keys(value as object)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it.each([
    ['empty text', ''],
    ['truncated object', '{"a": {"b": 1'],
    ['trailing comma', '{"a": 1,}'],
    ['unterminated string', '{"a": "b'],
    ['bare word', '{"a": nope}'],
    ['text after the document', '{} {}'],
    ['single quotes', "{'a': 1}"],
    ['control character in a string', '{"a": "\u0001"}'],
    ['bad escape', '{"a": "\\q"}'],
  ])('refuses %s with parse_error', (_what, text) => {
    expect(() => parseJsonWithLines(text)).toThrow(VitrineError);
    try {
      parseJsonWithLines(text);
    } catch (err) {
      expect((err as VitrineError).code).toBe('parse_error');
    }
  });

  it('refuses nesting deeper than its limit without exhausting the stack', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(() => parseJsonWithLines(deep)).toThrow(/nested too deeply/);
    const ok = '['.repeat(500) + ']'.repeat(500);
    expect(parseJsonWithLines(ok).value).toEqual(JSON.parse(ok));
  });
});

describe('parseJsonWithLines with jsonc', () => {
  it('takes comments and one trailing comma, keeps key lines across comments, and agrees with JSON.parse otherwise', () => {
    const text = '// head\n{\n  /* a\n  block */ "a": [1, 2,],\n  "b": {"c": "// not a comment", }, // tail\n}\n';
    const { value, keyLines } = parseJsonWithLines(text, { jsonc: true });
    expect(value).toEqual({ a: [1, 2], b: { c: '// not a comment' } });
    expect(keyLines.get(value as object)?.get('a')).toBe(3);
    expect(keyLines.get(value as object)?.get('b')).toBe(4);
  });

  it('stays strict JSON without the option, and refuses what JSONC does not allow either', () => {
    expect.hasAssertions();
    for (const t of ['{"a": 1,}', '[1,]', '// x\n{}', '{} /* x */']) expect(() => parseJsonWithLines(t), t).toThrow(VitrineError);
    for (const t of ['{,}', '[,]', '{"a": 1,,}', '[1,,]', '{"a": 1 /* open', '{"a": /x/}', "{'a': 1}", '{a: 1}']) expect(() => parseJsonWithLines(t, { jsonc: true }), t).toThrow(VitrineError);
  });

  it('applies a lower depth limit when asked', () => {
    expect(() => parseJsonWithLines('[[[[1]]]]', { jsonc: true, maxDepth: 3 })).toThrow(/nested too deeply/);
    expect(parseJsonWithLines('[[[1]]]', { jsonc: true, maxDepth: 3 }).value).toEqual([[[1]]]);
  });
});
