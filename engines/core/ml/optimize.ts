// Limited-memory BFGS for smooth unconstrained minimisation (the logistic regression trainer's solver), with a backtracking
// Armijo line search or Moré and Thuente's line search (the one SciPy's L-BFGS-B runs).

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
  /**
   * 'backtracking' (default): halve a unit step until the Armijo condition holds. 'more-thuente': SciPy L-BFGS-B's
   * search (MINPACK-2 dcsrch: sufficient decrease 1e-3, curvature 0.9, interval tolerance 0.1, at most 20 evaluations
   * a search, the first step 1 / |d| on the first iteration) and its curvature test for keeping a correction pair.
   */
  readonly lineSearch?: 'backtracking' | 'more-thuente';
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

/** Moré and Thuente's constants as SciPy's L-BFGS-B sets them. */
const MT_FTOL = 1e-3;
const MT_GTOL = 0.9;
const MT_XTOL = 0.1;
const MT_STPMAX = 1e10;
const MT_STPMIN = 0;
const MT_MAX_EVALUATIONS = 20;
const XTRAPL = 1.1;
const XTRAPU = 4;

/** The interval dcstep works on: its ends stx (the best step so far) and sty, their values and derivatives. */
interface Interval {
  stx: number;
  fx: number;
  dx: number;
  sty: number;
  fy: number;
  dy: number;
  brackt: boolean;
}

/**
 * One safeguarded step of Moré and Thuente's search (MINPACK-2 dcstep): the interval is updated with the trial step
 * stp (value fp, derivative dp), and the next trial step returned.
 */
function dcstep(iv: Interval, stp: number, fp: number, dp: number, stpmin: number, stpmax: number): number {
  const { stx, fx, dx, sty, fy, dy } = iv;
  const sgnd = dp * (dx / Math.abs(dx));
  let stpf: number;
  if (fp > fx) {
    // A higher value: the minimum is bracketed; the cubic step, or halfway to the quadratic one when that is closer.
    const theta = (3 * (fx - fp)) / (stp - stx) + dx + dp;
    const s = Math.max(Math.abs(theta), Math.abs(dx), Math.abs(dp));
    let gamma = s * Math.sqrt((theta / s) ** 2 - (dx / s) * (dp / s));
    if (stp < stx) gamma = -gamma;
    const p = gamma - dx + theta;
    const q = gamma - dx + gamma + dp;
    const r = p / q;
    const stpc = stx + r * (stp - stx);
    const stpq = stx + (dx / ((fx - fp) / (stp - stx) + dx) / 2) * (stp - stx);
    stpf = Math.abs(stpc - stx) < Math.abs(stpq - stx) ? stpc : stpc + (stpq - stpc) / 2;
    iv.brackt = true;
  } else if (sgnd < 0) {
    // Derivatives of opposite sign: bracketed; the cubic or secant step, whichever is farther from stp.
    const theta = (3 * (fx - fp)) / (stp - stx) + dx + dp;
    const s = Math.max(Math.abs(theta), Math.abs(dx), Math.abs(dp));
    let gamma = s * Math.sqrt((theta / s) ** 2 - (dx / s) * (dp / s));
    if (stp > stx) gamma = -gamma;
    const p = gamma - dp + theta;
    const q = gamma - dp + gamma + dx;
    const r = p / q;
    const stpc = stp + r * (stx - stp);
    const stpq = stp + (dp / (dp - dx)) * (stx - stp);
    stpf = Math.abs(stpc - stp) > Math.abs(stpq - stp) ? stpc : stpq;
    iv.brackt = true;
  } else if (Math.abs(dp) < Math.abs(dx)) {
    // A lower value, the same sign of derivative, and its magnitude decreasing.
    const theta = (3 * (fx - fp)) / (stp - stx) + dx + dp;
    const s = Math.max(Math.abs(theta), Math.abs(dx), Math.abs(dp));
    let gamma = s * Math.sqrt(Math.max(0, (theta / s) ** 2 - (dx / s) * (dp / s)));
    if (stp > stx) gamma = -gamma;
    const p = gamma - dp + theta;
    const q = gamma + (dx - dp) + gamma;
    const r = p / q;
    let stpc: number;
    if (r < 0 && gamma !== 0) stpc = stp + r * (stx - stp);
    else if (stp > stx) stpc = stpmax;
    else stpc = stpmin;
    const stpq = stp + (dp / (dp - dx)) * (stx - stp);
    if (iv.brackt) {
      stpf = Math.abs(stpc - stp) < Math.abs(stpq - stp) ? stpc : stpq;
      stpf = stp > stx ? Math.min(stp + 0.66 * (sty - stp), stpf) : Math.max(stp + 0.66 * (sty - stp), stpf);
    } else {
      stpf = Math.abs(stpc - stp) > Math.abs(stpq - stp) ? stpc : stpq;
      stpf = Math.max(stpmin, Math.min(stpmax, stpf));
    }
  } else if (iv.brackt) {
    // A lower value, the same sign of derivative, its magnitude not decreasing: the cubic step towards sty.
    const theta = (3 * (fp - fy)) / (sty - stp) + dy + dp;
    const s = Math.max(Math.abs(theta), Math.abs(dy), Math.abs(dp));
    let gamma = s * Math.sqrt((theta / s) ** 2 - (dy / s) * (dp / s));
    if (stp > sty) gamma = -gamma;
    const p = gamma - dp + theta;
    const q = gamma - dp + gamma + dy;
    const r = p / q;
    stpf = stp + r * (sty - stp);
  } else stpf = stp > stx ? stpmax : stpmin;
  if (fp > fx) {
    iv.sty = stp;
    iv.fy = fp;
    iv.dy = dp;
  } else {
    if (sgnd < 0) {
      iv.sty = stx;
      iv.fy = fx;
      iv.dy = dx;
    }
    iv.stx = stp;
    iv.fx = fp;
    iv.dx = dp;
  }
  return stpf;
}

/**
 * Moré-Thuente search along d from x (value f, directional derivative slope < 0), trying `stp` first: xNew and gNew
 * end at the accepted point. Returns its step and value, or null when MT_MAX_EVALUATIONS pass without one.
 */
function moreThuente(
  fg: ObjectiveWithGradient,
  x: Float64Array,
  f: number,
  d: Float64Array,
  slope: number,
  first: number,
  xNew: Float64Array,
  gNew: Float64Array,
): { step: number; value: number; slope: number } | null {
  const n = x.length;
  const gtest = MT_FTOL * slope;
  // dcsrch's saved state: the interval, the stage, the widths and the bounds of the next trial step.
  const iv: Interval = { stx: 0, fx: f, dx: slope, sty: 0, fy: f, dy: slope, brackt: false };
  let stage = 1;
  let width = MT_STPMAX - MT_STPMIN;
  let width1 = width / 0.5;
  let stmin = 0;
  let stmax = first + XTRAPU * first;
  let stp = first;
  for (let evals = 0; evals < MT_MAX_EVALUATIONS; evals++) {
    if (stp === 1) for (let i = 0; i < n; i++) xNew[i] = x[i]! + d[i]!;
    else for (let i = 0; i < n; i++) xNew[i] = stp * d[i]! + x[i]!;
    const fp = fg(xNew, gNew);
    const gp = dot(gNew, d);
    if (!Number.isFinite(fp) || !Number.isFinite(gp)) {
      // Outside the function's finite domain (not a case of dcsrch): halfway back to the best step so far, which
      // also caps the steps tried after.
      if (!(stp > iv.stx)) return null;
      stmax = stp;
      stp = iv.stx + 0.5 * (stp - iv.stx);
      continue;
    }
    const ftest = f + stp * gtest;
    if (stage === 1 && fp <= ftest && gp >= 0) stage = 2;
    // dcsrch's warnings end the search at this point as its convergence does (L-BFGS-B takes the point either way).
    const done =
      (iv.brackt && (stp <= stmin || stp >= stmax)) ||
      (iv.brackt && stmax - stmin <= MT_XTOL * stmax) ||
      (stp === MT_STPMAX && fp <= ftest && gp <= gtest) ||
      (stp === MT_STPMIN && (fp > ftest || gp >= gtest)) ||
      (fp <= ftest && Math.abs(gp) <= MT_GTOL * -slope);
    if (done) return { step: stp, value: fp, slope: gp };
    if (stage === 1 && fp <= iv.fx && fp > ftest) {
      // In the first stage, with a value below the best's and above the sufficient-decrease line, the step is chosen
      // on psi(a) = f(a) - a gtest, and the interval's values are shifted back after.
      const sh: Interval = { stx: iv.stx, fx: iv.fx - iv.stx * gtest, dx: iv.dx - gtest, sty: iv.sty, fy: iv.fy - iv.sty * gtest, dy: iv.dy - gtest, brackt: iv.brackt };
      stp = dcstep(sh, stp, fp - stp * gtest, gp - gtest, stmin, stmax);
      iv.stx = sh.stx;
      iv.sty = sh.sty;
      iv.brackt = sh.brackt;
      iv.fx = sh.fx + sh.stx * gtest;
      iv.fy = sh.fy + sh.sty * gtest;
      iv.dx = sh.dx + gtest;
      iv.dy = sh.dy + gtest;
    } else stp = dcstep(iv, stp, fp, gp, stmin, stmax);
    if (iv.brackt) {
      // Bisect when the interval did not shrink enough in two steps.
      if (Math.abs(iv.sty - iv.stx) >= 0.66 * width1) stp = iv.stx + 0.5 * (iv.sty - iv.stx);
      width1 = width;
      width = Math.abs(iv.sty - iv.stx);
      stmin = Math.min(iv.stx, iv.sty);
      stmax = Math.max(iv.stx, iv.sty);
    } else {
      stmin = stp + XTRAPL * (stp - iv.stx);
      stmax = stp + XTRAPU * (stp - iv.stx);
    }
    stp = Math.min(Math.max(stp, MT_STPMIN), MT_STPMAX);
    if ((iv.brackt && (stp <= stmin || stp >= stmax)) || (iv.brackt && stmax - stmin <= MT_XTOL * stmax)) stp = iv.stx;
  }
  return null;
}

/**
 * Minimises fg from x0 (Nocedal and Wright, Numerical Optimization, algorithm 7.4, with the line search of
 * `options.lineSearch`; with 'more-thuente' the iteration is SciPy L-BFGS-B's without bounds).
 */
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
  /** s^T y of each kept pair, as L-BFGS-B computes it (Moré-Thuente only). */
  const sys: number[] = [];
  const mt = options.lineSearch === 'more-thuente';
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
    // The initial inverse Hessian gamma I: s^T y / y^T y of the last pair; without pairs 1 / max(1, |g|) for the
    // backtracking search, and 1 for Moré-Thuente (whose first step is 1 / |d| instead).
    const last = S.length - 1;
    const gamma = S.length > 0 ? (mt ? sys[last]! : dot(S[last]!, Y[last]!)) / dot(Y[last]!, Y[last]!) : mt ? 1 : 1 / Math.max(1, Math.sqrt(dot(g, g)));
    if (gamma !== 1) for (let i = 0; i < n; i++) d[i] = d[i]! * gamma;
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
      sys.length = 0;
      for (let i = 0; i < n; i++) d[i] = -g[i]!;
      slope = dot(g, d);
    }
    if (mt) {
      const found = moreThuente(fg, x, f, d, slope, iter === 0 ? Math.min(1 / Math.sqrt(dot(d, d)), MT_STPMAX) : 1, xNew, gNew);
      if (!found) {
        // As L-BFGS-B: without pairs the search has failed for good; with them, drop them and try steepest descent.
        if (S.length === 0) return { x, value: f, iterations: iter, converged: maxAbs(g) <= gtol };
        S.length = 0;
        Y.length = 0;
        rho.length = 0;
        sys.length = 0;
        iter--;
        continue;
      }
      const { step } = found;
      // L-BFGS-B's pair: s = step d, y = g_new - g, s^T y = step (g_new^T d - g^T d), kept when above machine
      // epsilon times -step g^T d.
      const sy = (found.slope - slope) * step;
      if (sy > Number.EPSILON * (-slope * step)) {
        const s = new Float64Array(n);
        const y = new Float64Array(n);
        for (let i = 0; i < n; i++) {
          s[i] = step * d[i]!;
          y[i] = gNew[i]! - g[i]!;
        }
        if (S.length === m) {
          S.shift();
          Y.shift();
          rho.shift();
          sys.shift();
        }
        S.push(s);
        Y.push(y);
        rho.push(1 / sy);
        sys.push(sy);
      }
      x.set(xNew);
      g.set(gNew);
      const fOld = f;
      f = found.value;
      if (options.relativeDecrease !== undefined && fOld - f <= options.relativeDecrease * Math.max(Math.abs(fOld), Math.abs(f), 1)) return { x, value: f, iterations: iter + 1, converged: true };
      if (Math.abs(fOld - f) <= 1e-16 * Math.max(1, Math.abs(f)) && maxAbs(g) <= gtol * 1e3) return { x, value: f, iterations: iter + 1, converged: true };
      continue;
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
