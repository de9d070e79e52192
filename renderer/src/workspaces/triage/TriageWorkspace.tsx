// The Triage workspace: drop or pick a PE file, it is uploaded as raw bytes and analysed statically; the result is shown in tabs
// (overview, signature, imports, sections, strings, resources, bytes, rule), kept in this window's history and in the service's
// store (the History panel, GET /api/analyses), and exported as JSON or .yar. Search hits and `#/petriage/history/<sha256>` open here.
import { useCallback, useRef, useState } from 'react';
import type { Finding } from '../../../../engines/core/contracts/findings';
import type { TriageResult } from '../../../../engines/core/contracts/petriage';
import type { ApiError} from '../../api/client';
import { asApiError } from '../../api/client';
import { downloadJson, downloadText } from '../../components/download';
import { ErrorNote, LocalErrorNote } from '../../components/ErrorNote';
import { OpenFileButton } from '../../components/OpenFileButton';
import { jobBarFraction, Progress } from '../../components/Progress';
import { SendToButton } from '../../components/SendTo';
import { indicatorsIn, mergeIndicators } from '../../components/SendToModel';
import { FilterField, WorkspaceHeader } from '../../components/WorkspaceHeader';
import { useFocusWhenLost } from '../../components/useDialogFocus';
import { useFileDrop } from '../../components/useFileDrop';
import { useShell } from '../../shell/context';
import { useOpenRequest, type OpenRequest } from '../../shell/openItem';
import { activeJobs } from '../../store';
import type { WorkspaceProps } from '../registry';
import { HexTab } from './hex/HexTab';
import { addToHistory, entryFromStored, entryKey, SHA256, uploadName, visibleName, type HistoryEntry } from './history/model';
import { StoredHistoryPanel } from './history/StoredHistoryPanel';
import { fetchNewestOf, fetchStored, useStoredHistory } from './history/useStoredHistory';
import { HistoryList } from './history/HistoryList';
import { ImportsTab } from './imports/ImportsTab';
import { exportRuleBlocker, refuseBeforeUpload, type UploadProgress } from './model';
import { resultFileName, ruleFileName } from './model-export';
import { ExplanationPanel } from './overview/ExplanationPanel';
import { ResourcesTab } from './resources/ResourcesTab';
import { RuleEditor } from './RuleEditor';
import { SectionsTab } from './sections/SectionsTab';
import { SignatureTab } from './signature/SignatureTab';
import { StringsTab } from './strings/StringsTab';
import { CapabilitiesPanel, FamilyPanel, VerdictPanel } from './Views';
import './triage.css';

const PHASE_WORDS: Record<UploadProgress['phase'], string> = { reading: 'Reading the file…', uploading: 'Uploading…', analysing: 'Analysing…' };

const TABS = [
  ['overview', 'Overview'],
  ['signature', 'Signature'],
  ['imports', 'Imports'],
  ['sections', 'Sections'],
  ['strings', 'Strings'],
  ['resources', 'Resources'],
  ['hex', 'Bytes'],
  ['rule', 'Rule'],
] as const;
type Tab = (typeof TABS)[number][0];
const TAB_IDS: readonly Tab[] = TABS.map(([t]) => t);

/** A word on a tab that says what is inside before it is opened (a count, the signature's state). */
function tabBadge(tab: Tab, r: TriageResult): string | null {
  switch (tab) {
    case 'signature':
      return r.authenticode === null ? 'none' : (r.authenticode.signatures[0]?.status.replace('_', ' ') ?? 'unreadable');
    case 'imports':
      return String(r.pe.imports.reduce((n, d) => n + d.symbols.length, 0) + r.pe.delay_imports.reduce((n, d) => n + d.symbols.length, 0));
    case 'sections':
      return String(r.pe.sections.length);
    case 'strings':
      return r.pe.strings.items.length.toLocaleString('en');
    case 'resources':
      return String(r.pe.resources?.entries.length ?? 0);
    case 'rule':
      return r.rule ? 'candidate' : null;
    default:
      return null;
  }
}

/** What a triage result takes to Assessment or ACH: its capabilities' techniques, the file's hash and the URLs found in it. */
function triageFinding(result: TriageResult): Finding {
  const urls = [...new Set(result.capabilities.flatMap((c) => c.evidence).flatMap((e) => (e.kind === 'url' ? [e.value] : [])))];
  return {
    title: `Triage of ${result.sha256.slice(0, 16)}`,
    techniques: [...new Set(result.capabilities.map((c) => c.technique.id))],
    indicators: mergeIndicators([{ type: 'sha256', value: result.sha256 }, ...urls.map((value) => ({ type: 'url' as const, value }))], indicatorsIn(result.capabilities)),
    source: { service: 'petriage', kind: 'triage', id: result.sha256, link: `#/petriage/history/${result.sha256}` },
  };
}

export default function TriageWorkspace({ service, client }: WorkspaceProps) {
  const base = service.base;
  const [history, setHistory] = useState<readonly HistoryEntry[]>([]);
  const [shownId, setShownId] = useState<number | null>(null);
  /** A stored analysis on screen (History, a search hit, a link); it wins over shownId while set. */
  const [storedShown, setStoredShown] = useState<HistoryEntry | null>(null);
  const [historyOpen, setHistoryOpen] = useState(true);
  const stored = useStoredHistory(client, base);
  const [tab, setTab] = useState<Tab>('overview');
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [localError, setLocalError] = useState<{ readonly title: string; readonly text: string } | null>(null);
  const [serviceError, setServiceError] = useState<ApiError | null>(null);
  const [filter, setFilter] = useState('');
  const [hexGoTo, setHexGoTo] = useState<{ offset: number } | null>(null);
  const [ruleText, setRuleText] = useState('');
  const inFlight = useRef<AbortController | null>(null);
  const nextId = useRef(1);
  const jobs = useShell((s) => s.jobs);
  // While the service analyses, its job's progress events (over /api/events) give the bar a real fraction.
  const jobFraction = progress?.phase === 'analysing' ? jobBarFraction(activeJobs(jobs).filter((j) => j.service === service.name).at(-1)) : undefined;
  const busy = progress !== null;
  const shown = storedShown ?? history.find((e) => e.id === shownId) ?? null;
  const result = shown?.result;
  // The pick button is disabled while the file is read: once the result shows, its selected tab takes the lost focus.
  const selectedTab = useRef<HTMLButtonElement>(null);
  useFocusWhenLost(selectedTab, result ?? null);

  const analyse = async (file: File): Promise<void> => {
    const refused = refuseBeforeUpload(file.size);
    setServiceError(null);
    setLocalError(null);
    if (refused) {
      // An error clears the result on screen: what is shown is always the answer to the last file given.
      setShownId(null);
      setStoredShown(null);
      setLocalError({ title: 'The file was not sent', text: refused });
      return;
    }
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setProgress({ phase: 'uploading', fraction: 0 });
    try {
      // The file's name goes with it, so the stored analysis (the History panel) names the file; a name the service would refuse is left out.
      const name = uploadName(file.name);
      const r = await client.upload<TriageResult>(`${base}/api/analyze`, file, { onProgress: setProgress, signal: controller.signal, ...(name !== undefined ? { query: { name } } : {}) });
      const entry: HistoryEntry = { id: nextId.current++, fileLabel: visibleName(file.name), result: r, file, at: new Date().toISOString() };
      setHistory((h) => addToHistory(h, entry));
      setShownId(entry.id);
      setStoredShown(null);
      setTab('overview');
      setHistoryOpen(false);
      // The service stored it: the History panel shows it on top.
      stored.reload();
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') return;
      setShownId(null);
      setStoredShown(null);
      setServiceError(asApiError(err));
    } finally {
      if (inFlight.current === controller) {
        inFlight.current = null;
        setProgress(null);
      }
    }
  };

  /** A stored analysis into the result view: from the History panel, a search hit (kind analysis) or a sent finding's link (kind history, a SHA-256). */
  const showStored = useCallback(
    async (load: () => Promise<Parameters<typeof entryFromStored>[0] | null>, missing: string): Promise<void> => {
      setLocalError(null);
      setServiceError(null);
      try {
        const s = await load();
        if (s === null) {
          setStoredShown(null);
          setShownId(null);
          setLocalError({ title: 'Nothing stored to show', text: missing });
          return;
        }
        setStoredShown(entryFromStored(s, history));
        setTab('overview');
        setHistoryOpen(false);
      } catch (err) {
        setStoredShown(null);
        setShownId(null);
        setServiceError(asApiError(err));
      }
    },
    [history],
  );

  useOpenRequest(
    service.name,
    useCallback(
      (r: OpenRequest) => {
        if (r.kind === 'analysis') void showStored(() => fetchStored(client, base, r.id), 'The stored analysis was not found.');
        else if (r.kind === 'history' && SHA256.test(r.id))
          void showStored(() => fetchNewestOf(client, base, r.id), 'No stored analysis has this SHA-256: drop the file here to triage it.');
      },
      [client, base, showStored],
    ),
  );

  const { dropClass, dropProps } = useFileDrop((file) => void analyse(file));
  const showBytes = useCallback((offset: number) => {
    setHexGoTo({ offset });
    setTab('hex');
  }, []);

  const errorTitle =
    serviceError?.code === 'parse_error'
      ? 'Not a PE file'
      : serviceError?.code === 'payload_too_large'
        ? 'The file is too large'
        : serviceError?.code === 'not_found' || serviceError?.code === 'bad_request'
          ? 'The stored analysis could not be opened'
          : 'The analysis failed';
  const errorHint =
    serviceError?.code === 'parse_error'
      ? 'Triage reads Windows executables (.exe, .dll, .sys; the file starts with MZ). An archive or installer holds them: extract the executable first.'
      : serviceError?.code === 'payload_too_large'
        ? 'Files up to 32 MB are read; a larger one is often an installer or has an overlay: extract the executable itself.'
        : undefined;
  const ruleBlocker = exportRuleBlocker(result !== null && result !== undefined, ruleText);

  return (
    // The whole page takes the drop: a file dropped beside the box would otherwise make the browser open it and lose the page.
    <div className="ws-page triage" {...dropProps}>
      <WorkspaceHeader title="Triage" purpose="Static triage of Windows executables: nothing is executed">
        <FilterField value={filter} onChange={setFilter} placeholder="Filter imports, strings, capabilities  ( / )" label="Filter imports, exports, strings and capabilities" />
        <button type="button" className="small" disabled={!result} onClick={() => result && downloadJson(result, resultFileName(result.sha256))} data-testid="export-json">
          Export result (JSON)
        </button>
        <button type="button" className="small" disabled={ruleBlocker !== null} title={ruleBlocker ?? undefined} onClick={() => downloadText(ruleText.endsWith('\n') ? ruleText : `${ruleText}\n`, ruleFileName(ruleText), 'text/plain')} data-testid="export-rule">
          Export rule (.yar)
        </button>
        <SendToButton client={client} testId="triage-send-to" finding={result ? triageFinding(result) : null} />
      </WorkspaceHeader>

      <section className={`panel dropzone ${dropClass}${result ? ' dropzone--compact' : ''}`} aria-label="File to triage" data-testid="triage-drop">
        <div className="row dropzone__row">
          <OpenFileButton primary label={result ? 'Triage another file…' : 'Choose a PE file…'} disabled={busy} buttonTestId="triage-pick" testId="triage-file" onFile={(f) => void analyse(f)} />
          <span className="muted">or drop an .exe, .dll or .sys anywhere on this page (up to 32 MB). The file is parsed and scored, never run.</span>
          {busy && (
            <button type="button" className="small" onClick={() => inFlight.current?.abort()}>
              Cancel
            </button>
          )}
        </div>
        {progress && (
          <div className="row dropzone__progress" data-testid="triage-progress">
            <span className="muted">{PHASE_WORDS[progress.phase]}</span>
            <Progress fraction={progress.phase === 'analysing' ? jobFraction : progress.fraction} label={PHASE_WORDS[progress.phase]} />
          </div>
        )}
        <div data-testid="triage-problems">
          {localError && <LocalErrorNote title={localError.title} message={localError.text} />}
          {serviceError && <ErrorNote error={serviceError} title={errorTitle} hint={errorHint} />}
        </div>
      </section>

      <HistoryList entries={history} shownId={storedShown ? null : shownId} onShow={(id) => {
        setStoredShown(null);
        setShownId(id);
      }} onClear={() => {
        setHistory([]);
        setShownId(null);
      }} />

      <StoredHistoryPanel
        history={stored}
        openId={shown?.storedId ?? null}
        open={historyOpen}
        onToggle={() => setHistoryOpen((o) => !o)}
        onOpen={(id) => void showStored(() => fetchStored(client, base, id), 'The stored analysis was not found.')}
      />

      {!result || !shown ? (
        !busy && !localError && !serviceError && (
          <section className="panel empty-result" data-testid="triage-empty">
            <h2>No file triaged yet</h2>
            <p className="muted">
              Drop a PE file (an .exe, .dll or .sys) on this page, or press <strong>Choose a PE file…</strong>. The service reads its structure,
              imports, strings and Authenticode signature, scores it with the model and says which families of evidence moved the score, the
              capabilities with their ATT&amp;CK techniques, the nearest known family, and, for a file that is not benign, a candidate YARA rule you
              can edit and re-validate here. Nothing in the file is executed. Every result is kept by the service: the History above lists them
              (newest first) and opens any of them again, without its bytes.
            </p>
          </section>
        )
      ) : (
        <div data-testid="triage-result">
          <div className="triage__tabs" role="tablist" aria-label="Triage views">
            {TABS.map(([t, label]) => {
              const badge = tabBadge(t, result);
              return (
                <button
                  key={t}
                  type="button"
                  role="tab"
                  id={`triage-tab-${t}`}
                  aria-selected={tab === t}
                  aria-controls={`triage-panel-${t}`}
                  tabIndex={tab === t ? 0 : -1}
                  ref={tab === t ? selectedTab : undefined}
                  className={tab === t ? 'triage__tab triage__tab--on' : 'triage__tab'}
                  data-testid={`triage-tab-${t}`}
                  onClick={() => setTab(t)}
                  onKeyDown={(e) => {
                    // Arrow keys move between the tabs (WAI-ARIA tabs pattern).
                    if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
                    e.preventDefault();
                    const next = TAB_IDS[(TAB_IDS.indexOf(t) + (e.key === 'ArrowRight' ? 1 : TAB_IDS.length - 1)) % TAB_IDS.length] as Tab;
                    setTab(next);
                    document.getElementById(`triage-tab-${next}`)?.focus();
                  }}
                >
                  {label}
                  {badge !== null && <span className={`triage__badge${t === 'signature' && badge !== 'none' && badge !== 'intact' ? ' triage__badge--warn' : ''}`}>{badge}</span>}
                </button>
              );
            })}
          </div>
          <div role="tabpanel" id={`triage-panel-${tab}`} aria-labelledby={`triage-tab-${tab}`} className="triage__panel">
            {tab === 'overview' && (
              <div className="triage__grid">
                <div className="ws-column">
                  <VerdictPanel result={result} fileLabel={shown.fileLabel} />
                  <FamilyPanel result={result} />
                </div>
                <div className="ws-column">
                  <ExplanationPanel result={result} />
                  <CapabilitiesPanel result={result} filter={filter} />
                </div>
              </div>
            )}
            {tab === 'signature' && <SignatureTab result={result} />}
            {tab === 'imports' && <ImportsTab result={result} filter={filter} />}
            {tab === 'sections' && <SectionsTab result={result} onShowOffset={showBytes} />}
            {tab === 'strings' && <StringsTab result={result} filter={filter} onShowOffset={showBytes} />}
            {tab === 'resources' && <ResourcesTab result={result} onShowOffset={showBytes} />}
            {tab === 'hex' && (
              <HexTab
                key={entryKey(shown)}
                result={result}
                file={shown.file}
                goTo={hexGoTo}
                missingNote={shown.storedId !== undefined ? 'This result was read back from the stored history: the bytes are not kept; drop the file again to view them.' : undefined}
              />
            )}
          </div>
          {/* The rule editor stays mounted (hidden on other tabs) so edits survive a look at the strings. */}
          <div hidden={tab !== 'rule'} role={tab === 'rule' ? 'tabpanel' : undefined} aria-labelledby="triage-tab-rule">
            <RuleEditor
              key={entryKey(shown)}
              client={client}
              base={base}
              initial={result.rule?.text ?? ''}
              onTextChange={setRuleText}
              absentReason={
                result.rule
                  ? null
                  : result.verdict === 'BENIGN'
                    ? 'No rule was synthesised: rules are made only for files that are not BENIGN. You can still write one here and validate it.'
                    : 'No rule was synthesised (see the notes). You can write one here and validate it.'
              }
            />
          </div>
        </div>
      )}
    </div>
  );
}
