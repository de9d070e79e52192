// The multi-seed study: each metric's mean, sample sd and 95 % Student-t interval across seeds; Wilson intervals for pooled rates.
import { mdText } from '../../core/markdown.js';
import { studentTInterval, wilsonInterval, type Interval, type TInterval } from '../../core/ml/index.js';
import { VitrineError } from '../../core/errors.js';
import { loadData } from '../data/datasets.js';
import { studyOnData, studySizes, type Progress, type StudyReport } from './run.js';

export interface SeedOptions {
  readonly data: string;
  readonly seeds: readonly number[];
  /** Also attack the detectors (robust detection rate at eps 1). */
  readonly adv?: boolean;
  readonly quick?: boolean;
  readonly dataDir?: string;
  readonly signal?: AbortSignal;
  readonly progress?: Progress;
}

export interface SeedMetric {
  readonly detector: string;
  readonly metric: string;
  readonly values: readonly number[];
  readonly mean: number;
  readonly sd: number;
  /** Student-t 95 % interval; every metric here is a rate, so the bounds are clipped to [0, 1] (`clipped` says when). */
  readonly interval: TInterval & { readonly method: typeof T_METHOD; readonly clipped: boolean };
}

export const T_METHOD = 'student_t_95_clipped_to_0_1';
export const WILSON_METHOD = 'wilson_score_z_1.96';

/** The t interval of a rate, clipped to [0, 1] (a rate cannot leave it; the unclipped t interval can). */
function rateInterval(values: readonly number[]): SeedMetric['interval'] {
  const iv = studentTInterval(values);
  const lower = Math.max(0, iv.lower);
  const upper = Math.min(1, iv.upper);
  return { ...iv, lower, upper, method: T_METHOD, clipped: lower !== iv.lower || upper !== iv.upper };
}

export interface SeedRate {
  readonly detector: string;
  readonly rate: string;
  readonly successes: number;
  readonly n: number;
  readonly interval: Interval & { readonly method: typeof WILSON_METHOD };
}

export interface SeedReport {
  readonly format: 'vitrine-flowdet-seeds';
  readonly version: 1;
  readonly dataset: string;
  readonly seeds: readonly number[];
  readonly adv: boolean;
  readonly metrics: readonly SeedMetric[];
  /** Rates pooled over seeds (counts summed) with Wilson intervals, z 1.96. */
  readonly rates: readonly SeedRate[];
}

const METRICS = ['accuracy', 'precision', 'recall', 'f1', 'fpr', 'roc_auc', 'pr_auc'] as const;

const wilson = (k: number, n: number): SeedRate['interval'] => ({ ...wilsonInterval(k, n), method: WILSON_METHOD });

export async function seedStudy(opts: SeedOptions): Promise<SeedReport> {
  if (opts.seeds.length < 2 || opts.seeds.length > 100 || opts.seeds.some((s) => !Number.isInteger(s) || s < 0 || s > 2 ** 31)) throw new VitrineError('validation_failed', 'seeds must be 2 to 100 non-negative integers');
  // A repeated seed repeats the same run: its zero spread would narrow the interval without new evidence.
  if (new Set(opts.seeds).size !== opts.seeds.length) throw new VitrineError('validation_failed', 'seeds must be distinct (a repeated seed repeats the same run)');
  const quick = opts.quick ?? false;
  const sizes = studySizes(quick);
  const progress = opts.progress ?? (() => {});
  const reports: StudyReport[] = [];
  let name = opts.data;
  for (const [k, seed] of opts.seeds.entries()) {
    if (opts.signal?.aborted) throw new VitrineError('cancelled', 'the study was cancelled');
    const base = k / opts.seeds.length;
    const loaded = await loadData(opts.data, { seed, syntheticRows: sizes.syntheticRows, ...(opts.dataDir ? { dataDir: opts.dataDir } : {}) });
    name = loaded.name;
    const skip = opts.adv ? (['harden', 'explain', 'poison', 'drift'] as const) : (['attack', 'harden', 'explain', 'poison', 'drift'] as const);
    const r = await studyOnData(loaded, { data: opts.data, quick, seed, skip: [...skip], ...(opts.signal ? { signal: opts.signal } : {}) }, sizes, (f, m) => progress(base + f / opts.seeds.length, `seed ${seed}: ${m}`), new Set(skip));
    reports.push(r.report);
  }
  const metrics: SeedMetric[] = [];
  const rates: SeedRate[] = [];
  for (const d of reports[0]!.detectors) {
    const per = reports.map((r) => r.detectors.find((x) => x.name === d.name)!.test);
    for (const m of METRICS) {
      const values = per.map((t) => t[m]);
      const iv = rateInterval(values);
      metrics.push({ detector: d.name, metric: m, values, mean: iv.estimate, sd: iv.sd, interval: iv });
    }
    // Pooled counts: the confusion counts are recovered from the rates and class sizes.
    let tp = 0;
    let pos = 0;
    let fp = 0;
    let neg = 0;
    for (const t of per) {
      tp += Math.round(t.recall * t.positives);
      pos += t.positives;
      fp += Math.round(t.fpr * (t.n - t.positives));
      neg += t.n - t.positives;
    }
    rates.push({ detector: d.name, rate: 'detection_rate', successes: tp, n: pos, interval: wilson(tp, pos) });
    rates.push({ detector: d.name, rate: 'false_positive_rate', successes: fp, n: neg, interval: wilson(fp, neg) });
    if (opts.adv) {
      const robust = reports.map((r) => r.attacks.find((a) => a.detector === d.name)?.robust.find((x) => x.eps === 1)?.detection_rate ?? NaN);
      const iv = rateInterval(robust);
      metrics.push({ detector: d.name, metric: 'detection_rate_eps_1', values: robust, mean: iv.estimate, sd: iv.sd, interval: iv });
      let k = 0;
      let n = 0;
      for (const r of reports) {
        const a = r.attacks.find((x) => x.detector === d.name);
        if (!a) continue;
        k += Math.round((a.robust.find((x) => x.eps === 1)?.detection_rate ?? 0) * a.n);
        n += a.n;
      }
      rates.push({ detector: d.name, rate: 'detection_rate_under_attack_eps_1', successes: k, n, interval: wilson(k, n) });
    }
  }
  progress(1, 'done');
  return { format: 'vitrine-flowdet-seeds', version: 1, dataset: name, seeds: opts.seeds, adv: opts.adv ?? false, metrics, rates };
}

export function seedsMarkdown(r: SeedReport): string {
  const f = (v: number): string => (Number.isFinite(v) ? v.toFixed(4) : 'n/a');
  const L = [`# Multi-seed study: ${mdText(r.dataset)}`, '', `Seeds ${r.seeds.join(', ')}; mean, sample standard deviation and 95 % Student-t interval (t with n - 1 degrees of freedom), clipped to [0, 1] since every metric is a rate (* where clipped).`, ''];
  L.push('| detector | metric | mean | sd | 95 % interval |', '|---|---|---|---|---|');
  for (const m of r.metrics) L.push(`| ${m.detector} | ${m.metric} | ${f(m.mean)} | ${f(m.sd)} | ${f(m.interval.lower)} to ${f(m.interval.upper)}${m.interval.clipped ? ' *' : ''} |`);
  L.push('', 'Rates pooled over seeds with Wilson score intervals (z 1.96):', '', '| detector | rate | k / n | estimate | 95 % interval |', '|---|---|---|---|---|');
  for (const x of r.rates) L.push(`| ${x.detector} | ${x.rate} | ${x.successes} / ${x.n} | ${f(x.interval.estimate)} | ${f(x.interval.lower)} to ${f(x.interval.upper)} |`);
  return `${L.join('\n')}\n`;
}
