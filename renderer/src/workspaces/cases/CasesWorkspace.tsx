// The Cases workspace: open evidence (a built-in scenario or paths below the evidence root), watch the analysis, then the case's stories, causal graph, timeline, custody and reports.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ArtifactKindName, CaseDetail, CaseSummary, DetectionSummary, EventAnnotation, ScenarioInfo, Story } from './types';
import type { ApiError} from '../../api/client';
import { asApiError } from '../../api/client';
import { ErrorNote, LocalErrorNote } from '../../components/ErrorNote';
import { Progress } from '../../components/Progress';
import { useFocusWhenLost } from '../../components/useDialogFocus';
import { FilterField, WorkspaceHeader } from '../../components/WorkspaceHeader';
import { useShell } from '../../shell/context';
import { useSystemPrefersDark } from '../../shell/useTheme';
import { effectiveTheme } from '../../store';
import type { WorkspaceProps } from '../registry';
import { CaseGraph } from './CaseGraph';
import { CustodyPanel, ExportBar, GradeBadge, StoryDetail, StoryList } from './CaseParts';
import { ARTIFACT_KIND_NAMES } from './types';
import { utcTime } from '../../components/time';
import { buildTimeline, MAX_GRAPH_NODES, parsePaths } from './model';
import { Timeline } from './Timeline';
import { useCaseOpenRequest, useCaseTargets, type CaseTarget } from './useCaseOpenRequest';
import { DetectionsPanel, EvidencePanel } from './Detections';
import { detectionsByEvent, detectionsOf } from './detection-index';
import { EvidenceBrowser } from './EvidenceBrowser';
import { FailedCasePanel } from './FailedCase';
import type { CaseLink } from './EventDetail';
import './cases.css';
import './casework.css';
import { counted } from '../../components/wording';

/** Events fetched for the timeline (the service keeps at most this many per case). */
const TIMELINE_EVENTS = 100_000;
/** Events a page request asks for (the service's largest page, engines/forensic/http.ts EVENTS_PAGE_MAX). */
const TIMELINE_PAGE = 10_000;
const POLL_MS = 400;

interface Health {
  readonly evidenceRootSet: boolean;
}

export default function CasesWorkspace({ service, client }: WorkspaceProps) {
  const base = service.base;
  const [scenarios, setScenarios] = useState<readonly ScenarioInfo[] | null>(null);
  const [scenario, setScenario] = useState('');
  const [pathsText, setPathsText] = useState('');
  const [kind, setKind] = useState<ArtifactKindName | ''>('');
  const [health, setHealth] = useState<Health | null>(null);
  const [cases, setCases] = useState<readonly CaseSummary[] | null>(null);
  const [listError, setListError] = useState<ApiError | null>(null);
  const [startError, setStartError] = useState<ApiError | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const [running, setRunning] = useState<CaseSummary | null>(null);
  const [detail, setDetail] = useState<CaseDetail | null>(null);
  const [detailError, setDetailError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(false);
  const [story, setStory] = useState<Story | null>(null);
  const [filter, setFilter] = useState('');
  const [rule, setRule] = useState<DetectionSummary | null>(null);
  const [annotations, setAnnotations] = useState<ReadonlyMap<string, EventAnnotation>>(new Map());
  const timelineRef = useRef<HTMLElement>(null);
  const poll = useRef<number | null>(null);
  // What an open request (search, an item link) selects: a story, or an event the timeline shows with every filter off.
  const { focus, apply: applyTarget } = useCaseTargets(useCallback(() => (setFilter(''), setRule(null)), []));
  const clearFilter = useCallback(() => setFilter(''), []);
  const theme = effectiveTheme(
    useShell((s) => s.theme),
    useSystemPrefersDark(),
  );

  const loadCases = useCallback(async (): Promise<void> => {
    try {
      const page = await client.get<{ items: CaseSummary[] }>(`${base}/api/cases`, { query: { limit: 100 } });
      setCases(page.items);
      setListError(null);
    } catch (err) {
      setListError(asApiError(err));
    }
  }, [client, base]);

  const openCase = useCallback(
    async (id: string, nodes?: number, target: CaseTarget = null): Promise<void> => {
      setLoading(true);
      try {
        // Every event for the timeline (without attributes: the list shows none); the whole graph only when it is drawable.
        const graph = nodes !== undefined && nodes <= MAX_GRAPH_NODES ? 'all' : 'stories';
        const url = `${base}/api/cases/${encodeURIComponent(id)}`;
        const d = await client.get<CaseDetail>(url, { query: { events: 'all', events_limit: TIMELINE_PAGE, graph, attributes: false } });
        setDetail(d);
        setAnnotations(new Map((d.analysis?.annotations ?? []).map((a) => [a.eventId, a])));
        const stories = d.analysis?.stories ?? [];
        setStory(applyTarget(stories, target) ?? stories[0] ?? null);
        setDetailError(null);
        // The rest of the timeline page by page (bounded answers keep the gateway responsive); the graph came with the first.
        let analysis = d.analysis;
        while (analysis?.eventsTruncated === true && analysis.eventsPage !== undefined && analysis.events.length < Math.min(analysis.eventsPage.total, TIMELINE_EVENTS)) {
          const next = await client.get<CaseDetail>(url, { query: { events: 'all', events_limit: TIMELINE_PAGE, events_offset: analysis.events.length, graph: 'stories', attributes: false } });
          if (!next.analysis || next.analysis.events.length === 0) break;
          analysis = { ...analysis, events: [...analysis.events, ...next.analysis.events], eventsTruncated: next.analysis.eventsTruncated };
          const merged: CaseDetail = { ...d, analysis };
          setDetail((current) => (current?.id === id ? merged : current));
        }
      } catch (err) {
        setDetailError(asApiError(err));
      } finally {
        setLoading(false);
      }
    },
    [client, base, applyTarget],
  );
  const select = (t: CaseTarget): void => {
    const s = applyTarget(detail?.analysis?.stories ?? [], t);
    if (s) setStory(s);
  };
  useCaseOpenRequest({ service: service.name, client, base, openId: detail?.id ?? null, openCase, select });

  useEffect(() => {
    void loadCases();
    void (async () => {
      try {
        const list = await client.get<ScenarioInfo[]>(`${base}/api/scenarios`);
        setScenarios(list);
        setScenario((s) => s || (list[0]?.name ?? ''));
      } catch {
        setScenarios([]);
      }
      try {
        setHealth(await client.get<Health>(`${base}/api/health`));
      } catch {
        // Health only tells whether a path can be analysed; the service answers for itself.
      }
    })();
    return () => {
      if (poll.current !== null) window.clearTimeout(poll.current);
    };
  }, [client, base, loadCases]);

  /** Follows a started case until it is done or failed, then opens it. */
  const follow = useCallback(
    (id: string): void => {
      const tick = async (): Promise<void> => {
        try {
          const s = await client.get<CaseSummary>(`${base}/api/cases/${encodeURIComponent(id)}`, { query: { max_events: 0 } });
          setRunning(s);
          if (s.status === 'done' || s.status === 'failed') {
            poll.current = null;
            setRunning(null);
            void loadCases();
            // Done or failed, the case opens: a failed one shows why, and can be removed.
            void openCase(id, s.counts?.nodes);
            return;
          }
        } catch (err) {
          setStartError(asApiError(err));
          setRunning(null);
          poll.current = null;
          return;
        }
        poll.current = window.setTimeout(() => void tick(), POLL_MS);
      };
      void tick();
    },
    [client, base, loadCases, openCase],
  );

  const start = async (path: string, body: unknown): Promise<void> => {
    setStartError(null);
    setLocalError(null);
    try {
      const s = await client.post<CaseSummary>(`${base}${path}`, body);
      setRunning(s);
      void loadCases();
      follow(s.id);
    } catch (err) {
      setStartError(asApiError(err));
    }
  };

  const analyseScenario = (): void => {
    if (!scenario) return;
    void start(`/api/cases/scenario/${encodeURIComponent(scenario)}`, {});
  };
  const chosenPaths = useMemo(() => {
    const parsed = parsePaths(pathsText);
    return parsed.ok ? parsed.paths : [];
  }, [pathsText]);
  const togglePath = (p: string): void => {
    const lines = pathsText
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l !== '');
    setPathsText((lines.includes(p) ? lines.filter((l) => l !== p) : [...lines, p]).join('\n'));
    setLocalError(null);
  };
  const removed = (): void => {
    setDetail(null);
    void loadCases();
  };
  const link = useMemo(
    (): CaseLink | undefined =>
      detail?.status === 'done'
        ? { client, base, caseId: detail.id, caseTitle: detail.title, fromEvidence: detail.origin === 'path', onAnnotated: (a) => setAnnotations((m) => new Map(m).set(a.eventId, a)) }
        : undefined,
    [client, base, detail?.id, detail?.title, detail?.status, detail?.origin],
  );
  const analysePaths = (): void => {
    const parsed = parsePaths(pathsText);
    if (!parsed.ok) {
      setLocalError(parsed.message);
      return;
    }
    void start('/api/cases/path', { paths: parsed.paths, ...(kind ? { kind } : {}) });
  };

  const view = detail?.analysis ?? null;
  // The run button and paths field are disabled while a case is analysed: once it shows, its title takes the lost focus.
  const caseHeading = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(caseHeading, view !== null && detail ? detail.id : null);
  const index = useMemo(() => buildTimeline(view?.events ?? []), [view]);
  const storyEvents = useMemo(() => new Set(story?.eventIds ?? []), [story]);
  const detectionRows = useMemo(() => detectionsOf(view), [view]);
  const techniqueNames = useMemo(() => new Map((view?.techniques ?? []).map((t) => [t.id, t.name])), [view]);
  const detected = useMemo(() => detectionsByEvent(detectionRows), [detectionRows]);
  const ruleEvents = useMemo(() => (rule ? new Set(rule.eventIds) : null), [rule]);
  useEffect(() => setRule(null), [view]);
  const chooseRule = (r: DetectionSummary | null): void => {
    setRule(r);
    if (r) timelineRef.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  };
  const busy = running !== null;

  return (
    <div className="ws-page cases">
      <WorkspaceHeader title="Cases" purpose="Custody-sealed timelines and ranked incident stories">
        <FilterField value={filter} onChange={setFilter} placeholder="Filter events  ( / )" label="Filter timeline events" />
      </WorkspaceHeader>
      <div className="cases__grid">
        <div className="ws-column">
          <section className="panel" aria-label="Open evidence" data-testid="open-evidence">
            <div className="panel__head">
              <h2>Open evidence</h2>
            </div>
            <div className="cases__form">
              <label htmlFor="cases-scenario">Built-in scenario</label>
              <div className="row cases__scenario">
                <select id="cases-scenario" value={scenario} onChange={(e) => setScenario(e.target.value)} disabled={busy || !scenarios?.length} data-testid="scenario-select">
                  {(scenarios ?? []).map((s) => (
                    <option key={s.name} value={s.name}>
                      {s.title}
                    </option>
                  ))}
                </select>
                <button type="button" className="primary" onClick={analyseScenario} disabled={busy || !scenario} data-testid="run-scenario">
                  Analyse
                </button>
              </div>
              {scenarios && scenarios.length === 0 && <p className="muted">No scenario is available.</p>}
              {health?.evidenceRootSet === true && <EvidenceBrowser client={client} base={base} chosen={chosenPaths} onToggle={togglePath} disabled={busy} />}
              <label htmlFor="cases-paths">Files or folders below the evidence root, one per line (ticked in the browser above, or typed)</label>
              <textarea
                id="cases-paths"
                rows={3}
                value={pathsText}
                onChange={(e) => setPathsText(e.target.value)}
                placeholder={health?.evidenceRootSet === false ? 'No evidence root: start the service with FORENSIC_EVIDENCE_ROOT set' : 'host1/Security.evtx'}
                disabled={busy || health?.evidenceRootSet === false}
                onKeyDown={(e) => {
                  if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) analysePaths();
                }}
                data-testid="paths-input"
              />
              <div className="row">
                <select aria-label="Artefact kind" value={kind} onChange={(e) => setKind(e.target.value as ArtifactKindName | '')} disabled={busy}>
                  <option value="">kind: detect</option>
                  {ARTIFACT_KIND_NAMES.map((k) => (
                    <option key={k} value={k}>
                      {k}
                    </option>
                  ))}
                </select>
                <button type="button" onClick={analysePaths} disabled={busy || health?.evidenceRootSet === false || pathsText.trim() === ''} data-testid="run-paths">
                  Analyse {chosenPaths.length > 0 ? `${chosenPaths.length} path${chosenPaths.length === 1 ? '' : 's'}` : 'paths'}
                </button>
              </div>
            </div>
            {running && (
              <div className="cases__progress" data-testid="case-progress">
                <span className="muted">
                  {running.status === 'queued' ? 'Waiting for a worker…' : `Analysing: ${running.progress?.stage ?? 'starting'}…`} <strong>{running.title}</strong>
                </span>
                <Progress fraction={running.progress?.fraction} label="Case analysis progress" />
              </div>
            )}
            <div data-testid="start-problems">
              {localError && <LocalErrorNote message={localError} />}
              {startError && <ErrorNote error={startError} title={startError.code === 'forbidden' ? 'Refused: outside the evidence root' : 'The case could not be analysed'} />}
            </div>
          </section>

          <section className="panel" aria-label="Cases" data-testid="case-list">
            <div className="panel__head">
              <h2>Cases</h2>
              <button type="button" className="small" onClick={() => void loadCases()}>
                Refresh
              </button>
            </div>
            {listError && <ErrorNote error={listError} title="The cases could not be listed" />}
            {cases && cases.length === 0 && <p className="muted">No case yet. Analyse a scenario or evidence above.</p>}
            <ul className="case-list">
              {(cases ?? []).map((c) => (
                <li key={c.id}>
                  <button type="button" className="story-item pick-row" onClick={() => void openCase(c.id, c.counts?.nodes)} aria-current={detail?.id === c.id ? 'true' : undefined} data-case-id={c.id} data-status={c.status} disabled={c.status === 'queued' || c.status === 'running'}>
                    <span className="story-item__title">
                      <GradeBadge grade={c.topGrade} /> {c.title}
                    </span>
                    <span className="muted story-item__meta">
                      {c.status === 'done' ? `${counted(c.counts?.events ?? 0, 'event')} · ${counted(c.counts?.stories ?? 0, 'story', 'stories')}` : c.status === 'failed' ? <span className="cases__warn">failed ({c.error ?? 'internal'}): open to see why</span> : c.status} · {utcTime(c.createdAt, 'minute')}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </section>
        </div>

        <div className="ws-column" data-testid="case-result">
          {detailError && <ErrorNote error={detailError} title="The case could not be opened" />}
          {loading && <Progress label="Loading the case" />}
          {detail && detail.status === 'failed' && !loading && <FailedCasePanel key={detail.id} client={client} base={base} summary={detail} onRemoved={removed} />}
          {detail && view ? (
            <>
              <section className="panel" aria-label="Case summary" data-testid="case-summary">
                <div className="panel__head">
                  <h2 tabIndex={-1} ref={caseHeading}>
                    {detail.title}
                  </h2>
                  <GradeBadge grade={detail.topGrade} />
                </div>
                <dl className="case-counts">
                  {(
                    [
                      ['events', view.counts.events],
                      ['noise filtered', view.counts.noisy],
                      ['nodes', view.counts.nodes],
                      ['edges', view.counts.edges],
                      ['stories', view.counts.stories],
                      ['tampering indicators', view.counts.indicators],
                    ] as const
                  ).map(([k, v]) => (
                    <div key={k}>
                      <dt>{k}</dt>
                      <dd className="num">{v.toLocaleString('en')}</dd>
                    </div>
                  ))}
                </dl>
                {view.tampering.tampered && (
                  <p className="cases__tampered" role="note">
                    Anti-forensics: {view.tampering.indicators.map((i) => i.kind).filter((k, i, all) => all.indexOf(k) === i).join(', ')} — stories on affected hosts carry a penalty of {view.tampering.penalty.toFixed(2)}.
                  </p>
                )}
                <ExportBar client={client} base={base} summary={detail} />
              </section>
              <div className="ws-column">
                <section className="panel" aria-label="Stories" data-testid="story-list">
                  <div className="panel__head">
                    <h2>Stories</h2>
                    <span className="muted">by suspicion</span>
                  </div>
                  <StoryList stories={view.stories} selected={story} onSelect={setStory} />
                </section>
                <section className="panel" aria-label="Causal graph">
                  <div className="panel__head">
                    <h2>Causal graph</h2>
                  </div>
                  <CaseGraph view={view} story={story} theme={theme} />
                </section>
              </div>
              {story && <StoryDetail story={story} caseId={detail.id} caseTitle={detail.title} client={client} />}
              <DetectionsPanel rows={detectionRows} selected={rule?.ruleId ?? null} onSelect={chooseRule} problems={view.ruleProblems ?? []} techniqueNames={techniqueNames} origin={detail.origin} />
              <section className="panel" aria-label="Timeline" ref={timelineRef}>
                <div className="panel__head">
                  <h2>Timeline</h2>
                  {rule && (
                    <span className="timeline__rule" data-testid="timeline-rule">
                      events of <strong>{rule.title}</strong>
                      {rule.count > rule.eventIds.length ? ` (first ${rule.eventIds.length} of ${rule.count.toLocaleString('en')})` : ''}{' '}
                      <button type="button" className="small" onClick={() => setRule(null)}>
                        Show all
                      </button>
                    </span>
                  )}
                  {view.eventsTruncated && <span className="muted">Only the first {view.events.length.toLocaleString('en')} events were kept.</span>}
                </div>
                <Timeline index={index} storyEvents={storyEvents} filter={filter} theme={theme} detected={detected} only={ruleEvents} annotations={annotations} focus={focus} onClearFilter={clearFilter} {...(link ? { link } : {})} />
              </section>
              <EvidencePanel evidence={view.evidence} {...(view.rejected ? { rejected: view.rejected } : {})} />
              <CustodyPanel key={detail.id} client={client} base={base} summary={detail} />
            </>
          ) : (
            !loading && detail?.status !== 'failed' && (
              <section className="panel empty-result">
                <h2>No case open</h2>
                <p className="muted">
                  Choose a built-in scenario and press <strong>Analyse</strong>, or name files below the evidence root. The analysis runs in a worker: ingest with integrity hashes and a custody ledger, the provenance graph, causal rules, the anti-forensics scan, and the ranked stories. Finished cases are listed on the left.
                </p>
              </section>
            )
          )}
        </div>
      </div>
    </div>
  );
}
