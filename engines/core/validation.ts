// Schema validation at boundaries with zod: reports field paths and what is wrong, never the submitted value.
import { z } from 'zod';
import { C0_DEL, hasControlCharacter } from './control-characters.js';
import { VitrineError, type ErrorCode, type ErrorDetail } from './errors.js';

/** `a.b[2].c` from a zod issue path. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else {
      const key = String(part);
      const safe = /^[A-Za-z0-9_$-]{1,64}$/.test(key) ? key : '?';
      out += out === '' ? safe : `.${safe}`;
    }
  }
  return out;
}

interface LooseIssue {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly expected?: unknown;
  readonly maximum?: unknown;
  readonly minimum?: unknown;
  readonly origin?: unknown;
  readonly keys?: readonly string[];
  readonly format?: unknown;
}

/** A description of an issue written from its code and the schema's bounds only (zod's own messages may quote input). */
function describe(issue: LooseIssue): string {
  const bound = (n: unknown): string => (typeof n === 'number' || typeof n === 'bigint' ? String(n) : '?');
  const unit = issue.origin === 'string' ? ' characters' : issue.origin === 'array' || issue.origin === 'set' ? ' items' : '';
  switch (issue.code) {
    case 'invalid_type':
      return typeof issue.expected === 'string' ? `expected ${issue.expected}` : 'wrong type';
    case 'too_big':
      return `must be at most ${bound(issue.maximum)}${unit}`;
    case 'too_small':
      return `must be at least ${bound(issue.minimum)}${unit}`;
    case 'invalid_value':
      return 'not one of the allowed values';
    case 'invalid_format':
      if (issue.format === 'regex') return 'does not match the expected pattern';
      return typeof issue.format === 'string' ? `not a valid ${issue.format}` : 'invalid format';
    case 'unrecognized_keys':
      return 'unknown field';
    case 'invalid_union':
      return 'matches none of the allowed shapes';
    case 'not_multiple_of':
      return 'not an allowed multiple';
    default:
      return 'invalid value';
  }
}

/** Turns zod issues into error details (unknown keys are reported at their own path). */
export function issuesToDetails(issues: readonly LooseIssue[]): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys' && issue.keys) {
      for (const key of issue.keys) details.push({ path: formatPath([...issue.path, key]), issue: 'unknown field' });
    } else {
      details.push({ path: formatPath(issue.path), issue: describe(issue) });
    }
    if (details.length >= 50) break;
  }
  return details;
}

/**
 * Parses `value` with `schema`; on failure throws a VitrineError (default `validation_failed`, HTTP 422)
 * whose message names the first field path and whose details list every path.
 */
export function validate<S extends z.ZodType>(schema: S, value: unknown, what = 'input', code: ErrorCode = 'validation_failed'): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const details = issuesToDetails(result.error.issues as readonly LooseIssue[]);
  const first = details[0];
  const where = first ? (first.path === '' ? '' : ` at ${first.path}`) : '';
  const message = `invalid ${what}${where}: ${first?.issue ?? 'invalid value'}`;
  throw new VitrineError(code, message, { details });
}

/**
 * A string of 1 to `max` characters without C0 controls or DEL (`C0_DEL`): a name, label or indicator a request sends
 * to be shown, stored or logged. `message` is the refinement's own text (the 422 detail says "invalid value").
 */
export function textWithoutControls(max: number, message = 'no control characters') {
  return z
    .string()
    .min(1)
    .max(max)
    .refine((v) => !hasControlCharacter(v, C0_DEL), message);
}
