// Random forest: learns a nonlinear task, averages its trees exactly, is seeded, explains with TreeSHAP, and survives the model file.
import { describe, expect, it } from 'vitest';
import { featureMatrix, splitDataset } from './dataset.js';
import { predict, predictMargin } from './gbdt.js';
import { trainRandomForest } from './forest.js';
import { normalizedArea, prCurve, rocAuc } from './metrics.js';
import { gbdtModelFromJson, gbdtModelToJson } from './model.js';
import { syntheticBinary } from './synthetic.js';
import { TreeExplainer } from './treeshap.js';

describe('trainRandomForest', () => {
  const ds = { ...syntheticBinary(3000, 10, 1), featureNames: Array.from({ length: 10 }, (_, i) => `f${i}`) };
  const { train, validation } = splitDataset(ds, 0.3, 0);
  const rf = trainRandomForest(train, { trees: 30, maxDepth: 8, seed: 2 });

  it('learns the task and outputs the mean of its trees as a probability', () => {
    const p = predict(rf, validation.x);
    expect(rocAuc(p, validation.y)).toBeGreaterThan(0.85);
    expect(p.every((v) => v >= -1e-9 && v <= 1 + 1e-9)).toBe(true);
    expect(rf.trees).toHaveLength(30);
    expect(rf.objective).toBe('reg:squarederror');
  });

  it('is reproducible per seed and differs across seeds', () => {
    const again = trainRandomForest(train, { trees: 5, seed: 2 });
    expect(predict(again, validation.x)).toEqual(predict(trainRandomForest(train, { trees: 5, seed: 2 }), validation.x));
    expect(predict(again, validation.x)).not.toEqual(predict(trainRandomForest(train, { trees: 5, seed: 3 }), validation.x));
  });

  it('TreeSHAP contributions add up to its output, and the file round trip keeps predictions', () => {
    const ex = new TreeExplainer(rf);
    const row = validation.x.data.subarray(0, validation.x.cols);
    const e = ex.explainRow(row);
    const sum = e.values.reduce((s, v) => s + v, e.expectedValue);
    expect(sum).toBeCloseTo(predictMargin(rf, featureMatrix(1, validation.x.cols, row))[0]!, 9);
    const back = gbdtModelFromJson(gbdtModelToJson(rf));
    expect(predict(back, validation.x)).toEqual(predict(rf, validation.x));
  });

  it('refuses bad parameters', () => {
    expect(() => trainRandomForest(train, { trees: 0 })).toThrow(/trees/);
    expect(() => trainRandomForest(train, { sampleFraction: 0 })).toThrow(/sampleFraction/);
  });
});

describe('prCurve and normalizedArea', () => {
  it('gives precision at each recall step and an empty curve for one class', () => {
    const c = prCurve([0.9, 0.8, 0.3, 0.1], [1, 0, 1, 0]);
    expect([...c.recall]).toEqual([0.5, 0.5, 1, 1]);
    expect([...c.precision]).toEqual([1, 0.5, 2 / 3, 0.5]);
    expect(prCurve([0.1, 0.2], [0, 0]).recall).toHaveLength(0);
  });
  it('normalises the trapezoid area by the x span', () => {
    expect(normalizedArea([0, 1, 2], [1, 1, 1])).toBe(1);
    expect(normalizedArea([0, 0.5, 2], [1, 0.5, 0])).toBeCloseTo((0.5 * 0.75 + 1.5 * 0.25) / 2, 12);
    expect(normalizedArea([0], [1])).toBeNaN();
  });
});
