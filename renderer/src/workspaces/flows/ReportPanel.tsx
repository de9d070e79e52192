// The Flows workspace's Report panel: a finished study's detectors, robustness per budget and figures.
import { useRef } from 'react';
import { useFocusWhenLost } from '../../components/useDialogFocus';
import { Bars, LineChart } from './Charts';
import { fmt, splitLabel, type StudyReport } from './model';

export function ReportPanel({ report }: { readonly report: StudyReport }) {
  // Run study is disabled while the study runs, which leaves focus on the page: the report's heading takes it once shown.
  const heading = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(heading, report);
  const robust = [...report.attacks, ...(report.hardening ? [report.hardening.baseline, report.hardening.hardened] : [])];
  return (
    <section className="panel" aria-label="Report" data-testid="flows-report">
      <div className="panel__head">
        <h2 tabIndex={-1} ref={heading}>
          Report: {report.dataset.name}
        </h2>
        <span className="muted">
          {report.dataset.train} train / {report.dataset.test} test flows ({splitLabel(report.dataset.split)}); {report.validity.checked} adversarial flows checked, {report.validity.invalid} invalid
          {report.validity.physical_valid_share !== undefined ? `, ${fmt(report.validity.physical_valid_share)} pass the mined physics` : ''}
          {report.validity.dropped !== undefined ? `, ${report.validity.dropped} without a valid flow in budget` : ''}
        </span>
      </div>
      {report.served_model && (
        <p data-testid="flows-served-model">
          Served model ({report.served_model.hardened ? 'hardened ' : ''}
          {report.served_model.members.join(' + ')}, what “use for scoring” saves): accuracy {fmt(report.served_model.test.accuracy)}, F1 {fmt(report.served_model.test.f1)}, FPR {fmt(report.served_model.test.fpr)} on the {splitLabel(report.served_model.split)} test split, measured through its saved bundle.
        </p>
      )}
      <table className="dense" data-testid="flows-detectors">
        <thead>
          <tr>
            <th>detector</th>
            <th>accuracy</th>
            <th>F1</th>
            <th>FPR</th>
            <th>ROC-AUC</th>
            <th>detection @ eps 1</th>
          </tr>
        </thead>
        <tbody>
          {report.detectors.map((d) => (
            <tr key={d.name}>
              <td>{d.name}</td>
              <td className="num">{fmt(d.test.accuracy)}</td>
              <td className="num">{fmt(d.test.f1)}</td>
              <td className="num">{fmt(d.test.fpr)}</td>
              <td className="num">{fmt(d.test.roc_auc)}</td>
              <td className="num">{fmt(report.attacks.find((a) => a.detector === d.name)?.robust.find((r) => r.eps === 1)?.detection_rate)}</td>
            </tr>
          ))}
          {/* The serving ensemble before and after adversarial training: its robustness is the point of hardening. */}
          {report.hardening &&
            [report.hardening.baseline, report.hardening.hardened].map((a) => (
              <tr key={a.detector} data-testid="flows-ensemble-row">
                <td>{a.detector}</td>
                <td className="muted" colSpan={4}>
                  serving ensemble (boosted trees + MLP)
                </td>
                <td className="num">{fmt(a.robust.find((r) => r.eps === 1)?.detection_rate)}</td>
              </tr>
            ))}
        </tbody>
      </table>
      {robust.some((a) => (a.budgets ?? []).length > 0) && (
        <details className="flows-budgets" data-testid="flows-budgets">
          <summary>Per budget: detection, robust accuracy, largest L-inf distance, share passing the mined physics</summary>
          <table className="dense">
            <thead>
              <tr>
                <th>target</th>
                <th>eps</th>
                <th>detection</th>
                <th>robust accuracy</th>
                <th>max L-inf</th>
                <th>physical</th>
                <th>dropped</th>
              </tr>
            </thead>
            <tbody>
              {robust.flatMap((a) =>
                (a.budgets ?? []).map((b) => (
                  <tr key={`${a.detector}-${b.eps}`}>
                    <td>{a.detector}</td>
                    <td className="num">{b.eps}</td>
                    <td className="num">{fmt(b.detection_rate)}</td>
                    <td className="num">{fmt(b.robust_accuracy)}</td>
                    <td className="num">{fmt(b.max_linf)}</td>
                    <td className="num">{fmt(b.physical_valid_share)}</td>
                    <td className="num">{b.dropped}</td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </details>
      )}
      <div className="flows-figures">
        <LineChart title="ROC" xLabel="false-positive rate" yLabel="true-positive rate" testId="flows-fig-roc" series={Object.entries(report.curves).map(([name, c]) => ({ name, x: c.roc.fpr, y: c.roc.tpr }))} />
        <LineChart title="Precision-recall" xLabel="recall" yLabel="precision" series={Object.entries(report.curves).map(([name, c]) => ({ name, x: c.pr.recall, y: c.pr.precision }))} />
        <LineChart title="Robustness: detection rate vs eps" xLabel="eps" yLabel="detection rate" xMax={2} testId="flows-fig-robustness" series={robust.map((a) => ({ name: a.detector, x: a.robustness.eps, y: a.robustness.detection_rate }))} />
        {report.explanations && <Bars title="Mean |SHAP| (tree member)" testId="flows-fig-shap" items={report.explanations.shap_summary.slice(0, 10).map((s) => ({ label: s.feature, value: s.mean_abs_shap }))} />}
        {report.poisoning && (
          <Bars
            title="Poisoning: triggered malicious flows passed as benign"
            items={[
              { label: 'clean model', value: report.poisoning.backdoor_success.clean },
              { label: 'poisoned model', value: report.poisoning.backdoor_success.poisoned },
              { label: 'after sanitiser', value: report.poisoning.backdoor_success.sanitised },
              { label: 'sanitiser precision', value: report.poisoning.sanitiser.precision },
              { label: 'sanitiser recall', value: report.poisoning.sanitiser.recall },
            ]}
          />
        )}
        {report.drift?.available && report.drift.random_split && report.drift.temporal && (
          <Bars
            title="Drift: random split vs Mon-Wed to Thu-Fri"
            items={[
              { label: 'accuracy, random', value: report.drift.random_split.accuracy },
              { label: 'accuracy, temporal', value: report.drift.temporal.accuracy },
              { label: 'F1, random', value: report.drift.random_split.f1 },
              { label: 'F1, temporal', value: report.drift.temporal.f1 },
            ]}
          />
        )}
      </div>
      {report.alarm && (
        <p className="muted">
          Adversarial-input alarm: TPR {fmt(report.alarm.test_tpr)} on adversarial flows at FPR {fmt(report.alarm.test_fpr)} on clean ones.
        </p>
      )}
    </section>
  );
}
