// Tests for boundary validation: field paths in a.b[2].c form, and no submitted value ever in an error.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { serializeError } from './errors.js';
import { refusal } from './errors.fixture.js';
import { formatPath, issuesToDetails, validate } from './validation.js';

const SECRET = 'SECRET-VALUE-123';


describe('formatPath', () => {
  it('writes keys with dots and indexes with brackets', () => {
    expect(formatPath(['a', 'b', 2, 'c'])).toBe('a.b[2].c');
    expect(formatPath([0, 'id'])).toBe('[0].id');
    expect(formatPath(['techniques', 12])).toBe('techniques[12]');
    expect(formatPath([])).toBe('');
  });

  it('replaces keys that could carry data or markup with ?', () => {
    expect(formatPath(['a', 'has space', 'b'])).toBe('a.?.b');
    expect(formatPath(['<script>'])).toBe('?');
    expect(formatPath(['x'.repeat(65)])).toBe('?');
    expect(formatPath([Symbol('s')])).toBe('?');
  });
});

describe('validate', () => {
  const schema = z.strictObject({
    a: z.object({
      b: z.array(z.object({ c: z.string() })),
    }),
    name: z.string().max(8),
    tags: z.array(z.string()).max(2).optional(),
    kind: z.enum(['json', 'stix']).optional(),
    email: z.email().optional(),
    count: z.number().int().min(1).optional(),
  });

  it('returns the parsed value on success', () => {
    const value = { a: { b: [{ c: 'x' }] }, name: 'ok' };
    expect(validate(schema, value)).toEqual(value);
  });

  it('reports the path a.b[2].c for a wrong type deep in an array', () => {
    const err = refusal(() => validate(schema, { a: { b: [{ c: 'x' }, { c: 'y' }, { c: 5 }] }, name: 'ok' }, 'case'));
    expect(err.code).toBe('validation_failed');
    expect(err.status).toBe(422);
    expect(err.message).toBe('invalid case at a.b[2].c: expected string');
    expect(err.details).toEqual([{ path: 'a.b[2].c', issue: 'expected string' }]);
  });

  it('never echoes the submitted value: wrong type, too long, bad enum, bad format, unknown key', () => {
    const input = {
      a: { b: [{ c: { nested: SECRET } }, { c: [SECRET] }] },
      name: `${SECRET}${SECRET}`,
      tags: [SECRET, SECRET, SECRET],
      kind: SECRET,
      email: SECRET,
      count: 0.5,
      extra: SECRET,
    };
    const err = refusal(() => validate(schema, input));
    const wire = JSON.stringify({ thrown: err.message, wire: serializeError(err) });
    expect(wire).not.toContain(SECRET);
    expect(wire).not.toContain('SECRET');
    const paths = (err.details ?? []).map((d) => d.path);
    expect(paths).toEqual(expect.arrayContaining(['a.b[0].c', 'a.b[1].c', 'name', 'tags', 'kind', 'email', 'count', 'extra']));
    const byPath = new Map((err.details ?? []).map((d) => [d.path, d.issue]));
    expect(byPath.get('name')).toBe('must be at most 8 characters');
    expect(byPath.get('tags')).toBe('must be at most 2 items');
    expect(byPath.get('kind')).toBe('not one of the allowed values');
    expect(byPath.get('email')).toBe('not a valid email');
    expect(byPath.get('extra')).toBe('unknown field');
  });

  it('does not echo a value that is itself a field of a record key shape', () => {
    const err = refusal(() => validate(z.record(z.string(), z.number()), { [`${SECRET} with spaces`]: 'x' }));
    expect(JSON.stringify(serializeError(err))).not.toContain(SECRET);
    expect(err.details?.[0]?.path).toBe('?');
  });

  it('reports a wrong top-level type at the empty path', () => {
    const err = refusal(() => validate(schema, SECRET, 'request body'));
    expect(err.message).toBe('invalid request body: expected object');
    expect(err.details).toEqual([{ path: '', issue: 'expected object' }]);
    expect(err.message).not.toContain(SECRET);
  });

  it('uses the code it is given (bad_request for query strings)', () => {
    const err = refusal(() => validate(z.object({ limit: z.number() }), {}, 'query', 'bad_request'));
    expect(err.code).toBe('bad_request');
    expect(err.status).toBe(400);
  });

  it('describes minimums and union failures without the value', () => {
    const err = refusal(() => validate(z.object({ n: z.number().min(3), u: z.union([z.string(), z.number()]) }), { n: 1, u: [SECRET] }));
    const byPath = new Map((err.details ?? []).map((d) => [d.path, d.issue]));
    expect(byPath.get('n')).toBe('must be at least 3');
    expect(byPath.get('u')).toBe('matches none of the allowed shapes');
    expect(JSON.stringify(err.details)).not.toContain(SECRET);
  });
});

describe('issuesToDetails', () => {
  it('stops at 50 details so a huge bad document cannot make a huge error', () => {
    const schema = z.array(z.string());
    const result = schema.safeParse(Array.from({ length: 200 }, () => 1));
    expect(result.success).toBe(false);
    if (!result.success) expect(issuesToDetails(result.error.issues)).toHaveLength(50);
  });
});
