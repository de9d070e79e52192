// A given matrix (a bundled scenario, a scenario file, a stored matrix): scored live as the analyst overrides cells, each
// override kept with its time and reason; Record logs them, the exports write the assessment. Its rows and columns are
// changed by taking it into the editor (Edit as your matrix).
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { AchAssessment, AchRating } from '../../../../engines/core/contracts/ach';
import type { ApiClient, ApiError } from '../../api/client';
import { asApiError } from '../../api/client';
import { downloadJson } from '../../components/download';
import { ErrorNote } from '../../components/ErrorNote';
import { MatrixGrid, type GridCell } from './MatrixGrid';
import { cellKey, columnName, RATING_WORDS } from './model';
import { ResultsPanel } from './ResultsPanel';

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

interface Props {
  readonly client: ApiClient;
  readonly base: string;
  /** A bundled scenario's name, or the scenario itself (a file's, a stored matrix's). */
  readonly target: unknown;
  /** For file names: the bundled name, else `file`. */
  readonly name: string;
  readonly analyst: string;
  /** The matrix panel's head (the chooser, open and import) and notes, drawn above the matrix. */
  readonly head: ReactNode;
  readonly onAssessment: (a: AchAssessment | null) => void;
  /** Takes this matrix into the editor, to add, change or remove rows and columns. */
  readonly onEditCopy: () => void;
}

export function ScenarioMatrix({ client, base, target, name, analyst, head, onAssessment, onEditCopy }: Props) {
  const [edits, setEdits] = useState<ReadonlyMap<string, Edit>>(new Map());
  const [assessment, setAssessment] = useState<AchAssessment | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const seq = useRef(0);

  useEffect(() => onAssessment(assessment), [assessment, onAssessment]);

  const score = useCallback(
    async (current: ReadonlyMap<string, Edit>, record = false): Promise<AchAssessment | null> => {
      const mine = ++seq.current;
      try {
        const a = await client.post<AchAssessment>(`${base}/ach`, { scenario: target, overrides: overridesOf(current), analyst: analyst.trim() || 'analyst', ...(record ? {} : { preview: true }) });
        if (mine === seq.current) {
          setAssessment(a);
          setError(null);
        }
        return a;
      } catch (err) {
        if (mine === seq.current) setError(asApiError(err));
        return null;
      }
    },
    [client, base, analyst, target],
  );

  useEffect(() => {
    void score(new Map());
    // The component is keyed by its matrix: it scores once on mount; edits re-score through setRating (a new analyst name must not reset them).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const setRating = (evidence: string, hypothesis: string, rating: AchRating | null): void => {
    const next = new Map(edits);
    const key = cellKey(evidence, hypothesis);
    next.delete(key);
    if (rating !== null) next.set(key, { rating, at: new Date().toISOString() });
    setEdits(next);
    setSaved(null);
    void score(next);
  };

  const setReason = (evidence: string, hypothesis: string, reason: string): void => {
    const key = cellKey(evidence, hypothesis);
    const edit = edits.get(key);
    const text = reason.trim();
    if (!edit || (edit.reason ?? '') === text) return;
    const next = new Map(edits);
    next.set(key, { rating: edit.rating, at: edit.at, ...(text ? { reason: text } : {}) });
    setEdits(next);
    void score(next);
  };

  const record = async (): Promise<void> => {
    const a = await score(edits, true);
    if (a) setSaved(`Recorded at ${a.assessed_at.slice(0, 19).replace('T', ' ')} UTC: ${a.overrides.length} override(s) in the log, STIX in the TAXII assessments collection.`);
  };

  const exportStix = async (): Promise<void> => {
    try {
      const bundle = await client.post<unknown>(`${base}/stix`, { scenario: target, overrides: overridesOf(edits), analyst: analyst.trim() || 'analyst', preview: true });
      downloadJson(bundle, `ach-${name}.stix.json`);
    } catch (err) {
      setError(asApiError(err));
    }
  };

  const cell = (eid: string, hid: string): GridCell => {
    const c = assessment?.evidence.find((e) => e.id === eid)?.cells.find((x) => x.hypothesis === hid);
    if (!c) return { rating: null, mine: false, said: '', title: '' };
    const override = assessment?.overrides.filter((o) => o.evidence === eid && o.hypothesis === hid).at(-1);
    const at = edits.get(cellKey(eid, hid))?.at ?? override?.at ?? '';
    return {
      rating: c.rating,
      mine: c.source === 'override',
      said: c.source === 'override' ? ', your override' : `, from the ${c.source}`,
      title: override ? `Override by ${override.by} at ${at.slice(0, 19).replace('T', ' ')} UTC (was ${override.previous})` : `${RATING_WORDS[c.rating]} (${c.source})`,
    };
  };

  return (
    <div className="ach__grid">
      <section className="panel ach__matrix-panel" aria-label="Matrix" data-testid="ach-matrix">
        {head}
        <div className="row ach__actions">
          <button
            type="button"
            className="small"
            disabled={edits.size === 0}
            onClick={() => {
              setEdits(new Map());
              void score(new Map());
            }}
          >
            Clear overrides
          </button>
          <button type="button" className="small" disabled={!assessment} onClick={onEditCopy} title="Copy this matrix into the editor, to add, change or remove hypotheses and evidence rows" data-testid="edit-copy">
            Edit as your matrix
          </button>
          <span className="spacer" />
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
        {error && <ErrorNote error={error} title="The assessment failed" />}
        {saved && (
          <p className="ach__saved" role="status">
            {saved}
          </p>
        )}
        {!assessment && !error && (
          <p className="muted" role="status" data-testid="ach-scoring">
            Scoring the matrix…
          </p>
        )}
        {assessment && (
          <>
            {assessment.scenario.question && <p className="ach__question">{assessment.scenario.question}</p>}
            <p className="muted ach__help">
              Click a rating to cycle it, or focus it and press C, I, N (Shift for CC and II, A for NA) or 1–6; arrows move, Delete removes your override. Overrides are outlined and starred.
            </p>
            <MatrixGrid
              columns={(assessment.evidence[0]?.cells ?? []).map((c) => {
                const h = assessment.hypotheses.find((x) => x.id === c.hypothesis);
                return { id: c.hypothesis, name: h ? columnName(h) : c.hypothesis, title: h?.title ?? c.hypothesis, catchAll: h?.catch_all === true, leader: c.hypothesis === assessment.leader, ...(h ? { score: h.inconsistency } : {}) };
              })}
              rows={assessment.evidence.map((e) => ({ ...e, critical: assessment.sensitivity.some((s) => s.evidence === e.id && s.critical) }))}
              cell={cell}
              onRate={setRating}
            />
          </>
        )}
      </section>
      {assessment && <ResultsPanel assessment={assessment} reasons={{ of: (e, h) => edits.get(cellKey(e, h))?.reason ?? '', set: setReason }} />}
    </div>
  );
}
