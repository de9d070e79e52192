// Validity of adversarial flows against their originals, and projection of a perturbed flow back onto the constraints.
import type { FeatureMatrix } from '../../core/ml/index.js';
import { close, type FlowSchema, type Getter } from '../data/schema.js';

/** The spec's default absolute tolerance. */
export const DEFAULT_TOLERANCE = 1e-6;

export interface ValidityOptions {
  /** Absolute tolerance (default 1e-6). */
  readonly tolerance?: number;
  /**
   * Relative tolerance for derived features and relations; 0 (default) for computed rows, the schema's
   * `dataRelTolerance` when checking rows as recorded in a CSV (rounded values).
   */
  readonly relTolerance?: number;
}

export interface Violation {
  readonly rule: 'finite' | 'non_negative' | 'fixed' | 'monotone' | 'range' | 'integer' | 'derived' | 'relation';
  readonly feature: string;
}

function getterOf(schema: FlowSchema, row: ArrayLike<number>): Getter {
  return (name) => {
    const k = schema.index.get(name);
    return k === undefined ? 0 : (row[k] as number);
  };
}

/** Every rule a flow breaks against its original (empty when valid). Stops after `limit` violations. */
export function violations(schema: FlowSchema, original: ArrayLike<number>, adversarial: ArrayLike<number>, opts: ValidityOptions = {}, limit = 50): Violation[] {
  const tol = opts.tolerance ?? DEFAULT_TOLERANCE;
  const rel = opts.relTolerance ?? 0;
  const out: Violation[] = [];
  const g = getterOf(schema, adversarial);
  const push = (rule: Violation['rule'], feature: string): boolean => {
    out.push({ rule, feature });
    return out.length >= limit;
  };
  for (let k = 0; k < schema.features.length; k++) {
    const f = schema.features[k]!;
    const a = adversarial[k] as number;
    const o = original[k] as number;
    if (!Number.isFinite(a)) {
      if (push('finite', f.name)) return out;
      continue;
    }
    if (a < 0 && push('non_negative', f.name)) return out;
    if (f.integer && Math.abs(a - Math.round(a)) > tol && push('integer', f.name)) return out;
    switch (f.cls) {
      case 'fixed':
        if (f.follows) {
          if (!close(a, f.follows.value(g, getterOf(schema, original)), tol, Math.max(rel, 1e-9)) && push('fixed', f.name)) return out;
        } else if (!close(a, o, tol) && push('fixed', f.name)) return out;
        break;
      case 'up':
        if (a < o - tol && push('monotone', f.name)) return out;
        break;
      case 'free':
        if (f.range && (a < f.range[0] - tol || a > f.range[1] + tol) && push('range', f.name)) return out;
        break;
      case 'derived': {
        const ok = rel > 0 && f.recorded ? f.recorded(g, a, rel) : close(a, f.derive!(g), tol, rel);
        if (!ok && push('derived', f.name)) return out;
        break;
      }
    }
  }
  const go = getterOf(schema, original);
  for (const r of schema.relations) {
    if (r.holds(g, tol, rel)) continue;
    // A mined relation the original itself breaks is not a law of that data (another extractor's conventions).
    if (r.mined && !r.holds(go, tol, rel)) continue;
    if (push('relation', r.id)) return out;
  }
  return out;
}

/** The spec's validity test: finite, non-negative, fixed unchanged, monotone and ranges, integers, derived consistent, relations (tolerance 1e-6). */
export function isValid(schema: FlowSchema, original: ArrayLike<number>, adversarial: ArrayLike<number>, opts: ValidityOptions = {}): boolean {
  return violations(schema, original, adversarial, opts, 1).length === 0;
}

/**
 * Recomputes every derived feature of a row in place (derived features may depend on other derived ones: two passes).
 * Finite base values can overflow a formula (1e308 bytes over 3 µs is Infinity bytes/s, and Infinity less Infinity is
 * NaN): a result past the range of a double is held at the largest double of its sign and one that is not a number reads
 * as 0, so a derived feature is always finite, as the models and the validity rules need.
 */
export function deriveInPlace(schema: FlowSchema, row: Float64Array): void {
  const g = getterOf(schema, row);
  for (let pass = 0; pass < 2; pass++)
    for (let k = 0; k < schema.features.length; k++) {
      const f = schema.features[k]!;
      if (f.cls !== 'derived') continue;
      const v = f.derive!(g);
      row[k] = Number.isFinite(v) ? v : Number.isNaN(v) ? 0 : v > 0 ? Number.MAX_VALUE : -Number.MAX_VALUE;
    }
}

/**
 * Projects a perturbed row onto the constraints against its original, in place: fixed features restored, up features
 * at least the original, free ones clipped to their range, integers rounded (up: towards the allowed side), the
 * dataset's repair of its orderings, then derived features recomputed. Non-finite inputs fall back to the original.
 */
export function projectInPlace(schema: FlowSchema, original: ArrayLike<number>, row: Float64Array): void {
  for (let k = 0; k < schema.features.length; k++) {
    const f = schema.features[k]!;
    const o = original[k] as number;
    let v = row[k]!;
    if (!Number.isFinite(v)) v = o;
    switch (f.cls) {
      case 'fixed':
        v = o;
        break;
      case 'up':
        v = Math.max(v, o);
        if (f.integer) v = Math.ceil(v - 1e-9);
        v = Math.max(v, o);
        break;
      case 'free':
        if (f.integer) v = Math.round(v);
        if (f.range) v = Math.min(f.range[1], Math.max(f.range[0], v));
        break;
      case 'derived':
        break;
    }
    row[k] = v;
  }
  schema.repair(row, Float64Array.from(original));
  followInPlace(schema, original, row);
  deriveInPlace(schema, row);
}

/** Sets the fixed features that move with the packets (Average Packet Size) from the row and its original. */
export function followInPlace(schema: FlowSchema, original: ArrayLike<number>, row: Float64Array): void {
  const g = getterOf(schema, row);
  const go = getterOf(schema, original);
  for (let k = 0; k < schema.features.length; k++) {
    const f = schema.features[k]!;
    if (f.follows) row[k] = f.follows.value(g, go);
  }
}

/** Projects every row of `adv` against the same row of `orig` (returns a new matrix). */
export function projectMatrix(schema: FlowSchema, orig: FeatureMatrix, adv: FeatureMatrix): FeatureMatrix {
  const out = new Float64Array(adv.data);
  const C = orig.cols;
  for (let i = 0; i < orig.rows; i++) {
    const row = out.subarray(i * C, (i + 1) * C);
    projectInPlace(schema, orig.data.subarray(i * C, (i + 1) * C), row);
  }
  return { rows: orig.rows, cols: C, data: out };
}

/** How many rows of `adv` are invalid against `orig`, with the first few rules they break. */
export function invalidRows(schema: FlowSchema, orig: FeatureMatrix, adv: FeatureMatrix, opts: ValidityOptions = {}): { count: number; examples: Violation[] } {
  let count = 0;
  const examples: Violation[] = [];
  const C = orig.cols;
  for (let i = 0; i < orig.rows; i++) {
    const v = violations(schema, orig.data.subarray(i * C, (i + 1) * C), adv.data.subarray(i * C, (i + 1) * C), opts, 3);
    if (v.length > 0) {
      count++;
      if (examples.length < 10) examples.push(...v);
    }
  }
  return { count, examples };
}
