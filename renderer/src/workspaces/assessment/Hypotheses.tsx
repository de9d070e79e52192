// Ranked hypotheses with diverging contribution bars: support grows right of zero, evidence against grows left.
import { useState } from 'react';
import type { Assessment, Hypothesis } from '../../../../engines/core/contracts/caseassess';
import { barScale, barSegments, hypothesisLabel, matchesFilter, percent, signed } from './model';
import { counted } from '../../components/wording';

const MATCH_WORDS: Record<string, string> = {
  exact: 'exact match',
  related: 'related technique',
  region: 'region contains',
  within: 'active then',
  outside: 'not active then',
  victimology_mismatch: 'victimology mismatch',
  absent: 'not known to use',
  unlisted: 'unlisted share',
  base: 'not from one piece of evidence (prior)',
};

function segmentTitle(s: { evidence_id: string; match: string; value: number }): string {
  return `${s.evidence_id ? `${s.evidence_id}: ` : ''}${MATCH_WORDS[s.match] ?? s.match} ${signed(s.value)}`;
}

function Bar({ h, support, against }: { readonly h: Hypothesis; readonly support: number; readonly against: number }) {
  const positive = barSegments(h, support).positive;
  const negative = barSegments(h, against).negative;
  // Each half is as wide as its largest total, so one unit has the same length on both sides of zero.
  return (
    <div className="cbar" aria-hidden="true" style={{ gridTemplateColumns: `${against}fr 1px ${support}fr` }}>
      <div className="cbar__half cbar__half--neg">
        {negative.map((s) => (
          <span
            key={`${s.evidence_id}-${s.match}`}
            className={`cbar__seg cbar__seg--neg${s.match === 'base' ? ' cbar__seg--base' : ''}`}
            style={{ right: `${s.start * 100}%`, width: `${s.width * 100}%` }}
            title={segmentTitle(s)}
          />
        ))}
      </div>
      <div className="cbar__axis" />
      <div className="cbar__half cbar__half--pos">
        {positive.map((s) => (
          <span
            key={`${s.evidence_id}-${s.match}`}
            className={`cbar__seg cbar__seg--pos${s.match === 'base' ? ' cbar__seg--base' : ''}`}
            style={{ left: `${s.start * 100}%`, width: `${s.width * 100}%` }}
            title={segmentTitle(s)}
          />
        ))}
      </div>
    </div>
  );
}

function Contributions({ h }: { readonly h: Hypothesis }) {
  const base = [...barSegments(h, 1).positive, ...barSegments(h, 1).negative].filter((seg) => seg.match === 'base');
  return (
    <table className="contrib">
      <thead>
        <tr>
          <th>Evidence</th>
          <th>Kind</th>
          <th>How it bears</th>
          <th className="num">Contribution</th>
        </tr>
      </thead>
      <tbody>
        {h.contributions.map((c) => (
          <tr key={`${c.evidence_id}-${c.match}`}>
            <td>
              <code>{c.evidence_id}</code>
            </td>
            <td>{c.kind.replace('_', ' ')}</td>
            <td>{MATCH_WORDS[c.match] ?? c.match}</td>
            <td className={`num ${c.value >= 0 ? 'pos' : 'neg'}`}>{signed(c.value)}</td>
          </tr>
        ))}
        {base.map((b) => (
          <tr key={`base-${b.value > 0 ? 'pos' : 'neg'}`}>
            <td className="muted">–</td>
            <td className="muted">prior</td>
            <td>{MATCH_WORDS['base']}</td>
            <td className={`num ${b.value >= 0 ? 'pos' : 'neg'}`}>{signed(b.value)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function Hypotheses({ assessment, ranked, filter }: { readonly assessment: Assessment; readonly ranked: readonly Hypothesis[]; readonly filter: string }) {
  const [open, setOpen] = useState<string | null>(null);
  const support = barScale(ranked, 'support');
  const against = barScale(ranked, 'contradiction');
  const shown = ranked.filter((h) => matchesFilter(h, filter));
  return (
    <section className="panel" aria-label="Ranked hypotheses">
      <div className="panel__head">
        <h2>Ranked hypotheses</h2>
        <span className="legend">
          <span className="swatch swatch--neg" /> against <span className="swatch swatch--pos" /> supports <span className="swatch swatch--base" /> prior
        </span>
      </div>
      {shown.length === 0 ? (
        <p className="muted">No hypothesis matches the filter.</p>
      ) : (
        <ol className="hyps" data-testid="ranked-hypotheses">
          {shown.map((h) => {
            const isOpen = open === h.attack_id;
            return (
              <li key={h.attack_id} className={h.rank === 1 ? 'hyp hyp--lead' : 'hyp'} data-attack-id={h.attack_id} data-rank={h.rank}>
                <button
                  type="button"
                  className="hyp__row"
                  aria-expanded={isOpen}
                  onClick={() => setOpen(isOpen ? null : h.attack_id)}
                  title="Show each piece of evidence's contribution"
                >
                  <span className="hyp__rank">{h.rank}</span>
                  <span className="hyp__name">
                    {hypothesisLabel(h)} {h.kind === 'actor' && <span className="muted">{h.attack_id}</span>}
                  </span>
                  <Bar h={h} support={support} against={against} />
                  <span className="hyp__num" title="Normalised score (not a calibrated probability)">
                    {percent(h.probability)}
                  </span>
                  <span className="hyp__num muted" title="support − against">
                    {h.score.toFixed(2)}
                  </span>
                </button>
                {isOpen && <Contributions h={h} />}
              </li>
            );
          })}
        </ol>
      )}
      {assessment.alternatives.length > 0 && <p className="muted small-print">Probabilities are normalised scores across {counted(assessment.hypotheses_scored, 'hypothesis', 'hypotheses')}, not calibrated odds.</p>}
    </section>
  );
}
