// The detector trainer: held-out thresholds meet their false-positive targets, calibration is carried into the model file, and the public index exports it all.
import { describe, expect, it } from 'vitest';
import { VitrineError } from '../errors.js';
import * as ml from './index.js';

describe('trainDetector', () => {
  const { x, y } = ml.syntheticBinary(4000, 10, 51);
  const data: ml.Dataset = { x, y, featureNames: Array.from({ length: 10 }, (_, i) => `f${i}`) };

  it('sets thresholds at 0.1 % and 1 % false-positive rate on the validation split', () => {
    const { model, report } = ml.trainDetector(data, { rounds: 60, maxDepth: 4, eta: 0.2, earlyStoppingRounds: 10, seed: 2 });
    expect(report.validationRows).toBe(800);
    expect(report.auc).toBeGreaterThan(0.9);
    const [strict, loose] = model.thresholds!;
    expect(strict!.name).toBe('fpr_0.1pct');
    expect(strict!.fpr).toBeLessThanOrEqual(0.001);
    expect(loose!.fpr).toBeLessThanOrEqual(0.01);
    expect(strict!.threshold).toBeGreaterThanOrEqual(loose!.threshold);
    // The thresholds are reproduced on the same validation rows from the saved model.
    const split = ml.splitDataset(data, 0.2, 2);
    const back = ml.parseGbdtModel(ml.serializeGbdtModel(model));
    const scores = ml.detectorScores(back, split.validation.x);
    const cm = ml.confusionMatrix(scores, split.validation.y, loose!.threshold);
    expect(cm.fp / (cm.fp + cm.tn)).toBe(loose!.fpr);
    expect(back.featureNames).toEqual(data.featureNames);
  });

  it('carries an isotonic calibration and reports on calibrated scores', () => {
    const { model, report } = ml.trainDetector(data, { rounds: 30, maxDepth: 3, calibration: 'isotonic', seed: 3 });
    expect(model.calibration?.method).toBe('isotonic');
    expect(ml.parseGbdtModel(ml.serializeGbdtModel(model)).calibration).toEqual(model.calibration);
    expect(report.logLoss).toBeLessThan(0.5);
    expect(() => ml.trainDetector(data, { objective: 'reg:squarederror' })).toThrow(VitrineError);
    const positives = { x: ml.featureMatrix(2, 10, new Float64Array(20)), y: Float64Array.from([1, 1]), featureNames: data.featureNames };
    expect(() => ml.trainDetector(data, { rounds: 2, validation: positives })).toThrow(/no negative rows/);
  });
});
