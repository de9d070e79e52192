// The service's answer beside the matrix: the hypotheses ranked (the strength badge with its rule, catch-all and untested
// ones labelled), the conclusion and warnings, the sensitivity of the leader, and the overrides with their reasons.
import type { AchAssessment } from '../../../../engines/core/contracts/ach';
import { displayProse } from '../../components/wording';
import { weightText } from './model';

interface Props {
  readonly assessment: AchAssessment;
  /** The matrix changed since the service ranked it: said at the top, the ranking dimmed until Run. */
  readonly stale?: boolean;
  /** The overrides' reasons (a scenario's matrix); absent for the hand-built matrix, whose ratings are the analyst's own. */
  readonly reasons?: { readonly of: (evidence: string, hypothesis: string) => string; readonly set: (evidence: string, hypothesis: string, reason: string) => void };
}

export function ResultsPanel({ assessment, stale = false, reasons }: Props) {
  const maxInc = Math.max(0.0001, ...assessment.hypotheses.map((h) => h.inconsistency));
  return (
    <div className={`ws-column ach__side${stale ? ' ach__side--stale' : ''}`}>
      <section className="panel" aria-label="Scores" data-testid="ach-scores">
        <div className="panel__head">
          <h2>Hypotheses</h2>
          <span className={`ach__strength ach__strength--${assessment.strength}`} title={assessment.strength_rule} data-testid="ach-strength">
            {assessment.strength}
          </span>
        </div>
        {stale && (
          <p className="ach__stale" role="status" data-testid="ach-stale">
            Stale: the matrix changed since this ranking. Run it again (Ctrl+Enter).
          </p>
        )}
        {assessment.strength_rule && (
          <p className="muted ach__strength-rule" data-testid="ach-strength-rule">
            <strong>{assessment.strength}</strong>: {assessment.strength_rule}
          </p>
        )}
        <ol className="ach__ranking" data-testid="ach-ranking">
          {assessment.hypotheses.map((h) => (
            <li key={h.id} className={h.id === assessment.leader ? 'ach__rank ach__rank--leader' : 'ach__rank'}>
              <span className="ach__rank-title">
                {h.rank}. <strong>{h.id}</strong> {h.title}
                {h.catch_all === true && (
                  <span className="ach__tag" title="Stands for every actor (or explanation) not named as a hypothesis: rate it like the others">
                    catch-all
                  </span>
                )}
                {h.untested === true && (
                  <span className="ach__tag ach__tag--untested" title="No evidence is rated consistent or inconsistent with it: ranked after the tested hypotheses">
                    no evidence rated
                  </span>
                )}
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
      {reasons && assessment.overrides.length > 0 && (
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
                  defaultValue={reasons.of(o.evidence, o.hypothesis)}
                  data-testid={`reason-${o.evidence}-${o.hypothesis}`}
                  onBlur={(e) => reasons.set(o.evidence, o.hypothesis, e.target.value)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') reasons.set(o.evidence, o.hypothesis, e.currentTarget.value);
                  }}
                />
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
