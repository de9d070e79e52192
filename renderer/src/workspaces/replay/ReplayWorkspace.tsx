// The Replay workspace: a capture (upload or the synthetic demo) in, attack stories out, replayed step by step over a host graph.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ReplayAnalysis, ReplayHealth, Story, StoryPage, StorySummary } from '../../../../engines/core/contracts/replay';
import { type ApiError, asApiError } from '../../api/client';
import { OpenFileButton } from '../../components/OpenFileButton';
import { ErrorNote, LocalErrorNote } from '../../components/ErrorNote';
import { jobBarFraction, Progress } from '../../components/Progress';
import { FilterField, WorkspaceHeader } from '../../components/WorkspaceHeader';
import { useFileDrop } from '../../components/useFileDrop';
import { useFocusWhenLost } from '../../components/useDialogFocus';
import { useShell } from '../../shell/context';
import { useSystemPrefersDark } from '../../shell/useTheme';
import { activeJobs, effectiveTheme } from '../../store';
import type { WorkspaceProps } from '../registry';
import { count, DEFAULT_MAX_UPLOAD, MAX_DEMO_BENIGN, parseBenign, plural, refuseUpload, utc, type UploadProgress } from './model';
import { ReductionTable, SeverityBadge } from './common';
import { NO_ALERT_FILTERS } from './browse';
import { ReplayTabs, type ReplayTab, type TabRequest } from './ReplayTabs';
import { StoryView } from './story/StoryView';
import { useReplayOpenRequest } from './useReplayOpenRequest';
import './replay.css';
import { displayProse } from '../../components/wording';

const STORY_PAGE = 50;

type Busy = { readonly what: 'demo' } | { readonly what: 'upload'; readonly progress: UploadProgress };

function matches(s: StorySummary, filter: string): boolean {
  const f = filter.trim().toLowerCase();
  if (!f) return true;
  return [s.title, s.analysis_name, s.attacker ?? '', s.severity, ...s.stages, ...s.techniques].some((v) => v.toLowerCase().includes(f));
}

/** A conn.log has connections and no packets: which rules could not run, and which saw less, with the reason for each. */
function RuleCoverage({ coverage }: { readonly coverage: NonNullable<ReplayAnalysis['capture']['rule_coverage']> }) {
  const none = coverage.filter((c) => c.coverage === 'none');
  const partial = coverage.filter((c) => c.coverage === 'partial');
  return (
    <details className="rule-coverage" data-testid="rule-coverage">
      <summary>
        A Zeek conn.log: connections only. {plural(none.length, 'rule')} could not run without packets, {plural(partial.length, 'rule')} saw less.
      </summary>
      <ul>
        {coverage.map((c) => (
          <li key={c.rule} data-rule={c.rule} data-coverage={c.coverage}>
            <code>{c.rule}</code> <span className="muted">{c.coverage === 'none' ? 'not run' : 'partial'}:</span> {c.reason}
          </li>
        ))}
      </ul>
    </details>
  );
}

export default function ReplayWorkspace({ service, client }: WorkspaceProps) {
  const base = service.base;
  const [benignText, setBenignText] = useState('200');
  const [busy, setBusy] = useState<Busy | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const [runError, setRunError] = useState<ApiError | null>(null);
  const [analysis, setAnalysis] = useState<ReplayAnalysis | null>(null);
  const [health, setHealth] = useState<ReplayHealth | null>(null);
  const [stories, setStories] = useState<StoryPage | null>(null);
  const [storiesError, setStoriesError] = useState<ApiError | null>(null);
  const [offset, setOffset] = useState(0);
  const [story, setStory] = useState<Story | null>(null);
  const [storyError, setStoryError] = useState<ApiError | null>(null);
  const [filter, setFilter] = useState('');
  const inFlight = useRef<AbortController | null>(null);
  // The analysis the tabs browse, the tab shown, and requests to a tab from elsewhere (a story's host alerts).
  const [analysisId, setAnalysisId] = useState<string | null>(null);
  const [tab, setTab] = useState<ReplayTab>('story');
  const [stored, setStored] = useState(0);
  // Open capture and Run demo are disabled while they run, which leaves focus on the page: the tab shown takes it (the
  // story's, or the overview's for a capture without a story).
  const selectedTab = useRef<HTMLButtonElement>(null);
  useFocusWhenLost(selectedTab, stored > 0 ? stored : null);
  const [request, setRequest] = useState<TabRequest | null>(null);

  const jobs = useShell((s) => s.jobs);
  const theme = effectiveTheme(
    useShell((s) => s.theme),
    useSystemPrefersDark(),
  );
  // While the service works, its job's progress events (over /api/events) give the bar a real fraction.
  const analysing = busy?.what === 'demo' || (busy?.what === 'upload' && busy.progress.phase === 'analysing');
  const job = analysing ? activeJobs(jobs).filter((j) => j.service === service.name).at(-1) : undefined;
  const jobFraction = jobBarFraction(job);
  const maxUpload = health?.limits.max_upload_bytes ?? DEFAULT_MAX_UPLOAD;
  const maxBenign = health?.limits.max_benign_flows ?? MAX_DEMO_BENIGN;

  const loadStories = useCallback(
    async (at: number): Promise<void> => {
      try {
        const page = await client.get<StoryPage>(`${base}/api/stories`, { query: { limit: STORY_PAGE, offset: at } });
        setStories(page);
        setOffset(at);
        setStoriesError(null);
      } catch (err) {
        setStoriesError(asApiError(err));
      }
    },
    [client, base],
  );

  const openStory = useCallback(
    async (id: string): Promise<void> => {
      try {
        const s = await client.get<Story>(`${base}/api/stories/${encodeURIComponent(id)}`);
        setStory(s);
        setStoryError(null);
        setAnalysisId(s.analysis_id);
        setTab('story');
      } catch (err) {
        // Shown where the story would be: a link to a story that is gone says so on the Story tab, not behind another tab.
        setStoryError(asApiError(err));
        setTab('story');
      }
    },
    [client, base],
  );

  const pick = useCallback((id: string, to: ReplayTab, req?: Omit<TabRequest, 'serial'>): void => {
    setAnalysisId(id);
    if (req) setRequest((r) => ({ ...req, serial: (r?.serial ?? 0) + 1 }));
    setTab(to);
  }, []);
  useReplayOpenRequest({ service: service.name, openStory, pick });

  useEffect(() => {
    void loadStories(0);
    void (async () => {
      try {
        setHealth(await client.get<ReplayHealth>(`${base}/api/health`));
      } catch {
        // The limits are a courtesy; the service enforces its own whatever we think they are.
      }
    })();
  }, [loadStories, client, base]);

  const shown = (result: ReplayAnalysis): void => {
    setAnalysis(result);
    const first = result.stories[0];
    setStory(first ?? null);
    setStoryError(null);
    setAnalysisId(result.id);
    setStored((n) => n + 1);
    // Without a story, the capture's alerts and flows are what there is to read.
    setTab(first ? 'story' : 'overview');
    void loadStories(0);
  };

  const runDemo = async (): Promise<void> => {
    const parsed = parseBenign(benignText, maxBenign);
    if (!parsed.ok) {
      setLocalError(parsed.message);
      return;
    }
    setLocalError(null);
    setRunError(null);
    setBusy({ what: 'demo' });
    try {
      shown(await client.post<ReplayAnalysis>(`${base}/api/demo`, undefined, { query: { benign: parsed.value } }));
    } catch (err) {
      setRunError(asApiError(err));
    } finally {
      setBusy(null);
    }
  };

  const analyse = async (file: File): Promise<void> => {
    setRunError(null);
    const refused = refuseUpload(file.size, maxUpload);
    if (refused) {
      setLocalError(refused);
      return;
    }
    setLocalError(null);
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setBusy({ what: 'upload', progress: { phase: 'uploading', fraction: 0 } });
    try {
      // The name is a display label only; the service drops directories and refuses control characters.
      const name = [...file.name].filter((ch) => (ch.codePointAt(0) ?? 0) >= 0x20 && ch !== '\u007f').join('').slice(0, 200) || 'upload';
      const result = await client.upload<ReplayAnalysis>(`${base}/api/analyze`, file, {
        query: { name, format: 'auto' },
        onProgress: (progress) => {
          if (inFlight.current === controller) setBusy({ what: 'upload', progress });
        },
        signal: controller.signal,
      });
      shown(result);
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') return;
      setRunError(asApiError(err));
    } finally {
      if (inFlight.current === controller) {
        inFlight.current = null;
        setBusy(null);
      }
    }
  };

  const { dropClass, dropProps } = useFileDrop((file) => {
    if (!busy) void analyse(file);
  });

  const list = (stories?.items ?? []).filter((s) => matches(s, filter));
  const errorTitle =
    runError?.code === 'parse_error'
      ? 'Not a pcap or pcapng capture or a Zeek conn.log'
      : runError?.code === 'payload_too_large'
        ? 'The capture is too large'
        : busy === null && runError
          ? 'The analysis failed'
          : 'The service reported an error';
  const errorHint =
    runError?.code === 'parse_error'
      ? 'Choose a .pcap or .pcapng file (as tcpdump, Wireshark or dumpcap write it) or a Zeek conn.log (TSV or JSON lines); the format is read from the first bytes, not the name.'
      : runError?.code === 'payload_too_large'
        ? 'Cut the capture to the time or hosts of interest first (editcap, or tcpdump -r with a filter), then open the smaller file.'
        : undefined;

  return (
    // The whole workspace takes a dropped file: a drop that missed the panel would otherwise make the browser open it.
    <div
      className="ws-page replay"
      {...dropProps}
    >
      <WorkspaceHeader title="Replay" purpose="Turn a packet capture into attack stories and replay them step by step">
        <FilterField value={filter} onChange={setFilter} placeholder="Filter stories  ( / )" label="Filter stories" />
      </WorkspaceHeader>
      <div className="ws-split">
        <div className="ws-column">
          <section
            className={`panel capture-input ${dropClass}`}
            aria-label="Capture"
            data-testid="capture-input"
          >
            <div className="panel__head">
              <h2>Capture</h2>
            </div>
            <p className="muted drop-target__hint">
              Drop a .pcap or .pcapng file, or a Zeek conn.log (TSV or JSON lines), here, or open one (up to {count(Math.floor(maxUpload / (1024 * 1024)))} MiB). The format is
              read from the file's first bytes.
            </p>
            <div className="row">
              <OpenFileButton
                primary
                label="Open capture…"
                accept=".pcap,.pcapng,.cap,.log,.json,.ndjson,application/vnd.tcpdump.pcap,application/octet-stream,text/plain,application/json"
                disabled={busy !== null}
                buttonTestId="open-capture"
                testId="capture-file"
                onFile={(f) => void analyse(f)}
              />
            </div>
            <div className="capture-input__demo">
              <label htmlFor="replay-benign">
                Or run the synthetic intrusion with{' '}
                <input
                  id="replay-benign"
                  type="text"
                  inputMode="numeric"
                  className="benign-input"
                  value={benignText}
                  onChange={(e) => setBenignText(e.target.value)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter' && !busy) void runDemo();
                  }}
                  aria-invalid={localError !== null && !busy}
                  data-testid="demo-benign"
                />{' '}
                benign flows
              </label>
              <button type="button" onClick={() => void runDemo()} disabled={busy !== null} data-testid="run-demo">
                {busy?.what === 'demo' ? 'Running…' : 'Run demo'}
              </button>
            </div>
            {busy && (
              <div className="capture-input__progress" data-testid="replay-progress">
                <span className="muted" data-testid="replay-progress-phase">
                  {busy.what === 'demo' ? 'Generating and analysing the synthetic capture…' : busy.progress.phase === 'uploading' ? 'Uploading the capture…' : 'Analysing the capture…'}
                  {analysing && job?.message ? ` ${job.message}` : ''}
                </span>
                <Progress fraction={busy.what === 'upload' && busy.progress.phase === 'uploading' ? busy.progress.fraction : jobFraction} label="Capture analysis progress" />
                {busy.what === 'upload' && (
                  <button type="button" className="small" onClick={() => inFlight.current?.abort()}>
                    Cancel
                  </button>
                )}
              </div>
            )}
            <div data-testid="capture-problems">
              {localError && <LocalErrorNote message={localError} />}
              {runError && <ErrorNote error={runError} title={errorTitle} hint={errorHint} />}
            </div>
          </section>

          {analysis && (
            <section className="panel" aria-label="Last analysis" data-testid="last-analysis">
              <div className="panel__head">
                <h2>Last analysis</h2>
                <span className="muted">{analysis.source === 'demo' ? 'synthetic intrusion' : analysis.name}</span>
              </div>
              <ReductionTable stats={analysis.stats} testId="reduction-stats" />
              {analysis.capture.warning_count > 0 && (
                <p className="muted">
                  {count(analysis.capture.warning_count)} capture warnings:{' '}
                  {analysis.capture.warnings
                    .slice(0, 4)
                    .map((w) => `${w.code} ×${count(w.count)}`)
                    .join(', ')}
                </p>
              )}
              {analysis.capture.rule_coverage && <RuleCoverage coverage={analysis.capture.rule_coverage} />}
              {analysis.stories.length === 0 && <p className="muted">No alert was strong enough alone or linked to others to make a story.</p>}
            </section>
          )}

          <section className="panel" aria-label="Stories" data-testid="story-list">
            <div className="panel__head">
              <h2>Stories</h2>
              <button type="button" className="small" onClick={() => void loadStories(offset)}>
                Refresh
              </button>
            </div>
            {storiesError && <ErrorNote error={storiesError} title="The stories could not be listed" />}
            {stories && stories.total === 0 && <p className="muted">No stories yet. Open a capture or run the demo.</p>}
            {stories && stories.total > 0 && list.length === 0 && <p className="muted">No story matches the filter.</p>}
            <ul className="stack-list story-list">
              {list.map((s) => (
                <li key={s.id}>
                  <button
                    type="button"
                    className="story-item pick-row pick-row--dated"
                    onClick={() => void openStory(s.id)}
                    aria-current={story?.id === s.id ? 'true' : undefined}
                    data-story-id={s.id}
                  >
                    <span className="story-item__title">
                      <SeverityBadge severity={s.severity} /> {displayProse(s.title)}
                    </span>
                    <span className="muted story-item__meta">
                      {s.analysis_name} · {plural(s.alerts, 'alert')} · {plural(s.hosts, 'host')} · {s.stages.join(', ')}
                    </span>
                    <span className="muted story-item__when">{utc(s.first_ts).slice(0, 19)}</span>
                  </button>
                </li>
              ))}
            </ul>
            {stories && stories.total > STORY_PAGE && (
              <div className="row story-pager">
                <button type="button" className="small" disabled={offset === 0} onClick={() => void loadStories(Math.max(0, offset - STORY_PAGE))}>
                  Newer
                </button>
                <span className="muted">
                  {offset + 1}–{Math.min(stories.total, offset + STORY_PAGE)} of {count(stories.total)}
                </span>
                <button type="button" className="small" disabled={offset + STORY_PAGE >= stories.total} onClick={() => void loadStories(offset + STORY_PAGE)}>
                  Older
                </button>
              </div>
            )}
          </section>
        </div>

        <div className="ws-column replay__main" data-testid="replay-result">
          <ReplayTabs
            client={client}
            base={base}
            health={health}
            analysisId={analysisId}
            onAnalysis={setAnalysisId}
            refresh={stored}
            tab={tab}
            onTab={setTab}
            request={request}
            onOpenStory={(id) => void openStory(id)}
            selectedTabRef={selectedTab}
            storyPane={
              <>
                {storyError && <ErrorNote error={storyError} title="The story could not be opened" />}
                {story ? (
                  <StoryView
                    story={story}
                    client={client}
                    base={base}
                    theme={theme}
                    showReduction={analysis?.id !== story.analysis_id}
                    onShowHostAlerts={(host) => {
                      setAnalysisId(story.analysis_id);
                      setRequest((r) => ({ tab: 'alerts', alerts: { ...NO_ALERT_FILTERS, host }, serial: (r?.serial ?? 0) + 1 }));
                      setTab('alerts');
                    }}
                  />
                ) : (
                  <section className="panel empty-result">
                    <h2>No story shown</h2>
                    <p className="muted">
                      Open a capture (<strong>Open capture…</strong> or drop a .pcap/.pcapng file on the Capture panel), or press <strong>Run demo</strong> for a synthetic
                      intrusion hidden among benign flows. The stories found are listed on the left; choose one to replay it step by step. Every alert, the flows, the
                      protocols and the timeline of a capture are in the other tabs.
                    </p>
                    {analysis && analysis.stories.length === 0 && <p>The last analysis found no story: its alerts and flows are in the Alerts and Flows tabs.</p>}
                  </section>
                )}
              </>
            }
          />
        </div>
      </div>
    </div>
  );
}
