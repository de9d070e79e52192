// A small end-to-end study on synthetic and real corpus flows: every adversarial row valid, report files, model bundle round trip.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusPath, hasCorpora } from '../../../test/corpora.js';
import { VitrineError } from '../../core/errors.js';
import { bundleText, parseBundle, loadBundle } from '../bundle.js';
import { loadData } from '../data/datasets.js';
import { writeReport } from '../report/report.js';
import { scoreFlows } from '../score.js';
import { studyOnData, studySizes, type StudyReport, type StudySizes } from './run.js';
import { seedStudy } from './seeds.js';
import { stealStudy } from './steal.js';

/** Every budget kept, detection and robust accuracy never rising with eps, the figures recorded per budget. */
function expectBudgetsKept(report: StudyReport): void {
  expect(report.validity.max_linf_excess).toBeLessThanOrEqual(1e-9);
  const curves = [...report.attacks, ...(report.hardening ? [report.hardening.baseline, report.hardening.hardened] : [])];
  expect(curves.length).toBeGreaterThan(0);
  for (const a of curves) {
    expect(a.budgets.map((b) => b.eps)).toEqual([0.25, 0.5, 1, 2]);
    for (const b of a.budgets) {
      expect(b.max_linf, `${a.detector} eps ${b.eps}`).toBeLessThanOrEqual(b.eps + 1e-9);
      expect(b.invalid).toBe(0);
      expect(b.adversarial_rows + b.dropped).toBe(a.n);
      expect(b.physical_valid_share).toBeGreaterThanOrEqual(0);
    }
    for (let k = 1; k < a.robustness.detection_rate.length; k++) expect(a.robustness.detection_rate[k]!, `${a.detector} detection at eps ${a.robustness.eps[k]}`).toBeLessThanOrEqual(a.robustness.detection_rate[k - 1]!);
    for (let k = 1; k < a.budgets.length; k++) expect(a.budgets[k]!.robust_accuracy).toBeLessThanOrEqual(a.budgets[k - 1]!.robust_accuracy);
  }
}

const tiny: StudySizes = { ...studySizes(true), syntheticRows: 1500, attackRows: 25, hardenPerRound: 60, hardenIters: 10, counterfactuals: 2, shapRows: 40, poisonRows: 800 };

describe('the study pipeline', () => {
  it('runs every stage on synthetic flows, checks every adversarial row, writes the report and a loadable bundle', async () => {
    const loaded = await loadData('synthetic', { syntheticRows: tiny.syntheticRows, seed: 4 });
    const stages: string[] = [];
    const { report, model } = await studyOnData(loaded, { data: 'synthetic', quick: true, seed: 4 }, tiny, (_f, m) => stages.push(m), new Set());
    expect(report.validity.checked).toBeGreaterThan(4 * 4 * tiny.attackRows);
    expect(report.validity.invalid).toBe(0);
    expectBudgetsKept(report);
    expect(report.validity.physical_valid_share).toBe(1);
    expect(report.settings.adversarial_training.preprocessing_max_shift).toBe(0);
    expect(report.served_model.members).toEqual(['gbdt', 'mlp']);
    expect(report.served_model.test.accuracy).toBe(report.hardening!.hardened_test.accuracy);
    expect(report.detectors.map((d) => d.name)).toEqual(['gbdt', 'random_forest', 'logistic', 'mlp']);
    for (const d of report.detectors) expect(d.test.accuracy).toBeGreaterThan(0.9);
    for (const a of report.attacks) {
      expect(a.robustness.eps).toEqual([0, 0.25, 0.5, 1, 2]);
      expect(a.robustness.area).toBeGreaterThanOrEqual(0);
      expect(a.robustness.area).toBeLessThanOrEqual(1);
    }
    expect(report.alarm?.clean_fpr_holdout).toBeLessThanOrEqual(0.01);
    expect(report.explanations?.counterfactuals.every((c) => c.valid)).toBe(true);
    expect(report.poisoning?.poison_count).toBe(Math.round(0.02 * Math.min(tiny.poisonRows, report.dataset.train)));
    expect(report.drift?.available).toBe(true);
    expect(stages).toContain('adversarial training round 3');

    const dir = mkdtempSync(path.join(tmpdir(), 'flowdet-'));
    const written = writeReport(dir, report);
    expect(written).toEqual(expect.arrayContaining(['report.json', 'report.md', 'figures/roc.svg', 'figures/pr.svg', 'figures/robustness.svg', 'figures/shap.svg', 'figures/drift.svg', 'figures/poisoning.svg']));
    expect(readFileSync(path.join(dir, 'figures', 'robustness.svg'), 'utf8')).toMatch(/^<svg /);
    expect(JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')).format).toBe('vitrine-flowdet-report');

    const { text, sha256 } = bundleText(model, '2026-01-01T00:00:00.000Z');
    const bundle = parseBundle(text);
    expect(bundle.sha256).toBe(sha256);
    expect(bundle.ensemble.members.map((m) => m.kind)).toEqual(['gbdt', 'mlp']);
    const file = path.join(dir, 'model.json');
    writeFileSync(file, text);
    expect(loadBundle(file).sha256).toBe(sha256);

    // Scoring: a verdict per flow, missing features 0, SHAP and a valid counterfactual search with explain.
    const names = loaded.table.schema.features.map((f) => f.name);
    const flagged = scoreFlows(bundle, { flows: Array.from(loaded.test).slice(0, 300).map((i) => Object.fromEntries(names.map((n, k) => [n, loaded.table.x.data[i * names.length + k]!]))) });
    const mal = Array.from(loaded.test)[flagged.results.findIndex((x) => x.verdict === 'malicious')]!;
    const flow = Object.fromEntries(names.map((n, k) => [n, loaded.table.x.data[mal * names.length + k]!]));
    const r = scoreFlows(bundle, { explain: true, defaults: true, flows: [flow, {}] });
    expect(r.results).toHaveLength(2);
    expect(r.results[0]!.verdict).toBe('malicious');
    expect(r.results[0]!.explanation!.contributions.length).toBeGreaterThan(0);
    const cf = r.results[0]!.explanation!.counterfactual;
    expect(cf).not.toBeNull();
    expect(cf!.valid).toBe(true);
    expect(cf!.found ? cf!.changes.length > 0 && cf!.score < 0.5 : cf!.changes.length === 0).toBe(true);
    expect(() => scoreFlows(bundle, { flows: [] })).toThrow(VitrineError);
    expect(() => scoreFlows(bundle, { explain: true, flows: Array(51).fill({}) })).toThrow(/at most 50/);
    expect(() => scoreFlows(bundle, { flows: [{ 'Flow Duration': 'x' }] })).toThrow(VitrineError);

    // Refusals: another format, another version, a damaged payload, truncated text.
    expect(() => parseBundle('{"format":"vitrine-gbdt-1"}')).toThrow(/not a flowdet model bundle/);
    expect(() => parseBundle(text.replace('"version":1', '"version":2'))).toThrow(/unsupported model bundle version/);
    expect(() => parseBundle(text.replace('"threshold":0.5', '"threshold":0.4'))).toThrow(/damaged/);
    expect(() => parseBundle(text.slice(0, text.length / 2))).toThrow(/not valid JSON/);
    expect(() => loadBundle(path.join(dir, 'absent.json'))).toThrow(/does not exist/);
  }, 240_000);

  it.skipIf(!hasCorpora())('keeps every adversarial row valid on the real CICIDS2017 and UNSW-NB15 samples', async () => {
    expect.hasAssertions();
    for (const file of [corpusPath('flows', 'cicids2017', 'CICIDS2017_sample.labelled6311.csv'), corpusPath('flows', 'unsw-nb15', 'UNSW-NB15_1.sampled7000.csv')]) {
      const loaded = await loadData(file, { seed: 0 });
      const { report } = await studyOnData(loaded, { data: file, quick: true, seed: 0 }, { ...tiny, maxTrainRows: 2000, maxTestRows: 1500 }, () => {}, new Set(['poison', 'drift']));
      expect(report.validity.checked).toBeGreaterThan(0);
      expect(report.validity.invalid, file).toBe(0);
      expectBudgetsKept(report);
      expect(report.validity.physical_valid_share, file).toBe(1);
      expect(report.drift).toBeUndefined();
    }
  }, 240_000);

  it('seeds: t intervals per metric and Wilson intervals for pooled rates', async () => {
    const r = await seedStudy({ data: 'synthetic', seeds: [1, 2], quick: true });
    const acc = r.metrics.find((m) => m.detector === 'gbdt' && m.metric === 'accuracy')!;
    expect(acc.values).toHaveLength(2);
    expect(acc.interval.lower).toBeLessThanOrEqual(acc.mean);
    expect(acc.interval.df).toBe(1);
    // Every metric is a rate: its t interval is clipped to [0, 1] and says so (two seeds give t = 12.7, far outside).
    for (const m of r.metrics) {
      expect(m.interval.lower, `${m.detector} ${m.metric}`).toBeGreaterThanOrEqual(0);
      expect(m.interval.upper, `${m.detector} ${m.metric}`).toBeLessThanOrEqual(1);
      expect(m.interval.method).toBe('student_t_95_clipped_to_0_1');
    }
    expect(r.metrics.some((m) => m.interval.clipped)).toBe(true);
    // Each pooled rate's interval is the Wilson score interval of its counts, worked out here from the formula:
    // (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n), z = 1.96.
    expect(r.rates.length).toBeGreaterThan(0);
    for (const x of r.rates) {
      expect(x.interval.method).toBe('wilson_score_z_1.96');
      const { successes: k, n } = x;
      const z = 1.96;
      const p = k / n;
      const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
      const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
      expect(x.interval.estimate, `${x.detector} ${x.rate}`).toBeCloseTo(p, 12);
      expect(x.interval.lower, `${x.detector} ${x.rate}`).toBeCloseTo(centre - half, 12);
      expect(x.interval.upper, `${x.detector} ${x.rate}`).toBeCloseTo(centre + half, 12);
    }
    const fpr = r.rates.find((x) => x.detector === 'gbdt' && x.rate === 'false_positive_rate')!;
    expect(fpr.n).toBeGreaterThan(0);
    await expect(seedStudy({ data: 'synthetic', seeds: [1] })).rejects.toThrow(/seeds/);
    await expect(seedStudy({ data: 'synthetic', seeds: [0, 0] })).rejects.toThrow(/distinct/);
  }, 240_000);

  it('steal: agreement grows with the budget, transfer flows are valid', async () => {
    const r = await stealStudy({ data: 'synthetic', budgets: [8, 600], eps: [1], quick: true });
    expect(r.results).toHaveLength(2);
    expect(r.results[1]!.agreement).toBeGreaterThan(0.8);
    expect(r.results[1]!.agreement).toBeGreaterThan(r.results[0]!.agreement);
    expect(r.validity.invalid).toBe(0);
    expect(r.validity.checked).toBeGreaterThan(0);
    expect(r.validity.max_linf_excess).toBeLessThanOrEqual(1e-9);
    await expect(stealStudy({ data: 'synthetic', budgets: [1] })).rejects.toThrow(/budgets/);
  }, 240_000);
});
