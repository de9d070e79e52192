// The ACH workspace: which matrix is shown (a bundled scenario, a file, a stored matrix, or the one built here), the four
// views (matrix, report extraction, heat map, attribution) and what they share. Each view is its own file in this folder.
import { useCallback, useEffect, useState } from 'react';
import { useStore } from 'zustand';
import type { AchAssessment, AchScenario, AchScenarioList, AttribHealth, ExtractResponse, MatrixImportResponse, StoredMatrix, StoredMatrixSummary } from '../../../../engines/core/contracts/ach';
import type { StixImportSummary as ImportSummary } from '../../../../engines/core/contracts/findings';
import type { ApiError } from '../../api/client';
import { asApiError, itemsOf } from '../../api/client';
import { ErrorNote, LocalErrorNote } from '../../components/ErrorNote';
import { OpenFileButton } from '../../components/OpenFileButton';
import { isStixBundle, MAX_STIX_BYTES, StixImportSummary } from '../../components/StixImportSummary';
import { useFileDrop } from '../../components/useFileDrop';
import { WorkspaceHeader } from '../../components/WorkspaceHeader';
import { useOpenRequest, type OpenRequest } from '../../shell/openItem';
import type { WorkspaceProps } from '../registry';
import { AttributionView } from './AttributionView';
import { draftFromScenario } from './draft';
import { DraftMatrix } from './DraftMatrix';
import { draftStore } from './draftStore';
import { ExtractionView } from './ExtractionView';
import { HeatmapView } from './HeatmapView';
import { FILE_SCENARIO, MATRIX_PREFIX, MAX_SCENARIO_BYTES } from './model';
import { ScenarioMatrix } from './ScenarioMatrix';
import { counted } from '../../components/wording';
import './ach.css';

type View = 'matrix' | 'extraction' | 'attribution' | 'heatmap';
const VIEWS: readonly (readonly [View, string])[] = [
  ['matrix', 'Matrix'],
  ['extraction', 'Extraction'],
  ['heatmap', 'Heat map'],
  ['attribution', 'Attribution'],
];

/** The chooser's value of the matrix built here (no bundled name or stored id can look like it). */
const DRAFT = '__draft__';

export default function AchWorkspace({ service, client }: WorkspaceProps) {
  const base = service.base;
  const [view, setView] = useState<View>('matrix');
  const [health, setHealth] = useState<AttribHealth | null>(null);
  const [scenarios, setScenarios] = useState<AchScenarioList | null>(null);
  const [listError, setListError] = useState<ApiError | null>(null);
  const draftShown = useStore(draftStore, (s) => s.shown);
  const [scenario, setScenarioValue] = useState(draftShown ? DRAFT : '');
  const [analyst, setAnalyst] = useState('analyst');
  const [text, setText] = useState('');
  const [useClassifier, setUseClassifier] = useState(false);
  const [extraction, setExtraction] = useState<ExtractResponse | null>(null);
  const [extractedText, setExtractedText] = useState('');
  const [reportName, setReportName] = useState('pasted report');
  const [fileScenario, setFileScenario] = useState<{ readonly title: string; readonly body: unknown; readonly n: number } | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [matrices, setMatrices] = useState<readonly StoredMatrixSummary[]>([]);
  const [imported, setImported] = useState<{ readonly summary: ImportSummary; readonly title: string } | null>(null);
  const [importing, setImporting] = useState(false);
  const [importError, setImportError] = useState<ApiError | null>(null);
  const [shownAssessment, setShownAssessment] = useState<AchAssessment | null>(null);
  const [copyError, setCopyError] = useState<ApiError | null>(null);

  const setScenario = useCallback((value: string): void => {
    setScenarioValue(value);
    setShownAssessment(null);
    draftStore.getState().show(value === DRAFT);
  }, []);
  const showFile = useCallback((title: string, body: unknown): void => setFileScenario((f) => ({ title: title.slice(0, 120), body, n: (f?.n ?? 0) + 1 })), []);

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
        showFile(m.title, m.scenario);
        setScenario(`${MATRIX_PREFIX}${m.id}`);
        setView('matrix');
        void loadMatrices();
      } catch (err) {
        setListError(asApiError(err));
      }
    },
    [client, base, loadMatrices, showFile, setScenario],
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
      showFile(r.matrix.title, r.scenario);
      setScenario(`${MATRIX_PREFIX}${r.matrix.id}`);
      void loadMatrices();
    } catch (err) {
      setImportError(asApiError(err));
    } finally {
      setImporting(false);
    }
  };

  /** A JSON file: a STIX bundle is imported as a stored matrix, anything else is a scenario (format in docs/attrib.md) the service validates. */
  const openJsonFile = async (file: File, stixOnly: boolean): Promise<void> => {
    setFileError(null);
    const max = stixOnly ? MAX_STIX_BYTES : MAX_SCENARIO_BYTES;
    if (file.size > max) {
      setFileError(stixOnly ? 'The file is larger than 8 MiB, the most a STIX bundle may be.' : 'The file is larger than 1 MiB, the most a scenario may be.');
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(await file.text()) as unknown;
    } catch {
      setFileError(stixOnly ? 'The file is not JSON (a STIX 2.1 bundle is a JSON document).' : 'The file is not JSON.');
      return;
    }
    if (isStixBundle(body)) {
      await importStix(body, file.name);
      return;
    }
    if (stixOnly) {
      setFileError('The file is JSON but not a STIX bundle (it needs "type": "bundle" and a list of objects).');
      return;
    }
    const title = typeof body === 'object' && body !== null && typeof (body as { title?: unknown }).title === 'string' ? (body as { title: string }).title : file.name;
    showFile(title, body);
    setScenario(FILE_SCENARIO);
  };

  useEffect(() => {
    void (async () => {
      try {
        const list = await client.get<AchScenarioList>(`${base}/scenarios`);
        setScenarios(list);
        setListError(null);
        setScenarioValue((s) => s || list.scenarios[0]?.name || DRAFT);
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

  const own = scenario === FILE_SCENARIO || scenario.startsWith(MATRIX_PREFIX);

  /** Replacing the matrix built here loses it: asked first when it holds anything the analyst typed. */
  const mayReplaceDraft = (): boolean => {
    const d = draftStore.getState().draft;
    return (d.evidence.length === 0 && d.hypotheses.length <= 1) || window.confirm(`Replace your matrix “${d.title}” (${counted(d.hypotheses.length, 'hypothesis', 'hypotheses')}, ${counted(d.evidence.length, 'row')})? Save file keeps a copy.`);
  };

  /** The matrix shown, into the editor: its rows, columns and ratings become the analyst's to change. */
  const editCopy = async (): Promise<void> => {
    if (!mayReplaceDraft()) return;
    try {
      const body = own ? (fileScenario?.body as AchScenario) : await client.get<AchScenario>(`${base}/scenarios/${encodeURIComponent(scenario)}`);
      const d = draftFromScenario(body);
      draftStore.getState().set({ ...d, title: `${d.title} (edited)`.slice(0, 300), revision: draftStore.getState().draft.revision + 1 });
      draftStore.getState().setRun(null);
      setCopyError(null);
      setScenario(DRAFT);
    } catch (err) {
      setCopyError(asApiError(err));
    }
  };

  const matrixDrop = useFileDrop((file) => void openJsonFile(file, false));

  const head = (
    <>
      <div className="panel__head row">
        <label>
          Matrix{' '}
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
            <option value={DRAFT}>Your matrix (built here)</option>
            {fileScenario && scenario === FILE_SCENARIO && <option value={FILE_SCENARIO}>File: {fileScenario.title}</option>}
            {matrices.length > 0 && (
              <optgroup label="Stored matrices">
                {matrices.map((m) => (
                  <option key={m.id} value={`${MATRIX_PREFIX}${m.id}`}>
                    {m.title} ({counted(m.evidence_count, 'item')})
                  </option>
                ))}
              </optgroup>
            )}
          </select>
        </label>
        <button
          type="button"
          className="small"
          onClick={() => {
            if (!mayReplaceDraft()) return;
            draftStore.getState().reset();
            setScenario(DRAFT);
          }}
          title="Start an empty matrix (the one built here before is replaced)"
          data-testid="new-matrix"
        >
          New matrix
        </button>
        <OpenFileButton label="Open scenario…" accept=".json,application/json" testId="scenario-file" buttonTestId="open-scenario" onFile={(f) => void openJsonFile(f, false)} />
        <OpenFileButton label={importing ? 'Importing…' : 'Import STIX…'} accept=".json,application/json,application/stix+json" testId="stix-file" buttonTestId="import-stix" disabled={importing} onFile={(f) => void openJsonFile(f, true)} />
        <label>
          Analyst <input type="text" value={analyst} maxLength={128} onChange={(e) => setAnalyst(e.target.value)} className="ach__analyst" aria-label="Analyst name" />
        </label>
      </div>
      <p className="muted ach__help">Drop a scenario file or a STIX 2.1 bundle here: a bundle becomes a stored matrix (intrusion sets, threat actors and campaigns as hypotheses; techniques, malware, indicators as evidence).</p>
      {listError && <ErrorNote error={listError} title="The scenarios could not be listed" />}
      {importError && <ErrorNote error={importError} title={importError.status === 422 ? 'The service refused this bundle' : 'The import failed'} />}
      {copyError && <ErrorNote error={copyError} title="The matrix could not be copied into the editor" />}
      {imported && <StixImportSummary summary={imported.summary} title={imported.title} onDismiss={() => setImported(null)} />}
      {fileError && <LocalErrorNote message={fileError} />}
      {scenarios && scenarios.scenarios.length === 0 && <p className="muted">No scenarios are installed (check ATTR_FIXTURES): build a matrix here with New matrix.</p>}
    </>
  );

  // The matrix view stays mounted while another view shows (hidden, not removed).
  const matrixHidden = view === 'matrix' ? undefined : { display: 'none' as const };
  return (
    <div className="ws-page ach">
      <WorkspaceHeader title="ACH" purpose="Weigh competing hypotheses against the evidence; extract indicators and techniques from reports">
        {health && (
          <span className="muted" data-testid="kb-size">
            KB: {health.kb.loaded ? `${counted(health.kb.techniques, 'technique')}, ${counted(health.kb.groups, 'group')}` : 'not loaded'}
          </span>
        )}
      </WorkspaceHeader>

      <div className="ach__tabs" role="tablist" aria-label="ACH views">
        {VIEWS.map(([v, label], i) => (
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
              const next = VIEWS[(i + (e.key === 'ArrowRight' ? 1 : VIEWS.length - 1)) % VIEWS.length]![0];
              setView(next);
              document.getElementById(`ach-tab-${next}`)?.focus();
            }}
            data-testid={`tab-${v}`}
          >
            {label}
          </button>
        ))}
      </div>

      {/* Kept mounted while another view shows, so overrides, the ranking and the editor's dialogs state survive a look at the heat map. */}
      <div className={matrixDrop.dropClass} {...matrixDrop.dropProps} style={matrixHidden}>
          {scenario === DRAFT ? (
            <>
              <section className="panel ach__chooser">{head}</section>
              <DraftMatrix client={client} base={base} analyst={analyst} onAssessment={setShownAssessment} />
            </>
          ) : (
            scenario !== '' && (
              <ScenarioMatrix
                key={own ? `${scenario}#${fileScenario?.n ?? 0}` : scenario}
                client={client}
                base={base}
                target={own ? fileScenario?.body : scenario}
                name={own ? 'file' : scenario}
                analyst={analyst}
                head={head}
                onAssessment={setShownAssessment}
                onEditCopy={() => void editCopy()}
              />
            )
          )}
      </div>

      {view === 'extraction' && (
        <ExtractionView
          client={client}
          base={base}
          text={text}
          onText={setText}
          useClassifier={useClassifier}
          onClassifier={setUseClassifier}
          extraction={extraction}
          extractedText={extractedText}
          onExtraction={(e, from) => {
            setExtraction(e);
            setExtractedText(from);
          }}
          reportName={reportName}
          onReportName={setReportName}
        />
      )}

      {view === 'attribution' && <AttributionView client={client} base={base} text={text} onText={setText} useClassifier={useClassifier} />}

      {view === 'heatmap' && <HeatmapView client={client} base={base} extraction={extraction} assessment={shownAssessment} />}
    </div>
  );
}
