// Statistics against printed table values, closed forms and (where installed) scipy.
import { describe, expect, it } from 'vitest';
import { runPythonOracle } from './python.fixture.js';
import { Random } from './random.js';
import {
  incompleteBeta,
  logGamma,
  mean,
  normalCdf,
  normalQuantile,
  standardDeviation,
  studentTCdf,
  studentTInterval,
  studentTQuantile,
  variance,
  wilsonInterval,
} from './stats.js';
import { skipWithout } from '../../../test/oracles.js';

function close(actual: number, expected: number, rel = 1e-9): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(rel * Math.max(1, Math.abs(expected)));
}

describe('moments', () => {
  it('mean, variance and deviation with n - 1', () => {
    expect(mean([2, 4, 4, 4, 5, 5, 7, 9])).toBe(5);
    close(variance([2, 4, 4, 4, 5, 5, 7, 9]), 32 / 7, 1e-14);
    close(standardDeviation([1, 2, 3, 4]), Math.sqrt(5 / 3), 1e-14);
    expect(mean([])).toBeNaN();
    expect(variance([3])).toBeNaN();
  });

  it('variance is stable for values far from zero', () => {
    expect.hasAssertions();
    close(variance([1e9 + 4, 1e9 + 7, 1e9 + 13, 1e9 + 16]), 30, 1e-12);
  });
});

describe('special functions', () => {
  it('logGamma matches factorials and Γ(1/2)', () => {
    expect.hasAssertions();
    close(logGamma(1), 0, 1e-14);
    close(logGamma(5), Math.log(24), 1e-14);
    close(logGamma(0.5), 0.5 * Math.log(Math.PI), 1e-14);
    close(logGamma(101), 363.73937555556347, 1e-13);
  });

  it('incomplete beta has its closed forms', () => {
    // I_x(a, 1) = x^a and I_x(1, b) = 1 - (1 - x)^b.
    close(incompleteBeta(0.3, 2.5, 1), 0.3 ** 2.5, 1e-13);
    close(incompleteBeta(0.7, 1, 3), 1 - 0.3 ** 3, 1e-13);
    expect(incompleteBeta(0, 2, 3)).toBe(0);
    expect(incompleteBeta(1, 2, 3)).toBe(1);
  });
});

describe('Student t', () => {
  // Two-sided 95 % and 99 % critical values (tables print the first digits; these are mpmath's at 40 digits,
  // since scipy's t.ppf itself is only good to about 1e-10 relative).
  const table: [number, number, number][] = [
    [1, 12.706204736174705, 63.65674116287158],
    [2, 4.302652729749464, 9.924843200918293],
    [3, 3.1824463052837095, 5.840909309733357],
    [5, 2.5705818356363155, 4.032142983555228],
    [10, 2.228138851986275, 3.1692726726169513],
    [30, 2.042272456301238, 2.7499956535672254],
    [100, 1.9839715185235522, 2.6258905214380177],
    [2.5, 3.574654842003683, 7.163728138948786],
  ];
  it.each(table)('df %d: t(0.975) and t(0.995)', (df, t975, t995) => {
    expect.hasAssertions();
    close(studentTQuantile(0.975, df), t975, 1e-13);
    close(studentTQuantile(0.995, df), t995, 1e-13);
    close(studentTQuantile(0.025, df), -t975, 1e-13);
    close(studentTCdf(t975, df), 0.975, 1e-12);
  });

  it('far tails and the limits', () => {
    close(studentTQuantile(1e-6, 5), -24.771029720515944, 1e-12);
    close(studentTQuantile(1e-6, 10), -9.75199549094058, 1e-12);
    close(studentTCdf(-3.1, 30), 0.0020922424302753737, 1e-13);
    close(studentTQuantile(0.975, Infinity), 1.959963984540054, 1e-12);
    expect(studentTQuantile(0.5, 7)).toBe(0);
    expect(studentTQuantile(0, 7)).toBe(-Infinity);
    expect(studentTQuantile(1.5, 7)).toBeNaN();
    expect(studentTCdf(0, 3)).toBeCloseTo(0.5, 15);
  });

  it('quantile inverts the distribution for random p and df', () => {
    expect.hasAssertions();
    const rng = new Random(11);
    for (let i = 0; i < 200; i++) {
      const p = rng.uniform(1e-4, 1 - 1e-4);
      const df = rng.uniform(0.5, 60);
      close(studentTCdf(studentTQuantile(p, df), df), p, 1e-10);
    }
  });

  it('interval across seeds', () => {
    const r = studentTInterval([0.91, 0.93, 0.92, 0.95, 0.9]);
    close(r.estimate, 0.922, 1e-14);
    close(r.sd, standardDeviation([0.91, 0.93, 0.92, 0.95, 0.9]), 1e-14);
    close(r.halfWidth, 2.7764451051977943 * (r.sd / Math.sqrt(5)), 1e-13);
    expect(r.df).toBe(4);
    expect(studentTInterval([1]).lower).toBeNaN();
  });
});

describe('normal', () => {
  it('quantile and CDF at known points', () => {
    close(normalQuantile(0.975), 1.959963984540054, 1e-14);
    close(normalQuantile(1e-10), -6.361340902404056, 1e-13);
    close(normalCdf(-8), 6.22096057427174e-16, 1e-10);
    close(normalCdf(1.959963984540054), 0.975, 1e-14);
    expect(normalCdf(Infinity)).toBe(1);
    expect(normalCdf(-Infinity)).toBe(0);
    expect(normalQuantile(0.5)).toBe(0);
  });
});

describe('Wilson interval', () => {
  it('matches scipy at the exact 95 % z and the closed form at z = 1.96', () => {
    const z = normalQuantile(0.975);
    const a = wilsonInterval(7, 50, z);
    close(a.lower, 0.06950833427016292, 1e-12);
    close(a.upper, 0.26186193710585537, 1e-12);
    const b = wilsonInterval(0, 20, z);
    expect(b.lower).toBe(0);
    close(b.upper, 0.16112515805281935, 1e-12);
    // z = 1.96 by hand: (p + z²/2n ± z√(p(1-p)/n + z²/4n²)) / (1 + z²/n).
    const p = 0.14;
    const n = 50;
    const zz = 1.96;
    const c = (p + (zz * zz) / (2 * n)) / (1 + (zz * zz) / n);
    const h = (zz * Math.sqrt((p * (1 - p)) / n + (zz * zz) / (4 * n * n))) / (1 + (zz * zz) / n);
    const d = wilsonInterval(7, 50);
    close(d.lower, c - h, 1e-14);
    close(d.upper, c + h, 1e-14);
    expect(wilsonInterval(0, 0).estimate).toBeNaN();
    expect(() => wilsonInterval(3, 2)).toThrow(RangeError);
  });
});

describe.skipIf(skipWithout('scipy'))('against scipy', () => {
  it('t and normal quantiles, CDFs and Wilson intervals agree', () => {
    expect.hasAssertions();
    const rng = new Random(5);
    const tPpf: [number, number][] = [];
    const tCdf: [number, number][] = [];
    const normPpf: number[] = [];
    const normCdf: number[] = [];
    const wilson: [number, number][] = [];
    for (let i = 0; i < 60; i++) {
      tPpf.push([rng.uniform(1e-5, 1 - 1e-5), 1 + rng.int(80)]);
      tCdf.push([rng.uniform(-12, 12), rng.uniform(0.5, 50)]);
      normPpf.push(rng.uniform(1e-12, 1 - 1e-12));
      normCdf.push(rng.uniform(-9, 9));
      const n = 1 + rng.int(500);
      wilson.push([rng.int(n + 1), n]);
    }
    const out = runPythonOracle<{ t_ppf: number[]; t_cdf: number[]; norm_ppf: number[]; norm_cdf: number[]; wilson: [number, number][] }>(
      'scipy_stats.py',
      { t_ppf: tPpf, t_cdf: tCdf, norm_ppf: normPpf, norm_cdf: normCdf, wilson },
    );
    // scipy's t.ppf carries about 1e-10 relative error of its own (checked against mpmath above).
    tPpf.forEach(([p, df], i) => close(studentTQuantile(p, df), out.t_ppf[i]!, 1e-8));
    tCdf.forEach(([t, df], i) => close(studentTCdf(t, df), out.t_cdf[i]!, 1e-10));
    normPpf.forEach((p, i) => close(normalQuantile(p), out.norm_ppf[i]!, 1e-12));
    // Relative to the value itself in the lower tail, where it is tiny.
    normCdf.forEach((x, i) => expect(Math.abs(normalCdf(x) - out.norm_cdf[i]!)).toBeLessThanOrEqual(1e-12 * Math.max(1e-300, out.norm_cdf[i]!) + 1e-15));
    const z = normalQuantile(0.975);
    wilson.forEach(([k, n], i) => {
      const w = wilsonInterval(k, n, z);
      close(w.lower, out.wilson[i]![0], 1e-12);
      close(w.upper, out.wilson[i]![1], 1e-12);
    });
  });
});
