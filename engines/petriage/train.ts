// Training the linear demo model (`train`, `train_default`): featurise a labelled corpus, fit, check on a held-out quarter, profile the families.
import { stratifiedSplit } from '../core/ml/dataset.js';
import { rocAuc } from '../core/ml/metrics.js';
import { VitrineError } from '../core/errors.js';
import { FAMILIES, featurizeCorpus, syntheticCorpus, type CorpusSample } from './corpus.js';
import { buildProfiles } from './family.js';
import { FEATURE_DIM, FEATURE_LAYOUT } from './features.js';
import { linearMargin, sigmoid, trainLogistic, type TrainOptions } from './linear.js';
import { LINEAR_FORMAT, LINEAR_THRESHOLDS, type LinearModelJson } from './model.js';

export interface TrainDefaultOptions {
  /** Samples per family (default 20). */
  readonly nPerFamily?: number;
  readonly seed?: number;
}

export interface TrainSamplesOptions {
  readonly seed?: number;
  /** What the samples are, for the model's metadata. */
  readonly corpus?: Readonly<Record<string, string | number | null>>;
  readonly onProgress?: (fraction: number, message: string) => void;
  readonly signal?: AbortSignal;
}

const HYPERPARAMETERS = { l2: 0.05, iterations: 400, clip: 8 } as const;

function checkAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new VitrineError('cancelled', 'training was cancelled');
}

/** Trains on labelled samples (label 1: a family, 0: benign); samples that are not parseable PEs are skipped and counted. */
export function trainOnSamples(samples: readonly CorpusSample[], options: TrainSamplesOptions = {}): LinearModelJson {
  const seed = options.seed ?? 0;
  const progress = options.onProgress ?? (() => undefined);
  const { rows, labels, tokenSets, skipped } = featurizeCorpus(samples, (i) => {
    if (i % 20 === 0) {
      checkAborted(options.signal);
      progress((0.5 * i) / samples.length, 'featurising the corpus');
    }
  });
  const positives = labels.filter((l) => l === 1).length;
  if (positives === 0 || positives === labels.length) throw new VitrineError('validation_failed', 'training needs both benign and family samples');

  const stepper = (from: number, to: number): NonNullable<TrainOptions['onStep']> => (f) => {
    progress(from + (to - from) * f, 'fitting the weights');
    return options.signal?.aborted === true;
  };

  // Held-out check: fit on three quarters, score the rest at the fixed thresholds.
  const split = stratifiedSplit(labels, 0.25, seed);
  const held = trainLogistic(
    Array.from(split.train, (i) => rows[i] as Float64Array),
    Array.from(split.train, (i) => labels[i] as number),
    { ...HYPERPARAMETERS, onStep: stepper(0.5, 0.7) },
  );
  checkAborted(options.signal);
  const vScores = Array.from(split.validation, (i) => sigmoid(linearMargin(held, rows[i] as Float64Array)));
  const vLabels = Array.from(split.validation, (i) => labels[i] as number);
  const count = (pred: (s: number, l: number) => boolean): number => vScores.filter((s, k) => pred(s, vLabels[k] as number)).length;
  const validation = {
    samples: vScores.length,
    auc: Math.round(rocAuc(vScores, vLabels) * 1e6) / 1e6,
    malicious_detected: count((s, l) => l === 1 && s >= LINEAR_THRESHOLDS.malicious),
    suspicious_or_worse_detected: count((s, l) => l === 1 && s >= LINEAR_THRESHOLDS.suspicious),
    positives: vLabels.filter((l) => l === 1).length,
    benign_flagged_suspicious_or_worse: count((s, l) => l === 0 && s >= LINEAR_THRESHOLDS.suspicious),
    benign: vLabels.filter((l) => l === 0).length,
  };

  const params = trainLogistic(rows, labels, { ...HYPERPARAMETERS, onStep: stepper(0.7, 0.95) });
  checkAborted(options.signal);
  progress(0.95, 'profiling the families');
  const descriptions = new Map(FAMILIES.map((f) => [f.name, f.description]));
  const families = buildProfiles(tokenSets, descriptions);
  progress(1, 'done');
  return {
    format: LINEAR_FORMAT,
    feature_layout: FEATURE_LAYOUT,
    num_features: FEATURE_DIM,
    bias: params.bias,
    weights: Array.from(params.weights),
    mean: Array.from(params.mean),
    scale: Array.from(params.scale),
    clip: params.clip,
    thresholds: { ...LINEAR_THRESHOLDS },
    families: families.map((f) => ({ ...f, profile: f.profile.map((t) => ({ ...t })) })),
    metadata: {
      model: 'linear demo model: L2-regularised logistic regression on signed-log, standardised features',
      corpus: { ...(options.corpus ?? {}) },
      samples: labels.length,
      positives,
      benign: labels.length - positives,
      skipped_unparseable: skipped,
      seed,
      hyperparameters: { ...HYPERPARAMETERS },
      validation,
    },
  };
}

/** `train_default`: the linear demo model on the synthetic corpus (n_per_family default 20, seed default 0). */
export function trainDefault(options: TrainDefaultOptions = {}): LinearModelJson {
  const perFamily = options.nPerFamily ?? 20;
  const seed = options.seed ?? 0;
  return trainOnSamples(syntheticCorpus({ perFamily, seed }), { seed, corpus: { kind: 'synthetic', per_family: perFamily, benign: 3 * perFamily, seed } });
}
