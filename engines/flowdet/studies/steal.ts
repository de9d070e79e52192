// Model stealing with label-only queries: agreement of the stolen network with the victim and its transfer attack success.
import { mdText } from '../../core/markdown.js';
import { Random, selectRows, wilsonInterval, type Interval } from '../../core/ml/index.js';
import { VitrineError } from '../../core/errors.js';
import { attackSpace, gradientAttack, type Scorer } from '../attacks/attacks.js';
import { newTally, tallyAttack, type ValidityTally } from './tally.js';
import { loadData } from '../data/datasets.js';
import { fitLogScaler, probabilityGradientZ, scoreDetector, trainDetector } from '../detectors/models.js';
import { studySizes, type Progress } from './run.js';

export const DEFAULT_BUDGETS: readonly number[] = [100, 500, 2000];
export const DEFAULT_STEAL_EPS: readonly number[] = [0.5, 1];

export interface StealOptions {
  readonly data: string;
  readonly budgets?: readonly number[];
  readonly eps?: readonly number[];
  readonly quick?: boolean;
  readonly seed?: number;
  readonly dataDir?: string;
  readonly signal?: AbortSignal;
  readonly progress?: Progress;
}

export interface StealReport {
  readonly format: 'vitrine-flowdet-steal';
  readonly version: 1;
  readonly dataset: string;
  readonly victim: string;
  readonly surrogate: string;
  /** Flows the attacker can query (its own unlabelled traffic) and flows agreement is measured on. */
  readonly pool: number;
  readonly evaluation: number;
  readonly results: readonly {
    readonly budget: number;
    /** Queries actually made (at most the pool size). */
    readonly queries: number;
    readonly agreement: number;
    readonly agreement_interval: Interval;
    readonly transfer: readonly { readonly eps: number; readonly detected: number; readonly evaded: number; readonly success_rate: number; readonly interval: Interval }[];
  }[];
  /** Every transfer flow checked: isValid, its budget (max_linf_excess <= 1e-9), the mined physics. */
  readonly validity: ValidityTally;
}

/**
 * The victim is the boosted-tree detector trained on the training split. The attacker queries its verdicts (labels
 * only) on up to `budget` flows drawn from one half of the test split, trains the MLP surrogate on them, and attacks
 * the victim's detected malicious flows of the other half with the gradient attack on the stolen model (transfer).
 */
export async function stealStudy(opts: StealOptions): Promise<StealReport> {
  const seed = opts.seed ?? 0;
  const quick = opts.quick ?? false;
  const sizes = studySizes(quick);
  const budgets = opts.budgets ?? DEFAULT_BUDGETS;
  const epsList = opts.eps ?? DEFAULT_STEAL_EPS;
  if (budgets.length === 0 || budgets.some((b) => !Number.isInteger(b) || b < 2 || b > 10_000_000)) throw new VitrineError('validation_failed', 'budgets must be integers from 2 to 10000000');
  if (epsList.length === 0 || epsList.some((e) => !(e >= 0 && e <= 100))) throw new VitrineError('validation_failed', 'eps values must be from 0 to 100');
  const progress = opts.progress ?? (() => {});
  progress(0, 'loading data');
  const loaded = await loadData(opts.data, { seed, syntheticRows: sizes.syntheticRows, ...(opts.dataDir ? { dataDir: opts.dataDir } : {}) });
  const { table } = loaded;
  const train = loaded.train.length > sizes.maxTrainRows ? loaded.train.subarray(0, sizes.maxTrainRows) : loaded.train;
  const xtr = selectRows(table.x, train);
  const ytr = Uint8Array.from(train, (i) => table.y[i]!);
  const s = { quick, seed, ...(opts.signal ? { signal: opts.signal } : {}) };
  progress(0.1, 'training the victim');
  const victim = trainDetector('gbdt', xtr, ytr, s);
  const target: Scorer = (x) => scoreDetector(victim, x);
  const rng = new Random(seed + 77);
  const testIdx = rng.shuffle(Array.from(loaded.test)).slice(0, sizes.maxTestRows);
  const half = Math.floor(testIdx.length / 2);
  const pool = selectRows(table.x, testIdx.slice(0, half));
  const evalX = selectRows(table.x, testIdx.slice(half));
  const victimEval = target(evalX);
  const detectedMal = testIdx.slice(half).map((i, j) => ({ i, j })).filter(({ i, j }) => table.y[i] === 1 && victimEval[j]! >= 0.5).slice(0, sizes.attackRows).map(({ j }) => j);
  const xm = selectRows(evalX, detectedMal);
  const scaler = fitLogScaler(xtr);
  const space = attackSpace(table.schema, scaler);
  const validity = newTally();
  const results: StealReport['results'][number][] = [];
  for (const [bi, budget] of budgets.entries()) {
    if (opts.signal?.aborted) throw new VitrineError('cancelled', 'the study was cancelled');
    progress(0.15 + (0.8 * bi) / budgets.length, `stealing with ${budget} queries`);
    const q = rng.shuffle(Array.from({ length: pool.rows }, (_, i) => i)).slice(0, budget);
    const qx = selectRows(pool, q);
    const labels = Array.from(target(qx), (p) => (p >= 0.5 ? 1 : 0));
    const oneClass = new Set(labels).size < 2;
    const stolen = oneClass ? undefined : trainDetector('mlp', qx, labels, { ...s, quick: false });
    const stolenEval = stolen ? scoreDetector(stolen, evalX) : new Float64Array(evalX.rows).fill(labels[0] ?? 0);
    let agree = 0;
    for (let j = 0; j < evalX.rows; j++) agree += (stolenEval[j]! >= 0.5) === (victimEval[j]! >= 0.5) ? 1 : 0;
    const transfer = epsList.map((eps) => {
      if (!stolen || xm.rows === 0) return { eps, detected: xm.rows, evaded: 0, success_rate: 0, interval: wilsonInterval(0, xm.rows) };
      const r = gradientAttack(space, (row) => probabilityGradientZ(stolen, row, scaler), target, xm, eps);
      tallyAttack(space, xm, r, eps, validity);
      let evaded = 0;
      for (const p of r.scores) evaded += p < 0.5 ? 1 : 0;
      return { eps, detected: xm.rows, evaded, success_rate: evaded / xm.rows, interval: wilsonInterval(evaded, xm.rows) };
    });
    results.push({ budget, queries: qx.rows, agreement: agree / Math.max(1, evalX.rows), agreement_interval: wilsonInterval(agree, evalX.rows), transfer });
  }
  progress(1, 'done');
  return { format: 'vitrine-flowdet-steal', version: 1, dataset: loaded.name, victim: 'gbdt', surrogate: 'mlp (label-only queries)', pool: pool.rows, evaluation: evalX.rows, results, validity };
}

export function stealMarkdown(r: StealReport): string {
  const f = (v: number): string => (Number.isFinite(v) ? v.toFixed(3) : 'n/a');
  const L = [`# Model stealing: ${mdText(r.dataset)}`, '', `Victim ${r.victim}; stolen model ${r.surrogate}; query pool ${r.pool} flows, agreement measured on ${r.evaluation}. Intervals: Wilson, z 1.96.`, ''];
  L.push('| budget | agreement (95 % CI) | ' + r.results[0]!.transfer.map((t) => `transfer success eps ${t.eps}`).join(' | ') + ' |');
  L.push('|---|---|' + r.results[0]!.transfer.map(() => '---|').join(''));
  for (const x of r.results) L.push(`| ${x.budget} | ${f(x.agreement)} (${f(x.agreement_interval.lower)}-${f(x.agreement_interval.upper)}) | ` + x.transfer.map((t) => `${f(t.success_rate)} (${t.evaded}/${t.detected})`).join(' | ') + ' |');
  L.push('', `Validity: ${r.validity.checked} adversarial flows checked, ${r.validity.invalid} invalid, ${r.validity.dropped} without a valid flow within the budget (sent unchanged), ${r.validity.physical_valid} passing the mined relations; largest L-inf distance beyond its budget ${r.validity.checked > 0 ? r.validity.max_linf_excess.toExponential(2) : 'n/a'}.`);
  return `${L.join('\n')}\n`;
}
