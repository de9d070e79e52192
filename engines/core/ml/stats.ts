// Statistics the studies report: mean and deviation, Student-t and normal distributions, and the Student-t and Wilson intervals.

/** Arithmetic mean; NaN for no values. */
export function mean(values: ArrayLike<number>): number {
  if (values.length === 0) return NaN;
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i]!;
  return s / values.length;
}

/** Sample variance (n - 1 in the denominator, Welford's update for accuracy); NaN below two values. */
export function variance(values: ArrayLike<number>): number {
  if (values.length < 2) return NaN;
  let m = 0;
  let m2 = 0;
  for (let i = 0; i < values.length; i++) {
    const x = values[i]!;
    const d = x - m;
    m += d / (i + 1);
    m2 += d * (x - m);
  }
  return m2 / (values.length - 1);
}

/** Sample standard deviation (n - 1). */
export function standardDeviation(values: ArrayLike<number>): number {
  return Math.sqrt(variance(values));
}

const LANCZOS = [
  0.9999999999998099, 676.5203681218851, -1259.1392167224028, 771.3234287776531, -176.6150291621406, 12.507343278686905,
  -0.13857109526572012, 0.000009984369578019572, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0 (Lanczos, g = 7; about 15 significant digits). */
export function logGamma(x: number): number {
  if (!(x > 0)) return NaN;
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0]!;
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i]! / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

/** Continued fraction of the incomplete beta function (modified Lentz). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 10000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-16) break;
  }
  return h;
}

/**
 * Regularised incomplete beta I_x(a, b). `y` is 1 - x, passed separately when the caller can compute it
 * without cancellation (the Student-t tails need that).
 */
export function incompleteBeta(x: number, a: number, b: number, y = 1 - x): number {
  if (!(a > 0 && b > 0) || Number.isNaN(x)) return NaN;
  if (x <= 0) return 0;
  if (y <= 0) return 1;
  const lnFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log(y);
  if (x < (a + 1) / (a + b + 2)) return (Math.exp(lnFront) * betaContinuedFraction(a, b, x)) / a;
  return 1 - (Math.exp(lnFront) * betaContinuedFraction(b, a, y)) / b;
}

/** Regularised lower incomplete gamma P(a, x) (series below a + 1, continued fraction above). */
export function incompleteGamma(a: number, x: number): number {
  if (!(a > 0) || Number.isNaN(x)) return NaN;
  if (x <= 0) return 0;
  return x < a + 1 ? gammaSeries(a, x) : 1 - gammaContinuedFraction(a, x);
}

function gammaSeries(a: number, x: number): number {
  let ap = a;
  let sum = 1 / a;
  let del = sum;
  for (let n = 0; n < 10000; n++) {
    ap += 1;
    del *= x / ap;
    sum += del;
    if (Math.abs(del) < Math.abs(sum) * 1e-17) break;
  }
  return sum * Math.exp(-x + a * Math.log(x) - logGamma(a));
}

/** Upper regularised Q(a, x) by continued fraction (modified Lentz). */
function gammaContinuedFraction(a: number, x: number): number {
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 10000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const del = d * c;
    h *= del;
    if (Math.abs(del - 1) < 1e-16) break;
  }
  return Math.exp(-x + a * Math.log(x) - logGamma(a)) * h;
}

/** Regularised upper incomplete gamma Q(a, x) = 1 - P(a, x), computed directly in the upper tail. */
export function upperIncompleteGamma(a: number, x: number): number {
  if (!(a > 0) || Number.isNaN(x)) return NaN;
  if (x <= 0) return 1;
  return x < a + 1 ? 1 - gammaSeries(a, x) : gammaContinuedFraction(a, x);
}

/** Standard normal cumulative distribution Φ(x), accurate in both tails. */
export function normalCdf(x: number): number {
  if (Number.isNaN(x)) return NaN;
  if (x === Infinity) return 1;
  if (x === -Infinity) return 0;
  // Φ(x) = Q(1/2, x²/2) / 2 below zero; the small tail is never formed as a difference.
  const tail = 0.5 * upperIncompleteGamma(0.5, (x * x) / 2);
  return x < 0 ? tail : 1 - tail;
}

/** Quantile of the standard normal distribution (Wichura's AS 241, PPND16: about 16 significant digits). */
export function normalQuantile(p: number): number {
  if (Number.isNaN(p) || p < 0 || p > 1) return NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q;
    return (
      (q *
        (((((((r * 2509.0809287301227 + 33430.57558358813) * r + 67265.7709270087) * r + 45921.95393154987) * r +
          13731.69376550946) *
          r +
          1971.5909503065513) *
          r +
          133.14166789178438) *
          r +
          3.3871328727963665)) /
      (((((((r * 5226.495278852546 + 28729.085735721943) * r + 39307.89580009271) * r + 21213.794301586597) * r +
        5394.196021424751) *
        r +
        687.1870074920579) *
        r +
        42.31333070160091) *
        r +
        1)
    );
  }
  let r = q < 0 ? p : 1 - p;
  r = Math.sqrt(-Math.log(r));
  let value: number;
  if (r <= 5) {
    r -= 1.6;
    value =
      (((((((r * 0.0007745450142783414 + 0.022723844989269184) * r + 0.2417807251774506) * r + 1.2704582524523684) * r +
        3.6478483247632045) *
        r +
        5.769497221460691) *
        r +
        4.630337846156546) *
        r +
        1.4234371107496835) /
      (((((((r * 1.0507500716444169e-9 + 0.0005475938084995345) * r + 0.015198666563616457) * r + 0.14810397642748008) * r +
        0.6897673349851) *
        r +
        1.6763848301838038) *
        r +
        2.053191626637759) *
        r +
        1);
  } else {
    r -= 5;
    value =
      (((((((r * 2.0103343992922881e-7 + 0.000027115555687434876) * r + 0.0012426609473880784) * r + 0.026532189526576124) * r +
        0.29656057182850487) *
        r +
        1.7848265399172913) *
        r +
        5.463784911164114) *
        r +
        6.657904643501103) /
      (((((((r * 2.0442631033899397e-15 + 1.421511758316446e-7) * r + 0.000018463183175100548) * r + 0.0007868691311456133) * r +
        0.014875361290850615) *
        r +
        0.1369298809227358) *
        r +
        0.599832206555888) *
        r +
        1);
  }
  return q < 0 ? -value : value;
}

/** Cumulative distribution of Student's t with `df` degrees of freedom (df > 0, not necessarily an integer). */
export function studentTCdf(t: number, df: number): number {
  if (Number.isNaN(t) || !(df > 0)) return NaN;
  if (t === Infinity) return 1;
  if (t === -Infinity) return 0;
  if (df === Infinity) return normalCdf(t);
  const t2 = t * t;
  // One tail: P(T > |t|) = I_{df/(df+t²)}(df/2, 1/2) / 2, with 1 - x = t²/(df+t²) computed without cancellation.
  const tail = 0.5 * incompleteBeta(df / (df + t2), df / 2, 0.5, t2 / (df + t2));
  return t > 0 ? 1 - tail : tail;
}

/** Quantile of Student's t: the t with P(T <= t) = p (bisection on the tail probability, then polished). */
export function studentTQuantile(p: number, df: number): number {
  if (Number.isNaN(p) || p < 0 || p > 1 || !(df > 0)) return NaN;
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  if (p === 0.5) return 0;
  if (df === Infinity) return normalQuantile(p);
  const tailP = p < 0.5 ? p : 1 - p;
  // Closed forms for one and two degrees of freedom.
  let t: number;
  if (df === 1) t = Math.tan(Math.PI * (0.5 - tailP));
  else if (df === 2) t = Math.sqrt(2 / (4 * tailP * (1 - tailP)) - 2);
  else {
    const upperTail = (x: number): number => 0.5 * incompleteBeta(df / (df + x * x), df / 2, 0.5, (x * x) / (df + x * x));
    let lo = 0;
    let hi = Math.max(1, Math.abs(normalQuantile(tailP)));
    while (upperTail(hi) > tailP) {
      lo = hi;
      hi *= 2;
      if (hi > 1e300) break;
    }
    // The tail falls monotonically in x; bisect until the bracket is a few ulps wide.
    for (let i = 0; i < 200 && hi - lo > 1e-15 * hi; i++) {
      const mid = 0.5 * (lo + hi);
      if (upperTail(mid) > tailP) lo = mid;
      else hi = mid;
    }
    t = 0.5 * (lo + hi);
  }
  return p < 0.5 ? -t : t;
}

/** An interval estimate. */
export interface Interval {
  readonly estimate: number;
  readonly lower: number;
  readonly upper: number;
}

/** Mean with its Student-t confidence interval across runs (for example seeds). */
export interface TInterval extends Interval {
  readonly n: number;
  readonly sd: number;
  readonly df: number;
  readonly halfWidth: number;
  readonly confidence: number;
}

/** Mean, sample standard deviation and the two-sided Student-t interval (default 95 %); bounds NaN below two values. */
export function studentTInterval(values: ArrayLike<number>, confidence = 0.95): TInterval {
  if (!(confidence > 0 && confidence < 1)) throw new RangeError('confidence must be in (0, 1)');
  const n = values.length;
  const m = mean(values);
  const sd = standardDeviation(values);
  const df = n - 1;
  const halfWidth = n >= 2 ? studentTQuantile(1 - (1 - confidence) / 2, df) * (sd / Math.sqrt(n)) : NaN;
  return { estimate: m, lower: m - halfWidth, upper: m + halfWidth, n, sd, df, halfWidth, confidence };
}

/**
 * Wilson score interval for a binomial proportion (default z = 1.96 as the flow study specifies).
 * For n = 0 the estimate is NaN and the interval is the whole [0, 1].
 */
export function wilsonInterval(successes: number, n: number, z = 1.96): Interval {
  if (!(Number.isFinite(successes) && Number.isFinite(n)) || n < 0 || successes < 0 || successes > n) throw new RangeError('need 0 <= successes <= n');
  if (!(z > 0)) throw new RangeError('z must be positive');
  if (n === 0) return { estimate: NaN, lower: 0, upper: 1 };
  const p = successes / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  // Clamp only the rounding at the ends: the exact bounds are 0 for k = 0 and 1 for k = n.
  return { estimate: p, lower: successes === 0 ? 0 : Math.max(0, centre - half), upper: successes === n ? 1 : Math.min(1, centre + half) };
}
