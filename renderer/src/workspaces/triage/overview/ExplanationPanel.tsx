// Why the score: the model's contributions summed into families an analyst reads (imports used for a capability, section entropy,
// strings, header, byte distribution), each with this file's evidence. The feature-level drivers stay one click away.
import type { TriageResult } from '../../../../../engines/core/contracts/petriage';
import { signed } from '../model';
import { DriversPanel } from '../Views';
import { displayProse } from '../../../components/wording';

const SHOWN = 6;

export function ExplanationPanel({ result }: { readonly result: TriageResult }) {
  const fams = result.explanation.families;
  const top = fams.slice(0, SHOWN);
  const scale = Math.max(1e-9, ...top.map((f) => Math.abs(f.contribution)));
  return (
    <section className="panel" aria-label="Why this score" data-testid="triage-explanation">
      <div className="panel__head">
        <h2>Why this score</h2>
        <span className="legend">
          <span className="swatch swatch--ben" /> towards benign <span className="swatch swatch--mal" /> towards malicious
        </span>
      </div>
      {top.length === 0 ? (
        <p className="muted">No feature moved the score from the model’s base value.</p>
      ) : (
        <ol className="families">
          {top.map((f) => {
            const w = (Math.abs(f.contribution) / scale) * 100;
            return (
              <li key={f.id} className="family" data-family={f.id}>
                <div className="family__head">
                  <strong className="family__title">{f.name}</strong>
                  <span className="dbar" aria-hidden="true">
                    <span className="dbar__half dbar__half--neg">{f.contribution < 0 && <span className="dbar__fill dbar__fill--ben" style={{ width: `${w}%` }} />}</span>
                    <span className="dbar__axis" />
                    <span className="dbar__half">{f.contribution >= 0 && <span className="dbar__fill dbar__fill--mal" style={{ width: `${w}%` }} />}</span>
                  </span>
                  <span className={`num ${f.contribution >= 0 ? 'mal' : 'ben'}`} title={`${f.features} feature${f.features === 1 ? '' : 's'}`}>
                    {signed(f.contribution)}
                  </span>
                </div>
                <ul className="family__ev">
                  {f.evidence.map((e) => (
                    <li key={e}>
                      <code>{displayProse(e)}</code>
                    </li>
                  ))}
                </ul>
              </li>
            );
          })}
        </ol>
      )}
      <p className="muted small-print">
        Each family sums the model’s contributions (log-odds) of its features; {fams.length > SHOWN ? `${fams.length - SHOWN} smaller families not shown; ` : ''}all families together with the base {signed(result.drivers.baseValue)} give the margin {signed(result.drivers.margin)}.
      </p>
      <details className="drivers-raw">
        <summary>Feature-level drivers (for model work)</summary>
        <DriversPanel result={result} />
      </details>
    </section>
  );
}
