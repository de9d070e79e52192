// parseJsonText: the parsed value, or the caller's error without the text or the parser's message.
import { describe, expect, it } from 'vitest';
import { VitrineError } from './errors.js';
import { parseJsonText } from './json-text.js';

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
