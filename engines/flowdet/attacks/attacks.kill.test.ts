// The adaptive attack's bookkeeping, checked with hand-written scorers whose answers are known without the attack code:
// how many batched queries it makes (counted by the scorer itself), which oracle it follows, which candidate it keeps
// per flow, the warm start, the restarts' seeds and the options it passes on. Written against mutants of
// adaptiveAttack that the study tests let through (docs/testing.md, mutation testing).
import { describe, expect, it } from 'vitest';
import { selectRows, type FeatureMatrix } from '../../core/ml/index.js';
import { syntheticFlows } from '../data/synthetic.js';
import { fitLogScaler } from '../detectors/models.js';
import { adaptiveAttack, attackSpace, blackBoxAttack, finalizeCandidate, linfDistance, type GradientOracle, type Scorer } from './attacks.js';

const table = syntheticFlows(300, { seed: 11 });
const scaler = fitLogScaler(table.x);
const space = attackSpace(table.schema, scaler);
const C = table.x.cols;
const malicious = Array.from(table.y.keys()).filter((i) => table.y[i] === 1).slice(0, 10);
const xm = selectRows(table.x, malicious);
const PORT = table.schema.index.get('Destination Port')!;

/** A logistic model over the standardised log features: p = sigmoid(sum of w * z over the controllable features). */
const W = space.features.map((_, j) => (j % 2 === 0 ? 0.8 : -0.5));
const zOf = (k: number, v: number): number => (Math.log1p(Math.max(0, v)) - scaler.mean[k]!) / scaler.sd[k]!;
const pOf = (row: ArrayLike<number>): number => 1 / (1 + Math.exp(-space.features.reduce((s, k, j) => s + W[j]! * zOf(k, row[k] as number), 0.5)));
const rowOf = (x: FeatureMatrix, i: number): FeatureMatrix['data'] => x.data.subarray(i * x.cols, (i + 1) * x.cols);

/** A scorer that counts its calls (one call is one batched query). */
function counted(p: (row: ArrayLike<number>) => number): { score: Scorer; calls: () => number } {
  let n = 0;
  return {
    score: (x) => {
      n++;
      return Float64Array.from({ length: x.rows }, (_, i) => p(rowOf(x, i)));
    },
    calls: () => n,
  };
}
/** The logistic model's gradient oracle, counting its calls. */
function oracle(): { o: GradientOracle; calls: () => number } {
  let n = 0;
  return {
    o: (row) => {
      n++;
      const p = pOf(row);
      const grad = new Float64Array(C);
      space.features.forEach((k, j) => (grad[k] = p * (1 - p) * W[j]!));
      return { p, grad };
    },
    calls: () => n,
  };
}
const constant = (v: number) => (): number => v;
/** The original projected onto the constraints within eps: what the attack's own "send it as it is" candidate is. */
function projected(x: FeatureMatrix, eps: number): { data: Float64Array; ok: boolean[] } {
  const data = new Float64Array(x.data);
  const ok: boolean[] = [];
  for (let i = 0; i < x.rows; i++) ok.push(finalizeCandidate(space, rowOf(x, i), data.subarray(i * C, (i + 1) * C), eps));
  return { data, ok };
}

describe('adaptiveAttack: queries and oracles', () => {
  it('counts every batched query: the original, the projected original, one per gradient attack, and the black-box runs', () => {
    const cases: Array<[string, number, () => number]> = [];
    const run = (label: string, expected: number, f: (score: Scorer) => { queries: number }): void => {
      const t = counted(pOf);
      const r = f(t.score);
      expect(r.queries, label).toBe(expected);
      cases.push([label, expected, t.calls]);
    };
    const s = oracle().o;
    // iters 0: a black-box run started from the best so far makes no query; one from the original scores it once.
    run('one surrogate', 3, (score) => adaptiveAttack(space, { score }, [s], xm, 1, { iters: 0 }));
    run('two surrogates', 4, (score) => adaptiveAttack(space, { score }, [s, oracle().o], xm, 1, { iters: 0 }));
    run('no surrogate', 2, (score) => adaptiveAttack(space, { score }, [], xm, 1, { iters: 0 }));
    run('three restarts', 5, (score) => adaptiveAttack(space, { score }, [s], xm, 1, { iters: 0, restarts: 3 }));
    run('restarts 0 is one run', 3, (score) => adaptiveAttack(space, { score }, [s], xm, 1, { iters: 0, restarts: 0 }));
    run('warm start: the original is not scored again', 2, (score) => {
      const warm = adaptiveAttack(space, { score: counted(pOf).score }, [s], xm, 0.5, { iters: 0 });
      return adaptiveAttack(space, { score }, [s], xm, 1, { iters: 0, warm });
    });
    expect(cases.map(([label, , calls]) => [label, calls()])).toEqual(cases.map(([label, expected]) => [label, expected]));
  });

  it('passes iters and threshold on to the black-box stage', () => {
    // A target that never drops below 0.9: every flow stays active for every black-box iteration under threshold 0.5.
    const t = counted(constant(0.9));
    expect(adaptiveAttack(space, { score: t.score }, [oracle().o], xm, 1, { iters: 4 }).queries).toBe(3 + 4);
    expect(t.calls()).toBe(7);
    // Above every score: no flow is active, the black-box stage stops before its first iteration.
    expect(adaptiveAttack(space, { score: counted(constant(0.9)).score }, [oracle().o], xm, 1, { iters: 4, threshold: 0.95 }).queries).toBe(3);
  });

  it("follows the target's own gradient when it has one, and every surrogate otherwise", () => {
    const own = oracle();
    const s1 = oracle();
    const s2 = oracle();
    adaptiveAttack(space, { score: counted(pOf).score, gradient: own.o }, [s1.o, s2.o], xm, 1, { iters: 0 });
    expect([own.calls() > 0, s1.calls(), s2.calls()]).toEqual([true, 0, 0]);
    adaptiveAttack(space, { score: counted(pOf).score }, [s1.o, s2.o], xm, 1, { iters: 0 });
    expect([s1.calls() > 0, s2.calls() > 0]).toEqual([true, true]);
  });
});

describe('adaptiveAttack: the candidate kept per flow', () => {
  it('keeps the projected original when no candidate scores lower (an equal score replaces only a dropped flow)', () => {
    const eps = 1;
    const r = adaptiveAttack(space, { score: counted(constant(0.7)).score }, [oracle().o], xm, eps, { iters: 3 });
    const p = projected(xm, eps);
    expect(p.ok.every(Boolean)).toBe(true);
    expect([...r.adversarial.data]).toEqual([...p.data]);
    expect([...r.dropped]).toEqual(new Array(xm.rows).fill(0));
    expect([...r.scores]).toEqual(new Array(xm.rows).fill(0.7));
  });

  it('leaves a flow dropped, as the original, when every valid candidate scores higher than the original', () => {
    // The first query (the originals) scores 0.1, every later one 0.9: no candidate beats sending the original.
    let n = 0;
    const score: Scorer = (x) => new Float64Array(x.rows).fill(n++ === 0 ? 0.1 : 0.9);
    const r = adaptiveAttack(space, { score }, [oracle().o], xm, 1, { iters: 2, threshold: 0.05 });
    expect([...r.dropped]).toEqual(new Array(xm.rows).fill(1));
    expect([...r.scores]).toEqual(new Array(xm.rows).fill(0.1));
    expect([...r.adversarial.data]).toEqual([...xm.data]);
  });

  it('returns a flow that cannot be made valid unchanged, marked dropped, with the score of the original', () => {
    // A negative destination port is restored by every projection and breaks non-negativity: no candidate is valid.
    const data = new Float64Array(xm.data);
    data[PORT] = -1;
    const x: FeatureMatrix = { rows: xm.rows, cols: C, data };
    expect(projected(x, 1).ok).toEqual([false, ...new Array(xm.rows - 1).fill(true)]);
    const r = adaptiveAttack(space, { score: counted(pOf).score }, [oracle().o], x, 1, { iters: 5, seed: 2 });
    expect(r.dropped[0]).toBe(1);
    expect([...rowOf(r.adversarial, 0)]).toEqual([...rowOf(x, 0)]);
    expect(r.scores[0]).toBe(pOf(rowOf(x, 0)));
    expect([...r.dropped.subarray(1)]).toEqual(new Array(xm.rows - 1).fill(0));
  });

  it('lowers the score of the logistic target wherever it moves a flow, and every returned score is that of the returned flow', () => {
    const r = adaptiveAttack(space, { score: counted(pOf).score }, [oracle().o], xm, 1, { iters: 5, seed: 1, threshold: 0.01 });
    const moved: boolean[] = [];
    const lowered: boolean[] = [];
    for (let i = 0; i < xm.rows; i++) {
      expect(r.scores[i]).toBe(pOf(rowOf(r.adversarial, i)));
      moved.push(linfDistance(space, rowOf(xm, i), rowOf(r.adversarial, i)) > 0);
      lowered.push(r.scores[i]! < pOf(rowOf(xm, i)));
    }
    expect(lowered).toEqual(moved);
    // One flow of the ten has no valid move within the budget; the nine others are moved.
    expect(moved.filter(Boolean).length).toBe(9);
  });

  it('keeps a warm start that nothing beats, flows and scores as given', () => {
    const eps = 1;
    const p = projected(xm, eps);
    const warm = { adversarial: { rows: xm.rows, cols: C, data: p.data }, scores: new Float64Array(xm.rows), dropped: new Uint8Array(xm.rows) };
    const r = adaptiveAttack(space, { score: counted(constant(0.7)).score }, [oracle().o], xm, eps, { iters: 3, warm });
    expect([...r.adversarial.data]).toEqual([...p.data]);
    expect([...r.scores]).toEqual(new Array(xm.rows).fill(0));
    expect([...r.dropped]).toEqual(new Array(xm.rows).fill(0));
    // A warm start whose flows were all dropped gives way to an equal score from a valid candidate.
    const dropped = { ...warm, scores: new Float64Array(xm.rows).fill(0.7), dropped: new Uint8Array(xm.rows).fill(1) };
    const r2 = adaptiveAttack(space, { score: counted(constant(0.7)).score }, [oracle().o], xm, eps, { iters: 3, warm: dropped });
    expect([...r2.dropped]).toEqual(new Array(xm.rows).fill(0));
  });
});

describe('adaptiveAttack: restarts and budgets', () => {
  it('is at least as strong, per flow, as each black-box restart from the original with seed + 7919 r', () => {
    expect.hasAssertions();
    const seed = 5;
    const r = adaptiveAttack(space, { score: counted(pOf).score }, [], xm, 0.5, { iters: 4, seed, restarts: 3, threshold: 0.01 });
    for (const k of [1, 2]) {
      const bb = blackBoxAttack(space, counted(pOf).score, xm, 0.5, { iters: 4, seed: seed + 7919 * k, threshold: 0.01 });
      bb.scores.forEach((s, i) => expect(r.scores[i]!, `restart ${k} flow ${i}`).toBeLessThanOrEqual(s));
    }
  });

  it('keeps each flow inside its own budget (epsPerRow), in every stage', () => {
    const epsPerRow = Float64Array.from({ length: xm.rows }, (_, i) => (i % 2 === 0 ? 0 : 0.3));
    const r = adaptiveAttack(space, { score: counted(pOf).score }, [oracle().o], xm, 1, { iters: 5, seed: 3, epsPerRow, threshold: 0.01 });
    const d = Array.from({ length: xm.rows }, (_, i) => linfDistance(space, rowOf(xm, i), rowOf(r.adversarial, i)));
    d.forEach((v, i) => expect(v, `flow ${i}`).toBeLessThanOrEqual(epsPerRow[i]! + 1e-9));
    // The budget of 0.3 is used: the odd flows moved.
    expect(d.filter((v, i) => i % 2 === 1 && v > 0.01).length).toBe(xm.rows / 2);
  });
});
