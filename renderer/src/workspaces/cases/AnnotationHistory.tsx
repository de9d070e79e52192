// Every version of an event's annotation, newest first, under the event's tags and note: collapsed to "3 versions" until opened, each version with when, who, its place in the annotation ledger and what it changed.
import { useId, useState } from 'react';
import { useLoad } from '../../components/useLoad';
import { type ApiClient, type ApiError, asApiError } from '../../api/client';
import { ErrorNote } from '../../components/ErrorNote';
import { Progress } from '../../components/Progress';
import { utcTime } from '../../components/time';
import { versionChange, versionsLabel, type VersionChange } from './annotation-history';
import type { AnnotationHistory as History, AnnotationVersion } from './types';

/** Versions shown per page (one more is read, to show what the oldest shown one changed). */
export const HISTORY_PAGE = 20;

export interface AnnotationHistoryProps {
  readonly client: ApiClient;
  readonly base: string;
  readonly caseId: string;
  readonly eventId: string;
  /**
   * How many versions the annotation has (from its current version); the list is offered from two on. Null when the
   * event has no current annotation: the service is asked whether it had one that was cleared (then the list is offered).
   */
  readonly versions: number | null;
}

function Tags({ tags, kind }: { readonly tags: readonly string[]; readonly kind: 'added' | 'removed' | 'same' }) {
  return (
    <>
      {tags.map((t) => (
        <span key={t} className={`annotation-tag annotation-tag--${kind}`}>
          {t}
        </span>
      ))}
    </>
  );
}

function Change({ change, v }: { readonly change: VersionChange | null; readonly v: AnnotationVersion }) {
  if (change === null) return <p className="muted">What it changed shows once the version before it is read.</p>;
  if (change.first) {
    return (
      <div className="annotation-version__change">
        <p>
          First annotation{v.tags.length > 0 ? ': tags ' : v.note === '' ? ': no tag, no note' : ''}
          <Tags tags={v.tags} kind="added" />
        </p>
        {v.note !== '' && <p className="annotation-version__note selectable">{v.note}</p>}
      </div>
    );
  }
  if (change.cleared) return <p className="annotation-version__change">Cleared: no tag and no note (the earlier versions stay in the ledger).</p>;
  const nothing = change.added.length === 0 && change.removed.length === 0 && change.note === null;
  return (
    <div className="annotation-version__change">
      {nothing && <p className="muted">Saved again unchanged.</p>}
      {change.added.length > 0 && (
        <p>
          Tags added: <Tags tags={change.added} kind="added" />
        </p>
      )}
      {change.removed.length > 0 && (
        <p>
          Tags removed: <Tags tags={change.removed} kind="removed" />
        </p>
      )}
      {change.note !== null && (
        <div>
          <p>{v.note === '' ? 'Note removed:' : 'Note changed (removed words struck through, added ones underlined):'}</p>
          <p className="annotation-version__note selectable" data-testid="annotation-note-diff">
            {change.note.map((p, i) =>
              p.kind === 'same' ? (
                <span key={i}>{p.text}</span>
              ) : p.kind === 'added' ? (
                <ins key={i} title="added">
                  {p.text}
                </ins>
              ) : (
                <del key={i} title="removed">
                  {p.text}
                </del>
              ),
            )}
          </p>
        </div>
      )}
    </div>
  );
}

export function AnnotationHistoryList({ client, base, caseId, eventId, versions }: AnnotationHistoryProps) {
  const listId = useId();
  const path = `${base}/api/cases/${encodeURIComponent(caseId)}/annotations/${encodeURIComponent(eventId)}`;
  // An event with no current annotation may have had one that was cleared: one version read says how many it had.
  const probe = useLoad(() => (versions === null ? client.get<History>(`${path}?order=newest&limit=1`) : null), [versions, path, client]);
  const known = versions ?? probe.data?.total ?? 0;
  const [open, setOpen] = useState(false);
  // Newest first, read from the top page by page; may hold one more than is shown (the base of the oldest shown one).
  const [items, setItems] = useState<readonly AnnotationVersion[]>([]);
  const [shown, setShown] = useState(0);
  const [readTotal, setTotal] = useState<number | null>(null);
  const total = readTotal ?? known;
  const [verified, setVerified] = useState(true);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  if (versions === null ? known < 1 : versions < 2) return null;

  const read = async (target: number): Promise<void> => {
    setBusy(true);
    try {
      const limit = Math.min(500, target + 1 - items.length);
      const h = await client.get<History>(`${path}?order=newest&limit=${limit}&offset=${items.length}`);
      setItems([...items, ...h.items]);
      setTotal(h.total);
      setVerified(h.verification.ok);
      setShown(target);
      setError(null);
    } catch (err) {
      setError(asApiError(err));
    } finally {
      setBusy(false);
    }
  };
  const toggle = (): void => {
    const next = !open;
    setOpen(next);
    if (next && items.length === 0) void read(HISTORY_PAGE);
  };
  const visible = items.slice(0, shown);
  return (
    <div className="annotation-history" data-testid="annotation-history">
      <button type="button" className="small annotation-history__toggle" aria-expanded={open} aria-controls={listId} onClick={toggle} data-testid="annotation-history-toggle">
        <span aria-hidden="true">{open ? '▾' : '▸'}</span> {versionsLabel(total)}
        {versions === null ? ' (cleared)' : ''}
      </button>
      <div id={listId} hidden={!open}>
        {busy && <Progress label="Reading the earlier versions" />}
        {error && <ErrorNote error={error} title="The earlier versions could not be read" />}
        {!verified && (
          <p className="custody__bad" role="alert">
            The case's annotation ledger does not verify: these versions may have been altered.
          </p>
        )}
        {visible.length > 0 && (
          <ol className="annotation-history__list" aria-label={`Versions of the annotation, newest first (${versionsLabel(total)})`}>
            {visible.map((v, i) => {
              const before = items[i + 1];
              const change = before !== undefined || v.version === 1 ? versionChange(before, v) : null;
              return (
                <li key={v.seq} className="annotation-version" data-testid="annotation-version" data-version={v.version}>
                  <div className="annotation-version__head">
                    <strong>Version {v.version}</strong>
                    {v.version === total ? ' (current)' : ''} <span className="muted">
                      · {utcTime(v.at)} · {v.actor} ·{' '}
                      <span className="selectable" title={`ledger record ${v.seq}, hash ${v.hash}, previous ${v.prevHash}`}>
                        record {v.seq}, hash <code>{v.hash.slice(0, 12)}…</code>
                      </span>
                    </span>
                  </div>
                  <Change change={change} v={v} />
                </li>
              );
            })}
          </ol>
        )}
        {open && !busy && visible.length > 0 && visible.length < total && (
          <button type="button" className="small" onClick={() => void read(shown + HISTORY_PAGE)} data-testid="annotation-history-more">
            Show older versions ({(total - visible.length).toLocaleString('en')} more)
          </button>
        )}
      </div>
    </div>
  );
}
