// Pieces every Replay view shares: the severity badge, the reduction figures with what each counts, an alert's counts and facts, sortable headers, pages and the paged query behind the tables.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { Evidence, ReductionStats } from '../../../../engines/core/contracts/replay';
import type { ApiError} from '../../api/client';
import { type ApiClient, asApiError } from '../../api/client';
import { ErrorNote, LocalErrorNote } from '../../components/ErrorNote';
import { BROWSE_PAGE, nextSort, pageLabel, type Checked, type SortOrder } from './browse';
import { count, reductionRows } from './model';

export function SeverityBadge({ severity }: { readonly severity: string }) {
  return <span className={`sev sev--${severity}`}>{severity}</span>;
}

export function ReductionTable({ stats, testId }: { readonly stats: ReductionStats; readonly testId: string }) {
  return (
    <dl className="reduction" data-testid={testId}>
      {reductionRows(stats).map((r) => (
        <div key={r.key} data-stat={r.key} title={r.counts}>
          <dt>{r.label}</dt>
          <dd>
            <span className="reduction__value num">{r.value}</span>
            <span className="muted reduction__hint">{r.hint}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}


/** A sortable column header: a button that says which way it sorts (aria-sort on the cell). */
export function SortHeader({
  label,
  active,
  onSort,
  numeric = false,
  className,
  sub,
}: {
  readonly label: string;
  readonly active: 'asc' | 'desc' | undefined;
  readonly onSort: () => void;
  readonly numeric?: boolean;
  /** The column's class (a column a narrow table leaves out). */
  readonly className?: string;
  /** A short muted second line under the label (its unit, or the day every row shares). */
  readonly sub?: string;
}) {
  const classes = [numeric ? 'num' : '', className ?? ''].filter((c) => c !== '').join(' ');
  return (
    <th className={classes === '' ? undefined : classes} aria-sort={active === undefined ? 'none' : active === 'asc' ? 'ascending' : 'descending'}>
      <button type="button" className="sort-header" onClick={onSort}>
        {label}
        <span className="sort-header__mark" aria-hidden="true">
          {active === 'asc' ? ' ▲' : active === 'desc' ? ' ▼' : ''}
        </span>
        {sub !== undefined && <span className="sort-header__sub"> {sub}</span>}
      </button>
    </th>
  );
}

/** Previous / next page buttons around "1–100 of 2,345". */
export function Pager({ label, offset, total, size, onOffset }: { readonly label: string; readonly offset: number; readonly total: number; readonly size: number; readonly onOffset: (offset: number) => void }) {
  const last = Math.max(0, Math.floor((total - 1) / size) * size);
  return (
    <div className="row browse__pager" data-testid="pager">
      <button type="button" className="small" disabled={offset === 0} onClick={() => onOffset(0)} aria-label="First page">
        ◀◀
      </button>
      <button type="button" className="small" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - size))} aria-label="Previous page">
        ◀ Previous
      </button>
      <span className="muted num" data-testid="page-position">
        {label}
      </span>
      <button type="button" className="small" disabled={offset + size >= total} onClick={() => onOffset(offset + size)} aria-label="Next page">
        Next ▶
      </button>
      <button type="button" className="small" disabled={offset >= last} onClick={() => onOffset(last)} aria-label="Last page">
        ▶▶
      </button>
    </div>
  );
}

/** The numbers a rule compared and the facts it recorded, as a definition list. */
export function EvidenceFacts({ evidence, className = 'facts' }: { readonly evidence: Evidence; readonly className?: string }) {
  const counts = Object.entries(evidence.counts);
  const facts = Object.entries(evidence.facts);
  if (counts.length === 0 && facts.length === 0) return null;
  return (
    <dl className={className}>
      {counts.map(([k, v]) => (
        <div key={`c-${k}`}>
          <dt>{k.replace(/_/g, ' ')}</dt>
          <dd className="num">{count(v)}</dd>
        </div>
      ))}
      {facts.map(([k, v]) => (
        <div key={`f-${k}`}>
          <dt>{k.replace(/_/g, ' ')}</dt>
          <dd>{Array.isArray(v) ? v.slice(0, 10).join(', ') + (v.length > 10 ? ` (+${v.length - 10})` : '') : String(v)}</dd>
        </div>
      ))}
    </dl>
  );
}

export interface PagedQuery<P> {
  readonly sort: { readonly sort: string; readonly order: SortOrder };
  readonly setSort: (s: { sort: string; order: SortOrder }) => void;
  readonly offset: number;
  readonly setOffset: (offset: number) => void;
  readonly page: P | null;
  readonly error: ApiError | null;
  /** Why nothing was sent (a filter that does not read), or null. */
  readonly local: string | null;
}

/**
 * A table's page from the service: sort and offset state, the query checked before it is sent (`build`), the
 * answer or the error. The offset goes back to the first page whenever `resetKey` (filters, analysis) or the sort changes.
 */
export function usePagedQuery<P>(client: ApiClient, path: string, resetKey: string, build: (sort: string, order: SortOrder, offset: number) => Checked): PagedQuery<P> {
  const [sort, setSort] = useState<{ sort: string; order: SortOrder }>({ sort: 'time', order: 'asc' });
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<P | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [local, setLocal] = useState<string | null>(null);

  useEffect(() => setOffset(0), [resetKey, sort]);

  const load = useCallback(async (): Promise<void> => {
    const checked = build(sort.sort, sort.order, offset);
    if (!checked.ok) {
      setLocal(checked.message);
      return;
    }
    setLocal(null);
    try {
      setPage(await client.get<P>(path, { query: checked.query }));
      setError(null);
    } catch (err) {
      setError(asApiError(err));
    }
    // `build` is made on every render; what it reads is in resetKey, so it is left out of the dependencies.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- see the line above
  }, [client, path, resetKey, sort, offset]);

  useEffect(() => {
    void load();
  }, [load]);

  return { sort, setSort, offset, setOffset, page, error, local };
}

export interface BrowseTable<P, F> extends PagedQuery<P> {
  /** The filters being edited, applied with the form's submit. */
  readonly draft: F;
  readonly setDraft: (f: F) => void;
  /** Whether the applied filters differ from none. */
  readonly filtered: boolean;
  /** The filter form's submit: applies the draft. */
  readonly apply: (e: FormEvent) => void;
  /** FilterTail's props but its Apply test id: the draft's time range, and Clear back to no filter. */
  readonly tail: { from: string; to: string; onRange: (from: string, to: string) => void; filtered: boolean; onClear: () => void };
  /** A sortable column's SortHeader props: its order when it sorts the table, and the click that sorts by it. */
  readonly sorted: (column: string, first?: SortOrder, numeric?: boolean) => { active: SortOrder | undefined; onSort: () => void; numeric: boolean };
}

/**
 * A browse table of an analysis (alerts, flows): the filter draft that follows the applied filters (`onFilters` applies
 * them), the paged query of `path` built from the applied filters, and the sortable headers.
 */
export function useBrowseTable<P, F extends { readonly from: string; readonly to: string }>(
  client: ApiClient,
  path: string,
  analysisId: string,
  filters: F,
  onFilters: (f: F) => void,
  none: F,
  build: (f: F, sort: string, order: SortOrder, offset: number) => Checked,
): BrowseTable<P, F> {
  const [draft, setDraft] = useState(filters);
  useEffect(() => setDraft(filters), [filters]);
  const query = usePagedQuery<P>(client, path, `${analysisId} ${JSON.stringify(filters)}`, (by, order, at) => build(filters, by, order, at));
  const { sort, setSort } = query;
  const sorted = (column: string, first: SortOrder = 'asc', numeric = false) => ({
    active: sort.sort === column ? sort.order : undefined,
    onSort: () => setSort(nextSort(sort, column, first)),
    numeric,
  });
  const filtered = JSON.stringify(filters) !== JSON.stringify(none);
  const apply = (e: FormEvent): void => {
    e.preventDefault();
    onFilters(draft);
  };
  const tail = { from: draft.from, to: draft.to, onRange: (from: string, to: string) => setDraft({ ...draft, from, to }), filtered, onClear: () => onFilters(none) };
  return { ...query, draft, setDraft, filtered, apply, tail, sorted };
}

/** The pager of a browse table's page, once the page holds something. */
export function BrowsePager({ page, offset, onOffset }: { readonly page: { readonly offset: number; readonly items: readonly unknown[]; readonly total: number } | null; readonly offset: number; readonly onOffset: (offset: number) => void }) {
  if (!page || page.total === 0) return null;
  return <Pager label={pageLabel(page.offset, page.items.length, page.total)} offset={offset} total={page.total} size={BROWSE_PAGE} onOffset={onOffset} />;
}

/** The end of a filter form: the UTC time range, Apply, and Clear when something is set. */
export function FilterTail({ from, to, onRange, filtered, onClear, applyTestId }: { readonly from: string; readonly to: string; readonly onRange: (from: string, to: string) => void; readonly filtered: boolean; readonly onClear: () => void; readonly applyTestId: string }) {
  return (
    <>
      <label>
        From <input type="text" value={from} onChange={(e) => onRange(e.target.value, to)} placeholder="UTC 2024-01-31 13:45" size={20} />
      </label>
      <label>
        To <input type="text" value={to} onChange={(e) => onRange(from, e.target.value)} placeholder="UTC" size={20} />
      </label>
      <button type="submit" className="small" data-testid={applyTestId}>
        Apply
      </button>
      {filtered && (
        <button type="button" className="small" onClick={onClear}>
          Clear
        </button>
      )}
    </>
  );
}

/** What stopped a table's query: a filter that does not read (nothing was sent), or the service's error. */
export function QueryProblems({ local, error, title }: { readonly local: string | null; readonly error: ApiError | null; readonly title: string }) {
  return (
    <>
      {local && <LocalErrorNote message={local} />}
      {error && <ErrorNote error={error} title={title} />}
    </>
  );
}
