// The matrix an analyst builds by hand: hypotheses and evidence rows added, edited, rated and removed here; Run (Ctrl+Enter)
// sends them inline to POST /ach and shows the service's ranking, marked stale as soon as anything changes.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import type { AchAssessment, AchRating } from '../../../../engines/core/contracts/ach';
import type { ApiClient, ApiError } from '../../api/client';
import { asApiError } from '../../api/client';
import { downloadJson } from '../../components/download';
import { ErrorNote } from '../../components/ErrorNote';
import { useFocusWhenLost } from '../../components/useDialogFocus';
import { addEvidence, addHypothesis, draftProblems, draftRequest, draftScenario, editEvidence, editHypothesis, isCatchAll, isStale, rate, removeEvidence, removeHypothesis, setHeading, LIMITS, type Draft, type Result } from './draft';
import { draftStore } from './draftStore';
import { EvidenceDialog, HypothesisDialog } from './EditorForms';
import { MatrixGrid, type GridCell, type GridColumn } from './MatrixGrid';
import { cellKey, columnName, RATING_WORDS } from './model';
import { ResultsPanel } from './ResultsPanel';

type Editing = { readonly kind: 'hypothesis' | 'evidence'; readonly id?: string } | null;

interface Props {
  readonly client: ApiClient;
  readonly base: string;
  readonly analyst: string;
  /** The ranking shown (the heat map reads its evidence). */
  readonly onAssessment: (a: AchAssessment | null) => void;
}

const slug = (title: string): string => title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 40) || 'matrix';

export function DraftMatrix({ client, base, analyst, onAssessment }: Props) {
  const draft = useStore(draftStore, (s) => s.draft);
  const run = useStore(draftStore, (s) => s.run);
  const [editing, setEditing] = useState<Editing>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const stale = isStale(draft, run?.revision ?? null);
  const problems = draftProblems(draft);
  const assessment = run?.assessment ?? null;

  useEffect(() => onAssessment(assessment), [assessment, onAssessment]);

  const change = (d: Draft): void => {
    draftStore.getState().set(d);
    setSaved(null);
  };
  const apply = (r: Result): string | null => {
    if ('error' in r) return r.error;
    change(r.draft);
    setEditing(null);
    return null;
  };

  const runIt = useCallback(
    async (record = false): Promise<void> => {
      const d = draftStore.getState().draft;
      if (draftProblems(d).length > 0 || running) return;
      setRunning(true);
      try {
        const a = await client.post<AchAssessment>(`${base}/ach`, draftRequest(d, analyst, record));
        draftStore.getState().setRun({ assessment: a, revision: d.revision });
        setRuns((n) => (n ?? 0) + 1);
        setError(null);
        if (record) setSaved(`Recorded at ${a.assessed_at.slice(0, 19).replace('T', ' ')} UTC: the assessment is in the TAXII assessments collection.`);
      } catch (err) {
        setError(asApiError(err));
      } finally {
        setRunning(false);
      }
    },
    [client, base, analyst, running],
  );

  const exportStix = async (): Promise<void> => {
    try {
      downloadJson(await client.post<unknown>(`${base}/stix`, draftRequest(draft, analyst)), `ach-${slug(draft.title)}.stix.json`);
    } catch (err) {
      setError(asApiError(err));
    }
  };

  // Run is disabled while it runs: the ranking takes the focus once the answer shows (a ranking kept from before the page
  // loaded takes none).
  const ranking = useRef<HTMLDivElement>(null);
  const [runs, setRuns] = useState<number | null>(null);
  useFocusWhenLost(ranking, runs);
  // A removed row or column took its focused name with it: Add evidence takes the focus instead.
  const addEvidenceButton = useRef<HTMLButtonElement>(null);
  const [removals, setRemovals] = useState<number | null>(null);
  useFocusWhenLost(addEvidenceButton, removals);
  const removed = (d: Draft): void => {
    change(d);
    setEditing(null);
    setRemovals((n) => (n ?? 0) + 1);
  };

  const columns = draft.hypotheses.map((h): GridColumn => {
    const score = assessment?.hypotheses.find((x) => x.id === h.id)?.inconsistency;
    return {
      id: h.id,
      name: columnName({ id: h.id, title: h.title, ...(h.actor ? { actor: { name: h.actor.name } } : {}), catch_all: isCatchAll(h.id) }),
      title: h.actor ? `${h.title} (${h.actor.id})` : h.title,
      catchAll: isCatchAll(h.id),
      leader: !stale && assessment?.leader === h.id,
      ...(score !== undefined ? { score } : {}),
    };
  });
  const rows = draft.evidence.map((e) => {
    const r = assessment?.evidence.find((x) => x.id === e.id);
    return { ...e, ...(r ? { weight: r.weight, diagnosticity: r.diagnosticity } : {}), critical: !stale && assessment?.sensitivity.some((s) => s.evidence === e.id && s.critical) === true };
  });
  const cell = (eid: string, hid: string): GridCell => {
    const mine = draft.ratings[cellKey(eid, hid)];
    if (mine !== undefined) return { rating: mine, mine: true, said: ', your rating', title: `${RATING_WORDS[mine]} (your rating; Delete clears it)` };
    const served = assessment?.evidence.find((x) => x.id === eid)?.cells.find((c) => c.hypothesis === hid);
    if (served && served.source !== 'scenario') {
      // The service's rating of a cell the analyst left: kept while the matrix is stale (a Run may change it).
      const why = `${served.source === 'derived' ? "derived from the group's techniques" : 'neutral by default'}${stale ? ', at the last Run' : ''}`;
      return { rating: served.rating, mine: false, said: `, ${why}`, title: `${RATING_WORDS[served.rating]} (${why}; rate it to decide)` };
    }
    return { rating: null, mine: false, said: '', title: 'Not rated: Run derives it from a group\'s techniques, else takes it as neutral' };
  };
  const editingHypothesis = editing?.kind === 'hypothesis' && editing.id !== undefined ? draft.hypotheses.find((h) => h.id === editing.id) : undefined;
  const editingEvidence = editing?.kind === 'evidence' && editing.id !== undefined ? draft.evidence.find((e) => e.id === editing.id) : undefined;

  return (
    <div
      className="ach__grid"
      onKeyDown={(e) => {
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && editing === null) {
          e.preventDefault();
          void runIt();
        }
      }}
    >
      <section className="panel ach__matrix-panel" aria-label="Your matrix" data-testid="ach-draft">
        <div className="ach__draft-head">
          <label>
            Title <input type="text" value={draft.title} maxLength={LIMITS.matrixTitle} onChange={(e) => change(setHeading(draft, e.target.value, draft.question))} aria-label="Matrix title" data-testid="draft-title" />
          </label>
          <label>
            Question <input type="text" value={draft.question} maxLength={LIMITS.question} onChange={(e) => change(setHeading(draft, draft.title, e.target.value))} aria-label="Intelligence question" data-testid="draft-question" />
          </label>
        </div>
        <div className="row ach__actions">
          <button type="button" className="small" onClick={() => setEditing({ kind: 'hypothesis' })} disabled={draft.hypotheses.length >= LIMITS.hypotheses} data-testid="add-hypothesis">
            Add hypothesis
          </button>
          <button type="button" className="small" ref={addEvidenceButton} onClick={() => setEditing({ kind: 'evidence' })} disabled={draft.evidence.length >= LIMITS.evidence} data-testid="add-evidence">
            Add evidence
          </button>
          <span className="muted ach__count">
            {draft.hypotheses.length} / {LIMITS.hypotheses} hypotheses · {draft.evidence.length} / {LIMITS.evidence} rows
          </span>
          <span className="spacer" />
          <button type="button" className="small" onClick={() => downloadJson(draftScenario(draft), `ach-${slug(draft.title)}.json`)} title="A vitrine-ach/1 scenario file: Open scenario… takes it back" data-testid="draft-save">
            Save file
          </button>
          <button type="button" className="small" disabled={problems.length > 0} onClick={() => void exportStix()} data-testid="draft-export-stix">
            Export STIX
          </button>
          <button type="button" className="small" disabled={!assessment || stale} onClick={() => assessment && downloadJson(assessment, `ach-${slug(draft.title)}.assessment.json`)}>
            Export JSON
          </button>
          <button type="button" className="small" disabled={problems.length > 0 || running} onClick={() => void runIt(true)} title="Run and keep the assessment in the TAXII assessments collection" data-testid="draft-record">
            Record
          </button>
          <button type="button" className="primary" disabled={problems.length > 0 || running} onClick={() => void runIt()} data-testid="draft-run">
            {running ? 'Running…' : stale && run ? 'Run again (Ctrl+Enter)' : 'Run (Ctrl+Enter)'}
          </button>
        </div>
        {problems.map((p) => (
          <p key={p} className="ach__problem" role="status" data-testid="draft-problem">
            {p}
          </p>
        ))}
        {error && <ErrorNote error={error} title={error.status === 422 ? 'The service refused the matrix' : 'The run failed'} />}
        {saved && (
          <p className="ach__saved" role="status">
            {saved}
          </p>
        )}
        {draft.hypotheses.length === 0 && draft.evidence.length === 0 ? (
          <p className="muted">An empty matrix: add the hypotheses that could explain the activity (a group from the knowledge base, or your own words), then the evidence rows.</p>
        ) : (
          <>
            <p className="muted ach__help">
              Focus a rating and press C, I or N (Shift+C very consistent, Shift+I very inconsistent, A not applicable, 1–6 the six in order); Delete clears yours; arrows move, to the row and column names too, where Enter edits. Your ratings are starred; the rest the service derives from a group&apos;s techniques, else neutral.
            </p>
            {draft.evidence.length === 0 && <p className="muted">No evidence rows yet: Add evidence.</p>}
            <MatrixGrid
              columns={columns}
              rows={rows}
              cell={cell}
              stale={stale && run !== null}
              onRate={(eid, hid, r: AchRating | null) => change(rate(draft, eid, hid, r))}
              onEditRow={(id) => setEditing({ kind: 'evidence', id })}
              onEditColumn={(id) => setEditing({ kind: 'hypothesis', id })}
            />
          </>
        )}
      </section>
      <div ref={ranking} tabIndex={-1} className="ach__ranking-wrap" data-testid="draft-results">
        {assessment ? (
          <ResultsPanel assessment={assessment} stale={stale} />
        ) : (
          <section className="panel" aria-label="Scores">
            <div className="panel__head">
              <h2>Hypotheses</h2>
            </div>
            <p className="muted">Not run yet.{problems.length > 0 ? '' : ' Press Run (Ctrl+Enter): the service ranks the hypotheses, least inconsistent first.'}</p>
          </section>
        )}
      </div>
      {editing?.kind === 'hypothesis' && (
        <HypothesisDialog
          client={client}
          base={base}
          {...(editingHypothesis ? { editing: editingHypothesis } : {})}
          onSubmit={(h) => apply(editingHypothesis ? editHypothesis(draft, editingHypothesis.id, h.title) : addHypothesis(draft, h))}
          {...(editingHypothesis
            ? {
                onRemove: () => removed(removeHypothesis(draft, editingHypothesis.id)),
              }
            : {})}
          onClose={() => setEditing(null)}
        />
      )}
      {editing?.kind === 'evidence' && (
        <EvidenceDialog
          {...(editingEvidence ? { editing: editingEvidence } : {})}
          onSubmit={(f) => apply(editingEvidence ? editEvidence(draft, editingEvidence.id, f) : addEvidence(draft, f))}
          {...(editingEvidence
            ? {
                onRemove: () => removed(removeEvidence(draft, editingEvidence.id)),
              }
            : {})}
          onClose={() => setEditing(null)}
        />
      )}
    </div>
  );
}
