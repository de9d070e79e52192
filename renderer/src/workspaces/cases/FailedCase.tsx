// A failed case: why it failed, what to do, and its removal (DELETE /api/cases/{id}: only failed cases, which hold no custody ledger; the service keeps a record of the removal).
import { useState } from 'react';
import type { ApiError} from '../../api/client';
import { type ApiClient, asApiError } from '../../api/client';
import { ErrorNote } from '../../components/ErrorNote';
import { utcTime } from '../../components/time';
import { gradeClass } from './model';
import type { CaseSummary } from './types';

/** What an analyst can do about a failure, by its code. */
function advice(code: string | null): string {
  switch (code) {
    case 'validation_failed':
      return 'None of the files named could be read as evidence. Check the kind (or leave it to detection), or choose other files in the evidence browser.';
    case 'parse_error':
      return 'The file is damaged beyond what the loader recovers. Acquire it again, or analyse the other files without it.';
    case 'forbidden':
      return 'The path leads outside the evidence root. Copy the evidence below the root and choose it there.';
    case 'not_found':
      return 'The evidence is no longer there. Choose it again in the evidence browser.';
    case 'interrupted':
      return 'The service stopped during the analysis. Analyse the evidence again.';
    case 'timeout':
      return 'The analysis took longer than its time limit. Analyse fewer files at once.';
    default:
      return 'Analyse the evidence again; if it fails the same way, the service log has the details.';
  }
}

export function FailedCasePanel({ client, base, summary, onRemoved }: { readonly client: ApiClient; readonly base: string; readonly summary: CaseSummary; readonly onRemoved: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const remove = async (): Promise<void> => {
    setBusy(true);
    try {
      await client.delete<undefined>(`${base}/api/cases/${encodeURIComponent(summary.id)}`);
      onRemoved();
    } catch (err) {
      setError(asApiError(err));
      setBusy(false);
    }
  };
  return (
    <section className="panel failed-case" aria-label="Failed case" data-testid="failed-case">
      <div className="panel__head">
        <h2>{summary.title}</h2>
        <span className={gradeClass('failed')}>failed</span>
      </div>
      <div className="error-note" role="alert">
        <div className="error-note__title">The analysis failed ({summary.error ?? 'internal'})</div>
        <div data-testid="failed-reason">{summary.errorMessage ?? 'No reason was recorded (a case that failed before reasons were kept).'}</div>
      </div>
      <p>{advice(summary.error)}</p>
      <p className="muted">Started {utcTime(summary.createdAt)} · {summary.origin}</p>
      <div className="row">
        {!confirming ? (
          <button type="button" className="small" onClick={() => setConfirming(true)} data-testid="remove-case">
            Remove this case…
          </button>
        ) : (
          <>
            <span>Remove the failed case from the list? It holds no analysis and no custody ledger; the service keeps a record of the removal.</span>
            <button type="button" className="small danger" onClick={() => void remove()} disabled={busy} data-testid="confirm-remove">
              {busy ? 'Removing…' : 'Remove'}
            </button>
            <button type="button" className="small" onClick={() => setConfirming(false)} disabled={busy}>
              Keep it
            </button>
          </>
        )}
      </div>
      {error && <ErrorNote error={error} title="The case was not removed" />}
    </section>
  );
}
