// The ACH workspace: the evidence × hypotheses matrix with editable ratings and live scores, the sensitivity of the leader, report extraction with highlighted spans, actor attribution with its reasons, a technique heat map.
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { AchAssessment, AchRating, AchScenarioList, AttribHealth, ExtractResponse, MatrixImportResponse, StoredMatrix, StoredMatrixSummary } from '../../../../engines/core/contracts/ach';
import type { StixImportSummary as ImportSummary } from '../../../../engines/core/contracts/findings';
import type { TechniqueSummary } from '../../../../engines/core/contracts/attrib';
import type { ApiError} from '../../api/client';
import { asApiError, itemsOf } from '../../api/client';
import { OpenFileButton } from '../../components/OpenFileButton';
import { WorkspaceHeader } from '../../components/WorkspaceHeader';
import { downloadJson } from '../../components/download';
import { ErrorNote } from '../../components/ErrorNote';
import { SendToButton } from '../../components/SendTo';
import { isStixBundle, MAX_STIX_BYTES, StixImportSummary } from '../../components/StixImportSummary';
import { useFileDrop } from '../../components/useFileDrop';
import { useFocusWhenLost } from '../../components/useDialogFocus';
import { useOpenRequest, type OpenRequest } from '../../shell/openItem';
import { AttributionView } from './AttributionView';
import type { WorkspaceProps } from '../registry';
import { cellKey, columnName, weightText, extractionCounts, extractionFinding, FILE_SCENARIO, MATRIX_PREFIX, heat, heatmap, MAX_SCENARIO_BYTES, MAX_TEXT_CHARS, reportText, nextRating, RATING_ORDER, RATING_WORDS, ratingForKey, segments, sourceLabel, tacticTitle } from './model';
import './ach.css';
import { displayProse } from '../../components/wording';

type View = 'matrix' | 'extraction' | 'attribution' | 'heatmap';
const VIEWS: readonly View[] = ['matrix', 'extraction', 'heatmap', 'attribution'];

interface Edit {
  readonly rating: AchRating;
  readonly at: string;
  /** Why the analyst changed the cell (recorded with the override). */
  readonly reason?: string;
}

/** The request's overrides: each edit with its time and reason. */
function overridesOf(edits: ReadonlyMap<string, Edit>) {
  return [...edits.entries()].map(([key, e]) => {
    const [evidence, hypothesis] = key.split(':') as [string, string];
    return { evidence, hypothesis, rating: e.rating, at: e.at, ...(e.reason ? { reason: e.reason } : {}) };
  });
}

export default function AchWorkspace({ service, client }: WorkspaceProps) {
  const base = service.base;
  const [view, setView] = useState<View>('matrix');
  const [health, setHealth] = useState<AttribHealth | null>(null);
  const [scenarios, setScenarios] = useState<AchScenarioList | null>(null);
  const [listError, setListError] = useState<ApiError | null>(null);
  const [scenario, setScenario] = useState('');
  const [analyst, setAnalyst] = useState('analyst');
  const [edits, setEdits] = useState<ReadonlyMap<string, Edit>>(new Map());
  const [assessment, setAssessment] = useState<AchAssessment | null>(null);
  const [achError, setAchError] = useState<ApiError | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [useClassifier, setUseClassifier] = useState(false);
  const [extraction, setExtraction] = useState<ExtractResponse | null>(null);
  const [extractError, setExtractError] = useState<ApiError | null>(null);
  const [extracting, setExtracting] = useState(false);
  const [scenarioTechniques, setScenarioTechniques] = useState<readonly TechniqueSummary[] | null>(null);
  const [heatOf, setHeatOf] = useState<'report' | 'scenario'>('report');
  const seq = useRef(0);
  const [fileScenario, setFileScenario] = useState<{ readonly title: string; readonly body: unknown } | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [matrices, setMatrices] = useState<readonly StoredMatrixSummary[]>([]);
  const [imported, setImported] = useState<{ readonly summary: ImportSummary; readonly title: string } | null>(null);
  const [importing, setImporting] = useState(false);
  const [importError, setImportError] = useState<ApiError | null>(null);
  const [reportName, setReportName] = useState('pasted report');

  const loadMatrices = useCallback(async (): Promise<void> => {
    try {
      setMatrices(itemsOf<StoredMatrixSummary>(await client.get<unknown>(`${base}/matrices`, { query: { limit: 200 } })));
    } catch {
      // The stored matrices are an extra; the bundled scenarios work without them.
    }
  }, [client, base]);

  useEffect(() => {
    void loadMatrices();
  }, [loadMatrices]);

  /** A stored matrix (imported from STIX or grown by Send to ACH) into the matrix view. */
  const openMatrix = useCallback(
    async (id: string): Promise<void> => {
      try {
        const m = await client.get<StoredMatrix>(`${base}/matrices/${encodeURIComponent(id)}`);
        setFileScenario({ title: m.title.slice(0, 120), body: m.scenario });
        setScenario(`${MATRIX_PREFIX}${m.id}`);
        setView('matrix');
        void loadMatrices();
      } catch (err) {
        setAchError(asApiError(err));
      }
    },
    [client, base, loadMatrices],
  );

  useOpenRequest(
    'attrib',
    useCallback(
      (r: OpenRequest) => {
        // A stored matrix by its uuid (the search box's `matrix` hits, `links.opens` of its entry in workspaces/registry.ts). Its TAXII `report`
        // hits (`report--…`) are not taken: no route maps a TAXII report to a stored matrix, so they only open the workspace.
        if (r.kind === 'matrix' && !r.id.includes('--')) void openMatrix(r.id);
      },
      [openMatrix],
    ),
  );

  /** A STIX 2.1 bundle becomes a stored matrix: hypotheses and evidence, with what was mapped and skipped. */
  const importStix = async (body: unknown, name: string): Promise<void> => {
    setImporting(true);
    setImportError(null);
    try {
      const r = await client.post<MatrixImportResponse>(`${base}/matrices/import/stix`, body);
      // The same bundle imported again merges into the matrix it made (nothing the analyst added there is lost): say so.
      setImported({ summary: r.summary, title: r.merged ? `${name}, imported before: merged into its matrix (${r.merged.added.length} new row${r.merged.added.length === 1 ? '' : 's'}, ${r.merged.kept} kept)` : name });
      setFileScenario({ title: r.matrix.title.slice(0, 120), body: r.scenario });
      setScenario(`${MATRIX_PREFIX}${r.matrix.id}`);
      void loadMatrices();
    } catch (err) {
      setImportError(asApiError(err));
    } finally {
      setImporting(false);
    }
  };

  const openStixFile = async (file: File): Promise<void> => {
    setFileError(null);
    if (file.size > MAX_STIX_BYTES) {
      setFileError('The file is larger than 8 MiB, the most a STIX bundle may be.');
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(await file.text()) as unknown;
    } catch {
      setFileError('The file is not JSON (a STIX 2.1 bundle is a JSON document).');
      return;
    }
    if (!isStixBundle(body)) {
      setFileError('The file is JSON but not a STIX bundle (it needs "type": "bundle" and a list of objects).');
      return;
    }
    await importStix(body, file.name);
  };

  useEffect(() => {
    void (async () => {
      try {
        const list = await client.get<AchScenarioList>(`${base}/scenarios`);
        setScenarios(list);
        setListError(null);
        setScenario((s) => s || list.scenarios[0]?.name || '');
      } catch (err) {
        setListError(asApiError(err));
      }
      try {
        setHealth(await client.get<AttribHealth>(`${base}/health`));
      } catch {
        // Health is a courtesy (the KB size); everything else works without it.
      }
    })();
  }, [client, base]);

  const score = useCallback(
    async (name: string, current: ReadonlyMap<string, Edit>, record = false): Promise<AchAssessment | null> => {
      const mine = ++seq.current;
      try {
        const overrides = overridesOf(current);
        const target = name === FILE_SCENARIO || name.startsWith(MATRIX_PREFIX) ? fileScenario?.body : name;
        const a = await client.post<AchAssessment>(`${base}/ach`, { scenario: target, overrides, analyst: analyst.trim() || 'analyst', ...(record ? {} : { preview: true }) });
        if (mine === seq.current) {
          setAssessment(a);
          setAchError(null);
        }
        return a;
      } catch (err) {
        if (mine === seq.current) setAchError(asApiError(err));
        return null;
      }
    },
    [client, base, analyst, fileScenario],
  );

  useEffect(() => {
    if (!scenario) return;
    setEdits(new Map());
    setSaved(null);
    setScenarioTechniques(null);
    // The matrix shown belongs to the scenario scored; another scenario's ranking must not stand in while this one scores.
    setAssessment(null);
    void score(scenario, new Map());
    // Only a change of scenario starts afresh; edits re-score through setRating (a new analyst name must not reset them).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scenario, fileScenario]);

  /** A scenario file from disk (format in docs/attrib.md); the service validates it and names what is wrong. */
  const openScenarioFile = async (file: File): Promise<void> => {
    setFileError(null);
    if (file.size > MAX_SCENARIO_BYTES) {
      setFileError('The file is larger than 1 MiB, the most a scenario may be.');
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(await file.text()) as unknown;
    } catch {
      setFileError('The file is not JSON.');
      return;
    }
    if (isStixBundle(body)) {
      await importStix(body, file.name);
      return;
    }
    const title = typeof body === 'object' && body !== null && typeof (body as { title?: unknown }).title === 'string' ? (body as { title: string }).title : file.name;
    setFileScenario({ title: title.slice(0, 120), body });
    setScenario(FILE_SCENARIO);
  };

  const openReportFile = async (file: File): Promise<void> => {
    setExtractError(null);
    const raw = await file.text();
    setReportName(file.name);
    setText(reportText(file.name, raw));
    setExtraction(null);
  };

  const setRating = (evidence: string, hypothesis: string, rating: AchRating | null): void => {
    const next = new Map(edits);
    const key = cellKey(evidence, hypothesis);
    next.delete(key);
    if (rating !== null) next.set(key, { rating, at: new Date().toISOString() });
    setEdits(next);
    setSaved(null);
    void score(scenario, next);
  };

  const setReason = (evidence: string, hypothesis: string, reason: string): void => {
    const key = cellKey(evidence, hypothesis);
    const edit = edits.get(key);
    const text = reason.trim();
    if (!edit || (edit.reason ?? '') === text) return;
    const next = new Map(edits);
    next.set(key, { rating: edit.rating, at: edit.at, ...(text ? { reason: text } : {}) });
    setEdits(next);
    void score(scenario, next);
  };

  const record = async (): Promise<void> => {
    const a = await score(scenario, edits, true);
    if (a) setSaved(`Recorded at ${a.assessed_at.slice(0, 19).replace('T', ' ')} UTC: ${a.overrides.length} override(s) in the log, STIX in the TAXII assessments collection.`);
  };

  const exportStix = async (): Promise<void> => {
    try {
      const overrides = overridesOf(edits);
      const own = scenario === FILE_SCENARIO || scenario.startsWith(MATRIX_PREFIX);
      const bundle = await client.post<unknown>(`${base}/stix`, { scenario: own ? fileScenario?.body : scenario, overrides, analyst: analyst.trim() || 'analyst', preview: true });
      downloadJson(bundle, `ach-${own ? 'file' : scenario}.stix.json`);
    } catch (err) {
      setAchError(asApiError(err));
    }
  };

  const runExtract = async (): Promise<void> => {
    if (text.trim() === '' || text.length > MAX_TEXT_CHARS) return;
    setExtracting(true);
    try {
      setExtraction(await client.post<ExtractResponse>(`${base}/extract`, { text, classifier: useClassifier }));
      setExtractError(null);
    } catch (err) {
      setExtractError(asApiError(err));
    } finally {
      setExtracting(false);
    }
  };

  // The heat map of the scenario: its evidence's technique ids, looked up by the extractor (names and tactics from the KB).
  useEffect(() => {
    if (view !== 'heatmap' || (extraction && heatOf === 'report') || scenarioTechniques || !assessment) return;
    const ids = [...new Set(assessment.evidence.flatMap((e) => e.techniques))];
    if (ids.length === 0) {
      setScenarioTechniques([]);
      return;
    }
    void (async () => {
      try {
        const r = await client.post<ExtractResponse>(`${base}/extract`, { text: ids.join('\n') });
        setScenarioTechniques(r.extraction.technique_summary);
      } catch {
        setScenarioTechniques([]);
      }
    })();
  }, [view, extraction, heatOf, scenarioTechniques, assessment, client, base]);

  // Extract is disabled while it runs, which leaves focus on the page: the Spans heading takes it once the spans show.
  const spansHeading = useRef<HTMLHeadingElement>(null);
  useFocusWhenLost(spansHeading, extraction);

  const onCellKey = (e: KeyboardEvent<HTMLButtonElement>, evidence: string, hypothesis: string, rating: AchRating, row: number, col: number): void => {
    const direct = ratingForKey(e.key);
    const move = (r: number, c: number): void => {
      e.preventDefault();
      document.querySelector<HTMLButtonElement>(`[data-cell="${r}-${c}"]`)?.focus();
    };
    if (direct) {
      e.preventDefault();
      setRating(evidence, hypothesis, direct);
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      setRating(evidence, hypothesis, null);
    } else if (e.key === 'ArrowRight') move(row, col + 1);
    else if (e.key === 'ArrowLeft') move(row, col - 1);
    else if (e.key === 'ArrowDown') move(row + 1, col);
    else if (e.key === 'ArrowUp') move(row - 1, col);
    else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      setRating(evidence, hypothesis, nextRating(rating));
    }
  };

  const columns = assessment ? (assessment.evidence[0]?.cells.map((c) => c.hypothesis) ?? []) : [];
  const titleOf = (hid: string): string => assessment?.hypotheses.find((h) => h.id === hid)?.title ?? hid;
  const maxInc = assessment ? Math.max(0.0001, ...assessment.hypotheses.map((h) => h.inconsistency)) : 1;
  const fromReport = extraction !== null && heatOf === 'report';
  const heatSource = (fromReport ? extraction.extraction.technique_summary : scenarioTechniques) ?? [];
  const map = heatmap(heatSource);
  const matrixDrop = useFileDrop((file) => void openScenarioFile(file));

  return (
    <div className="ws-page ach">
      <WorkspaceHeader title="ACH" purpose="Weigh competing hypotheses against the evidence; extract indicators and techniques from reports">
        {health && (
          <span className="muted" data-testid="kb-size">
            KB: {health.kb.loaded ? `${health.kb.techniques} techniques, ${health.kb.groups} groups` : 'not loaded'}
          </span>
        )}
      </WorkspaceHeader>

      <div className="ach__tabs" role="tablist" aria-label="ACH views">
        {(
          [
            ['matrix', 'Matrix'],
            ['extraction', 'Extraction'],
            ['heatmap', 'Heat map'],
            ['attribution', 'Attribution'],
          ] as const
        ).map(([v, label]) => (
          <button
            key={v}
            type="button"
            role="tab"
            id={`ach-tab-${v}`}
            aria-selected={view === v}
            tabIndex={view === v ? 0 : -1}
            className={view === v ? 'ach__tab ach__tab--on' : 'ach__tab'}
            onClick={() => setView(v)}
            onKeyDown={(e) => {
              // Arrow keys move between the tabs (WAI-ARIA tabs pattern).
              if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
              e.preventDefault();
              const next = VIEWS[(VIEWS.indexOf(v) + (e.key === 'ArrowRight' ? 1 : VIEWS.length - 1)) % VIEWS.length]!;
              setView(next);
              document.getElementById(`ach-tab-${next}`)?.focus();
            }}
            data-testid={`tab-${v}`}
          >
            {label}
          </button>
        ))}
      </div>

      {view === 'matrix' && (
        <div className="ach__grid">
          <section className={`panel ach__matrix-panel ${matrixDrop.dropClass}`} aria-label="Matrix" data-testid="ach-matrix" {...matrixDrop.dropProps}>
            <div className="panel__head row">
              <label>
                Scenario{' '}
                <select
                  value={scenario}
                  onChange={(e) => (e.target.value.startsWith(MATRIX_PREFIX) ? void openMatrix(e.target.value.slice(MATRIX_PREFIX.length)) : setScenario(e.target.value))}
                  data-testid="scenario-select"
                  aria-label="Scenario"
                >
                  {(scenarios?.scenarios ?? []).map((s) => (
                    <option key={s.name} value={s.name}>
                      {s.title}
                    </option>
                  ))}
                  {fileScenario && scenario === FILE_SCENARIO && <option value={FILE_SCENARIO}>File: {fileScenario.title}</option>}
                  {matrices.length > 0 && (
                    <optgroup label="Stored matrices">
                      {matrices.map((m) => (
                        <option key={m.id} value={`${MATRIX_PREFIX}${m.id}`}>
                          {m.title} ({m.evidence_count} items)
                        </option>
                      ))}
                    </optgroup>
                  )}
                </select>
              </label>
              <OpenFileButton label="Open scenario…" accept=".json,application/json" testId="scenario-file" buttonTestId="open-scenario" onFile={(f) => void openScenarioFile(f)} />
              <OpenFileButton label={importing ? 'Importing…' : 'Import STIX…'} accept=".json,application/json,application/stix+json" testId="stix-file" buttonTestId="import-stix" disabled={importing} onFile={(f) => void openStixFile(f)} />
              <label>
                Analyst <input type="text" value={analyst} maxLength={128} onChange={(e) => setAnalyst(e.target.value)} className="ach__analyst" aria-label="Analyst name" />
              </label>
            </div>
            <div className="row ach__actions">
              <button type="button" className="small" disabled={edits.size === 0} onClick={() => {
                setEdits(new Map());
                void score(scenario, new Map());
              }}>
                Clear overrides
              </button>
              <button type="button" className="small" disabled={!assessment} onClick={() => void exportStix()} data-testid="export-stix">
                Export STIX
              </button>
              <button type="button" className="small" disabled={!assessment} onClick={() => assessment && downloadJson(assessment, `ach-${assessment.scenario.name}.json`)}>
                Export JSON
              </button>
              <button type="button" className="small primary" disabled={!assessment} onClick={() => void record()} data-testid="record">
                Record
              </button>
            </div>
            <p className="muted ach__help">Drop a scenario file or a STIX 2.1 bundle here: a bundle becomes a stored matrix (intrusion sets, threat actors and campaigns as hypotheses; techniques, malware, indicators as evidence).</p>
            {listError && <ErrorNote error={listError} title="The scenarios could not be listed" />}
            {importError && <ErrorNote error={importError} title={importError.status === 422 ? 'The service refused this bundle' : 'The import failed'} />}
            {imported && <StixImportSummary summary={imported.summary} title={imported.title} onDismiss={() => setImported(null)} />}
            {fileError && (
              <div className="error-note" role="alert">
                <div className="error-note__title">Nothing was sent</div>
                <div>{fileError}</div>
              </div>
            )}
            {scenarios && scenarios.scenarios.length === 0 && <p className="muted">No scenarios are installed (check ATTR_FIXTURES).</p>}
            {achError && <ErrorNote error={achError} title="The assessment failed" />}
            {saved && (
              <p className="ach__saved" role="status">
                {saved}
              </p>
            )}
            {!assessment && !achError && scenario && (
              <p className="muted" role="status" data-testid="ach-scoring">
                Scoring the matrix…
              </p>
            )}
            {assessment && (
              <>
                {assessment.scenario.question && <p className="ach__question">{assessment.scenario.question}</p>}
                <p className="muted ach__help">
                  Click a rating to cycle it, or focus it and press 1–6 (CC, C, N, I, II, NA); arrows move, Delete removes your override. Overrides are outlined and starred.
                </p>
                <div className="ach__table-wrap">
                  <table className="ach__table">
                    <thead>
                      <tr>
                        <th scope="col">Evidence</th>
                        <th scope="col" title="credibility × relevance">
                          Weight
                        </th>
                        <th scope="col" title="0: rated alike everywhere; 1: CC against one hypothesis, II against another">
                          Diag.
                        </th>
                        {columns.map((hid) => {
                          const h = assessment.hypotheses.find((x) => x.id === hid);
                          return (
                            <th key={hid} scope="col" title={titleOf(hid)} className={hid === assessment.leader ? 'ach__leader-col' : undefined} data-testid={`col-${hid}`}>
                              <span className="ach__col-name">{h ? columnName(h) : hid}</span>
                              <span className="ach__col-id muted">
                                {hid}
                                {h?.catch_all === true ? ' · catch-all' : ''}
                              </span>
                            </th>
                          );
                        })}
                      </tr>
                    </thead>
                    <tbody>
                      {assessment.evidence.map((e, row) => (
                        <tr key={e.id} className={assessment.sensitivity.find((s) => s.evidence === e.id)?.critical ? 'ach__row--critical' : undefined}>
                          <th scope="row" className="ach__evidence">
                            <span className="ach__eid">{e.id}</span> {e.summary}
                            {e.techniques.length > 0 && <span className="muted ach__techs"> {e.techniques.join(' ')}</span>}
                            <EvidenceSource source={e.source} />
                          </th>
                          <td className="num">{e.weight.toFixed(2)}</td>
                          <td className="num ach__nowrap">
                            <span className="ach__diag" style={{ width: `${Math.round(e.diagnosticity * 40)}px` }} aria-hidden="true" />
                            {e.diagnosticity.toFixed(2)}
                          </td>
                          {e.cells.map((c, col) => {
                            const edit = edits.get(cellKey(e.id, c.hypothesis));
                            const override = assessment.overrides.filter((o) => o.evidence === e.id && o.hypothesis === c.hypothesis).at(-1);
                            return (
                              <td key={c.hypothesis}>
                                <button
                                  type="button"
                                  className={`ach__cell ach__cell--${c.rating}${c.source === 'override' ? ' ach__cell--override' : ''}`}
                                  data-cell={`${row}-${col}`}
                                  data-testid={`cell-${e.id}-${c.hypothesis}`}
                                  aria-label={`${e.id} against ${c.hypothesis}: ${RATING_WORDS[c.rating]}${c.source === 'override' ? ', your override' : `, from the ${c.source}`}`}
                                  title={
                                    override
                                      ? `Override by ${override.by} at ${(edit?.at ?? override.at).slice(0, 19).replace('T', ' ')} UTC (was ${override.previous})`
                                      : `${RATING_WORDS[c.rating]} (${c.source})`
                                  }
                                  onClick={() => setRating(e.id, c.hypothesis, nextRating(c.rating))}
                                  onKeyDown={(ev) => onCellKey(ev, e.id, c.hypothesis, c.rating, row, col)}
                                >
                                  {c.rating}
                                  {c.source === 'override' ? '*' : ''}
                                </button>
                              </td>
                            );
                          })}
                        </tr>
                      ))}
                    </tbody>
                    <tfoot>
                      <tr>
                        <th scope="row" colSpan={3}>
                          Weighted inconsistency
                        </th>
                        {columns.map((hid) => {
                          const inconsistency = assessment.hypotheses.find((h) => h.id === hid)?.inconsistency;
                          return (
                            <td key={hid} className="num" data-testid={`score-${hid}`} title={inconsistency === undefined ? undefined : String(inconsistency)}>
                              {inconsistency === undefined ? '' : weightText(inconsistency)}
                            </td>
                          );
                        })}
                      </tr>
                    </tfoot>
                  </table>
                </div>
                <p className="muted ach__legend">
                  {RATING_ORDER.map((r) => (
                    <span key={r} className="ach__legend-item">
                      <span className={`ach__cell ach__cell--${r} ach__cell--mini`}>{r}</span> {RATING_WORDS[r]}
                    </span>
                  ))}
                </p>
              </>
            )}
          </section>

          <div className="ach__side">
            {assessment && (
              <section className="panel" aria-label="Scores" data-testid="ach-scores">
                <div className="panel__head">
                  <h2>Hypotheses</h2>
                  <span className={`ach__strength ach__strength--${assessment.strength}`} title={assessment.strength_rule} data-testid="ach-strength">
                    {assessment.strength}
                  </span>
                </div>
                {assessment.strength_rule && (
                  <p className="muted ach__strength-rule" data-testid="ach-strength-rule">
                    <strong>{assessment.strength}</strong>: {assessment.strength_rule}
                  </p>
                )}
                <ol className="ach__ranking">
                  {assessment.hypotheses.map((h) => (
                    <li key={h.id} className={h.id === assessment.leader ? 'ach__rank ach__rank--leader' : 'ach__rank'}>
                      <span className="ach__rank-title">
                        {h.rank}. <strong>{h.id}</strong> {h.title}
                        {h.catch_all === true && <span className="ach__tag" title="Stands for every actor (or explanation) not named as a hypothesis: rate it like the others">catch-all</span>}
                        {h.untested === true && <span className="ach__tag ach__tag--untested" title="No evidence is rated consistent or inconsistent with it: ranked after the tested hypotheses">no evidence rated</span>}
                      </span>
                      <span className="ach__bar" aria-hidden="true">
                        <span style={{ width: `${Math.round((h.inconsistency / maxInc) * 100)}%` }} />
                      </span>
                      <span className="num muted" title={`weighted inconsistency ${h.inconsistency}, weighted consistency ${h.consistency}`}>
                        {weightText(h.inconsistency)} inconsistent · {weightText(h.consistency)} consistent
                      </span>
                    </li>
                  ))}
                </ol>
                <p className="ach__conclusion" data-testid="ach-conclusion">
                  {assessment.conclusion}
                </p>
                {assessment.warnings.map((w) => (
                  <p key={w} className="muted">
                    {displayProse(w)}
                  </p>
                ))}
              </section>
            )}
            {assessment && (
              <section className="panel" aria-label="Sensitivity" data-testid="ach-sensitivity">
                <div className="panel__head">
                  <h2>Sensitivity</h2>
                  <span className="muted">leader if an item is wrong</span>
                </div>
                <table className="ach__sens">
                  <thead>
                    <tr>
                      <th scope="col">Item</th>
                      <th scope="col">Discarded</th>
                      <th scope="col">Reversed</th>
                      <th scope="col" title="How much the item widens (+) or narrows (−) the leader's margin">
                        Margin
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {assessment.sensitivity.map((s) => (
                      <tr key={s.evidence} className={s.critical ? 'ach__row--critical' : undefined}>
                        <th scope="row">
                          {s.evidence}
                          {s.critical && <span className="ach__critical"> critical</span>}
                        </th>
                        <td>{s.leader_if_removed ?? '—'}</td>
                        <td>{s.leader_if_reversed ?? '—'}</td>
                        <td className="num" title={String(s.margin_effect)}>
                          {weightText(s.margin_effect, true)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </section>
            )}
            {assessment && assessment.overrides.length > 0 && (
              <section className="panel" aria-label="Overrides" data-testid="ach-overrides">
                <div className="panel__head">
                  <h2>Overrides</h2>
                </div>
                <ul className="ach__overrides">
                  {assessment.overrides.map((o) => (
                    <li key={`${o.evidence}:${o.hypothesis}`}>
                      <code>
                        {o.evidence}:{o.hypothesis}
                      </code>{' '}
                      {o.previous} → <strong>{o.rating}</strong> <span className="muted">by {o.by}, {o.at.slice(0, 19).replace('T', ' ')} UTC</span>
                      <input
                        type="text"
                        className="ach__reason"
                        maxLength={500}
                        placeholder="why (recorded with the override)"
                        aria-label={`Reason for the override of ${o.evidence} against ${o.hypothesis}`}
                        defaultValue={edits.get(cellKey(o.evidence, o.hypothesis))?.reason ?? ''}
                        data-testid={`reason-${o.evidence}-${o.hypothesis}`}
                        onBlur={(e) => setReason(o.evidence, o.hypothesis, e.target.value)}
                        onKeyDown={(e) => {
                          if (e.key === 'Enter') setReason(o.evidence, o.hypothesis, e.currentTarget.value);
                        }}
                      />
                    </li>
                  ))}
                </ul>
              </section>
            )}
          </div>
        </div>
      )}

      {view === 'extraction' && (
        <div className="ach__grid">
          <section className="panel" aria-label="Report">
            <div className="panel__head row">
              <h2>Report text</h2>
              <OpenFileButton label="Open file…" accept=".txt,.md,.json,.mjson,text/plain" testId="report-file" buttonTestId="open-report" onFile={(f) => void openReportFile(f)} />
              <span className="spacer" />
              <span className="muted">
                {text.length.toLocaleString()} / {MAX_TEXT_CHARS.toLocaleString()} characters
              </span>
            </div>
            <textarea
              className="ach__text"
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder="Paste a threat report (defanged indicators such as hxxp://evil[.]com are refanged)"
              aria-label="Report text"
              data-testid="report-text"
              onKeyDown={(e) => {
                if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void runExtract();
              }}
            />
            <div className="row">
              <label>
                <input type="checkbox" checked={useClassifier} onChange={(e) => setUseClassifier(e.target.checked)} /> sentence classifier
              </label>
              <span className="spacer" />
              {text.length > MAX_TEXT_CHARS && <span className="field-error">The text is longer than the service takes.</span>}
              <button type="button" className="primary" disabled={extracting || text.trim() === '' || text.length > MAX_TEXT_CHARS} onClick={() => void runExtract()} data-testid="run-extract">
                {extracting ? 'Extracting…' : 'Extract (Ctrl+Enter)'}
              </button>
            </div>
            {extractError && <ErrorNote error={extractError} title="The extraction failed" />}
          </section>
          <section className="panel" aria-label="Extraction" data-testid="extraction">
            <div className="panel__head row">
              <h2 tabIndex={-1} ref={spansHeading}>
                Spans
              </h2>
              <span className="ach__key ach__key--indicator">indicator</span>
              <span className="ach__key ach__key--technique">technique</span>
              <span className="spacer" />
              <button type="button" className="small" disabled={!extraction} onClick={() => extraction && downloadJson(extraction.layer, 'attrib-layer.json')} data-testid="export-layer">
                Export layer
              </button>
              <button type="button" className="small" disabled={!extraction} onClick={() => extraction && downloadJson(extraction.stix, 'attrib-extraction.stix.json')}>
                Export STIX
              </button>
              <SendToButton client={client} finding={extraction ? extractionFinding(extraction, reportName) : null} label="Send to…" testId="extraction-send-to" />
            </div>
            {!extraction && <p className="muted">Paste a report and press Extract: indicators and techniques are highlighted where they occur.</p>}
            {extraction && (
              <>
                <p className="muted">
                  {extractionCounts(extraction.extraction)}
                </p>
                <pre className="ach__spans" data-testid="spans">
                  {segments(text.slice(0, extraction.extraction.length), extraction.extraction.indicators, extraction.extraction.techniques).map((s) =>
                    s.marks.length === 0 ? (
                      <span key={s.start}>{s.text}</span>
                    ) : (
                      <mark
                        key={s.start}
                        className={`ach__mark ${s.marks.some((m) => m.kind === 'indicator') ? 'ach__mark--indicator' : ''} ${s.marks.some((m) => m.kind === 'technique') ? 'ach__mark--technique' : ''}`}
                        title={s.marks.map((m) => m.label).join('\n')}
                      >
                        {s.text}
                      </mark>
                    ),
                  )}
                </pre>
                {extraction.extraction.warnings.map((w) => (
                  <p key={w} className="muted">
                    {displayProse(w)}
                  </p>
                ))}
              </>
            )}
          </section>
        </div>
      )}

      {view === 'attribution' && <AttributionView client={client} base={base} text={text} onText={setText} useClassifier={useClassifier} />}

      {view === 'heatmap' && (
        <section className="panel" aria-label="Technique heat map" data-testid="heatmap">
          <div className="panel__head">
            <h2>Technique heat map</h2>
            {extraction ? (
              <label>
                of{' '}
                <select value={heatOf} onChange={(e) => setHeatOf(e.target.value === 'scenario' ? 'scenario' : 'report')} aria-label="Heat map source" data-testid="heat-source">
                  <option value="report">the extracted report</option>
                  <option value="scenario">the scenario's evidence</option>
                </select>
              </label>
            ) : (
              <span className="muted">{assessment ? `of the scenario's evidence (${assessment.scenario.title})` : ''}</span>
            )}
          </div>
          {heatSource.length === 0 && <p className="muted">No techniques yet: extract a report, or choose a scenario whose evidence names techniques.</p>}
          <div className="ach__heat">
            {map.columns.map((c) => (
              <div key={c.tactic} className="ach__heat-col">
                <div className="ach__heat-head">
                  {tacticTitle(c.tactic)} <span className="muted">{c.techniques.length}</span>
                </div>
                {c.techniques.map((t) => (
                  <div key={t.id} className="ach__heat-cell" style={{ ['--heat' as string]: String(heat(t.count, map.max)) }} title={`${t.id} ${t.name}: ${t.count}`}>
                    <span className="ach__heat-id">{t.id}</span> {t.name}
                    {t.count > 1 && <span className="ach__heat-count"> ×{t.count}</span>}
                  </div>
                ))}
              </div>
            ))}
          </div>
        </section>
      )}
    </div>
  );
}

/** An evidence row's source: a short label (a link back to the item when Send to gave one), the full text on hover or focus. */
function EvidenceSource({ source }: { readonly source: string | undefined }) {
  const s = sourceLabel(source);
  if (s === null) return null;
  return (
    <span className="ach__source muted" title={s.full} tabIndex={0} data-testid="evidence-source">
      {' · '}
      {s.link !== undefined ? (
        <a href={s.link} title={`Open ${s.label}: ${s.full}`}>
          {s.label}
        </a>
      ) : (
        s.label
      )}
    </span>
  );
}
