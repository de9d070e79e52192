// A one-hidden-layer perceptron (ReLU, sigmoid output) trained with Adam, with input gradients for gradient-based evasion attacks (FGSM, PGD).
import { z } from 'zod';
import { VitrineError } from '../errors.js';
import { validate } from '../validation.js';
import type { FeatureMatrix } from './dataset.js';
import { sigmoid, type JsonValue, type TrainingData } from './gbdt.js';
import { standardization } from './linear.js';
import { logLoss } from './metrics.js';
import { Random } from './random.js';
import { WASM } from './mlpscore.wasm.js';
import { compileKernel, growMemory, instantiateKernel, type WasmMemory } from '../wasm.js';

/**
 * margin(x) = b2 + sum_h w2[h] relu(b1[h] + sum_f w1[h * F + f] z_f), z_f = (x_f - mean_f) / scale_f,
 * a missing x_f being taken as mean_f (z_f = 0).
 */
export interface MlpModel {
  readonly numFeatures: number;
  readonly hidden: number;
  readonly mean: Float64Array;
  readonly scale: Float64Array;
  readonly w1: Float64Array;
  readonly b1: Float64Array;
  readonly w2: Float64Array;
  readonly b2: number;
  readonly featureNames?: readonly string[];
  readonly metadata?: Readonly<Record<string, JsonValue>>;
}

export interface MlpParams {
  /** Hidden units; default 32. */
  readonly hidden?: number;
  /** Passes over the data; default 30. */
  readonly epochs?: number;
  /** Default 64. */
  readonly batchSize?: number;
  /** Adam step size; default 1e-3. */
  readonly learningRate?: number;
  readonly beta1?: number;
  readonly beta2?: number;
  readonly epsilon?: number;
  /** L2 penalty on the weights (not the biases), added to the mean batch loss; default 0. */
  readonly l2?: number;
  readonly seed?: number;
  /** Standardise inputs with the training data's mean and deviation (default true); off keeps mean 0 and scale 1. */
  readonly standardize?: boolean;
  /** Continue from this model (its standardisation is kept), for example in adversarial training rounds. */
  readonly initial?: MlpModel;
  readonly validation?: TrainingData;
  /** Stop when validation log loss has not improved for this many epochs, keeping the best weights. */
  readonly earlyStoppingEpochs?: number;
  readonly featureNames?: readonly string[];
  readonly signal?: AbortSignal;
  readonly onEpoch?: (report: { epoch: number; trainLoss: number; validationLoss?: number }) => void;
}

/** Mutable parameters (model weights or their gradients / Adam moments). */
interface Params {
  w1: Float64Array;
  b1: Float64Array;
  w2: Float64Array;
  b2: Float64Array;
}

function zeros(F: number, H: number): Params {
  return { w1: new Float64Array(H * F), b1: new Float64Array(H), w2: new Float64Array(H), b2: new Float64Array(1) };
}

/** Standardised input row (missing values become 0). */
function standardizeRow(model: Pick<MlpModel, 'mean' | 'scale' | 'numFeatures'>, row: ArrayLike<number>, offset: number, out: Float64Array): void {
  for (let f = 0; f < model.numFeatures; f++) {
    const v = row[offset + f]!;
    out[f] = v === v ? (v - model.mean[f]!) / model.scale[f]! : 0;
  }
}

/** Forward pass on a standardised row; fills hidden pre-activations and returns the margin. */
function forward(p: { w1: Float64Array; b1: Float64Array; w2: Float64Array; b2: number }, z: Float64Array, F: number, H: number, pre: Float64Array): number {
  let m = p.b2;
  for (let h = 0; h < H; h++) {
    let a = p.b1[h]!;
    const o = h * F;
    for (let f = 0; f < F; f++) a += p.w1[o + f]! * z[f]!;
    pre[h] = a;
    if (a > 0) m += p.w2[h]! * a;
  }
  return m;
}

/** Margin of one row. */
export function mlpMarginRow(model: MlpModel, row: ArrayLike<number>, offset = 0): number {
  const z = new Float64Array(model.numFeatures);
  standardizeRow(model, row, offset, z);
  return forward(model, z, model.numFeatures, model.hidden, new Float64Array(model.hidden));
}

function checkWidth(model: MlpModel, x: FeatureMatrix): void {
  if (x.cols !== model.numFeatures) throw new VitrineError('validation_failed', `the model expects ${model.numFeatures} features, the data has ${x.cols}`);
}

/** Margins of every row (bit-identical to `mlpMarginRow` on each). */
export function mlpMargin(model: MlpModel, x: FeatureMatrix): Float64Array {
  checkWidth(model, x);
  const out = new Float64Array(x.rows);
  if (x.rows === 0) return out;
  const F = model.numFeatures;
  const H = model.hidden;
  const hp = Math.ceil(H / 8) * 8;
  // Rows per call: even, at most 256, and at most about 8 MB of raw inputs.
  const block = Math.max(2, Math.min(256, Math.floor((8 << 20) / (16 * Math.max(F, 1))) * 2));
  const meanAt = 0;
  const scaleAt = meanAt + F * 8;
  const w1tAt = scaleAt + F * 8;
  const b1At = w1tAt + F * hp * 8;
  const w2At = b1At + hp * 8;
  const xAt = w2At + hp * 8;
  const preAt = xAt + block * F * 8;
  const outAt = preAt + hp * 16;
  const k = scorer().reserve(outAt + block * 8);
  const mem = k.f64;
  mem.set(model.mean, meanAt / 8);
  mem.set(model.scale, scaleAt / 8);
  mem.fill(0, w1tAt / 8, xAt / 8);
  const { w1, b1, w2 } = model;
  for (let h = 0; h < H; h++) {
    const o = h * F;
    for (let f = 0; f < F; f++) mem[w1tAt / 8 + f * hp + h] = w1[o + f]!;
    mem[b1At / 8 + h] = b1[h]!;
    mem[w2At / 8 + h] = w2[h]!;
  }
  const data = x.data;
  for (let start = 0; start < x.rows; start += block) {
    const count = Math.min(block, x.rows - start);
    // Raw rows in (a Float32 matrix widened exactly), standardised in place by the kernel; an odd block gets a zero row.
    mem.set(data.subarray(start * F, (start + count) * F), xAt / 8);
    const even = count + (count & 1);
    if (even > count) mem.fill(0, xAt / 8 + count * F, xAt / 8 + even * F);
    k.exports.score(xAt, even, F, hp, w1tAt, b1At, w2At, model.b2, meanAt, scaleAt, preAt, outAt);
    out.set(mem.subarray(outAt / 8, outAt / 8 + count), start);
  }
  return out;
}

/** mlpscore.wat's exports (see the comments there). */
interface ScoreExports {
  readonly memory: WasmMemory;
  score(x: number, rows: number, inputs: number, hp: number, w1t: number, b1: number, w2: number, b2: number, mean: number, scale: number, pre: number, out: number): void;
  margins(z: number, rows: number, inputs: number, hp: number, w1t: number, b1: number, w2: number, b2: number, pre: number, out: number): void;
  backward(z: number, rows: number, inputs: number, hp: number, pre: number, d: number, w2: number, gw1t: number, gb1: number, gw2: number, scratch: number): void;
  adam(p: number, g: number, m: number, v: number, count: number, inv: number, decay: number, beta1: number, oneMinusBeta1: number, beta2: number, oneMinusBeta2: number, lr: number, c1: number, c2: number, eps: number): void;
}

/** The compiled module: the scoring instance and each training run's own instance (own memory) come from it. */
let compiled: object | null = null;

/** The scoring kernel's instance and a view of its memory. */
class Scorer {
  readonly exports: ScoreExports;
  f64: Float64Array;

  constructor() {
    compiled ??= compileKernel(WASM);
    this.exports = instantiateKernel<ScoreExports>(compiled);
    this.f64 = new Float64Array(this.exports.memory.buffer);
  }

  /** Makes the memory at least `bytes` long. */
  reserve(bytes: number): this {
    if (growMemory(this.exports.memory, bytes)) this.f64 = new Float64Array(this.exports.memory.buffer);
    return this;
  }
}

let shared: Scorer | null = null;

/** The shared scoring kernel, compiled on first use. */
function scorer(): Scorer {
  shared ??= new Scorer();
  return shared;
}

/** Probabilities of every row. */
export function predictMlp(model: MlpModel, x: FeatureMatrix): Float64Array {
  const out = mlpMargin(model, x);
  for (let i = 0; i < out.length; i++) out[i] = sigmoid(out[i]!);
  return out;
}

/**
 * Gradient with respect to the raw input row: of the margin, or, when `label` is given, of the binary
 * cross-entropy loss at that label (what FGSM and PGD step along). Missing inputs get 0.
 */
export function mlpInputGradient(model: MlpModel, row: ArrayLike<number>, label?: number, offset = 0): Float64Array {
  const F = model.numFeatures;
  const H = model.hidden;
  const z = new Float64Array(F);
  const pre = new Float64Array(H);
  standardizeRow(model, row, offset, z);
  const m = forward(model, z, F, H, pre);
  const dOut = label === undefined ? 1 : sigmoid(m) - label;
  const g = new Float64Array(F);
  for (let h = 0; h < H; h++) {
    if (!(pre[h]! > 0)) continue;
    const c = dOut * model.w2[h]!;
    const o = h * F;
    for (let f = 0; f < F; f++) g[f] = g[f]! + c * model.w1[o + f]!;
  }
  for (let f = 0; f < F; f++) {
    const v = row[offset + f]!;
    g[f] = v === v ? g[f]! / model.scale[f]! : 0;
  }
  return g;
}

/** Input gradients of every row (rows x features); with labels, of each row's loss. */
export function mlpInputGradients(model: MlpModel, x: FeatureMatrix, labels?: ArrayLike<number>): Float64Array {
  checkWidth(model, x);
  const out = new Float64Array(x.rows * x.cols);
  for (let i = 0; i < x.rows; i++) out.set(mlpInputGradient(model, x.data, labels ? labels[i]! : undefined, i * x.cols), i * x.cols);
  return out;
}

/** Accumulates the loss gradient of one standardised row into `grad`; returns the row's loss. */
function backprop(p: MlpModel | { w1: Float64Array; b1: Float64Array; w2: Float64Array; b2: number }, z: Float64Array, y: number, weight: number, F: number, H: number, pre: Float64Array, grad: Params): number {
  const m = forward(p, z, F, H, pre);
  const d = weight * (sigmoid(m) - y);
  grad.b2[0] = grad.b2[0]! + d;
  for (let h = 0; h < H; h++) {
    const a = pre[h]!;
    if (!(a > 0)) continue;
    grad.w2[h] = grad.w2[h]! + d * a;
    const dh = d * p.w2[h]!;
    grad.b1[h] = grad.b1[h]! + dh;
    const o = h * F;
    for (let f = 0; f < F; f++) grad.w1[o + f] = grad.w1[o + f]! + dh * z[f]!;
  }
  return weight * ((m > 0 ? m + Math.log1p(Math.exp(-m)) : Math.log1p(Math.exp(m))) - y * m);
}

/** Gradient of one row's cross-entropy loss with respect to every parameter (for checks and custom training loops). */
export function mlpParameterGradient(model: MlpModel, row: ArrayLike<number>, label: number): { w1: Float64Array; b1: Float64Array; w2: Float64Array; b2: number } {
  const grad = zeros(model.numFeatures, model.hidden);
  const z = new Float64Array(model.numFeatures);
  standardizeRow(model, row, 0, z);
  backprop(model, z, label, 1, model.numFeatures, model.hidden, new Float64Array(model.hidden), grad);
  return { w1: grad.w1, b1: grad.b1, w2: grad.w2, b2: grad.b2[0]! };
}

function checkParams(p: MlpParams): void {
  const bad = (what: string): never => {
    throw new VitrineError('validation_failed', `invalid training parameter: ${what}`);
  };
  const intIn = (v: number | undefined, lo: number, hi: number, name: string): void => {
    if (v !== undefined && !(Number.isInteger(v) && v >= lo && v <= hi)) bad(name);
  };
  intIn(p.hidden, 1, 4096, 'hidden');
  intIn(p.epochs, 0, 100_000, 'epochs');
  intIn(p.batchSize, 1, 1_000_000, 'batchSize');
  intIn(p.earlyStoppingEpochs, 1, 100_000, 'earlyStoppingEpochs');
  if (p.learningRate !== undefined && !(p.learningRate > 0 && Number.isFinite(p.learningRate))) bad('learningRate');
  if (p.l2 !== undefined && !(p.l2 >= 0 && Number.isFinite(p.l2))) bad('l2');
  if (p.beta1 !== undefined && !(p.beta1 >= 0 && p.beta1 < 1)) bad('beta1');
  if (p.beta2 !== undefined && !(p.beta2 >= 0 && p.beta2 < 1)) bad('beta2');
  if (p.earlyStoppingEpochs !== undefined && !p.validation) bad('earlyStoppingEpochs needs validation data');
}

/** Trains (or continues training) the network with mini-batch Adam (Kingma and Ba 2015). Deterministic per seed. */
export function trainMlp(data: TrainingData, params: MlpParams = {}): MlpModel {
  checkParams(params);
  const { x, y } = data;
  const n = x.rows;
  const F = x.cols;
  if (y.length !== n) throw new VitrineError('validation_failed', 'labels and rows differ in number');
  for (let i = 0; i < n; i++) if (!(y[i] === 0 || y[i] === 1)) throw new VitrineError('validation_failed', `label ${i} is not 0 or 1`);
  const init = params.initial;
  if (init && init.numFeatures !== F) throw new VitrineError('validation_failed', 'the initial model has a different number of features');
  const H = init ? init.hidden : (params.hidden ?? 32);
  const rng = new Random(params.seed ?? 0);
  const { mean, scale } = init ? { mean: init.mean, scale: init.scale } : params.standardize === false ? { mean: new Float64Array(F), scale: new Float64Array(F).fill(1) } : standardization(x);
  const p = zeros(F, H);
  if (init) {
    p.w1.set(init.w1);
    p.b1.set(init.b1);
    p.w2.set(init.w2);
    p.b2[0] = init.b2;
  } else {
    // He initialisation for the ReLU layer, Glorot-style for the output.
    const s1 = Math.sqrt(2 / F);
    for (let i = 0; i < p.w1.length; i++) p.w1[i] = rng.normal() * s1;
    const s2 = Math.sqrt(1 / H);
    for (let h = 0; h < H; h++) p.w2[h] = rng.normal() * s2;
  }
  const lr = params.learningRate ?? 1e-3;
  const beta1 = params.beta1 ?? 0.9;
  const beta2 = params.beta2 ?? 0.999;
  const eps = params.epsilon ?? 1e-8;
  const l2 = params.l2 ?? 0;
  const batch = params.batchSize ?? 64;
  const epochs = params.epochs ?? 30;
  // The weights, their gradient sums and Adam moments live in a kernel instance of its own, in the scoring layout
  // (w1 input-major over hp units, the padding units zero): [w1t | b1 | w2] for each of P, G, M and V. Each batch:
  // its standardised rows gathered, the forward pass (`margins`, the forward pass's operations in its order), the
  // output gradients here, `backward` (the row-by-row sums in row order) and one `adam` step per block.
  const hp = Math.ceil(H / 8) * 8;
  const block = F * hp + 2 * hp;
  const pAt = 0;
  const gAt = pAt + block * 8;
  const mAt = gAt + block * 8;
  const vAt = mAt + block * 8;
  const zbAt = vAt + block * 8;
  const batchRows = Math.min(batch, n) + (Math.min(batch, n) & 1);
  const preAt = zbAt + batchRows * F * 8;
  const outAt = preAt + batchRows * hp * 8;
  const dAt = outAt + batchRows * 8;
  const scratchAt = dAt + batchRows * 8;
  const k = new Scorer().reserve(scratchAt + hp * 16);
  const mem = k.f64;
  const w1tAt = pAt;
  const b1At = pAt + F * hp * 8;
  const w2At = b1At + hp * 8;
  const load = (): void => {
    for (let h = 0; h < H; h++) {
      for (let f = 0; f < F; f++) mem[w1tAt / 8 + f * hp + h] = p.w1[h * F + f]!;
      mem[b1At / 8 + h] = p.b1[h]!;
      mem[w2At / 8 + h] = p.w2[h]!;
    }
  };
  /** The kernel's weights back into p. */
  const unload = (): void => {
    for (let h = 0; h < H; h++) {
      for (let f = 0; f < F; f++) p.w1[h * F + f] = mem[w1tAt / 8 + f * hp + h]!;
      p.b1[h] = mem[b1At / 8 + h]!;
      p.w2[h] = mem[w2At / 8 + h]!;
    }
  };
  load();
  let mb2 = 0;
  let vb2 = 0;
  const zAll = new Float64Array(n * F);
  for (let i = 0; i < n; i++) standardizeRow({ mean, scale, numFeatures: F }, x.data, i * F, zAll.subarray(i * F, (i + 1) * F));
  const snapshot = (): MlpModel => {
    unload();
    return {
      numFeatures: F,
      hidden: H,
      mean: Float64Array.from(mean),
      scale: Float64Array.from(scale),
      w1: Float64Array.from(p.w1),
      b1: Float64Array.from(p.b1),
      w2: Float64Array.from(p.w2),
      b2: p.b2[0]!,
      ...(params.featureNames ? { featureNames: [...params.featureNames] } : init?.featureNames ? { featureNames: init.featureNames } : {}),
    };
  };
  let step = 0;
  let best: MlpModel | undefined;
  let bestLoss = Infinity;
  let bestEpoch = -1;
  for (let epoch = 0; epoch < epochs; epoch++) {
    if (params.signal?.aborted) throw new VitrineError('cancelled', 'training was cancelled');
    const order = rng.permutation(n);
    let epochLoss = 0;
    for (let start = 0; start < n; start += batch) {
      const end = Math.min(n, start + batch);
      const count = end - start;
      const even = count + (count & 1);
      // The batch's rows side by side (an odd batch gets a zero row, scored and then ignored).
      for (let r = 0; r < count; r++) {
        const o = order[start + r]! * F;
        const at = zbAt / 8 + r * F;
        for (let f = 0; f < F; f++) mem[at + f] = zAll[o + f]!;
      }
      if (even > count) mem.fill(0, zbAt / 8 + count * F, zbAt / 8 + even * F);
      mem.fill(0, gAt / 8, mAt / 8);
      const b2 = p.b2[0]!;
      k.exports.margins(zbAt, even, F, hp, w1tAt, b1At, w2At, b2, preAt, outAt);
      let wsum = 0;
      let gb2 = 0;
      for (let r = 0; r < count; r++) {
        const i = order[start + r]!;
        const wi = data.weights ? data.weights[i]! : 1;
        wsum += wi;
        const m = mem[outAt / 8 + r]!;
        const yi = y[i]!;
        const d = wi * (sigmoid(m) - yi);
        mem[dAt / 8 + r] = d;
        gb2 += d;
        epochLoss += wi * ((m > 0 ? m + Math.log1p(Math.exp(-m)) : Math.log1p(Math.exp(m))) - yi * m);
      }
      k.exports.backward(zbAt, count, F, hp, preAt, dAt, w2At, gAt, gAt + F * hp * 8, gAt + (F * hp + hp) * 8, scratchAt);
      const inv = wsum > 0 ? 1 / wsum : 0;
      step++;
      const c1 = 1 - beta1 ** step;
      const c2 = 1 - beta2 ** step;
      const adam = (offset: number, count2: number, decay: number): void =>
        k.exports.adam(pAt + offset, gAt + offset, mAt + offset, vAt + offset, count2, inv, decay, beta1, 1 - beta1, beta2, 1 - beta2, lr, c1, c2, eps);
      adam(0, F * hp, l2);
      adam(F * hp * 8, hp, 0);
      adam((F * hp + hp) * 8, hp, l2);
      // The output bias (one number) as the kernel does the rest.
      const g = gb2 * inv + 0 * b2;
      mb2 = beta1 * mb2 + (1 - beta1) * g;
      vb2 = beta2 * vb2 + (1 - beta2) * g * g;
      p.b2[0] = b2 - (lr * (mb2 / c1)) / (Math.sqrt(vb2 / c2) + eps);
    }
    let validationLoss: number | undefined;
    if (params.validation) {
      const current = snapshot();
      validationLoss = logLoss(predictMlp(current, params.validation.x), params.validation.y);
      if (validationLoss < bestLoss) {
        bestLoss = validationLoss;
        best = current;
        bestEpoch = epoch;
      }
    }
    params.onEpoch?.(validationLoss === undefined ? { epoch, trainLoss: epochLoss / Math.max(1, n) } : { epoch, trainLoss: epochLoss / Math.max(1, n), validationLoss });
    if (params.earlyStoppingEpochs !== undefined && bestEpoch >= 0 && epoch - bestEpoch >= params.earlyStoppingEpochs) break;
  }
  return params.earlyStoppingEpochs !== undefined && best ? best : snapshot();
}

export const MLP_FORMAT = 'vitrine-mlp-1';

const arr = z.array(z.number()).max(50_000_000);
export const mlpModelSchema = z
  .object({
    format: z.literal(MLP_FORMAT),
    num_features: z.number().int().min(1).max(1_000_000),
    hidden: z.number().int().min(1).max(4096),
    mean: arr,
    scale: z.array(z.number().positive()).max(1_000_000),
    w1: arr,
    b1: arr,
    w2: arr,
    b2: z.number(),
    feature_names: z.array(z.string().max(1000)).max(1_000_000).optional(),
    metadata: z.record(z.string().max(1000), z.json()).optional(),
  })
  .strict()
  .refine((m) => m.mean.length === m.num_features && m.scale.length === m.num_features, { message: 'one mean and scale per feature', path: ['mean'] })
  .refine((m) => m.w1.length === m.hidden * m.num_features && m.b1.length === m.hidden && m.w2.length === m.hidden, { message: 'weight shapes do not match', path: ['w1'] })
  .refine((m) => m.feature_names === undefined || m.feature_names.length === m.num_features, { message: 'one name per feature', path: ['feature_names'] });

export type MlpModelJson = z.output<typeof mlpModelSchema>;

export function mlpModelToJson(model: MlpModel): MlpModelJson {
  return validate(
    mlpModelSchema,
    {
      format: MLP_FORMAT,
      num_features: model.numFeatures,
      hidden: model.hidden,
      mean: Array.from(model.mean),
      scale: Array.from(model.scale),
      w1: Array.from(model.w1),
      b1: Array.from(model.b1),
      w2: Array.from(model.w2),
      b2: model.b2,
      ...(model.featureNames ? { feature_names: [...model.featureNames] } : {}),
      ...(model.metadata ? { metadata: { ...model.metadata } } : {}),
    },
    'network model',
  );
}

export function mlpModelFromJson(value: unknown): MlpModel {
  const m = validate(mlpModelSchema, value, 'network model');
  return {
    numFeatures: m.num_features,
    hidden: m.hidden,
    mean: Float64Array.from(m.mean),
    scale: Float64Array.from(m.scale),
    w1: Float64Array.from(m.w1),
    b1: Float64Array.from(m.b1),
    w2: Float64Array.from(m.w2),
    b2: m.b2,
    ...(m.feature_names ? { featureNames: m.feature_names } : {}),
    ...(m.metadata ? { metadata: m.metadata as Record<string, JsonValue> } : {}),
  };
}
