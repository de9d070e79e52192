// L2-regularised logistic regression without dependencies: the linear demo model's training, scoring and exact attributions.
//
// Written here because engines/core/ml had no linear model when this landed; it is small and self-contained so it can move there.

/** The fitted transform and weights. A raw value x becomes t = clip((slog(x) - mean) / scale); margin = bias + sum(w * t). */
export interface LinearParams {
  readonly weights: Float64Array;
  readonly bias: number;
  readonly mean: Float64Array;
  /** 0 for a feature that never varied in training (it is then ignored). */
  readonly scale: Float64Array;
  /** Standardised values are clipped to [-clip, clip], so one extreme value cannot dominate. */
  readonly clip: number;
}

export interface TrainOptions {
  /** L2 penalty on the weights (default 0.05). */
  readonly l2?: number;
  /** Gradient steps (default 400). */
  readonly iterations?: number;
  /** Clip of standardised values (default 8). */
  readonly clip?: number;
  /** Weigh classes so each contributes half the loss (default true). */
  readonly balanced?: boolean;
  /** Called every 50 steps with the fraction done, for progress reports; return true to stop early. */
  readonly onStep?: (fraction: number) => boolean | void;
}

/** Signed log: large counts, sizes and timestamps compress; small fractions barely change. */
export function slog(x: number): number {
  return x >= 0 ? Math.log1p(x) : -Math.log1p(-x);
}

export function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

/** t(x) into `out` (allocated when absent). */
export function transform(params: Pick<LinearParams, 'mean' | 'scale' | 'clip'>, x: ArrayLike<number>, out = new Float64Array(params.mean.length)): Float64Array {
  const { mean, scale, clip } = params;
  for (let i = 0; i < mean.length; i++) {
    const s = scale[i] as number;
    if (s === 0) {
      out[i] = 0;
      continue;
    }
    const z = (slog(x[i] ?? 0) - (mean[i] as number)) / s;
    out[i] = z > clip ? clip : z < -clip ? -clip : z;
  }
  return out;
}

export function linearMargin(params: LinearParams, x: ArrayLike<number>): number {
  const t = transform(params, x);
  let m = params.bias;
  for (let i = 0; i < t.length; i++) m += (params.weights[i] as number) * (t[i] as number);
  return m;
}

/**
 * Exact attributions of a linear model: feature i contributes w_i * t_i(x), the change in margin from the
 * training mean (where every t is 0) to x in that feature alone. They add up with the bias to the margin exactly;
 * for a linear model with independent features these are the Shapley values with the training mean as background.
 */
export function linearContributions(params: LinearParams, x: ArrayLike<number>): { margin: number; contributions: Float64Array } {
  const t = transform(params, x);
  const contributions = new Float64Array(t.length);
  let margin = params.bias;
  for (let i = 0; i < t.length; i++) {
    const c = (params.weights[i] as number) * (t[i] as number);
    contributions[i] = c;
    margin += c;
  }
  return { margin, contributions };
}

/** Fits L2-regularised logistic regression by accelerated gradient descent (Nesterov) with a step of 1/L from a bound on the curvature. */
export function trainLogistic(rows: readonly ArrayLike<number>[], labels: ArrayLike<number>, options: TrainOptions = {}): LinearParams {
  const n = rows.length;
  if (n === 0) throw new RangeError('no training rows');
  const d = rows[0]?.length ?? 0;
  const l2 = options.l2 ?? 0.05;
  const iterations = options.iterations ?? 400;
  const clip = options.clip ?? 8;

  // The transform: mean and standard deviation of slog(x).
  const mean = new Float64Array(d);
  const sq = new Float64Array(d);
  for (const r of rows)
    for (let j = 0; j < d; j++) {
      const v = slog(r[j] ?? 0);
      mean[j]! += v;
      sq[j]! += v * v;
    }
  const scale = new Float64Array(d);
  for (let j = 0; j < d; j++) {
    mean[j] = (mean[j] as number) / n;
    const variance = (sq[j] as number) / n - (mean[j] as number) ** 2;
    scale[j] = variance > 1e-12 ? Math.sqrt(variance) : 0;
  }
  const active = [...scale.keys()].filter((j) => (scale[j] as number) > 0);
  const z = rows.map((r) => {
    const t = transform({ mean, scale, clip }, r);
    return Float64Array.from(active, (j) => t[j] as number);
  });
  const k = active.length;

  // Row weights: each class carries half the loss when balanced.
  let positives = 0;
  for (let i = 0; i < n; i++) positives += (labels[i] as number) > 0.5 ? 1 : 0;
  const balanced = options.balanced !== false && positives > 0 && positives < n;
  const rowWeight = Float64Array.from({ length: n }, (_, i) => (balanced ? ((labels[i] as number) > 0.5 ? n / (2 * positives) : n / (2 * (n - positives))) : 1));

  // Curvature bound: the Hessian of the mean weighted log-loss is at most max(w)/4 * (mean squared row norm) + l2.
  let rowNorm = 0;
  for (const r of z) for (let j = 0; j < k; j++) rowNorm += (r[j] as number) ** 2;
  const maxWeight = Math.max(...rowWeight);
  const lipschitz = (maxWeight / 4) * (rowNorm / n + 1) + l2;
  const step = 1 / lipschitz;

  let w = new Float64Array(k);
  let b = 0;
  let prevW = new Float64Array(k);
  let prevB = 0;
  const grad = new Float64Array(k);
  for (let it = 0; it < iterations; it++) {
    // Nesterov look-ahead point.
    const mom = it / (it + 3);
    const yW = new Float64Array(k);
    for (let j = 0; j < k; j++) yW[j] = (w[j] as number) + mom * ((w[j] as number) - (prevW[j] as number));
    const yB = b + mom * (b - prevB);
    grad.fill(0);
    let gradB = 0;
    for (let i = 0; i < n; i++) {
      const r = z[i] as Float64Array;
      let m = yB;
      for (let j = 0; j < k; j++) m += (yW[j] as number) * (r[j] as number);
      const e = ((sigmoid(m) - (labels[i] as number)) * (rowWeight[i] as number)) / n;
      gradB += e;
      for (let j = 0; j < k; j++) grad[j]! += e * (r[j] as number);
    }
    prevW = w;
    prevB = b;
    w = new Float64Array(k);
    for (let j = 0; j < k; j++) w[j] = (yW[j] as number) - step * ((grad[j] as number) + l2 * (yW[j] as number));
    b = yB - step * gradB;
    if ((it + 1) % 50 === 0 && options.onStep?.((it + 1) / iterations) === true) break;
  }

  const weights = new Float64Array(d);
  active.forEach((j, i) => (weights[j] = w[i] as number));
  return { weights, bias: b, mean, scale, clip };
}
