// The Flows workspace's Study panel: choose a dataset (or your own CSV), run a study or a seed sweep, follow its progress by stage, cancel it.
import { useEffect, useRef, useState } from 'react';
import type { ApiError } from '../../api/client';
import { type ApiClient, asApiError } from '../../api/client';
import { ErrorNote } from '../../components/ErrorNote';
import { OpenFileButton } from '../../components/OpenFileButton';
import { Progress } from '../../components/Progress';
import { fmt, MAX_TRAIN_CSV_BYTES, type DatasetInfo, type DatasetName, type StudyReport, type StudyView } from './model';

const DATASET_LABEL: Record<DatasetName, string> = { synthetic: 'synthetic', cicids2017: 'CICIDS2017', unsw_nb15: 'UNSW-NB15' };

export function StudyPanel({ client, base, onReport, onDone }: { readonly client: ApiClient; readonly base: string; readonly onReport: (r: StudyReport) => void; readonly onDone: () => void }) {
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
          {/* Before its first stage the study reports 0: a striped bar says it is working, an empty one would say nothing happens. */}
          {study.status === 'running' && <Progress fraction={study.progress.fraction > 0 ? study.progress.fraction : undefined} label="Study progress" />}
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
