// Limited-memory BFGS for smooth unconstrained minimisation (the logistic regression trainer's solver), with a backtracking Armijo line search.

export interface LbfgsOptions {
  /** Iteration limit; default 1000. */
  readonly maxIterations?: number;
  /** Stop when the largest gradient component is at most this; default 1e-9. */
  readonly gradientTolerance?: number;
  /**
   * Also stop when an iteration lowers the value by at most this share of max(|f_old|, |f_new|, 1) (SciPy
   * L-BFGS-B's `ftol` test); default: only a change below 1e-16 relative with a gradient within 1e3 times the tolerance.
   */
  readonly relativeDecrease?: number;
  /** Correction pairs kept; default 10. */
  readonly memory?: number;
}

export interface LbfgsResult {
  readonly x: Float64Array;
  readonly value: number;
  readonly iterations: number;
  readonly converged: boolean;
}

/** `fg(x, grad)` writes the gradient at x into grad and returns the function value. */
export type ObjectiveWithGradient = (x: Float64Array, grad: Float64Array) => number;

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function maxAbs(a: Float64Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]!));
  return m;
}

/** Minimises fg from x0 (Nocedal and Wright, Numerical Optimization, algorithm 7.4 with a backtracking search). */
export function minimizeLbfgs(fg: ObjectiveWithGradient, x0: Float64Array, options: LbfgsOptions = {}): LbfgsResult {
  const n = x0.length;
  const maxIter = options.maxIterations ?? 1000;
  const gtol = options.gradientTolerance ?? 1e-9;
  const m = options.memory ?? 10;
  const x = Float64Array.from(x0);
  const g = new Float64Array(n);
  let f = fg(x, g);
  const S: Float64Array[] = [];
  const Y: Float64Array[] = [];
  const rho: number[] = [];
  const alpha = new Float64Array(m);
  const d = new Float64Array(n);
  const xNew = new Float64Array(n);
  const gNew = new Float64Array(n);
  let iter = 0;
  for (; iter < maxIter; iter++) {
    if (maxAbs(g) <= gtol) return { x, value: f, iterations: iter, converged: true };
    // Two-loop recursion: d = -H g.
    d.set(g);
    for (let k = S.length - 1; k >= 0; k--) {
      alpha[k] = rho[k]! * dot(S[k]!, d);
      const a = alpha[k]!;
      const y = Y[k]!;
      for (let i = 0; i < n; i++) d[i] = d[i]! - a * y[i]!;
    }
    const gamma = S.length > 0 ? dot(S[S.length - 1]!, Y[Y.length - 1]!) / dot(Y[Y.length - 1]!, Y[Y.length - 1]!) : 1 / Math.max(1, Math.sqrt(dot(g, g)));
    for (let i = 0; i < n; i++) d[i] = d[i]! * gamma;
    for (let k = 0; k < S.length; k++) {
      const b = rho[k]! * dot(Y[k]!, d);
      const s = S[k]!;
      const coef = alpha[k]! - b;
      for (let i = 0; i < n; i++) d[i] = d[i]! + coef * s[i]!;
    }
    for (let i = 0; i < n; i++) d[i] = -d[i]!;
    let slope = dot(g, d);
    if (!(slope < 0)) {
      // Not a descent direction (numerical trouble): restart from steepest descent.
      S.length = 0;
      Y.length = 0;
      rho.length = 0;
      for (let i = 0; i < n; i++) d[i] = -g[i]!;
      slope = dot(g, d);
    }
    let step = 1;
    let fNew = NaN;
    let accepted = false;
    for (let tries = 0; tries < 60; tries++) {
      for (let i = 0; i < n; i++) xNew[i] = x[i]! + step * d[i]!;
      fNew = fg(xNew, gNew);
      if (fNew <= f + 1e-4 * step * slope) {
        accepted = true;
        break;
      }
      step *= 0.5;
    }
    if (!accepted) return { x, value: f, iterations: iter, converged: maxAbs(g) <= gtol };
    const s = new Float64Array(n);
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      s[i] = xNew[i]! - x[i]!;
      y[i] = gNew[i]! - g[i]!;
    }
    const sy = dot(s, y);
    // Keep the pair only with positive curvature, which keeps the implicit Hessian positive definite.
    if (sy > 1e-12 * Math.sqrt(dot(s, s) * dot(y, y))) {
      if (S.length === m) {
        S.shift();
        Y.shift();
        rho.shift();
      }
      S.push(s);
      Y.push(y);
      rho.push(1 / sy);
    }
    x.set(xNew);
    g.set(gNew);
    const fOld = f;
    f = fNew;
    if (options.relativeDecrease !== undefined && fOld - f <= options.relativeDecrease * Math.max(Math.abs(fOld), Math.abs(f), 1)) return { x, value: f, iterations: iter + 1, converged: true };
    if (Math.abs(fOld - f) <= 1e-16 * Math.max(1, Math.abs(f)) && maxAbs(g) <= gtol * 1e3) return { x, value: f, iterations: iter + 1, converged: true };
  }
  return { x, value: f, iterations: iter, converged: maxAbs(g) <= gtol };
}
