// Hardening: adversarial training of the ensemble members, and the adversarial-input alarm (clean vs adversarial flows).
import { predict, Random, selectRows, thresholdAtFpr, trainGbdt, type FeatureMatrix, type GbdtModel } from '../../core/ml/index.js';
import { VitrineError } from '../../core/errors.js';
import { adaptiveAttack, type AttackSpace } from '../attacks/attacks.js';
import { newTally, tallyAttack, type ValidityTally } from '../studies/tally.js';
import { logFeatures, preprocessingShift, probabilityGradientZ, scoreDetector, trainDetector, type Detector, type DetectorKind, type Ensemble, type TrainSettings } from '../detectors/models.js';

/** Spec defaults. */
export const ADV_EPS = 1.0;
export const ADV_ROUNDS = 3;
export const ADV_BUDGET_RANGE: readonly [number, number] = [0.25, 1];
export const ALARM_FPR = 0.01;

export interface HardenOptions extends TrainSettings {
  readonly eps?: number;
  readonly rounds?: number;
  /** Most malicious flows perturbed per round (default all; quick runs use fewer). */
  readonly maxPerRound?: number;
  /** Black-box iterations inside the training attack (default 100). */
  readonly iters?: number;
  readonly onRound?: (round: number) => void;
}

export interface HardenResult {
  readonly ensemble: Ensemble;
  /** Adversarial flows made during training (the alarm's positive class); flows with no valid in-budget candidate are left out. */
  readonly adversarial: FeatureMatrix;
  /** Adversarial rows checked with isValid, their budgets and the mined physics. */
  readonly tally: ValidityTally;
  /** Largest difference between any member's standardisation and the frozen clean scaler over all rounds (0: frozen). */
  readonly preprocessingShift: number;
}

function concat(a: FeatureMatrix, b: FeatureMatrix): FeatureMatrix {
  const data = new Float64Array(a.data.length + b.data.length);
  data.set(a.data);
  data.set(b.data, a.data.length);
  return { rows: a.rows + b.rows, cols: a.cols, data };
}

/**
 * Adversarial training (eps 1.0, 3 rounds): each round perturbs the malicious training flows with the adaptive attack
 * against the current ensemble, each flow at its own budget drawn uniformly in 0.25 to 1 times eps, adds them with
 * the malicious label and retrains every member. The log scaler (the preprocessing) stays the clean one.
 */
export function adversarialTraining(space: AttackSpace, kinds: readonly DetectorKind[], x: FeatureMatrix, y: ArrayLike<number>, opts: HardenOptions): HardenResult {
  const eps = opts.eps ?? ADV_EPS;
  const rounds = opts.rounds ?? ADV_ROUNDS;
  const rng = new Random(opts.seed + 101);
  // The preprocessing stays the clean training set's scaler in every round (the spec: preprocessing stays fixed).
  const frozen = { ...opts, scaler: space.scaler };
  let members: Detector[] = kinds.map((k) => trainDetector(k, x, y, frozen));
  const tally = newTally();
  let shift = Math.max(0, ...members.map((m) => preprocessingShift(m, space.scaler)));
  let trainX = x;
  let trainY = Array.from(y);
  const mal: number[] = [];
  for (let i = 0; i < x.rows; i++) if (y[i] === 1) mal.push(i);
  let adversarial: FeatureMatrix = { rows: 0, cols: x.cols, data: new Float64Array(0) };
  for (let r = 0; r < rounds; r++) {
    if (opts.signal?.aborted) throw new VitrineError('cancelled', 'the study was cancelled');
    const pick = rng.shuffle([...mal]).slice(0, opts.maxPerRound ?? mal.length);
    const xm = selectRows(x, pick);
    const ensemble: Ensemble = { members };
    const grads = members.filter((m) => m.kind === 'mlp' || m.kind === 'logistic').map((m) => (row: Float64Array) => probabilityGradientZ(m, row, space.scaler));
    // Each flow gets its own budget drawn uniformly in 0.25 to 1 times eps.
    const budgets = Float64Array.from({ length: xm.rows }, () => eps * (ADV_BUDGET_RANGE[0] + rng.next() * (ADV_BUDGET_RANGE[1] - ADV_BUDGET_RANGE[0])));
    const res = adaptiveAttack(space, { score: (m) => ensembleScore(ensemble, m) }, grads, xm, eps, { iters: opts.iters ?? 100, seed: opts.seed + r, epsPerRow: budgets });
    tallyAttack(space, xm, res, budgets, tally);
    const adv = selectRows(res.adversarial, Array.from({ length: xm.rows }, (_, i) => i).filter((i) => !res.dropped[i]));
    adversarial = concat(adversarial, adv);
    trainX = concat(trainX, adv);
    trainY = trainY.concat(Array<number>(adv.rows).fill(1));
    members = kinds.map((k) => trainDetector(k, trainX, trainY, { ...frozen, seed: opts.seed + r + 1 }));
    shift = Math.max(shift, ...members.map((m) => preprocessingShift(m, space.scaler)));
    opts.onRound?.(r);
  }
  return { ensemble: { members }, adversarial, tally, preprocessingShift: shift };
}

function ensembleScore(e: Ensemble, x: FeatureMatrix): Float64Array {
  const out = new Float64Array(x.rows);
  for (const m of e.members) {
    const p = scoreDetector(m, x);
    for (let i = 0; i < out.length; i++) out[i] = out[i]! + p[i]! / e.members.length;
  }
  return out;
}

/** The adversarial-input alarm: a boosted classifier of clean (0) vs adversarial (1) flows and its threshold. */
export interface Alarm {
  readonly model: GbdtModel;
  /** Set at 1 % false-positive rate on clean flows held out from its training. */
  readonly threshold: number;
  /** False-positive rate measured on those clean flows. */
  readonly cleanFpr: number;
}

/** Trains the alarm on clean vs adversarial flows, holding out a third of the clean ones to set the 1 % FPR threshold. */
export function trainAlarm(clean: FeatureMatrix, adversarial: FeatureMatrix, seed: number, quick: boolean): Alarm {
  if (clean.rows < 3 || adversarial.rows < 1) throw new VitrineError('validation_failed', 'the alarm needs clean and adversarial flows');
  const rng = new Random(seed + 7);
  const perm = rng.permutation(clean.rows);
  const hold = Math.max(1, Math.floor(clean.rows / 3));
  const holdIdx = Array.from(perm.subarray(0, hold));
  const fitIdx = Array.from(perm.subarray(hold));
  const fitClean = selectRows(clean, fitIdx);
  const x = concat(fitClean, adversarial);
  const y = [...Array<number>(fitClean.rows).fill(0), ...Array<number>(adversarial.rows).fill(1)];
  const model = trainGbdt({ x: logFeatures(x), y }, { rounds: quick ? 30 : 100, eta: 0.2, maxDepth: 5, seed });
  const held = predict(model, logFeatures(selectRows(clean, holdIdx)));
  const op = thresholdAtFpr(held, new Float64Array(held.length), ALARM_FPR);
  return { model, threshold: op.threshold, cleanFpr: op.fpr };
}

export function alarmScores(alarm: Alarm, x: FeatureMatrix): Float64Array {
  return predict(alarm.model, logFeatures(x));
}
