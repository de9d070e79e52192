// Metrics by hand on small cases, by definition (Mann-Whitney pairs) on random ties, and against scikit-learn where installed.
import { describe, expect, it } from 'vitest';
import {
  averagePrecision,
  brierScore,
  classificationRates,
  confusionMatrix,
  logLoss,
  nextUp,
  precisionAtPrevalence,
  rocAuc,
  rocCurve,
  thresholdAtFpr,
} from './metrics.js';
import { calibrate, fitIsotonic, fitPlatt } from './calibration.js';
import { runPythonOracle } from './python.fixture.js';
import { Random } from './random.js';
import { skipWithout } from '../../../test/oracles.js';

/** AUC by definition: the share of (positive, negative) pairs ordered correctly, ties counting one half. */
function pairAuc(scores: number[], labels: number[]): number {
  let good = 0;
  let pairs = 0;
  for (let i = 0; i < scores.length; i++) {
    if (labels[i] !== 1) continue;
    for (let j = 0; j < scores.length; j++) {
      if (labels[j] !== 0) continue;
      pairs++;
      if (scores[i]! > scores[j]!) good += 1;
      else if (scores[i] === scores[j]) good += 0.5;
    }
  }
  return good / pairs;
}

function randomCase(rng: Random, n: number, levels: number): { scores: number[]; labels: number[] } {
  const labels = Array.from({ length: n }, () => (rng.next() < 0.35 ? 1 : 0));
  // Few distinct levels, so that ties are common.
  const scores = labels.map((y) => Math.round((rng.normal() + y) * levels) / levels);
  return { scores, labels };
}

describe('ROC AUC and average precision', () => {
  it('hand cases', () => {
    expect(rocAuc([0.9, 0.8, 0.3, 0.1], [1, 1, 0, 0])).toBe(1);
    expect(rocAuc([0.1, 0.2, 0.3, 0.4], [1, 1, 0, 0])).toBe(0);
    expect(rocAuc([0.5, 0.5, 0.5, 0.5], [1, 0, 1, 0])).toBe(0.5);
    expect(rocAuc([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])).toBe(0.75);
    expect(rocAuc([0.1, 0.2], [1, 1])).toBeNaN();
    expect(averagePrecision([0.1, 0.2], [0, 0])).toBeNaN();
    // scikit-learn's documented example: average_precision_score([0,0,1,1], [0.1,0.4,0.35,0.8]) = 0.8333...
    expect(averagePrecision([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])).toBeCloseTo(0.8333333333333333, 14);
  });

  it('equals the Mann-Whitney pair count with ties', () => {
    expect.hasAssertions();
    const rng = new Random(1);
    for (let trial = 0; trial < 20; trial++) {
      const { scores, labels } = randomCase(rng, 60, 2);
      expect(rocAuc(scores, labels)).toBeCloseTo(pairAuc(scores, labels), 12);
    }
  });

  it('weights act as repeated rows', () => {
    const scores = [0.2, 0.5, 0.5, 0.9, 0.1];
    const labels = [0, 1, 0, 1, 0];
    const w = [2, 1, 3, 1, 1];
    const rs: number[] = [];
    const rl: number[] = [];
    scores.forEach((s, i) => {
      for (let k = 0; k < w[i]!; k++) {
        rs.push(s);
        rl.push(labels[i]!);
      }
    });
    expect(rocAuc(scores, labels, w)).toBeCloseTo(rocAuc(rs, rl), 14);
    expect(averagePrecision(scores, labels, w)).toBeCloseTo(averagePrecision(rs, rl), 14);
  });

  it('curve points group ties', () => {
    const c = rocCurve([0.9, 0.5, 0.5, 0.1], [1, 1, 0, 0]);
    expect([...c.thresholds]).toEqual([Infinity, 0.9, 0.5, 0.1]);
    expect([...c.tpr]).toEqual([0, 0.5, 1, 1]);
    expect([...c.fpr]).toEqual([0, 0, 0.5, 1]);
  });
});

describe('threshold at a false-positive rate', () => {
  it('keeps at most floor(rate * negatives) negatives at or above the threshold', () => {
    const negatives = Array.from({ length: 1000 }, (_, i) => i / 1000);
    const positives = [0.5, 0.995, 0.9995, 2];
    const scores = [...negatives, ...positives];
    const labels = [...negatives.map(() => 0), ...positives.map(() => 1)];
    const p1 = thresholdAtFpr(scores, labels, 0.01);
    expect(p1.threshold).toBe(nextUp(0.989));
    expect(p1.fpr).toBe(0.01);
    expect(p1.tpr).toBe(0.75);
    const p01 = thresholdAtFpr(scores, labels, 0.001);
    expect(p01.threshold).toBe(nextUp(0.998));
    expect(p01.fpr).toBe(0.001);
    expect(p01.tpr).toBe(0.5);
    const p0 = thresholdAtFpr(scores, labels, 0);
    expect(p0.fpr).toBe(0);
    expect(p0.threshold).toBe(nextUp(0.999));
  });

  it('ties at the bar stay below it', () => {
    const scores = [0.3, 0.7, 0.7, 0.7, 0.2, 0.9];
    const labels = [0, 0, 0, 0, 0, 1];
    const p = thresholdAtFpr(scores, labels, 0.4); // 2 of 5 allowed, but three tie at 0.7
    expect(p.fpr).toBe(0);
    expect(confusionMatrix(scores, labels, p.threshold).fp).toBe(0);
    expect(() => thresholdAtFpr([0.1], [1], 0.01)).toThrow(RangeError);
  });

  it('random cases never exceed the target', () => {
    expect.hasAssertions();
    const rng = new Random(9);
    for (let t = 0; t < 20; t++) {
      const { scores, labels } = randomCase(rng, 400, 5);
      for (const target of [0.001, 0.01, 0.1]) {
        const p = thresholdAtFpr(scores, labels, target);
        expect(p.fpr).toBeLessThanOrEqual(target);
        const cm = confusionMatrix(scores, labels, p.threshold);
        expect(cm.fp / (cm.fp + cm.tn)).toBe(p.fpr);
        // One step lower would break the target (or the threshold is already the lowest score).
        const below = scores.filter((s) => s < p.threshold);
        if (below.length > 0) {
          const lower = Math.max(...below);
          const cm2 = confusionMatrix(scores, labels, lower);
          expect(cm2.fp / (cm2.fp + cm2.tn)).toBeGreaterThan(target);
        }
      }
    }
  });
});

describe('rates', () => {
  it('confusion matrix, precision, recall, F1', () => {
    const cm = confusionMatrix([0.9, 0.8, 0.7, 0.2, 0.1, 0.6], [1, 0, 1, 1, 0, 0], 0.5);
    expect(cm).toEqual({ tp: 2, fp: 2, tn: 1, fn: 1 });
    const r = classificationRates(cm);
    expect(r.precision).toBe(0.5);
    expect(r.recall).toBe(2 / 3);
    expect(r.f1).toBeCloseTo((2 * 0.5 * (2 / 3)) / (0.5 + 2 / 3), 14);
    expect(r.accuracy).toBe(0.5);
    expect(r.fpr).toBe(2 / 3);
    expect(classificationRates({ tp: 0, fp: 0, tn: 5, fn: 0 }).precision).toBe(0);
    expect(precisionAtPrevalence(0.9, 0.01, 0.01)).toBeCloseTo(0.009 / (0.009 + 0.0099), 14);
  });

  it('log loss and Brier score', () => {
    expect(logLoss([0.8, 0.3], [1, 0])).toBeCloseTo(-(Math.log(0.8) + Math.log(0.7)) / 2, 14);
    expect(Number.isFinite(logLoss([0, 1], [1, 0]))).toBe(true);
    expect(brierScore([0.8, 0.3], [1, 0])).toBeCloseTo((0.04 + 0.09) / 2, 14);
  });
});

describe.skipIf(skipWithout('sklearn'))('against scikit-learn', () => {
  it('AUC, average precision, ROC points, Platt and isotonic fits agree', () => {
    expect.hasAssertions();
    const rng = new Random(21);
    const cases = [randomCase(rng, 300, 3), randomCase(rng, 200, 50), randomCase(rng, 80, 1)].map((c) => ({
      ...c,
      grid: Array.from({ length: 41 }, (_, i) => -4 + i * 0.2),
    }));
    const out = runPythonOracle<{ auc: number; ap: number; roc_fpr: number[]; roc_tpr: number[]; platt_a: number; platt_b: number; isotonic: number[] }[]>(
      'sklearn_metrics.py',
      { cases },
    );
    cases.forEach((c, k) => {
      const o = out[k]!;
      expect(rocAuc(c.scores, c.labels)).toBeCloseTo(o.auc, 12);
      expect(averagePrecision(c.scores, c.labels)).toBeCloseTo(o.ap, 12);
      const curve = rocCurve(c.scores, c.labels);
      // scikit-learn starts at (0, 0) too and lists one point per distinct score.
      expect([...curve.fpr].map((v) => v.toFixed(12))).toEqual(o.roc_fpr.map((v) => v.toFixed(12)));
      expect([...curve.tpr].map((v) => v.toFixed(12))).toEqual(o.roc_tpr.map((v) => v.toFixed(12)));
      // scikit-learn reports p = expit(-(a f + b)); ours is sigmoid(a f + b). Its BFGS stops earlier than our Newton.
      const platt = fitPlatt(c.scores, c.labels);
      expect(platt.a).toBeCloseTo(-o.platt_a, 4);
      expect(platt.b).toBeCloseTo(-o.platt_b, 4);
      const iso = fitIsotonic(c.scores, c.labels);
      c.grid.forEach((g, i) => {
        expect(calibrate(iso, g)).toBeCloseTo(o.isotonic[i]!, 12);
      });
    });
  });
});
