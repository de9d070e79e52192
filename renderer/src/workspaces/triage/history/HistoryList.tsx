// The files analysed in this window, newest first: one button each (verdict, name, signature state); the shown one is marked.
import type { HistoryEntry } from './model';

export function HistoryList({ entries, shownId, onShow, onClear }: { readonly entries: readonly HistoryEntry[]; readonly shownId: number | null; readonly onShow: (id: number) => void; readonly onClear: () => void }) {
  if (entries.length === 0) return null;
  return (
    <nav className="thist" aria-label="Files analysed in this window" data-testid="triage-history">
      <span className="muted thist__label">This window:</span>
      <ul className="thist__list">
        {entries.map((e) => (
          <li key={e.id}>
            <button
              type="button"
              className={`thist__item${e.id === shownId ? ' thist__item--on' : ''}`}
              aria-current={e.id === shownId ? 'true' : undefined}
              title={`${e.fileLabel}\nSHA-256 ${e.result.sha256}\nanalysed ${e.at.replace('T', ' ').slice(0, 19)} UTC`}
              onClick={() => onShow(e.id)}
            >
              <span className={`thist__verdict thist__verdict--${e.result.verdict.toLowerCase()}`}>{e.result.verdict}</span>
              <span className="ellipsis thist__name">{e.fileLabel}</span>
            </button>
          </li>
        ))}
      </ul>
      <button type="button" className="small" onClick={onClear}>
        Clear
      </button>
    </nav>
  );
}
