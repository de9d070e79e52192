// The Heat map view: techniques by tactic in matrix order, of the extracted report or of the matrix's evidence.
import { useEffect, useRef, useState } from 'react';
import type { AchAssessment, ExtractResponse } from '../../../../engines/core/contracts/ach';
import type { TechniqueSummary } from '../../../../engines/core/contracts/attrib';
import type { ApiClient } from '../../api/client';
import { Progress } from '../../components/Progress';
import { useScrollEdges } from '../../components/useScrollEdges';
import { heat, heatmap, tacticTitle } from './model';

interface Props {
  readonly client: ApiClient;
  readonly base: string;
  readonly extraction: ExtractResponse | null;
  /** The matrix shown (its evidence's technique ids are looked up by the extractor: names and tactics from the KB). */
  readonly assessment: AchAssessment | null;
}

export function HeatmapView({ client, base, extraction, assessment }: Props) {
  const [heatOf, setHeatOf] = useState<'report' | 'scenario'>('report');
  const [scenarioTechniques, setScenarioTechniques] = useState<readonly TechniqueSummary[] | null>(null);
  const heatBox = useRef<HTMLDivElement>(null);
  const { edges, onScroll, onKeyDown } = useScrollEdges(heatBox);
  const ids = assessment ? [...new Set(assessment.evidence.flatMap((e) => e.techniques))].join('\n') : null;

  useEffect(() => {
    setScenarioTechniques(null);
    if (ids === null || (extraction && heatOf === 'report')) return;
    if (ids === '') {
      setScenarioTechniques([]);
      return;
    }
    let live = true;
    void (async () => {
      try {
        const r = await client.post<ExtractResponse>(`${base}/extract`, { text: ids });
        if (live) setScenarioTechniques(r.extraction.technique_summary);
      } catch {
        if (live) setScenarioTechniques([]);
      }
    })();
    return () => {
      live = false;
    };
  }, [ids, extraction, heatOf, client, base]);

  const fromReport = extraction !== null && heatOf === 'report';
  const heatSource = (fromReport ? extraction.extraction.technique_summary : scenarioTechniques) ?? [];
  const map = heatmap(heatSource);

  return (
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
      {/* The matrix's techniques are looked up by an extraction job, which may wait in the queue: until it answers, say so. */}
      {!fromReport && ids !== null && scenarioTechniques === null ? (
        <div className="row ach__heat-loading" data-testid="heatmap-loading">
          <span className="muted">Looking up the techniques of the matrix's evidence…</span>
          <Progress label="Technique lookup" />
        </div>
      ) : (
        <p className="muted" data-testid="heatmap-legend">
          {heatSource.length === 0
            ? 'No techniques yet: extract a report, or choose a scenario whose evidence names techniques.'
            : `Each technique sits under its tactics; the number by a tactic counts its techniques. A cell's colour deepens with how often the technique is named (×n beside it when more than once; ${map.max === 1 ? 'here each is named once, so all are alike' : `at most ${map.max} times here`}).`}
        </p>
      )}
      {/* The columns scroll sideways when the panel is narrower than they are: a fade on the edge that hides more, and
          the box takes the focus so ← → Home End scroll it. */}
      <div
        ref={heatBox}
        className={`ach__heat${edges.left ? ' ach__heat--more-left' : ''}${edges.right ? ' ach__heat--more-right' : ''}`}
        data-testid="heatmap-columns"
        role="region"
        aria-label={edges.left || edges.right ? 'Tactic columns (scroll sideways with ← and →)' : 'Tactic columns'}
        tabIndex={edges.left || edges.right ? 0 : undefined}
        onScroll={onScroll}
        onKeyDown={onKeyDown}
      >
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
  );
}
