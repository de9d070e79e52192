// JSON text read at a boundary (a model file, a bundle, a scenario, a report): parsed, or refused with the caller's error.
import { VitrineError, type ErrorCode } from './errors.js';

/**
 * `text` parsed as JSON; where it is not JSON, a VitrineError with the caller's `code` and `message`, and no cause: the
 * parser's own message quotes the text, which an error never repeats.
 */
export function parseJsonText(text: string, code: ErrorCode, message: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new VitrineError(code, message);
  }
}

/**
 * The shape a JSON document read at a boundary may have before anything walks it recursively (canonical JSON for its hash,
 * the structural validators): nesting depth, members of one object (canonical JSON sorts each object's keys), and finite
 * numbers (JSON text reads `1e400` as Infinity, which JSON cannot write back).
 */
export interface JsonShapeLimits {
  readonly maxDepth: number;
  readonly maxMembers: number;
}

/**
 * Far past any STIX bundle or envelope list (the objects of the ATT&CK and OASIS example bundles nest a few levels and hold
 * at most 21 members) and past the extension dictionaries analysts' tools write, while a document nested or spread past
 * them is not one these imports were made for. Canonical JSON sorts a large object's keys with the built-in sort, so the
 * member limit is not what keeps the hash linear: an 8 MiB bundle of 10,000-member objects is read and hashed in under a
 * second.
 */
export const JSON_SHAPE_LIMITS: JsonShapeLimits = { maxDepth: 64, maxMembers: 10_000 };

/** Where a parsed JSON value first breaks the limits: the path (`objects[3].x_data`) and the rule, never the value; undefined when it keeps them. Iterative, so any depth costs no stack. */
export function jsonShapeIssue(value: unknown, limits: JsonShapeLimits = JSON_SHAPE_LIMITS): { path: string; issue: string } | undefined {
  interface Frame {
    readonly v: unknown;
    readonly depth: number;
    readonly parent: Frame | undefined;
    readonly key: string | number | undefined;
  }
  const pathOf = (f: Frame): string => {
    let out = '';
    for (let at: Frame | undefined = f; at?.parent !== undefined; at = at.parent) out = (typeof at.key === 'number' ? `[${at.key}]` : `.${(at.key ?? '').slice(0, 64)}`) + out;
    return (out.startsWith('.') ? out.slice(1) : out).slice(0, 300);
  };
  const stack: Frame[] = [{ v: value, depth: 0, parent: undefined, key: undefined }];
  while (stack.length > 0) {
    const f = stack.pop()!;
    const v = f.v;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return { path: pathOf(f), issue: 'a number past the range of a double' };
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (f.depth >= limits.maxDepth) return { path: pathOf(f), issue: `nested deeper than ${limits.maxDepth} levels` };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i] as unknown, depth: f.depth + 1, parent: f, key: i });
      continue;
    }
    const keys = Object.keys(v);
    if (keys.length > limits.maxMembers) return { path: pathOf(f), issue: `an object of more than ${limits.maxMembers.toLocaleString('en-US')} members` };
    for (let i = keys.length - 1; i >= 0; i--) stack.push({ v: (v as Record<string, unknown>)[keys[i]!], depth: f.depth + 1, parent: f, key: keys[i] });
  }
  return undefined;
}

/** Refuses a parsed document that breaks the shape limits: `validation_failed` (422) with `what` and the rule, the path in the details. */
export function checkJsonShape(value: unknown, what: string, limits: JsonShapeLimits = JSON_SHAPE_LIMITS): void {
  const problem = jsonShapeIssue(value, limits);
  if (problem !== undefined) throw new VitrineError('validation_failed', `${what}: ${problem.issue}`, { details: [problem] });
}
