// Study outputs: report.json, report.md and the SVG figures (ROC, PR, robustness, SHAP summary, drift, poisoning).
import { mdText } from '../../core/markdown.js';
import { mkdirSync } from 'node:fs';
import { writeFileAtomic } from '../../core/output-file.js';
import path from 'node:path';
import { toJsonText } from '../studies/metrics.js';
import type { StudyReport } from '../studies/run.js';
import { barChart, lineChart } from './svg.js';

/** The figures of a report as SVG text by file name. */
export function figures(r: StudyReport): Record<string, string> {
  const out: Record<string, string> = {};
  const names = Object.keys(r.curves);
  out['roc.svg'] = lineChart('ROC curves (test split)', 'false-positive rate', 'true-positive rate', names.map((n) => ({ name: n, x: r.curves[n]!.roc.fpr, y: r.curves[n]!.roc.tpr })));
  out['pr.svg'] = lineChart('Precision-recall curves (test split)', 'recall', 'precision', names.map((n) => ({ name: n, x: r.curves[n]!.pr.recall, y: r.curves[n]!.pr.precision })));
  const rob = [...r.attacks, ...(r.hardening ? [r.hardening.baseline, r.hardening.hardened] : [])];
  out['robustness.svg'] = lineChart('Robustness: detection rate vs eps', 'eps (standardised log-feature L-inf)', 'detection rate', rob.map((a) => ({ name: a.detector, x: a.robustness.eps, y: a.robustness.detection_rate })), [0, 2], [0, 1]);
  if (r.explanations) out['shap.svg'] = barChart('Mean |SHAP| (tree member of the hardened ensemble)', r.explanations.shap_summary.map((s) => s.feature), r.explanations.shap_summary.map((s) => s.mean_abs_shap), 'mean |SHAP| (log-odds)');
  if (r.drift?.available && r.drift.random_split && r.drift.temporal) {
    const a = r.drift.random_split;
    const b = r.drift.temporal;
    out['drift.svg'] = barChart(
      'Drift: random split vs Mon-Wed -> Thu-Fri (boosted trees)',
      ['accuracy (random)', 'accuracy (temporal)', 'F1 (random)', 'F1 (temporal)', 'recall (random)', 'recall (temporal)', 'FPR (random)', 'FPR (temporal)'],
      [a.accuracy, b.accuracy, a.f1, b.f1, a.recall, b.recall, a.fpr, b.fpr],
      'value',
    );
  }
  if (r.poisoning) {
    const p = r.poisoning;
    out['poisoning.svg'] = barChart(
      `Backdoor at ${p.rate * 100} % poison: triggered malicious flows passed as benign`,
      ['clean model', 'poisoned model', 'after kNN sanitiser', 'sanitiser precision', 'sanitiser recall'],
      [p.backdoor_success.clean, p.backdoor_success.poisoned, p.backdoor_success.sanitised, p.sanitiser.precision, p.sanitiser.recall],
      'share',
    );
  }
  return out;
}

const f3 = (v: number | undefined): string => (v === undefined || !Number.isFinite(v) ? 'n/a' : v.toFixed(3));

/** The Markdown report. */
export function reportMarkdown(r: StudyReport): string {
  const L: string[] = [];
  const d = r.dataset;
  L.push(`# Flow detector study: ${mdText(d.name)}`, '');
  L.push(`Schema \`${d.schema}\` (${d.format}), ${d.rows} flows (${d.malicious} malicious), split ${d.split}: ${d.train} train / ${d.test} test${r.settings.quick ? ' (quick run: sampled)' : ''}; seed ${r.settings.seed}; ${r.seconds.toFixed(1)} s.`);
  if (d.missing_columns.length > 0) L.push('', `Columns absent from the file (derived ones computed, others 0): ${d.missing_columns.join(', ')}.`);
  L.push('', `Cleaning: ${d.cleaning.nonFinite} Infinity/NaN cells, ${d.cleaning.negative} negative cells, ${d.cleaning.blank} blanks, ${d.cleaning.unreadable} unreadable; ${d.skipped_lines} lines skipped.`);
  const sm = r.served_model;
  L.push('', '## Served model', '', `What \`--save-model\` saves and \`flowdet serve\` scores with: the ${sm.hardened ? 'hardened ' : ''}${sm.members.join(' + ')} ensemble trained on ${mdText(sm.trained_on)} (${sm.training_rows} rows; derived features ${sm.derived_features}). Clean test metrics measured by scoring the ${sm.split} test split (${sm.test.n} flows) through the saved bundle: accuracy ${f3(sm.test.accuracy)}, precision ${f3(sm.test.precision)}, recall ${f3(sm.test.recall)}, F1 ${f3(sm.test.f1)}, FPR ${f3(sm.test.fpr)}, ROC-AUC ${f3(sm.test.roc_auc)}.`);
  L.push('', '## Detectors (test split, threshold 0.5)', '', '| detector | accuracy | precision | recall | F1 | FPR | ROC-AUC | PR-AUC | precision at 1 % | precision at 0.1 % | train s |', '|---|---|---|---|---|---|---|---|---|---|---|');
  for (const x of r.detectors) {
    const m = x.test;
    L.push(`| ${x.name} | ${f3(m.accuracy)} | ${f3(m.precision)} | ${f3(m.recall)} | ${f3(m.f1)} | ${f3(m.fpr)} | ${f3(m.roc_auc)} | ${f3(m.pr_auc)} | ${f3(m.precision_at_1pct)} | ${f3(m.precision_at_0_1pct)} | ${x.train_seconds.toFixed(1)} |`);
  }
  L.push('', '![ROC](figures/roc.svg) ![PR](figures/pr.svg)');
  L.push('', '## Constrained evasion', '', 'Adaptive attack (gradient on differentiable detectors, else transfer from the MLP surrogate; then 100 batched black-box queries), L-inf budget eps in standardised log-feature space, every returned flow projected and checked with isValid.', '');
  L.push('| target | attack | detection at eps 0.25 | at eps 0.5 | at eps 1 | robust accuracy at eps 1 | robustness area |', '|---|---|---|---|---|---|---|');
  const rows = [...r.attacks, ...(r.hardening ? [r.hardening.baseline, r.hardening.hardened] : [])];
  for (const a of rows) {
    const at = (e: number): number | undefined => a.robust.find((x) => x.eps === e)?.detection_rate;
    L.push(`| ${a.detector} | ${a.attack} | ${f3(at(0.25))} | ${f3(at(0.5))} | ${f3(at(1))} | ${f3(a.robust.find((x) => x.eps === 1)?.robust_accuracy)} | ${f3(a.robustness.area)} |`);
  }
  L.push(
    '',
    `Validity: ${r.validity.checked} adversarial flows checked, ${r.validity.invalid} invalid; ${r.validity.dropped} attacked flows had no valid flow within their budget and were sent unchanged (counted as not evaded); largest L-inf distance beyond its budget ${r.validity.max_linf_excess.toExponential(2)}; ${f3(r.validity.physical_valid_share)} of the adversarial flows break none of the relations mined from the real corpus rows.`,
    '',
    'Per budget (each warm-started from the smaller budget\'s best flows, so detection never rises with eps): detection rate, robust accuracy, largest L-inf distance of the adversarial flows, share passing the mined relations, flows dropped.',
    '',
    '| target | eps | detection | robust accuracy | max L-inf | physical valid | dropped |',
    '|---|---|---|---|---|---|---|',
  );
  for (const a of rows) for (const b of a.budgets) L.push(`| ${a.detector} | ${b.eps} | ${f3(b.detection_rate)} | ${f3(b.robust_accuracy)} | ${f3(b.max_linf)} | ${f3(b.physical_valid_share)} | ${b.dropped} |`);
  L.push('', '![robustness](figures/robustness.svg)');
  if (r.hardening) {
    L.push('', '## Hardening', '', `Adversarial training: eps ${r.settings.adversarial_training.eps}, ${r.settings.adversarial_training.rounds} rounds, budgets ${r.settings.adversarial_training.budgets}, malicious flows only; preprocessing ${r.settings.adversarial_training.preprocessing} (largest shift measured ${r.settings.adversarial_training.preprocessing_max_shift ?? 'n/a'}).`);
    L.push('', `Clean test accuracy: baseline ensemble ${f3(r.hardening.baseline_test.accuracy)} (FPR ${f3(r.hardening.baseline_test.fpr)}), hardened ${f3(r.hardening.hardened_test.accuracy)} (FPR ${f3(r.hardening.hardened_test.fpr)}).`);
  }
  if (r.alarm) L.push('', '## Adversarial-input alarm', '', `Threshold ${f3(r.alarm.threshold)} at 1 % FPR on held-out clean flows (measured ${f3(r.alarm.clean_fpr_holdout)}); on the test split: FPR ${f3(r.alarm.test_fpr)} on clean flows, TPR ${f3(r.alarm.test_tpr)} on ${r.alarm.adversarial_test} adversarial flows (eps 1, against the hardened ensemble).`);
  if (r.explanations) {
    L.push('', '## Explanations', '', `Exact TreeSHAP on the ${r.explanations.member}. Counterfactuals (eps_max 3, 6 bisection steps, 60 iterations, unneeded changes reverted):`, '');
    for (const c of r.explanations.counterfactuals) L.push(`- ${c.found ? `found at eps ${c.eps.toFixed(3)} with ${c.changes} changed features` : 'none within eps 3'}; score ${f3(c.score_before)} -> ${f3(c.score_after)}; valid: ${c.valid}`);
    L.push('', '![SHAP](figures/shap.svg)');
  }
  if (r.poisoning) {
    const p = r.poisoning;
    L.push('', '## Poisoning', '', `${p.poison_count} triggered copies of malicious flows labelled benign (rate ${p.rate}); trigger raises ${p.trigger.features.join(' and ')}.`);
    L.push('', `Backdoor success (triggered malicious test flows called benign): clean ${f3(p.backdoor_success.clean)}, poisoned ${f3(p.backdoor_success.poisoned)}, after sanitising ${f3(p.backdoor_success.sanitised)}. Clean accuracy ${f3(p.clean_accuracy.clean)} / ${f3(p.clean_accuracy.poisoned)} / ${f3(p.clean_accuracy.sanitised)}.`);
    L.push('', `kNN sanitiser (k ${p.sanitiser.k}, threshold ${p.sanitiser.threshold}, robust = fixed features): ${p.sanitiser.flagged} flagged, precision ${f3(p.sanitiser.precision)}, recall ${f3(p.sanitiser.recall)} on the poison.`, '', '![poisoning](figures/poisoning.svg)');
  }
  if (r.drift) {
    L.push('', '## Drift', '');
    if (!r.drift.available) L.push(`Not run: ${r.drift.reason ?? ''}.`);
    else L.push(`Boosted trees, random split vs trained ${r.drift.train_days} and tested ${r.drift.test_days}: accuracy ${f3(r.drift.random_split?.accuracy)} -> ${f3(r.drift.temporal?.accuracy)}, F1 ${f3(r.drift.random_split?.f1)} -> ${f3(r.drift.temporal?.f1)}, FPR ${f3(r.drift.random_split?.fpr)} -> ${f3(r.drift.temporal?.fpr)}.`, '', '![drift](figures/drift.svg)');
  }
  return `${L.join('\n')}\n`;
}

/** Writes report.json, report.md and figures/ into `dir` (created). */
export function writeReport(dir: string, r: StudyReport): string[] {
  mkdirSync(path.join(dir, 'figures'), { recursive: true });
  const written = ['report.json', 'report.md'];
  writeFileAtomic(path.join(dir, 'report.json'), `${toJsonText(r)}\n`);
  writeFileAtomic(path.join(dir, 'report.md'), reportMarkdown(r));
  for (const [name, svg] of Object.entries(figures(r))) {
    writeFileAtomic(path.join(dir, 'figures', name), svg);
    written.push(`figures/${name}`);
  }
  return written;
}
