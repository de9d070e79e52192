// violations() on a five-feature schema written out here (not one of the dataset schemas), so every expected list is
// known by hand: the rules in feature order, then relations; tolerances at their edges; the limit; mined relations
// the original itself breaks are not held against the flow.
import { describe, expect, it } from 'vitest';
import type { FeatureSpec, FlowSchema, Getter, Relation } from '../data/schema.js';
import { isValid, violations } from './validity.js';

const features: FeatureSpec[] = [
  { name: 'fix', cls: 'fixed', integer: false },
  { name: 'up', cls: 'up', integer: true },
  { name: 'free', cls: 'free', integer: false, range: [0, 10] },
  { name: 'twice', cls: 'derived', integer: false, derive: (g: Getter) => 2 * g('up') },
  { name: 'avg', cls: 'fixed', integer: false, follows: { formula: 'up + original fix', value: (g, o) => g('up') + o('fix') } },
];
const rel = (id: string, holds: Relation['holds'], mined?: boolean): Relation => ({ id, description: id, holds, ...(mined ? { mined } : {}) });
const schema = (relations: Relation[] = []): FlowSchema => ({
  id: 'synthetic',
  version: 1,
  features,
  index: new Map(features.map((f, k) => [f.name, k])),
  relations,
  dataRelTolerance: 0,
  repair: () => undefined,
  notes: [],
});
// fix=5, up=3, free=4, twice=6, avg=up+fix=8
const orig = [5, 3, 4, 6, 8];
const v = (row: number[], s = schema(), opts = {}, limit?: number): string[] => violations(s, orig, row, opts, limit).map((x) => `${x.rule}:${x.feature}`);

describe('violations on a hand-written schema', () => {
  it('the original and a consistent move of the up feature are valid', () => {
    expect(v(orig)).toEqual([]);
    expect(v([5, 4, 4, 8, 9])).toEqual([]);
    expect(isValid(schema(), orig, [5, 4, 4, 8, 9])).toBe(true);
  });

  it('names each broken rule, in feature order (finite, non-negative and integer before the class rule)', () => {
    expect(v([5.5, 3, 4, 6, 8])).toEqual(['fixed:fix']);
    expect(v([5, 2, 4, 4, 7])).toEqual(['monotone:up']);
    expect(v([5, 3.5, 4, 7, 8.5])).toEqual(['integer:up']);
    expect(v([5, 3, 10.5, 6, 8])).toEqual(['range:free']);
    expect(v([5, 3, -0.5, 6, 8])).toEqual(['non_negative:free', 'range:free']);
    expect(v([5, 3, 4, 6.5, 8])).toEqual(['derived:twice']);
    expect(v([5, 3, 4, 6, 9])).toEqual(['fixed:avg']);
    expect(v([Infinity, 3, NaN, 6, 8])).toEqual(['finite:fix', 'finite:free']);
    expect(isValid(schema(), orig, [5, 3, 4, 6, 9])).toBe(false);
  });

  it('range bounds are inclusive, within the tolerance, and apply to free features only', () => {
    expect(v([5, 3, 10, 6, 8])).toEqual([]);
    expect(v([5, 3, 0, 6, 8])).toEqual([]);
    expect(v([5, 3, 10 + 5e-7, 6, 8])).toEqual([]);
    expect(v([5, 3, 10 + 2e-6, 6, 8])).toEqual(['range:free']);
    expect(v([5, 3, -2e-6, 6, 8])).toEqual(['non_negative:free', 'range:free']);
  });

  it('absolute tolerance 1e-6 by default: inside it passes, beyond it fails', () => {
    expect(v([5 + 5e-7, 3, 4, 6, 8])).toEqual([]);
    expect(v([5 + 2e-6, 3, 4, 6, 8])).toEqual(['fixed:fix']);
    expect(v([5, 3 - 5e-7, 4, 6 - 1e-6, 8 - 5e-7])).toEqual([]);
    expect(v([5, 3 - 2e-6, 4, 6, 8])).toEqual(['integer:up', 'monotone:up', 'derived:twice', 'fixed:avg']);
    expect(v([5, 3, 4, 6 + 2e-6, 8], schema(), { tolerance: 1e-5 })).toEqual([]);
  });

  it('every comparison is strict: a value exactly one tolerance away still passes', () => {
    // 0.5 is exact in binary, so these rows sit exactly on each rule's edge.
    expect(v([5, 2.5, 10.5, 5, 7.5], schema(), { tolerance: 0.5 })).toEqual([]);
    expect(v([5, 3, -0.5, 6, 8], schema(), { tolerance: 0.5 })).toEqual(['non_negative:free']);
  });

  it("a derived feature's own recorded check replaces the formula only under a relative tolerance", () => {
    const loose: FeatureSpec = { name: 'rec', cls: 'derived', integer: false, derive: (g) => 2 * g('up'), recorded: (g, value) => Math.abs(value - 2 * g('up')) <= 1 };
    const s: FlowSchema = { ...schema(), features: [...features, loose], index: new Map([...features, loose].map((f, k) => [f.name, k])) };
    const check = (row: number[], opts = {}): string[] => violations(s, [...orig, 6], row, opts).map((x) => `${x.rule}:${x.feature}`);
    expect(check([...orig, 7], { relTolerance: 0.01 })).toEqual([]);
    expect(check([...orig, 7])).toEqual(['derived:rec']);
    expect(check([...orig, 8], { relTolerance: 0.01 })).toEqual(['derived:rec']);
  });

  it('a relative tolerance loosens derived and follows checks only when asked', () => {
    expect(v([5, 3, 4, 6.05, 8])).toEqual(['derived:twice']);
    expect(v([5, 3, 4, 6.05, 8], schema(), { relTolerance: 0.01 })).toEqual([]);
    expect(v([5, 3, 4, 6, 8.05], schema(), { relTolerance: 0.01 })).toEqual([]);
    expect(v([5, 3, 4, 6, 8.05])).toEqual(['fixed:avg']);
  });

  it('relations after features; a mined relation the original breaks is skipped, a hand-written one is not', () => {
    const never = (): boolean => false;
    const freeLeUp = (g: Getter): boolean => g('free') <= g('up');
    expect(v(orig, schema([rel('hand', never), rel('mined-broken-in-original', freeLeUp, true)]))).toEqual(['relation:hand']);
    expect(v([5, 5, 4, 10, 10], schema([rel('mined-holds-in-original', (g) => g('free') >= g('up'), true)]))).toEqual(['relation:mined-holds-in-original']);
    expect(v([5, 3, 11, 6, 8], schema([rel('hand', never)]))).toEqual(['range:free', 'relation:hand']);
  });

  it('stops after the limit', () => {
    const bad = [6, 2, 11, 1, 1];
    expect(v(bad)).toEqual(['fixed:fix', 'monotone:up', 'range:free', 'derived:twice', 'fixed:avg']);
    expect(v(bad, schema(), {}, 1)).toEqual(['fixed:fix']);
    expect(v(bad, schema(), {}, 3)).toEqual(['fixed:fix', 'monotone:up', 'range:free']);
    expect(v([NaN, NaN, NaN, 6, 8], schema(), {}, 2)).toEqual(['finite:fix', 'finite:up']);
    expect(v([5, 3, -1, 6, 8], schema(), {}, 1)).toEqual(['non_negative:free']);
    expect(v([5, 3.5, 4, 7, 8.5], schema(), {}, 1)).toEqual(['integer:up']);
    expect(v([5, 3, 4, 6, 8], schema([rel('a', () => false), rel('b', () => false)]), {}, 1)).toEqual(['relation:a']);
    expect(isValid(schema(), orig, bad)).toBe(false);
  });
});
