// Past assessments (GET /assessments, newest first), paged; choosing one reopens it.
import type { CaseAssessPage, StoredAssessmentSummary } from '../../../../engines/core/contracts/caseassess';
import type { ApiError } from '../../api/client';
import { ErrorNote } from '../../components/ErrorNote';
import { utcTime } from '../../components/time';
import { percent } from './model';

export interface HistoryProps {
  readonly page: CaseAssessPage<StoredAssessmentSummary> | null;
  readonly error: ApiError | null;
  readonly filter: string;
  readonly openId: string | null;
  readonly loading: boolean;
  readonly onOpen: (id: string) => void;
  readonly onPage: (offset: number) => void;
  readonly onRefresh: () => void;
}

function when(iso: string): string {
  return utcTime(iso, 'minute');
}

export function History({ page, error, filter, openId, loading, onOpen, onPage, onRefresh }: HistoryProps) {
  const f = filter.trim().toLowerCase();
  const items = (page?.items ?? []).filter(
    (s) => !f || [s.case_id, s.case_title ?? '', s.leading_name, s.leading_attack_id].some((v) => v.toLowerCase().includes(f)),
  );
  return (
    <section className="panel history" aria-label="Past assessments">
      <div className="panel__head">
        <h2>History</h2>
        <button type="button" className="small" onClick={onRefresh} disabled={loading}>
          Refresh
        </button>
      </div>
      {error && <ErrorNote error={error} title="The history could not be loaded" />}
      {page && page.total === 0 && <p className="muted">No assessments yet. Run one and it is kept here.</p>}
      {page && page.total > 0 && items.length === 0 && <p className="muted">No assessment on this page matches the filter.</p>}
      <ul className="stack-list history__list" data-testid="history">
        {items.map((s) => (
          <li key={s.id}>
            <button type="button" className={`history__item${s.id === openId ? ' history__item--open' : ''}`} onClick={() => onOpen(s.id)} aria-current={s.id === openId ? 'true' : undefined} title={s.case_title ?? s.case_id}>
              <span className="history__case">{s.case_title ?? s.case_id}</span>
              <span className="history__lead">
                {s.insufficient === true ? 'Insufficient evidence' : `${s.leading_name} · ${s.confidence_words} (${percent(s.leading_probability)})`}
              </span>
              <span className="muted history__when">{when(s.created_at)}</span>
            </button>
          </li>
        ))}
      </ul>
      {page && page.total > page.limit && (
        <div className="row history__pager">
          <button type="button" className="small" disabled={page.offset === 0 || loading} onClick={() => onPage(Math.max(0, page.offset - page.limit))}>
            Newer
          </button>
          <span className="muted">
            {page.offset + 1}–{Math.min(page.offset + page.limit, page.total)} of {page.total}
          </span>
          <button type="button" className="small" disabled={page.offset + page.limit >= page.total || loading} onClick={() => onPage(page.offset + page.limit)}>
            Older
          </button>
        </div>
      )}
    </section>
  );
}
