// The leading hypothesis in words of estimative probability, with the numbers behind the words.
import type { RefObject } from 'react';
import type { Assessment, AssessmentWarning } from '../../../../engines/core/contracts/caseassess';
import { hypothesisLabel, percent } from './model';
import { counted } from '../../components/wording';

/** Warnings that change how the result reads (evidence that was not scored at all): shown open, not folded away. */
const READING: ReadonlySet<AssessmentWarning['code']> = new Set(['no_scored_evidence', 'unknown_technique', 'revoked_technique', 'newer_technique', 'unknown_software', 'unknown_sector', 'unknown_region']);

function warningList(list: readonly AssessmentWarning[]) {
  return (
    <ul>
      {list.map((w, i) => (
        <li key={i}>
          {w.evidence_id && <code>{w.evidence_id}</code>} {w.message}
        </li>
      ))}
    </ul>
  );
}

/** The folded notes that do not change the reading, and what the assessment ran against. */
function NotesAndSource({ assessment, other }: { readonly assessment: Assessment; readonly other: readonly AssessmentWarning[] }) {
  return (
    <>
      {other.length > 0 && (
        <details className="warnings">
          <summary>
            {other.length} other note{other.length === 1 ? '' : 's'}
          </summary>
          {warningList(other)}
        </details>
      )}
      <div className="muted leading__kg">
        {assessment.kg.source}
        {assessment.kg.attack_version ? ` ${assessment.kg.attack_version}` : ''} · {counted(assessment.kg.actor_count, 'actor')} · method {assessment.method} · case{' '}
        <code title={assessment.case_sha256}>{assessment.case_sha256.slice(0, 12)}</code>
      </div>
    </>
  );
}

/** `headingRef` is set on the headline's heading (focusable by script), which takes focus after a run from the keyboard. */
export function ResultSummary({ assessment, headingRef }: { readonly assessment: Assessment; readonly headingRef?: RefObject<HTMLHeadingElement | null> }) {
  const { leading, confidence, gap } = assessment;
  const second = assessment.alternatives.find((h) => h.attack_id === gap.second_attack_id);
  const reading = assessment.warnings.filter((w) => READING.has(w.code));
  const other = assessment.warnings.filter((w) => !READING.has(w.code));
  if (confidence.insufficient) {
    // The headline and its reason already say that nothing scored: the list names only the items that were not scored.
    const notScored = reading.filter((w) => w.code !== 'no_scored_evidence');
    return (
      <section className="panel leading leading--insufficient" aria-label="Assessment" data-testid="leading-hypothesis" data-insufficient="true">
        <div className="leading__top">
          <div>
            <h3 tabIndex={-1} ref={headingRef}>
              Assessment
            </h3>
            <div className="leading__name" data-testid="confidence-words">
              Insufficient evidence
            </div>
            <div className="muted">No actor is more likely than another on this case; no probability is given.</div>
          </div>
          <div className="words words--low">
            <div className="words__text">no reading</div>
            <div className="muted">low analytic confidence</div>
          </div>
        </div>
        <p className="leading__statement">{confidence.insufficient.reason}</p>
        <div className="leading__help">
          <strong>What would help</strong>
          <ul data-testid="would-help">
            {confidence.insufficient.would_help.map((h) => (
              <li key={h}>{h}</li>
            ))}
          </ul>
        </div>
        {notScored.length > 0 && (
          <div className="warnings warnings--open" role="note">
            <strong>Not scored</strong>
            {warningList(notScored)}
          </div>
        )}
        <NotesAndSource assessment={assessment} other={other} />
      </section>
    );
  }
  return (
    <section className="panel leading" aria-label="Leading hypothesis" data-testid="leading-hypothesis" data-attack-id={leading.attack_id}>
      <div className="leading__top">
        <div>
          <h3 tabIndex={-1} ref={headingRef}>
            Leading hypothesis
          </h3>
          <div className="leading__name">
            {hypothesisLabel(leading)}
            {leading.kind === 'actor' && <span className="muted leading__id">{leading.attack_id}</span>}
          </div>
          <div className="muted">
            {leading.sponsor_state ? `Suspected sponsor: ${leading.sponsor_state}` : 'No sponsor state in ATT&CK'}
            {leading.aliases.length > 0 && ` · also ${leading.aliases.slice(0, 4).join(', ')}${leading.aliases.length > 4 ? '…' : ''}`}
          </div>
        </div>
        <div className={`words words--${confidence.analytic_confidence}`}>
          <div className="words__text" data-testid="confidence-words">
            {confidence.words}
          </div>
          <div className="muted">{confidence.analytic_confidence} analytic confidence</div>
        </div>
      </div>
      <p className="leading__statement">{confidence.statement}</p>
      <dl className="facts">
        <div>
          <dt>Probability</dt>
          <dd>
            {percent(confidence.probability)} <span className="muted">(band {percent(confidence.band[0])}–{percent(confidence.band[1])})</span>
          </dd>
        </div>
        <div>
          <dt>Score</dt>
          <dd>
            {leading.score.toFixed(2)} <span className="muted">= {leading.support.toFixed(2)} support − {leading.contradiction.toFixed(2)} against</span>
          </dd>
        </div>
        <div>
          <dt>Gap to second</dt>
          <dd>
            {gap.score.toFixed(2)} score, {percent(gap.probability)}
            {second && <span className="muted"> ({hypothesisLabel(second)})</span>}
          </dd>
        </div>
        <div>
          <dt>Unlisted actor</dt>
          <dd>{percent(confidence.unlisted_probability)}</dd>
        </div>
        <div>
          <dt>Evidence weight</dt>
          <dd>{confidence.evidence_weight.toFixed(2)}</dd>
        </div>
        <div>
          <dt>Hypotheses scored</dt>
          <dd>{assessment.hypotheses_scored}</dd>
        </div>
      </dl>
      {reading.length > 0 && (
        <div className="warnings warnings--open" role="note" data-testid="reading-warnings">
          <strong>
            {reading.length} item{reading.length === 1 ? '' : 's'} not scored: the reading above leaves {reading.length === 1 ? 'it' : 'them'} out
          </strong>
          {warningList(reading)}
        </div>
      )}
      <NotesAndSource assessment={assessment} other={other} />
    </section>
  );
}
