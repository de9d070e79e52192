// Each validity rule rejects what it should, projection repairs arbitrary perturbations (random and real rows), tolerances as documented.
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { Random } from '../../core/ml/index.js';
import { readFlowCsvFile } from '../data/csv.js';
import { cicids2017Schema, controllable, syntheticSchema, unswNb15Schema, type FlowSchema } from '../data/schema.js';
import { syntheticFlows } from '../data/synthetic.js';
import { deriveInPlace, isValid, projectInPlace, violations } from './validity.js';

const t = syntheticFlows(200, { seed: 9 });
const C = t.x.cols;
const orig = t.x.data.slice(0, C);
const ix = (n: string): number => syntheticSchema.index.get(n)!;

function mutate(f: (r: Float64Array) => void): Float64Array {
  const r = Float64Array.from(orig);
  f(r);
  return r;
}

describe('deriveInPlace', () => {
  it('keeps every derived feature finite when finite base values overflow its formula', () => {
    for (const schema of [syntheticSchema, cicids2017Schema, unswNb15Schema]) {
      for (const huge of [1e308, Number.MAX_VALUE]) {
        const row = new Float64Array(schema.features.length).fill(huge);
        // a short duration: rates of huge byte counts overflow
        for (const n of ['Flow Duration', 'dur']) if (schema.index.has(n)) row[schema.index.get(n)!] = 3;
        deriveInPlace(schema, row);
        for (const [k, f] of schema.features.entries()) expect(Number.isFinite(row[k]), `${schema.id} ${f.name}`).toBe(true);
      }
    }
    // ordinary values are derived as before
    const r = Float64Array.from(orig);
    deriveInPlace(syntheticSchema, r);
    expect([...r]).toEqual([...orig]);
  });
});

describe('isValid rules', () => {
  it('accepts the original and a consistent increase of up features', () => {
    expect(isValid(syntheticSchema, orig, orig)).toBe(true);
    const r = mutate((x) => (x[ix('Flow Duration')] = x[ix('Flow Duration')]! + 1000));
    projectInPlace(syntheticSchema, orig, r);
    expect(violations(syntheticSchema, orig, r)).toEqual([]);
  });

  it('names the broken rule: non-finite, negative, fixed, monotone, integer, derived, relation', () => {
    const rule = (f: (x: Float64Array) => void): string[] => violations(syntheticSchema, orig, mutate(f)).map((v) => `${v.rule}:${v.feature}`);
    expect(rule((x) => (x[ix('Destination Port')] = NaN))).toContain('finite:Destination Port');
    expect(rule((x) => (x[ix('Init_Win_bytes_forward')] = -1))).toContain('non_negative:Init_Win_bytes_forward');
    expect(rule((x) => (x[ix('Total Backward Packets')] = x[ix('Total Backward Packets')]! + 1))).toContain('fixed:Total Backward Packets');
    expect(rule((x) => (x[ix('Fwd Header Length')] = x[ix('Fwd Header Length')]! - 1))).toContain('monotone:Fwd Header Length');
    expect(rule((x) => (x[ix('Fwd Header Length')] = x[ix('Fwd Header Length')]! + 0.5))).toContain('integer:Fwd Header Length');
    expect(rule((x) => (x[ix('Flow Bytes/s')] = x[ix('Flow Bytes/s')]! * 2 + 1))).toContain('derived:Flow Bytes/s');
    expect(rule((x) => (x[ix('Flow IAT Max')] = x[ix('Flow Duration')]! + 10))).toContain('relation:flow_iat_max_le_duration');
  });

  it('uses 1e-6 absolute tolerance by default and a relative one only when asked', () => {
    const k = ix('Flow Bytes/s');
    const small = mutate((x) => (x[k] = x[k]! + 5e-7));
    expect(isValid(syntheticSchema, orig, small)).toBe(true);
    const off = mutate((x) => (x[k] = x[k]! * 1.004));
    expect(isValid(syntheticSchema, orig, off)).toBe(false);
    expect(isValid(syntheticSchema, orig, off, { relTolerance: 0.01 })).toBe(true);
  });
});

function randomPerturbation(schema: FlowSchema, rows: Float64Array | Float32Array, cols: number, n: number, seed: number): number {
  const rng = new Random(seed);
  const K = controllable(schema);
  let invalid = 0;
  for (let i = 0; i < n; i++) {
    const o = rows.subarray(i * cols, (i + 1) * cols);
    const r = Float64Array.from(o);
    // Wild moves on every feature, fixed ones included: projection must restore them.
    for (let k = 0; k < cols; k++) if (rng.next() < (K.includes(k) ? 0.8 : 0.2)) r[k] = rng.next() < 0.1 ? -5 : r[k]! * Math.exp(rng.normal() * 2) + rng.next() * 10;
    projectInPlace(schema, o, r);
    if (!isValid(schema, o, r)) invalid++;
  }
  return invalid;
}

describe('projection', () => {
  it('makes any perturbation of synthetic flows valid', () => {
    expect(randomPerturbation(syntheticSchema, t.x.data, C, t.rows, 1)).toBe(0);
  });
  it.skipIf(!hasCorpora())('makes any perturbation of real CICIDS2017 and UNSW-NB15 rows valid', async () => {
    const cic = await readFlowCsvFile(corpusPath('flows', 'cicids2017', 'CICIDS2017_sample.labelled6311.csv'));
    expect(cic.schema).toBe(cicids2017Schema);
    expect(randomPerturbation(cic.schema, cic.x.data, cic.x.cols, cic.rows, 2)).toBe(0);
    const unsw = await readFlowCsvFile(corpusPath('flows', 'unsw-nb15', 'UNSW-NB15_raw49.sample2000.csv'));
    expect(unsw.schema).toBe(unswNb15Schema);
    expect(randomPerturbation(unsw.schema, unsw.x.data, unsw.x.cols, unsw.rows, 3)).toBe(0);
  });
});
