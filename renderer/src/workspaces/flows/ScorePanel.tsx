// The Flows workspace's Score panel: flows pasted as JSON or dropped as CSV, scored, with verdicts, SHAP contributions and counterfactuals.
import { useRef, useState } from 'react';
import type { ApiError } from '../../api/client';
import { type ApiClient, asApiError } from '../../api/client';
import { ErrorNote } from '../../components/ErrorNote';
import { OpenFileButton } from '../../components/OpenFileButton';
import { Progress } from '../../components/Progress';
import { useFileDrop } from '../../components/useFileDrop';
import { useFocusWhenLost } from '../../components/useDialogFocus';
import { counted, displayProse } from '../../components/wording';
import { Bars } from './Charts';
import { describeModel, flowsFromCsv, flowsFromJson, FLOWS_PLACEHOLDER, fmt, fmtValue, MAX_CSV_BYTES, missingFeatureHint, refuseScoring, type Flow, type ScoreResponse } from './model';

/** What the shown verdicts were scored from: the pasted text (null for a CSV file) and the two options. */
interface ScoredFrom {
  readonly text: string | null;
  readonly explain: boolean;
  readonly defaults: boolean;
}

export function ScorePanel({ client, base }: { readonly client: ApiClient; readonly base: string }) {
  const [text, setText] = useState('');
  const [scoredFrom, setScoredFrom] = useState<ScoredFrom | null>(null);
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

  const score = async (flows: Flow[], source: string | null): Promise<void> => {
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
      setScoredFrom({ text: source, explain, defaults });
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(false);
    }
  };

  const fromText = (): void => {
    try {
      void score(flowsFromJson(text), text);
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
      await score(flows, null);
    } catch (err) {
      refuse(err instanceof Error ? err.message : 'The CSV could not be read.');
    }
  };
  const { dropClass, dropProps } = useFileDrop((f) => void fromFile(f));
  // Score is disabled while scoring, which leaves focus on the page: the verdicts take it once shown.
  const verdicts = useRef<HTMLDivElement>(null);
  useFocusWhenLost(verdicts, answer);
  // Verdicts of other flows or options than those now in the panel say so until scored again.
  const stale = answer !== null && scoredFrom !== null && (scoredFrom.explain !== explain || scoredFrom.defaults !== defaults || (scoredFrom.text !== null && scoredFrom.text !== text));

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
        placeholder={FLOWS_PLACEHOLDER}
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
      {error && (
        <ErrorNote
          error={error}
          title={error.code === 'unavailable' ? 'No model to score with: run a study with the hardened model first' : 'Scoring failed'}
          hint={missingFeatureHint(error.details)}
        />
      )}
      {answer && (
        <div data-testid="flows-verdicts" tabIndex={-1} ref={verdicts} aria-label="Verdicts" className={`flows-verdicts${stale ? ' flows-verdicts--stale' : ''}`}>
          {stale && (
            <p className="warn-note flows-verdicts__stale-note" role="status" data-testid="flows-score-stale">
              These verdicts are for the flows and options as they were scored; the text or an option has changed since. Press Score (or Ctrl+Enter in the text) to score again.
            </p>
          )}
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
