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
  /** Correction pairs kept (at least 1); default 10. */
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

/** What one iteration of the solver decided (`LbfgsRun.iterate`). */
const GO_ON = 0;
/** Stop: converged, after `iter` iterations. */
const CONVERGED_BEFORE = 1;
/** Stop after `iter` iterations, converged when the gradient is within the tolerance. */
const STOPPED = 2;
/** Stop: converged, after `iter + 1` iterations. */
const CONVERGED_AFTER = 3;
/** The same iteration again (Moré-Thuente's search failed and the pairs were dropped). */
const AGAIN = 4;

/**
 * The solver's state between iterations. Each iteration is one call of `iterate`, which returns what the iteration
 * decided as a number: the stopping paths the solver reaches once per run have no object to build or option to read
 * there, so V8's optimised code for `iterate` (which inlines the objective) stays valid from one run to the next
 * instead of being thrown away at the end of the first run and compiled again.
 */
class LbfgsRun {
  readonly n: number;
  readonly m: number;
  readonly gtol: number;
  readonly mt: boolean;
  /** options.relativeDecrease, NaN when not set (the test is then skipped). */
  readonly ftol: number;
  readonly x: Float64Array;
  readonly g: Float64Array;
  f: number;
  /**
   * The kept correction pairs, oldest first: s and y in S[k] and Y[k], 1 / s^T y in rho[k] and s^T y in sys[k] for
   * k < pairs (as L-BFGS-B computes it: Moré-Thuente uses sys). Preallocated m of each; the next pair is written into
   * sNext and yNext, which take the place of the oldest pair's arrays when it is dropped.
   */
  pairs = 0;
  readonly S: Float64Array[] = [];
  readonly Y: Float64Array[] = [];
  readonly rho: Float64Array;
  readonly sys: Float64Array;
  sNext: Float64Array;
  yNext: Float64Array;
  readonly alpha: Float64Array;
  readonly d: Float64Array;
  readonly xNew: Float64Array;
  readonly gNew: Float64Array;

  constructor(
    readonly fg: ObjectiveWithGradient,
    x0: Float64Array,
    options: LbfgsOptions,
  ) {
    const n = x0.length;
    this.n = n;
    this.gtol = options.gradientTolerance ?? 1e-9;
    this.m = Math.max(1, options.memory ?? 10);
    this.mt = options.lineSearch === 'more-thuente';
    this.ftol = options.relativeDecrease ?? NaN;
    this.x = Float64Array.from(x0);
    this.g = new Float64Array(n);
    this.f = fg(this.x, this.g);
    for (let k = 0; k < this.m; k++) {
      this.S.push(new Float64Array(n));
      this.Y.push(new Float64Array(n));
    }
    this.rho = new Float64Array(this.m);
    this.sys = new Float64Array(this.m);
    this.sNext = new Float64Array(n);
    this.yNext = new Float64Array(n);
    this.alpha = new Float64Array(this.m);
    this.d = new Float64Array(n);
    this.xNew = new Float64Array(n);
    this.gNew = new Float64Array(n);
  }

  /**
   * Iteration `iter`: GO_ON, or how the run stops. first: the initial inverse Hessian's scale when no pair is kept,
   * from `firstScale` (the driver computes it: code that runs only in a run's first calls would have no type feedback
   * in the optimised `iterate` and throw it away when reached again).
   */
  iterate(iter: number, first: number): number {
    const { n, gtol, mt, x, g, S, Y, rho, sys, alpha, d, xNew, gNew, fg } = this;
    if (maxAbs(g) <= gtol) return CONVERGED_BEFORE;
    // Two-loop recursion: d = -H g.
    d.set(g);
    for (let k = this.pairs - 1; k >= 0; k--) {
      alpha[k] = rho[k]! * dot(S[k]!, d);
      const a = alpha[k]!;
      const y = Y[k]!;
      for (let i = 0; i < n; i++) d[i] = d[i]! - a * y[i]!;
    }
    // The initial inverse Hessian gamma I: s^T y / y^T y of the last pair; without pairs 1 / max(1, |g|) for the
    // backtracking search (`first`), and 1 for Moré-Thuente (whose first step is 1 / |d| instead).
    const last = this.pairs - 1;
    const gamma = this.pairs > 0 ? (mt ? sys[last]! : dot(S[last]!, Y[last]!)) / dot(Y[last]!, Y[last]!) : mt ? 1 : first;
    if (gamma !== 1) for (let i = 0; i < n; i++) d[i] = d[i]! * gamma;
    for (let k = 0; k < this.pairs; k++) {
      const b = rho[k]! * dot(Y[k]!, d);
      const s = S[k]!;
      const coef = alpha[k]! - b;
      for (let i = 0; i < n; i++) d[i] = d[i]! + coef * s[i]!;
    }
    for (let i = 0; i < n; i++) d[i] = -d[i]!;
    let slope = dot(g, d);
    if (!(slope < 0)) {
      // Not a descent direction (numerical trouble): restart from steepest descent.
      this.pairs = 0;
      for (let i = 0; i < n; i++) d[i] = -g[i]!;
      slope = dot(g, d);
    }
    if (mt) {
      const found = moreThuente(fg, x, this.f, d, slope, iter === 0 ? Math.min(1 / Math.sqrt(dot(d, d)), MT_STPMAX) : 1, xNew, gNew);
      if (!found) {
        // As L-BFGS-B: without pairs the search has failed for good; with them, drop them and try steepest descent.
        if (this.pairs === 0) return STOPPED;
        this.pairs = 0;
        return AGAIN;
      }
      const { step } = found;
      // L-BFGS-B's pair: s = step d, y = g_new - g, s^T y = step (g_new^T d - g^T d), kept when above machine
      // epsilon times -step g^T d.
      const sy = (found.slope - slope) * step;
      if (sy > Number.EPSILON * (-slope * step)) {
        const s = this.sNext;
        const y = this.yNext;
        for (let i = 0; i < n; i++) {
          s[i] = step * d[i]!;
          y[i] = gNew[i]! - g[i]!;
        }
        this.keep(sy);
      }
      x.set(xNew);
      g.set(gNew);
      return this.moved(found.value);
    }
    let step = 1;
    let fNew = NaN;
    let accepted = false;
    for (let tries = 0; tries < 60; tries++) {
      for (let i = 0; i < n; i++) xNew[i] = x[i]! + step * d[i]!;
      fNew = fg(xNew, gNew);
      if (fNew <= this.f + 1e-4 * step * slope) {
        accepted = true;
        break;
      }
      step *= 0.5;
    }
    if (!accepted) return STOPPED;
    const s = this.sNext;
    const y = this.yNext;
    for (let i = 0; i < n; i++) {
      s[i] = xNew[i]! - x[i]!;
      y[i] = gNew[i]! - g[i]!;
    }
    const sy = dot(s, y);
    // Keep the pair only with positive curvature, which keeps the implicit Hessian positive definite.
    if (sy > 1e-12 * Math.sqrt(dot(s, s) * dot(y, y))) this.keep(sy);
    x.set(xNew);
    g.set(gNew);
    return this.moved(fNew);
  }

  /** Keeps sNext and yNext as the newest pair (s^T y = sy), dropping the oldest when m are kept. */
  private keep(sy: number): void {
    const { S, Y, rho, sys, m } = this;
    const s = this.sNext;
    const y = this.yNext;
    if (this.pairs === m) {
      this.sNext = S[0]!;
      this.yNext = Y[0]!;
      for (let k = 0; k + 1 < m; k++) {
        S[k] = S[k + 1]!;
        Y[k] = Y[k + 1]!;
      }
      rho.copyWithin(0, 1);
      sys.copyWithin(0, 1);
      this.pairs = m - 1;
    } else {
      this.sNext = S[this.pairs]!;
      this.yNext = Y[this.pairs]!;
    }
    S[this.pairs] = s;
    Y[this.pairs] = y;
    rho[this.pairs] = 1 / sy;
    sys[this.pairs] = sy;
    this.pairs++;
  }

  /** After a step to a point of value fNew: SciPy's relative-decrease test, and a change below 1e-16 relative. */
  private moved(fNew: number): number {
    const fOld = this.f;
    const f = fNew;
    this.f = f;
    if (this.ftol === this.ftol && fOld - f <= this.ftol * Math.max(Math.abs(fOld), Math.abs(f), 1)) return CONVERGED_AFTER;
    if (Math.abs(fOld - f) <= 1e-16 * Math.max(1, Math.abs(f)) && maxAbs(this.g) <= this.gtol * 1e3) return CONVERGED_AFTER;
    return GO_ON;
  }
}

/** The backtracking search's initial inverse Hessian scale without pairs: 1 / max(1, |g|). */
function firstScale(g: Float64Array): number {
  return 1 / Math.max(1, Math.sqrt(dot(g, g)));
}

/**
 * Minimises fg from x0 (Nocedal and Wright, Numerical Optimization, algorithm 7.4, with the line search of
 * `options.lineSearch`; with 'more-thuente' the iteration is SciPy L-BFGS-B's without bounds).
 */
export function minimizeLbfgs(fg: ObjectiveWithGradient, x0: Float64Array, options: LbfgsOptions = {}): LbfgsResult {
  const maxIter = options.maxIterations ?? 1000;
  const run = new LbfgsRun(fg, x0, options);
  let iter = 0;
  while (iter < maxIter) {
    const next = run.iterate(iter, run.pairs > 0 || run.mt ? 1 : firstScale(run.g));
    if (next === GO_ON) iter++;
    else if (next === CONVERGED_BEFORE) return { x: run.x, value: run.f, iterations: iter, converged: true };
    else if (next === CONVERGED_AFTER) return { x: run.x, value: run.f, iterations: iter + 1, converged: true };
    else if (next === STOPPED) return { x: run.x, value: run.f, iterations: iter, converged: maxAbs(run.g) <= run.gtol };
  }
  return { x: run.x, value: run.f, iterations: iter, converged: maxAbs(run.g) <= run.gtol };
}
