// The evidence-by-actor heat map: rows are the case's evidence, columns the top hypotheses, cells coloured by contribution.
import type { Assessment } from '../../../../engines/core/contracts/caseassess';
import { cellShade, cellText, evidenceMatrix, hypothesisLabel, signed } from './model';
import { agreeing, counted } from '../../components/wording';

const STATUS_WORDS = { scored: 'scored', unknown: 'not in the knowledge graph', not_scored: 'not scored' } as const;

export function EvidenceMatrix({ assessment, columns }: { readonly assessment: Assessment; readonly columns: number }) {
  const m = evidenceMatrix(assessment, columns);
  return (
    <section className="panel" aria-label="Evidence by actor">
      <div className="panel__head">
        <h2>Evidence × actor</h2>
        <span className="muted">weight = how diagnostic (rare) the item is across all actors</span>
      </div>
      <div className="matrix-wrap">
        <table className="matrix" data-testid="evidence-matrix">
          <thead>
            <tr>
              <th scope="col">Evidence</th>
              <th scope="col" className="num">
                Weight
              </th>
              {m.columns.map((h) => (
                <th scope="col" key={h.attack_id} className="matrix__actor" title={`${hypothesisLabel(h)} (${h.attack_id})`}>
                  <span>{hypothesisLabel(h)}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {m.rows.map((r, i) => (
              <tr key={r.evidence_id} className={r.status === 'scored' ? '' : 'matrix__row--unscored'}>
                <th scope="row" className="matrix__ev" title={`${r.evidence_id} ${r.resolved_name ?? r.resolved_id ?? r.given} (${r.kind}: ${STATUS_WORDS[r.status]}; ${counted(r.actors_matching, 'actor')} ${agreeing(r.actors_matching, 'matches', 'match')})`}>
                  <code>{r.evidence_id}</code> <span>{r.resolved_name ?? r.resolved_id ?? r.given}</span>
                  <span className="muted"> {r.kind === 'technique' || r.kind === 'software' ? (r.resolved_id ?? '') : r.kind.replace('_', ' ')}</span>
                </th>
                <td className="num muted">{r.status === 'scored' ? r.weight.toFixed(2) : '–'}</td>
                {m.columns.map((h, j) => {
                  const v = m.cells[i]?.[j] ?? 0;
                  const shade = cellShade(v, m.max);
                  const bg = shade.tone === 'none' ? undefined : `color-mix(in srgb, var(--${shade.tone}) ${Math.round(12 + shade.strength * 68)}%, transparent)`;
                  return (
                    <td
                      key={h.attack_id}
                      className={`num matrix__cell${shade.strength > 0.6 ? ' matrix__cell--strong' : ''}`}
                      style={bg ? { background: bg } : undefined}
                      title={`${r.evidence_id} on ${hypothesisLabel(h)}: ${signed(v)}`}
                    >
                      {cellText(v)}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
