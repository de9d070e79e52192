// The ACH workspace's Attribution view: the report (shared with Extraction), its period and the infrastructure the
// analyst knows per group, and the shortlist of ATT&CK groups with why each ranks where it does.
import { useMemo, useRef, useState } from 'react';
import type { Attribution } from '../../../../engines/core/contracts/attrib';
import type { ApiClient, ApiError } from '../../api/client';
import { asApiError } from '../../api/client';
import { CountedText, overLimit, TooLongNote } from '../../components/CountedText';
import { ErrorNote } from '../../components/ErrorNote';
import { useFocusWhenLost } from '../../components/useDialogFocus';
import { attributeRequest, inputKey, REASON_KINDS, reasonSegments } from './attribution';
import { MAX_TEXT_CHARS } from './model';
import { counted, displayProse } from '../../components/wording';

export interface AttributionViewProps {
  readonly client: ApiClient;
  readonly base: string;
  readonly text: string;
  readonly onText: (text: string) => void;
  readonly useClassifier: boolean;
}

const LABEL = new Map(REASON_KINDS.map((k) => [k.kind, k.label]));

export function AttributionView({ client, base, text, onText, useClassifier }: AttributionViewProps) {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [infrastructure, setInfrastructure] = useState('');
  const [shortlist, setShortlist] = useState(8);
  const [result, setResult] = useState<{ readonly attribution: Attribution; readonly key: string } | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [running, setRunning] = useState(false);

  const request = useMemo(() => attributeRequest({ text, shortlist, classifier: useClassifier, from, to, infrastructure }), [text, shortlist, useClassifier, from, to, infrastructure]);
  const stale = result !== null && inputKey(request.body) !== result.key;
  // Attribute is disabled while it runs, which leaves focus on the page: the Shortlist heading takes it once shown.
  const shortlistHeading = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(shortlistHeading, result);

  const run = async (): Promise<void> => {
    const body = request.body;
    if (body === undefined || overLimit(body.text, MAX_TEXT_CHARS)) return;
    setRunning(true);
    try {
      setResult({ attribution: await client.post<Attribution>(`${base}/attribute`, body), key: inputKey(body) });
      setError(null);
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setRunning(false);
    }
  };

  const a = result?.attribution;
  const maxScore = a ? Math.max(0, ...a.shortlist.map((c) => c.score)) : 0;
  // Only the errors of fields the analyst filled are shown; an empty report is said by the disabled button.
  const fieldErrors = request.errors.filter((e) => !e.startsWith('paste or open'));

  return (
    <div className="ach__grid ach__grid--attr">
      <section className="panel" aria-label="Attribution inputs">
        <CountedText
          title="Report"
          counterNote="shared with Extraction"
          value={text}
          onChange={onText}
          limit={MAX_TEXT_CHARS}
          className="ach__text ach__text--short"
          placeholder="Paste a threat report, or open one in Extraction"
          label="Report text for attribution"
          testId="attribution-text"
          onSubmit={() => void run()}
        />
        <div className="ach__attr-fields">
          <label>
            Activity from{' '}
            <input value={from} onChange={(e) => setFrom(e.target.value)} placeholder="2021 or 2021-03" size={12} aria-label="Period from" data-testid="period-from" />
          </label>
          <label>
            to <input value={to} onChange={(e) => setTo(e.target.value)} placeholder="(optional)" size={10} aria-label="Period to" data-testid="period-to" />
          </label>
          <label>
            Shortlist{' '}
            <input type="number" min={1} max={50} value={shortlist} onChange={(e) => setShortlist(Math.max(1, Math.min(50, Math.trunc(Number(e.target.value)) || 8)))} aria-label="Shortlist size" />{' '}
            groups
          </label>
        </div>
        <label className="ach__attr-infra">
          Known infrastructure, one group per line <span className="muted">(your records; ATT&amp;CK lists none)</span>
          <textarea
            value={infrastructure}
            onChange={(e) => setInfrastructure(e.target.value)}
            placeholder={'G0016: 203.0.113.7, update.example.net\nG0032: ipv4:198.51.100.9'}
            aria-label="Known infrastructure"
            data-testid="known-infrastructure"
            rows={4}
          />
        </label>
        {fieldErrors.length > 0 && (
          <ul className="field-error" data-testid="attribution-input-errors">
            {fieldErrors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        )}
        <div className="row">
          <span className="spacer" />
          <TooLongNote text={text} limit={MAX_TEXT_CHARS} />
          <button type="button" className="primary" disabled={running || request.body === undefined || overLimit(text, MAX_TEXT_CHARS)} onClick={() => void run()} data-testid="run-attribute">
            {running ? 'Attributing…' : 'Attribute (Ctrl+Enter)'}
          </button>
        </div>
        {error && <ErrorNote error={error} title="The attribution failed" />}
      </section>

      <section className={`panel${stale ? ' ach__stale' : ''}`} aria-label="Shortlist" data-testid="attribution">
        <div className="panel__head row">
          <h2 tabIndex={-1} ref={shortlistHeading}>
            Shortlist
          </h2>
          {a && (
            <span className="muted">
              {a.shortlist.length} of {a.groups_considered} groups · {counted(a.techniques.length, 'technique')}{a.software && a.software.length > 0 ? `, ${a.software.length} software` : ''} from the report
            </span>
          )}
        </div>
        {stale && (
          <p className="ach__stale-note" role="status" data-testid="attribution-stale">
            The inputs changed since this shortlist was made: attribute again to update it.
          </p>
        )}
        {!a && <p className="muted">Attribute a report: each ATT&amp;CK group on the shortlist comes with the parts of its score and what each rests on.</p>}
        {a && a.warnings.length > 0 && (
          <ul className="ach__attr-warnings" data-testid="attribution-warnings">
            {a.warnings.map((w) => (
              <li key={w}>{displayProse(w)}</li>
            ))}
          </ul>
        )}
        {a && (
          <>
            <div className="ach__attr-legend" aria-hidden="true">
              {REASON_KINDS.map((k) => (
                <span key={k.kind} className={`ach__attr-key ach__attr-seg--${k.kind}`}>
                  {k.label}
                </span>
              ))}
            </div>
            <ol className="ach__attr-list">
              {a.shortlist.map((c) => (
                <li key={c.id} className="ach__attr-group" data-testid="attribution-group">
                  <div className="ach__attr-title">
                    <span className="ach__attr-rank">{c.rank}.</span> <strong>{c.name}</strong> <span className="muted">{c.id}</span>
                    <span className="spacer" />
                    <span title={a.calibrated ? 'calibrated probability' : "the group's share of the shortlist's total score (not a calibrated probability)"}>
                      score {c.score.toFixed(3)} · {(c.probability * 100).toFixed(1)}%{a.calibrated ? '' : ' of the shortlist'}
                    </span>
                  </div>
                  <div className="ach__attr-bar" role="img" aria-label={`score parts of ${c.name}`}>
                    {reasonSegments(c, maxScore).map((s) => (
                      <span key={s.kind} className={`ach__attr-seg ach__attr-seg--${s.kind}`} style={{ width: `${(s.share * 100).toFixed(1)}%` }} title={`${LABEL.get(s.kind) ?? s.kind} +${s.contribution.toFixed(3)}`} />
                    ))}
                  </div>
                  <table className="ach__attr-reasons" data-testid="attribution-reasons">
                    <tbody>
                      {(c.reasons ?? []).map((r) => (
                        <tr key={r.kind} data-kind={r.kind}>
                          <th scope="row">{LABEL.get(r.kind) ?? r.kind}</th>
                          <td className="num">+{r.contribution.toFixed(3)}</td>
                          <td>{r.detail}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                  {c.aliases.some((x) => x !== c.name) && <p className="muted ach__attr-aliases">also known as {c.aliases.filter((x) => x !== c.name).slice(0, 6).join(', ')}</p>}
                </li>
              ))}
            </ol>
            <details className="ach__attr-method">
              <summary>How the score is made</summary>
              <p className="muted">{a.method}</p>
            </details>
          </>
        )}
      </section>
    </div>
  );
}
