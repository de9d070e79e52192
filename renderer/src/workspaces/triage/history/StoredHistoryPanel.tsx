// The History panel: analyses the service keeps (GET /api/analyses), newest first, paged, filtered by verdict and by a part of the
// file name or a SHA-256 start (the service matches either, so a file is found again by its name or its hash).
// Each row is a button (file name, short SHA-256, verdict, score, family, size, time; a row stored without a name leads with the
// short SHA-256); arrows, Home and End move between rows, Enter opens one.
import { useRef, type KeyboardEvent } from 'react';
import type { TriageVerdict } from '../../../../../engines/core/contracts/petriage';
import { ErrorNote } from '../../../components/ErrorNote';
import { formatBytes, percent } from '../model';
import { rowAfterKey, shortSha, storedWhen, visibleName } from './model';
import type { StoredHistory } from './useStoredHistory';

const VERDICTS: readonly TriageVerdict[] = ['MALICIOUS', 'SUSPICIOUS', 'BENIGN'];

export interface StoredHistoryPanelProps {
  readonly history: StoredHistory;
  /** The stored id of the analysis on screen, marked in the list. */
  readonly openId: string | null;
  readonly open: boolean;
  readonly onToggle: () => void;
  readonly onOpen: (id: string) => void;
}

export function StoredHistoryPanel({ history, openId, open, onToggle, onOpen }: StoredHistoryPanelProps) {
  const { page, error, problem, loading, filter, setFilter, load, reload } = history;
  const listRef = useRef<HTMLUListElement>(null);
  const text = filter.text.trim();
  const filtered = filter.verdict !== '' || text !== '';
  const moveFocus = (e: KeyboardEvent, at: number): void => {
    const rows = listRef.current?.querySelectorAll<HTMLButtonElement>('button.shist__row') ?? [];
    const next = rowAfterKey(e.key, at, rows.length);
    if (next === null) return;
    e.preventDefault();
    rows[next]?.focus();
  };
  return (
    <section className="panel shist" aria-label="Stored analyses" data-testid="triage-stored-history">
      <div className="panel__head shist__head">
        <button type="button" className="small shist__toggle" aria-expanded={open} aria-controls="triage-stored-body" onClick={onToggle} data-testid="triage-history-toggle">
          {open ? '▾' : '▸'} History
        </button>
        <span className="muted">{page ? `${page.total.toLocaleString('en')} ${filtered ? 'matching' : 'stored'} ${page.total === 1 ? 'analysis' : 'analyses'}` : loading ? 'loading…' : ''}</span>
        {open && (
          <div className="row shist__filters">
            <select aria-label="Only this verdict" value={filter.verdict} onChange={(e) => setFilter({ ...filter, verdict: e.target.value as TriageVerdict | '' })} data-testid="triage-history-verdict">
              <option value="">All verdicts</option>
              {VERDICTS.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
            <input
              type="search"
              className="shist__sha"
              aria-label="File name or SHA-256 start"
              placeholder="File name or SHA-256 start"
              title="Lists the stored analyses whose file name holds this text (letters in either case) or whose SHA-256 starts with it"
              spellCheck={false}
              value={filter.text}
              onChange={(e) => setFilter({ ...filter, text: e.target.value })}
              onKeyDown={(e) => {
                if (e.key === 'Escape' && filter.text !== '') {
                  e.preventDefault();
                  e.stopPropagation();
                  setFilter({ ...filter, text: '' });
                } else if (e.key === 'ArrowDown') {
                  const first = listRef.current?.querySelector<HTMLButtonElement>('button.shist__row');
                  if (first) {
                    e.preventDefault();
                    first.focus();
                  }
                }
              }}
              aria-invalid={problem !== null}
              data-testid="triage-history-filter"
            />
            <button type="button" className="small" onClick={reload} disabled={loading}>
              Refresh
            </button>
          </div>
        )}
      </div>
      {open && (
        <div id="triage-stored-body">
          {problem && <p className="neg">{problem}</p>}
          {error && <ErrorNote error={error} title="The stored history could not be loaded" />}
          {page && page.total === 0 && (
            <p className="muted" data-testid="triage-history-empty">
              {filtered ? emptyFiltered(filter.verdict, text) : 'No analyses stored yet. Every file triaged here is kept in this list (its result, not its bytes).'}
            </p>
          )}
          {page && page.items.length > 0 && (
            <ul className="shist__list" ref={listRef} data-testid="triage-history-rows">
              {page.items.map((s, i) => {
                const name = s.fileName !== null ? visibleName(s.fileName) : null;
                return (
                  <li key={s.id}>
                    <button
                      type="button"
                      className={`shist__row${s.id === openId ? ' shist__row--on' : ''}`}
                      aria-current={s.id === openId ? 'true' : undefined}
                      title={`${name !== null ? `${name}\n` : ''}SHA-256 ${s.sha256}\nanalysed ${storedWhen(s.createdAt)} with the ${s.modelType} model`}
                      onClick={() => onOpen(s.id)}
                      onKeyDown={(e) => moveFocus(e, i)}
                      data-testid="triage-history-row"
                      data-analysis-id={s.id}
                      data-sha256={s.sha256}
                    >
                      {name !== null ? (
                        <>
                          <span className="ellipsis shist__name" title={name} data-testid="triage-history-name">
                            {name}
                          </span>
                          <span className="mono muted ellipsis shist__hash">{shortSha(s.sha256)}</span>
                        </>
                      ) : (
                        <>
                          <span className="mono ellipsis shist__name shist__name--sha">{shortSha(s.sha256)}</span>
                          <span className="shist__hash" />
                        </>
                      )}
                      <span className={`thist__verdict thist__verdict--${s.verdict.toLowerCase()}`}>{s.verdict}</span>
                      <span className="shist__score muted">{percent(s.score)}</span>
                      <span className="ellipsis shist__family">{s.family ?? <span className="muted">no family</span>}</span>
                      <span className="muted shist__size">{formatBytes(s.size)}</span>
                      <span className="muted shist__when">{storedWhen(s.createdAt)}</span>
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
          {page && page.total > page.limit && (
            <div className="row shist__pager">
              <button type="button" className="small" disabled={page.offset === 0 || loading} onClick={() => load(Math.max(0, page.offset - page.limit))}>
                Newer
              </button>
              <span className="muted">
                {page.offset + 1}–{Math.min(page.offset + page.limit, page.total)} of {page.total.toLocaleString('en')}
              </span>
              <button type="button" className="small" disabled={page.offset + page.limit >= page.total || loading} onClick={() => load(page.offset + page.limit)}>
                Older
              </button>
            </div>
          )}
        </div>
      )}
    </section>
  );
}

/** What an empty filtered page says: what was looked for, and that the name is matched anywhere in it. */
export function emptyFiltered(verdict: TriageVerdict | '', text: string): string {
  const what = text !== '' ? `whose file name holds “${text}”${/^[0-9a-f]{1,64}$/iu.test(text) ? ' or whose SHA-256 starts with it' : ''}` : '';
  const only = verdict !== '' ? `with the verdict ${verdict}` : '';
  return `No stored analysis ${[what, only].filter((p) => p !== '').join(' and ')}. Clear the filter to list them all; a file analysed before names were kept is found by its SHA-256.`;
}
