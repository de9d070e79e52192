// The right-hand side of the Replay workspace: which analysis is browsed, and its tabs (story, alerts, flows, overview).
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import type { AnalysisDetail, AnalysisPage, ReplayHealth } from '../../../../engines/core/contracts/replay';
import { type ApiClient, type ApiError, asApiError } from '../../api/client';
import { ErrorNote } from '../../components/ErrorNote';
import { utcTime } from '../../components/time';
import { AlertsView } from './alerts/AlertsView';
import { NO_ALERT_FILTERS, NO_FLOW_FILTERS, type AlertFilters, type FlowFilters } from './browse';

import { FlowsView } from './flows/FlowsView';
import { count, plural } from './model';
import { OverviewView } from './overview/OverviewView';

export type ReplayTab = 'story' | 'alerts' | 'flows' | 'overview';

const TABS: ReadonlyArray<{ readonly id: ReplayTab; readonly label: string }> = [
  { id: 'story', label: 'Story' },
  { id: 'alerts', label: 'Alerts' },
  { id: 'flows', label: 'Flows' },
  { id: 'overview', label: 'Overview' },
];

/** What another part of the workspace asks the tabs to show (a host's alerts from a story, for example). */
export interface TabRequest {
  readonly tab: ReplayTab;
  readonly alerts?: AlertFilters;
  readonly flows?: FlowFilters;
  /** Changes on every request, so the same request twice still applies. */
  readonly serial: number;
}

export interface ReplayTabsProps {
  readonly client: ApiClient;
  readonly base: string;
  readonly health: ReplayHealth | null;
  /** The analysis browsed (null: the newest stored one). */
  readonly analysisId: string | null;
  readonly onAnalysis: (id: string) => void;
  /** Bumped when an analysis was stored, so the list of analyses is read again. */
  readonly refresh: number;
  readonly tab: ReplayTab;
  readonly onTab: (tab: ReplayTab) => void;
  readonly request: TabRequest | null;
  readonly onOpenStory: (id: string) => void;
  /** The Story tab's content (the story view or what to do to get one). */
  readonly storyPane: ReactNode;
  /** Set to the selected tab, so the workspace can hand it focus after an analysis. */
  readonly selectedTabRef?: RefObject<HTMLButtonElement | null>;
}

export function ReplayTabs({ client, base, health, analysisId, onAnalysis, refresh, tab, onTab, request, onOpenStory, storyPane, selectedTabRef }: ReplayTabsProps) {
  const [analyses, setAnalyses] = useState<AnalysisPage | null>(null);
  const [detail, setDetail] = useState<AnalysisDetail | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [alertFilters, setAlertFilters] = useState<AlertFilters>(NO_ALERT_FILTERS);
  const [flowFilters, setFlowFilters] = useState<FlowFilters>(NO_FLOW_FILTERS);
  const tabRefs = useRef(new Map<ReplayTab, HTMLButtonElement>());
  // The analysis picked now (an open request may pick one before the list arrives: the newest must not replace it).
  const picked = useRef(analysisId);
  picked.current = analysisId;

  useEffect(() => {
    void (async () => {
      try {
        const page = await client.get<AnalysisPage>(`${base}/api/analyses`, { query: { limit: 50 } });
        setAnalyses(page);
        const newest = page.items[0];
        if (picked.current === null && newest) onAnalysis(newest.id);
      } catch (err) {
        setError(asApiError(err));
      }
    })();
    // Read again when an analysis is stored, not when one is picked (analysisId is left out on purpose).
    // eslint-disable-next-line react-hooks/exhaustive-deps -- onAnalysis is the parent's setter; a new one must not re-read the list
  }, [client, base, refresh]);

  const loadDetail = useCallback(
    async (id: string): Promise<void> => {
      try {
        setDetail(await client.get<AnalysisDetail>(`${base}/api/analyses/${encodeURIComponent(id)}`));
        setError(null);
      } catch (err) {
        setError(asApiError(err));
      }
    },
    [client, base],
  );

  useEffect(() => {
    if (analysisId === null) return;
    setAlertFilters(NO_ALERT_FILTERS);
    setFlowFilters(NO_FLOW_FILTERS);
    void loadDetail(analysisId);
  }, [analysisId, loadDetail]);

  useEffect(() => {
    if (!request) return;
    if (request.alerts) setAlertFilters(request.alerts);
    if (request.flows) setFlowFilters(request.flows);
  }, [request]);

  const onTabKey = (e: KeyboardEvent): void => {
    const i = TABS.findIndex((t) => t.id === tab);
    const next = e.key === 'ArrowRight' ? TABS[(i + 1) % TABS.length] : e.key === 'ArrowLeft' ? TABS[(i + TABS.length - 1) % TABS.length] : undefined;
    if (!next) return;
    e.preventDefault();
    onTab(next.id);
    tabRefs.current.get(next.id)?.focus();
  };

  const showFlows = (f: Partial<FlowFilters>): void => {
    setFlowFilters({ ...NO_FLOW_FILTERS, ...f });
    onTab('flows');
  };
  const showAlerts = (f: Partial<AlertFilters>): void => {
    setAlertFilters({ ...NO_ALERT_FILTERS, ...f });
    onTab('alerts');
  };
  const current = detail && detail.id === analysisId ? detail : null;

  return (
    <>
      <div className="row replay-tabs">
        <div className="replay-tabs__list" role="tablist" aria-label="Replay views" onKeyDown={onTabKey}>
          {TABS.map((t) => (
            <button
              key={t.id}
              ref={(el) => {
                if (el) tabRefs.current.set(t.id, el);
                if (el && tab === t.id && selectedTabRef) selectedTabRef.current = el;
              }}
              type="button"
              role="tab"
              id={`replay-tab-${t.id}`}
              aria-selected={tab === t.id}
              aria-controls="replay-tabpanel"
              tabIndex={tab === t.id ? 0 : -1}
              className={`replay-tabs__tab${tab === t.id ? ' replay-tabs__tab--on' : ''}`}
              onClick={() => onTab(t.id)}
              data-testid={`tab-${t.id}`}
            >
              {t.label}
              {t.id === 'alerts' && current ? <span className="muted"> {count(current.stats.alerts)}</span> : null}
              {t.id === 'flows' && current ? <span className="muted"> {count(current.stats.flows)}</span> : null}
            </button>
          ))}
        </div>
        <span className="spacer" />
        {analyses && analyses.items.length > 0 && (
          <label className="replay-tabs__analysis">
            <span className="muted">Analysis</span>{' '}
            <select value={analysisId ?? ''} onChange={(e) => onAnalysis(e.target.value)} data-testid="analysis-picker">
              {analysisId !== null && !analyses.items.some((a) => a.id === analysisId) && <option value={analysisId}>{current?.name ?? 'this analysis'}</option>}
              {analyses.items.map((a) => (
                <option key={a.id} value={a.id} title={`${a.name} · ${utcTime(a.created_at)} · ${plural(a.alerts, 'alert')}`}>
                  {a.name.length > 18 ? `${a.name.slice(0, 17)}…` : a.name} · {utcTime(a.created_at, 'minute')} · {plural(a.alerts, 'alert')}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      <div id="replay-tabpanel" role="tabpanel" aria-labelledby={`replay-tab-${tab}`} className="ws-column">
        {error && tab !== 'story' && <ErrorNote error={error} title="The analysis could not be read" />}
        {tab === 'story' && storyPane}
        {tab !== 'story' && !current && !error && (
          <section className="panel empty-result">
            <h2>No analysis yet</h2>
            <p className="muted">
              Open a capture or run the demo: its alerts, flows, protocols and timeline appear here{analyses && analyses.total > 0 ? ' (loading…)' : ''}.
            </p>
          </section>
        )}
        {tab === 'alerts' && current && (
          <AlertsView
            client={client}
            base={base}
            analysis={current}
            rules={health?.rules ?? []}
            filters={alertFilters}
            onFilters={setAlertFilters}
            onOpenStory={onOpenStory}
            onShowFlows={(host) => showFlows({ host })}
          />
        )}
        {tab === 'flows' && current && <FlowsView client={client} base={base} analysis={current} filters={flowFilters} onFilters={setFlowFilters} onShowAlerts={(host) => showAlerts({ host })} />}
        {tab === 'overview' && current && (
          <OverviewView
            analysis={current}
            onPickProtocol={(protocol) => showFlows({ protocol })}
            onPickTime={(from, to, what) => (what === 'alerts' ? showAlerts({ from, to }) : showFlows({ from, to }))}
          />
        )}
      </div>
    </>
  );
}
