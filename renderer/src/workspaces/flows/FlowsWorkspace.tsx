// The Flows workspace: run a flow-detector study with a progress bar by stage, read its report and figures, and score flows (verdicts, SHAP, counterfactual).
import { useEffect, useRef, useState } from 'react';
import type { ApiError} from '../../api/client';
import { type ApiClient, asApiError } from '../../api/client';
import { ErrorNote } from '../../components/ErrorNote';
import { OpenFileButton } from '../../components/OpenFileButton';
import { Progress } from '../../components/Progress';
import { WorkspaceHeader } from '../../components/WorkspaceHeader';
import { useFileDrop } from '../../components/useFileDrop';
import { useFocusWhenLost } from '../../components/useDialogFocus';
import type { WorkspaceProps } from '../registry';
import { Bars, LineChart } from './Charts';
import { describeModel, splitLabel, flowsFromCsv, flowsFromJson, fmt, fmtValue, MAX_CSV_BYTES, MAX_TRAIN_CSV_BYTES, refuseScoring, type DatasetInfo, type DatasetName, type Flow, type Health, type ScoreResponse, type StudyReport, type StudyView } from './model';
import './flows.css';
import { counted, displayProse } from '../../components/wording';

const DATASET_LABEL: Record<DatasetName, string> = { synthetic: 'synthetic', cicids2017: 'CICIDS2017', unsw_nb15: 'UNSW-NB15' };

function ModelCardPanel({ health }: { readonly health: Health | null }) {
  const card = health?.model.card;
  return (
    <section className="panel" aria-label="Scoring model" data-testid="flows-model-card">
      <div className="panel__head">
        <h2>Scoring model</h2>
      </div>
      {!health && <p className="muted">Asking the service which model scores…</p>}
      {health && !health.model.loaded && <p className="muted">No model yet: run a study with “use the hardened model for scoring” (on a dataset or your own CSV).{health.model.error ? ` (${health.model.error})` : ''}</p>}
      {card && (
        <>
          <p data-testid="flows-model-line">{describeModel(card)}</p>
          <p className="muted">
            {card.test
              ? `Clean test metrics of exactly this model (scored through its saved bundle) on the ${card.test.split}: accuracy ${fmt(card.test.accuracy)}, F1 ${fmt(card.test.f1)}, FPR ${fmt(card.test.fpr)}.`
              : 'This bundle records no test metrics.'}{' '}
            Feature set {card.feature_set_sha256.slice(0, 12)}; derived features are recomputed from the base ones.
          </p>
        </>
      )}
    </section>
  );
}

function StudyPanel({ client, base, onReport, onDone }: { readonly client: ApiClient; readonly base: string; readonly onReport: (r: StudyReport) => void; readonly onDone: () => void }) {
  const [dataset, setDataset] = useState<DatasetName | 'csv'>('synthetic');
  const [datasets, setDatasets] = useState<DatasetInfo[] | null>(null);
  const [csvFile, setCsvFile] = useState<File | null>(null);
  const [quick, setQuick] = useState(true);
  const [seeds, setSeeds] = useState('');
  const [saveModel, setSaveModel] = useState(true);
  const [study, setStudy] = useState<StudyView | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  useEffect(() => {
    client
      .get<{ items: DatasetInfo[] }>(`${base}/datasets`)
      .then((d) => setDatasets(d.items))
      .catch(() => setDatasets([{ name: 'synthetic', present: true, where: 'generated' }]));
  }, [client, base]);

  const poll = (id: string): void => {
    timer.current = setTimeout(() => {
      client
        .get<StudyView>(`${base}/studies/${id}`)
        .then((s) => {
          setStudy(s);
          if (s.status === 'running') poll(id);
          else {
            // A failed or cancelled study leaves the previous report where it was.
            if (s.status === 'done' && s.result?.report) onReport(s.result.report);
            onDone();
          }
        })
        .catch((err: unknown) => setError(asApiError(err)));
    }, 1000);
  };

  const start = async (): Promise<void> => {
    setError(null);
    setLocalError(null);
    const list = seeds.trim() === '' ? [] : seeds.split(',').map((s) => Number(s.trim()));
    if (list.some((n) => !Number.isInteger(n) || n < 0) || list.length === 1) {
      setLocalError('Seeds: leave empty for one study, or give two or more non-negative integers separated by commas.');
      return;
    }
    let own: { data: 'csv'; csv: string; csv_name: string } | null = null;
    if (dataset === 'csv') {
      if (!csvFile) {
        setLocalError('Choose the CSV of your own labelled flows to train on.');
        return;
      }
      if (csvFile.size > MAX_TRAIN_CSV_BYTES) {
        setLocalError('The CSV is larger than 32 MiB; train on a sample of it.');
        return;
      }
      own = { data: 'csv', csv: await csvFile.text(), csv_name: csvFile.name.replace(/[^\w .()+-]/g, '_').slice(0, 120) };
    }
    const data = own ?? { data: dataset };
    const body = list.length >= 2 ? { kind: 'seeds', ...data, quick, seeds: list } : { kind: 'run', ...data, quick, save_model: saveModel };
    try {
      const s = await client.post<StudyView>(`${base}/studies`, body);
      setStudy(s);
      poll(s.id);
    } catch (err) {
      setError(asApiError(err));
    }
  };

  const cancel = async (): Promise<void> => {
    if (!study) return;
    try {
      await client.delete(`${base}/studies/${study.id}`);
    } catch (err) {
      setError(asApiError(err));
    }
  };

  const running = study?.status === 'running';
  return (
    <section className="panel" aria-label="Study" data-testid="flows-study">
      <div className="panel__head">
        <h2>Study</h2>
      </div>
      <div className="row flows-study__form">
        <label>
          Dataset{' '}
          <select value={dataset} onChange={(e) => setDataset(e.target.value as DatasetName | 'csv')} disabled={running} data-testid="flows-dataset">
            {(datasets ?? [{ name: 'synthetic', present: true, where: '' }])
              .filter((d) => d.present)
              .map((d) => (
                <option key={d.name} value={d.name}>
                  {DATASET_LABEL[d.name]}
                </option>
              ))}
            <option value="csv">my own labelled CSV…</option>
          </select>
        </label>
        {dataset === 'csv' && (
          <OpenFileButton label={csvFile ? `CSV: ${csvFile.name}` : 'Choose CSV…'} accept=".csv,text/csv" disabled={running} testId="flows-train-file" onFile={(f) => setCsvFile(f)} />
        )}
        <label>
          <input type="checkbox" checked={quick} onChange={(e) => setQuick(e.target.checked)} disabled={running} /> quick
        </label>
        <label>
          Seeds <input type="text" value={seeds} onChange={(e) => setSeeds(e.target.value)} placeholder="e.g. 0,1,2" maxLength={200} disabled={running} data-testid="flows-seeds" />
        </label>
        <label>
          <input type="checkbox" checked={saveModel} onChange={(e) => setSaveModel(e.target.checked)} disabled={running} /> use the hardened model for scoring
        </label>
        <button type="button" className="primary" onClick={() => void start()} disabled={running} data-testid="flows-run">
          Run study
        </button>
        {running && (
          <button type="button" className="small" onClick={() => void cancel()} data-testid="flows-cancel">
            Cancel
          </button>
        )}
      </div>
      {datasets && datasets.some((d) => !d.present) && (
        <p className="muted" data-testid="flows-absent-datasets">
          Not installed: {datasets.filter((d) => !d.present).map((d) => `${DATASET_LABEL[d.name]} (put ${d.where})`).join('; ')}.
        </p>
      )}
      {study && (
        <div className="row flows-study__progress" data-testid="flows-progress" data-status={study.status}>
          <span className="muted">{study.status === 'running' ? (study.progress.stage ?? 'starting') : `study ${study.status}`}</span>
          {study.status === 'running' && <Progress fraction={study.progress.fraction} label="Study progress" />}
        </div>
      )}
      {localError && (
        <div className="error-note" role="alert">
          {localError}
        </div>
      )}
      {study?.error && <div className="error-note" role="alert">{study.error.message}</div>}
      {error && <ErrorNote error={error} title="The study could not run" />}
      {study?.status === 'done' && study.result?.metrics && (
        <table className="dense" data-testid="flows-seeds-table">
          <thead>
            <tr>
              <th>detector</th>
              <th>metric</th>
              <th>mean</th>
              <th>95 % interval</th>
            </tr>
          </thead>
          <tbody>
            {study.result.metrics
              .filter((m) => ['accuracy', 'f1', 'fpr'].includes(m.metric))
              .map((m) => (
                <tr key={`${m.detector}-${m.metric}`}>
                  <td>{m.detector}</td>
                  <td>{m.metric}</td>
                  <td className="num">{fmt(m.mean, 4)}</td>
                  <td className="num">
                    {fmt(m.interval.lower, 4)} to {fmt(m.interval.upper, 4)}
                  </td>
                </tr>
              ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function ReportPanel({ report }: { readonly report: StudyReport }) {
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

function ScorePanel({ client, base }: { readonly client: ApiClient; readonly base: string }) {
  const [text, setText] = useState('');
  const [explain, setExplain] = useState(true);
  const [defaults, setDefaults] = useState(false);
  const [answer, setAnswer] = useState<ScoreResponse | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  /** A local refusal replaces whatever the last request said (one message at a time). */
  const refuse = (message: string): void => {
    setError(null);
    setLocalError(message);
  };

  const score = async (flows: Flow[]): Promise<void> => {
    setError(null);
    const refused = refuseScoring(flows.length, explain);
    if (refused) {
      refuse(refused);
      return;
    }
    setLocalError(null);
    setBusy(true);
    try {
      setAnswer(await client.post<ScoreResponse>(`${base}/score`, { explain, defaults, flows }));
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(false);
    }
  };

  const fromText = (): void => {
    try {
      void score(flowsFromJson(text));
    } catch (err) {
      refuse(err instanceof Error ? err.message : 'The text could not be read.');
    }
  };

  const fromFile = async (file: File): Promise<void> => {
    if (file.size > MAX_CSV_BYTES) {
      refuse('The CSV is larger than 4 MiB; score it in parts.');
      return;
    }
    try {
      const { flows } = flowsFromCsv(await file.text());
      await score(flows);
    } catch (err) {
      refuse(err instanceof Error ? err.message : 'The CSV could not be read.');
    }
  };
  const { dropClass, dropProps } = useFileDrop((f) => void fromFile(f));
  // Score is disabled while scoring, which leaves focus on the page: the verdicts take it once shown.
  const verdicts = useRef<HTMLDivElement>(null);
  useFocusWhenLost(verdicts, answer);

  return (
    <section className={`panel ${dropClass}`} aria-label="Score flows" data-testid="flows-score" {...dropProps}>
      <div className="panel__head">
        <h2>Score flows</h2>
        <span className="muted">paste JSON ([&#123;feature: value&#125;] or &#123;flows: [...]&#125;) or drop a CSV; derived features are recomputed from the base ones; Ctrl+Enter in the text scores it</span>
      </div>
      <textarea
        className="flows-score__text"
        value={text}
        onChange={(e) => setText(e.target.value)}
        rows={6}
        spellCheck={false}
        aria-label="Flows as JSON"
        data-testid="flows-score-text"
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !busy) {
            e.preventDefault();
            fromText();
          }
        }}
      />
      <div className="row">
        <label>
          <input type="checkbox" checked={explain} onChange={(e) => setExplain(e.target.checked)} /> explain (SHAP and counterfactual; at most 50 flows)
        </label>
        <label>
          <input type="checkbox" checked={defaults} onChange={(e) => setDefaults(e.target.checked)} data-testid="flows-defaults" /> read missing base features as 0
        </label>
        <button type="button" className="primary" onClick={fromText} disabled={busy} data-testid="flows-score-run">
          Score
        </button>
        <OpenFileButton label="Score a CSV…" accept=".csv,text/csv" disabled={busy} testId="flows-score-file" onFile={(f) => void fromFile(f)} />
        {busy && <Progress label="Scoring" />}
      </div>
      {localError && (
        <div className="error-note" role="alert">
          {localError}
        </div>
      )}
      {error && <ErrorNote error={error} title={error.code === 'unavailable' ? 'No model to score with: run a study with the hardened model first' : 'Scoring failed'} />}
      {answer && (
        <div data-testid="flows-verdicts" tabIndex={-1} ref={verdicts} aria-label="Verdicts" className="flows-verdicts">
          {answer.model && (
            <p data-testid="flows-score-model">
              Scored by the {describeModel(answer.model)}.
            </p>
          )}
          {answer.counts && (
            <p data-testid="flows-counts">
              <strong>{answer.counts.malicious}</strong> malicious, <strong>{answer.counts.benign}</strong> benign of {counted(answer.counts.flows, 'flow')}.
            </p>
          )}
          {(answer.warnings ?? []).map((w) => (
            <div key={w} className="warn-note" role="status">
              {displayProse(w)}
            </div>
          ))}
          {answer.columns ? (
            <dl className="flows-columns" data-testid="flows-columns">
              <dt>used ({answer.columns.used.length})</dt>
              <dd>{answer.columns.used.join(', ') || 'none'}</dd>
              <dt>recomputed ({answer.columns.recomputed.length})</dt>
              <dd>{answer.columns.recomputed.join(', ')}</dd>
              <dt>ignored ({answer.columns.ignored.length})</dt>
              <dd>{answer.columns.ignored.join(', ') || 'none'}</dd>
              {answer.columns.defaulted.length > 0 && (
                <>
                  <dt>read as 0 ({answer.columns.defaulted.length})</dt>
                  <dd>{answer.columns.defaulted.map((d) => `${d.feature} (${counted(d.flows, 'flow')})`).join(', ')}</dd>
                </>
              )}
              {answer.columns.renamed.length > 0 && (
                <>
                  <dt>read under another spelling</dt>
                  <dd>{answer.columns.renamed.map((r) => `${r.from} → ${r.to}`).join(', ')}</dd>
                </>
              )}
            </dl>
          ) : (
            answer.ignored_features.length > 0 && <p className="muted">Not features of the model (ignored): {answer.ignored_features.join(', ')}</p>
          )}
          {answer.results.map((r) => (
            <article key={r.index} className={`flows-verdict flows-verdict--${r.verdict}`} data-testid="flows-verdict">
              <header>
                <strong>Flow {r.index + 1}</strong>: {r.verdict} (score {fmt(r.score)}){r.alarm?.adversarial_suspected ? ' — the alarm suspects an adversarial input' : ''}
              </header>
              {r.explanation && (
                <div className="flows-verdict__explain">
                  <Bars title="Top SHAP contributions (log-odds)" signed items={r.explanation.contributions.map((c) => ({ label: `${c.feature} = ${fmtValue(c.value, c.feature)}`, value: c.shap }))} />
                  {r.explanation.counterfactual && (
                    <div data-testid="flows-counterfactual">
                      <h3>What would have to change</h3>
                      {r.explanation.counterfactual.found ? (
                        <ul>
                          {r.explanation.counterfactual.changes.map((c) => (
                            <li key={c.feature}>
                              {c.feature}: {fmtValue(c.from, c.feature)} → {fmtValue(c.to, c.feature)}
                            </li>
                          ))}
                        </ul>
                      ) : (
                        <p className="muted">No valid flow within eps 3 passes as benign: the attacker-controllable features cannot flip this verdict.</p>
                      )}
                    </div>
                  )}
                </div>
              )}
            </article>
          ))}
        </div>
      )}
    </section>
  );
}

export default function FlowsWorkspace({ service, client }: WorkspaceProps) {
  const base = service.base;
  const [report, setReport] = useState<StudyReport | null>(null);
  const [health, setHealth] = useState<Health | null>(null);
  const refreshHealth = (): void => {
    client
      .get<Health>(`${base}/health`)
      .then(setHealth)
      .catch(() => setHealth({ model: { loaded: false, error: 'the service did not answer' } }));
  };
  // Once on opening; a study refreshes it when it ends.
  useEffect(refreshHealth, [client, base]);
  return (
    <div className="ws-page flows">
      <WorkspaceHeader title="Flows" purpose="Train, attack, harden and explain network-flow detectors" />
      <ModelCardPanel health={health} />
      <StudyPanel client={client} base={base} onReport={setReport} onDone={refreshHealth} />
      {report && <ReportPanel report={report} />}
      <ScorePanel client={client} base={base} />
    </div>
  );
}
