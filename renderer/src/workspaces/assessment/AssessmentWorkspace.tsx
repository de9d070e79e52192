// The Assessment workspace: a case in, ranked threat-actor hypotheses out, with the evidence behind them, history and exports.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Assessment, CaseAssessPage, CaseImportResponse, StixBundle, StoredAssessment, StoredAssessmentSummary, StoredCase, StoredCaseSummary } from '../../../../engines/core/contracts/caseassess';
import type { StixImportSummary as ImportSummary } from '../../../../engines/core/contracts/findings';
import { asApiError, itemsOf } from '../../api/client';
import { StixImportSummary } from '../../components/StixImportSummary';
import { useOpenRequest, type OpenRequest } from '../../shell/openItem';
import type { ApiError } from '../../api/client';
import { FilterField, WorkspaceHeader } from '../../components/WorkspaceHeader';
import { downloadJson } from '../../components/download';
import { ErrorNote } from '../../components/ErrorNote';
import { jobBarFraction } from '../../components/Progress';
import { useShell } from '../../shell/context';
import { activeJobs, effectiveTheme } from '../../store';
import { useSystemPrefersDark } from '../../shell/useTheme';
import type { WorkspaceProps } from '../registry';
import { CaseEditor } from './CaseEditor';
import { EvidenceGraph } from './EvidenceGraph';
import { EvidenceMatrix } from './EvidenceMatrix';
import { History } from './History';
import { Hypotheses } from './Hypotheses';
import { caseAssessing, caseWaiting, downloadName, parseCaseText, rankedHypotheses } from './model';
import { ResultSummary } from './ResultSummary';
import { CaseSources } from './CaseSources';
import './assessment.css';
import { useFocusWhenLost } from '../../components/useDialogFocus';
import { agreeing, counted } from '../../components/wording';

const HISTORY_PAGE = 15;
const MATRIX_COLUMNS = 6;
const GRAPH_ACTORS = 5;

interface Shown {
  readonly assessment: Assessment;
  /** The editor's text when this result was made or reopened: once the text differs, the result is marked stale. */
  readonly text: string;
  /** The case that produced it, when known (this session's runs): STIX export re-posts it. */
  readonly caseBody: unknown;
  /** The stored id when reopened from the history. */
  readonly storedId: string | null;
}

export default function AssessmentWorkspace({ service, client }: WorkspaceProps) {
  const base = service.base;
  const [text, setText] = useState('');
  const textRef = useRef(text);
  textRef.current = text;
  const [origin, setOrigin] = useState<string | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const [serviceError, setServiceError] = useState<ApiError | null>(null);
  const [running, setRunning] = useState(false);
  const [shown, setShown] = useState<Shown | null>(null);
  const [exportError, setExportError] = useState<ApiError | null>(null);
  const [exporting, setExporting] = useState(false);
  const [filter, setFilter] = useState('');
  const [history, setHistory] = useState<CaseAssessPage<StoredAssessmentSummary> | null>(null);
  const [historyError, setHistoryError] = useState<ApiError | null>(null);
  // A stored assessment that could not be opened (from the history, the search box or a link): said in the result column.
  const [openError, setOpenError] = useState<ApiError | null>(null);
  const [historyLoading, setHistoryLoading] = useState(false);
  const [historyOffset, setHistoryOffset] = useState(0);
  const [storedCases, setStoredCases] = useState<readonly StoredCaseSummary[]>([]);
  const [imported, setImported] = useState<{ readonly summary: ImportSummary; readonly title: string } | null>(null);
  const [importing, setImporting] = useState(false);
  /** A note about the editor's text (saved as, imported as), with the text it was true of: hidden once the text changes. */
  const [savedNote, setSavedNote] = useState<{ readonly note: string; readonly text: string } | null>(null);
  /** The text the origin ("From stored case X") was true of. */
  const [originText, setOriginText] = useState<string | null>(null);

  const loadCases = useCallback(async (): Promise<void> => {
    try {
      setStoredCases(itemsOf<StoredCaseSummary>(await client.get<unknown>(`${base}/cases`, { query: { limit: 200 } })));
    } catch {
      // Stored cases are an extra: a case pasted or opened from a file works without them.
    }
  }, [client, base]);

  useEffect(() => {
    void loadCases();
  }, [loadCases]);

  const showCase = (kase: unknown, origin: string): void => {
    const t = `${JSON.stringify(kase, null, 2)}\n`;
    setText(t);
    setOrigin(origin);
    setOriginText(t);
    setLocalError(null);
    setServiceError(null);
  };

  const openStoredCase = useCallback(
    async (caseId: string): Promise<void> => {
      try {
        const stored = await client.get<StoredCase>(`${base}/cases/${encodeURIComponent(caseId)}`);
        const t = `${JSON.stringify(stored.case, null, 2)}\n`;
        setText(t);
        setOrigin(`stored case ${stored.case_id}`);
        setOriginText(t);
        setLocalError(null);
        setServiceError(null);
        void loadCases();
      } catch (err) {
        setServiceError(asApiError(err));
      }
    },
    [client, base, loadCases],
  );

  /** A stored assessment (History, or asked for from outside) back into the result view. */
  const reopen = useCallback(
    async (id: string): Promise<void> => {
      try {
        const stored = await client.get<StoredAssessment>(`${base}/assessments/${encodeURIComponent(id)}`);
        setShown({ assessment: stored.assessment, caseBody: undefined, storedId: stored.id, text: textRef.current });
        setExportError(null);
        setOpenError(null);
      } catch (err) {
        setOpenError(asApiError(err));
      }
    },
    [client, base],
  );

  // From the search box or an item link: a stored case into the editor, a stored assessment into the result view.
  useOpenRequest(
    service.name,
    useCallback(
      (r: OpenRequest) => {
        if (r.kind === 'case') void openStoredCase(r.id);
        if (r.kind === 'assessment') void reopen(r.id);
      },
      [openStoredCase, reopen],
    ),
  );

  /** A STIX 2.1 bundle becomes a stored case in the editor, with what was mapped and skipped beside it. */
  const importStix = async (bundle: unknown, name: string): Promise<void> => {
    setImporting(true);
    setServiceError(null);
    try {
      const r = await client.post<CaseImportResponse>(`${base}/cases/import/stix`, bundle);
      showCase(
        r.case,
        r.merged
          ? `STIX bundle ${name}, imported before: merged into ${r.merged.into} (${r.merged.added.length} new item${r.merged.added.length === 1 ? '' : 's'}, ${r.merged.kept} kept)`
          : `STIX bundle ${name} (stored as ${r.stored.case_id})`,
      );
      setImported({ summary: r.summary, title: name });
      void loadCases();
    } catch (err) {
      setServiceError(asApiError(err));
    } finally {
      setImporting(false);
    }
  };

  const saveCase = async (): Promise<void> => {
    const parsed = parseCaseText(text);
    if (!parsed.ok) {
      setLocalError(parsed.message);
      return;
    }
    const save = (replace: boolean) => client.post<StoredCaseSummary>(`${base}/cases`, parsed.value, replace ? { query: { replace: 'true' } } : {});
    try {
      let s: StoredCaseSummary;
      try {
        s = await save(false);
      } catch (err) {
        // The stored case holds evidence this text lacks (sent from another workspace, imported): say what, and replace only if confirmed.
        const e = asApiError(err);
        if (e.status !== 409) throw err;
        const lost = e.details.map((d) => `• ${d.issue}`).slice(0, 12);
        const ok = window.confirm(`${e.message}\n\n${lost.join('\n')}${e.details.length > 12 ? '\n…' : ''}\n\nReplace the stored case and drop these items?`);
        if (!ok) {
          setServiceError(e);
          return;
        }
        s = await save(true);
      }
      setSavedNote({ note: `Saved as ${s.case_id}: findings can now be sent to it.`, text });
      setServiceError(null);
      void loadCases();
    } catch (err) {
      setServiceError(asApiError(err));
    }
  };

  const jobs = useShell((s) => s.jobs);
  const themePref = useShell((s) => s.theme);
  const theme = effectiveTheme(themePref, useSystemPrefersDark());
  // The service runs the assessment as a job; its progress events give the bar a real fraction.
  const progress = running ? jobBarFraction(activeJobs(jobs).filter((j) => j.service === service.name).at(-1)) : undefined;

  const loadHistory = useCallback(
    async (offset: number): Promise<void> => {
      setHistoryLoading(true);
      try {
        const page = await client.get<CaseAssessPage<StoredAssessmentSummary>>(`${base}/assessments`, { query: { limit: HISTORY_PAGE, offset } });
        setHistory(page);
        setHistoryOffset(offset);
        setHistoryError(null);
      } catch (err) {
        setHistoryError(asApiError(err));
      } finally {
        setHistoryLoading(false);
      }
    },
    [client, base],
  );

  useEffect(() => {
    void loadHistory(0);
  }, [loadHistory]);

  const run = async (): Promise<void> => {
    const parsed = parseCaseText(text);
    if (!parsed.ok) {
      setLocalError(parsed.message);
      setServiceError(null);
      return;
    }
    setLocalError(null);
    setServiceError(null);
    setRunning(true);
    try {
      const assessment = await client.post<Assessment>(`${base}/assess`, parsed.value, { query: { format: 'json' } });
      setShown({ assessment, caseBody: parsed.value, storedId: null, text });
      setExportError(null);
      setOpenError(null);
      void loadHistory(0);
    } catch (err) {
      setServiceError(asApiError(err));
    } finally {
      setRunning(false);
    }
  };

  const exportStix = async (): Promise<void> => {
    if (!shown || shown.caseBody === undefined) return;
    setExporting(true);
    try {
      const bundle = await client.post<StixBundle>(`${base}/assess`, shown.caseBody, { query: { format: 'stix' } });
      downloadJson(bundle, downloadName(shown.assessment.case_id, 'stix'));
      setExportError(null);
    } catch (err) {
      setExportError(asApiError(err));
    } finally {
      setExporting(false);
    }
  };

  const ranked = useMemo(() => (shown ? rankedHypotheses(shown.assessment) : []), [shown]);
  // Run assessment is disabled while it runs, which leaves focus on the page: the headline takes it once shown.
  const headline = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(headline, shown);

  return (
    <div className="ws-page assess">
      <WorkspaceHeader title="Assessment" purpose="Rank threat-actor hypotheses for a case against the ATT&CK knowledge graph">
        <FilterField value={filter} onChange={setFilter} placeholder="Filter actors and history  ( / )" label="Filter hypotheses and history" />
      </WorkspaceHeader>
      <div className="ws-split">
        <div className="ws-column">
          <CaseEditor
            text={text}
            origin={origin === null ? null : originText !== null && originText !== text ? `${origin}, edited since` : origin}
            onText={(t, o) => {
              setText(t);
              setOrigin(o);
            }}
            running={running}
            progress={progress}
            onRun={() => void run()}
            localError={localError}
            onLocalError={setLocalError}
            serviceError={serviceError}
            onStixBundle={(b, name) => void importStix(b, name)}
            importing={importing}
            stored={storedCases}
            onOpenStored={(id) => void openStoredCase(id)}
            onSave={() => void saveCase()}
          />
          {savedNote && savedNote.text === text && (
            <p className="muted" role="status">
              {savedNote.note}
            </p>
          )}
          <CaseSources text={text} />
          {imported && (
            <section className="panel">
              <StixImportSummary summary={imported.summary} title={imported.title} onDismiss={() => setImported(null)} />
            </section>
          )}
          <History
            page={history}
            error={historyError}
            filter={filter}
            openId={shown?.storedId ?? null}
            loading={historyLoading}
            onOpen={(id) => void reopen(id)}
            onPage={(o) => void loadHistory(o)}
            onRefresh={() => void loadHistory(historyOffset)}
          />
        </div>
        <div className="ws-column" data-testid="assessment-result">
          {openError && <ErrorNote error={openError} title="The assessment could not be opened" />}
          {!shown ? (
            <section className="panel empty-result">
              <h2>No assessment shown</h2>
              {running ? (
                <p className="muted" data-testid="assessment-running">
                  {caseAssessing(origin)} The ranked hypotheses show here when the service is done.
                </p>
              ) : text.trim() !== '' ? (
                <p className="muted" data-testid="assessment-ready">
                  {caseWaiting(origin)} Press <strong>Run assessment</strong> (or Ctrl+Enter in the editor) to assess it. Past assessments in the history reopen here.
                </p>
              ) : (
                <p className="muted">
                  Load a case (Open file…, drop a .json file on the editor, or paste it), or press <strong>Sample case</strong>, then{' '}
                  <strong>Run assessment</strong>. Past assessments in the history reopen here.
                </p>
              )}
            </section>
          ) : (
            <>
              <div className="row assess__exports">
                <span className="muted">
                  {shown.storedId ? 'Reopened from history: ' : 'Case '}
                  <strong>{shown.assessment.case_title ?? shown.assessment.case_id}</strong>
                </span>
                <span className="spacer" />
                <button type="button" className="small" onClick={() => downloadJson(shown.assessment, downloadName(shown.assessment.case_id, 'assessment'))}>
                  Export JSON
                </button>
                <button
                  type="button"
                  className="small"
                  onClick={() => void exportStix()}
                  disabled={shown.caseBody === undefined || exporting}
                  title={shown.caseBody === undefined ? 'STIX is made from the case file: load the case and run it to export STIX' : 'STIX 2.1 bundle'}
                >
                  {exporting ? 'Exporting…' : 'Export STIX'}
                </button>
              </div>
              {exportError && <ErrorNote error={exportError} title="The STIX export failed" />}
              {shown.text !== text && (
                <p className="assess__stale" role="status" data-testid="result-stale">
                  <strong>Stale:</strong> the case in the editor has changed since this result was {shown.storedId ? 'reopened' : 'made'}. Run the assessment again to see the
                  reading of the case as it is now.
                </p>
              )}
              <div className={shown.text !== text ? 'assess__result-body assess__result-body--stale' : 'assess__result-body'}>
              <ResultSummary assessment={shown.assessment} headingRef={headline} />
              {shown.assessment.confidence.insufficient ? (
                // Nothing scored: the ranking would be the prior alone (even odds for the unlisted actor), so it is not shown as one.
                <section className="panel" aria-label="Ranked hypotheses" data-testid="hypotheses-not-ranked">
                  <h2>Hypotheses not ranked</h2>
                  <p className="muted">
                    No evidence item scored, so the {counted(shown.assessment.hypotheses_scored, 'hypothesis', 'hypotheses')} {agreeing(shown.assessment.hypotheses_scored, 'differs', 'differ')} only by their prior. Add evidence the knowledge graph can score
                    (see above) and run the assessment again.
                  </p>
                </section>
              ) : (
                <>
                  <Hypotheses assessment={shown.assessment} ranked={ranked} filter={filter} />
                  <EvidenceMatrix assessment={shown.assessment} columns={MATRIX_COLUMNS} />
                  <EvidenceGraph assessment={shown.assessment} actors={GRAPH_ACTORS} theme={theme} />
                </>
              )}
              </div>
            </>
          )}
        </div>
      </div>
    </div>
  );
}
