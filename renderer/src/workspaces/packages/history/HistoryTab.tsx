// The History tab: the stats overview, stored scans filtered by decision, severity and text with pagination; a row opens its verdict (Escape goes back).
import { useEffect, useState } from 'react';
import type { PageOf, ScanStats, ScanSummary, ScanVerdict } from '../../../../../engines/core/contracts/pkgscan';
import { ErrorNote } from '../../../components/ErrorNote';
import { focusLost } from '../../../components/useDialogFocus';
import { PAGE } from '../common/format';
import { useLoad } from '../../../components/useLoad';
import { usePackagesNav } from '../common/nav';
import { AssessmentCell, DecisionCell, FilterSelect, PackageLink, Pager, VerdictTailCells, VerdictTailHeads } from '../common/ui';
import { VerdictView } from '../scan/VerdictView';
import type { PkgscanApi } from '../session';
import { StatsOverview } from './StatsOverview';

/** The list's filters and page: kept by the tab, so a verdict opened and closed (Esc) comes back to the same list. */
interface ListState {
  readonly decision: string;
  readonly severity: string;
  readonly q: string;
  readonly offset: number;
}

const NO_FILTER: ListState = { decision: '', severity: '', q: '', offset: 0 };

export function HistoryTab({ api }: { api: PkgscanApi }) {
  const scanId = usePackagesNav((s) => s.scanId);
  const [listState, setListState] = useState<ListState>(NO_FILTER);
  // The verdict last opened from the list: back on the list, its row's Open verdict takes the focus the Back button had.
  const [lastOpened, setLastOpened] = useState<string | null>(null);
  useEffect(() => {
    if (scanId !== null) setLastOpened(scanId);
  }, [scanId]);
  return scanId === null ? <HistoryList api={api} state={listState} onState={setListState} returnTo={lastOpened} /> : <OneVerdict api={api} id={scanId} />;
}

function OneVerdict({ api, id }: { api: PkgscanApi; id: string }) {
  const openScan = usePackagesNav((s) => s.openScan);
  const verdict = useLoad(() => api.get<ScanVerdict>(`/scans/${encodeURIComponent(id)}`), [api, id]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape' && !(e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement)) openScan(null);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [openScan]);
  return (
    <>
      <div className="packages__filters">
        <button type="button" onClick={() => openScan(null)} autoFocus>
          ← Back to history
        </button>
        <span className="muted small">Esc goes back</span>
      </div>
      {verdict.error && <ErrorNote error={verdict.error} title={verdict.error.status === 404 ? 'This scan is not stored' : 'The verdict could not be loaded'} />}
      {verdict.loading && !verdict.data && <div className="muted">Loading the verdict…</div>}
      {verdict.data && <VerdictView verdict={verdict.data} />}
    </>
  );
}

function HistoryList({ api, state, onState, returnTo }: { api: PkgscanApi; readonly state: ListState; readonly onState: (s: ListState) => void; readonly returnTo: string | null }) {
  const { decision, severity, q, offset } = state;
  const setOffset = (v: number): void => onState({ ...state, offset: v });
  const openScan = usePackagesNav((s) => s.openScan);
  const stats = useLoad(() => api.get<ScanStats>('/scans/stats/overview'), [api]);
  const list = useLoad(
    () => api.get<PageOf<ScanSummary>>('/scans', { decision: decision || undefined, severity: severity || undefined, q: q.trim() || undefined, limit: PAGE, offset }),
    [api, decision, severity, q, offset],
  );
  const filtered = decision !== '' || severity !== '' || q.trim() !== '';
  useEffect(() => {
    if (returnTo === null || !list.data || !focusLost(document.activeElement)) return;
    const row = document.querySelector(`tr[data-scan-id="${CSS.escape(returnTo)}"]`);
    [...(row?.querySelectorAll('button') ?? [])].find((b) => b.textContent?.trim() === 'Open verdict')?.focus({ preventScroll: false });
  }, [list.data, returnTo]);
  return (
    <>
      {stats.error && <ErrorNote error={stats.error} title="The statistics could not be loaded" />}
      {stats.data && <StatsOverview stats={stats.data} />}
      <section className="panel" aria-label="Scan history">
        <div className="packages__filters">
          <h2>Scan history</h2>
          <FilterSelect label="Filter by decision" value={decision} onChange={(v) => onState({ ...state, decision: v, offset: 0 })} any="any decision" options={['allow', 'warn', 'block']} />
          <FilterSelect label="Filter by severity" value={severity} onChange={(v) => onState({ ...state, severity: v, offset: 0 })} any="any severity" options={['info', 'low', 'medium', 'high', 'critical']} />
          <input aria-label="Package name contains" placeholder="name contains" value={q} onChange={(e) => onState({ ...state, q: e.target.value, offset: 0 })} maxLength={214} />
        </div>
        {list.error && <ErrorNote error={list.error} />}
        <table className="packages__table pk-rows">
          <thead>
            <tr>
              <th>Assessment</th>
              <th>Decision</th>
              <th>Package</th>
              <th>Environment</th>
              <VerdictTailHeads />
            </tr>
          </thead>
          <tbody>
            {(list.data?.items ?? []).map((s) => (
              <tr key={s.id} data-testid="scan-row" data-scan-id={s.id}>
                <AssessmentCell assessment={s.assessment} />
                <DecisionCell decision={s.decision} incomplete={s.incomplete} />
                <td>
                  <PackageLink ecosystem={s.ecosystem} name={s.name} version={s.version} />
                </td>
                <td>{s.environment}</td>
                <VerdictTailCells verdict={s} onOpen={() => openScan(s.id)} />
              </tr>
            ))}
          </tbody>
        </table>
        {list.data?.items.length === 0 && (
          <div className="empty">{filtered ? 'No stored scan matches these filters: clear one to see more.' : 'No scans stored yet. Scan a package in the Scan tab.'}</div>
        )}
        {list.data && <Pager offset={offset} limit={PAGE} total={list.data.total} onOffset={setOffset} newer="Newer" older="Older" />}
      </section>
    </>
  );
}
