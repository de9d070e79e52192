// parseJsonText: the parsed value, or the caller's error without the text or the parser's message; jsonShapeIssue and
// checkJsonShape: nesting, members of an object and finite numbers, checked without recursion, naming paths, never values.
import { describe, expect, it } from 'vitest';
import { VitrineError } from './errors.js';
import { checkJsonShape, JSON_SHAPE_LIMITS, jsonShapeIssue, parseJsonText } from './json-text.js';

describe('parseJsonText', () => {
  it('parses JSON text as JSON.parse does', () => {
    for (const text of ['{"a":[1,2,{"b":null}]}', ' 3 ', '"x"', 'true', '[]']) expect(parseJsonText(text, 'parse_error', 'm')).toEqual(JSON.parse(text));
  });

  it('refuses anything else with the given code and message, never quoting the text', () => {
    for (const [text, code] of [['{"secret-Zq9": ', 'parse_error'], ['\ufeff{}', 'validation_failed'], ['', 'parse_error'], ['{a: 1}', 'validation_failed']] as const) {
      let caught: unknown;
      try {
        parseJsonText(text, code, 'the thing is not valid JSON');
      } catch (err) {
        caught = err;
      }
      expect(caught).toBeInstanceOf(VitrineError);
      expect(caught).toMatchObject({ code, message: 'the thing is not valid JSON' });
      expect((caught as VitrineError).cause).toBeUndefined();
      expect(JSON.stringify(caught)).not.toContain('Zq9');
    }
  });
});

describe('jsonShapeIssue and checkJsonShape', () => {
  it('keeps documents within the limits, whatever their size, and counts a __proto__ key as an ordinary member', () => {
    expect(jsonShapeIssue(JSON.parse('{"a":[1,2,{"b":null,"c":"x"}],"__proto__":{"d":1}}'))).toBeUndefined();
    expect(jsonShapeIssue(Array.from({ length: 100_000 }, (_, i) => ({ i })))).toBeUndefined();
    const deepest = JSON.parse(`${'['.repeat(JSON_SHAPE_LIMITS.maxDepth)}1${']'.repeat(JSON_SHAPE_LIMITS.maxDepth)}`) as unknown;
    expect(jsonShapeIssue(deepest)).toBeUndefined();
    expect(jsonShapeIssue(Object.fromEntries(Array.from({ length: JSON_SHAPE_LIMITS.maxMembers }, (_, i) => [`k${i}`, i])))).toBeUndefined();
  });

  it('finds nesting of any depth without using the stack, a number JSON reads as Infinity, an object of too many members: the path and the rule', () => {
    const deep = JSON.parse(`{"objects":[{"x":${'['.repeat(1_000_000)}"secret-text"${']'.repeat(1_000_000)}}]}`) as unknown;
    expect(jsonShapeIssue(deep)).toEqual({ path: `objects[0].x${'[0]'.repeat(61)}`, issue: 'nested deeper than 64 levels' });
    expect(jsonShapeIssue(JSON.parse('{"a":{"b":["secret-text",-1e400]}}'))).toEqual({ path: 'a.b[1]', issue: 'a number past the range of a double' });
    const many = JSON.parse(`[{"m":{${Array.from({ length: 10_001 }, (_, i) => `"k${i}":"secret-text"`).join(',')}}}]`) as unknown;
    expect(jsonShapeIssue(many)).toEqual({ path: '[0].m', issue: 'an object of more than 10,000 members' });
    expect(jsonShapeIssue({ a: [1, 2] }, { maxDepth: 1, maxMembers: 5 })).toEqual({ path: 'a', issue: 'nested deeper than 1 levels' });
  });

  it('checkJsonShape refuses with validation_failed, the rule in the message and the path in the details, never the value', () => {
    let caught: unknown;
    try {
      checkJsonShape(JSON.parse('{"secret-text":[1e999]}'), 'not a document this reads');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(VitrineError);
    expect(caught).toMatchObject({ code: 'validation_failed', message: 'not a document this reads: a number past the range of a double', details: [{ path: 'secret-text[0]' }] });
    expect(() => checkJsonShape({ fine: [1, 'two'] }, 'x')).not.toThrow();
  });
});
