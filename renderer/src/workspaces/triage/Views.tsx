// The triage result's panels: verdict and score against the thresholds, drivers, capabilities, family, sections, exports.
import type { CapabilityEvidence, TriageResult } from '../../../../engines/core/contracts/petriage';
import { driverLabel, driverScale, formatBytes, hex, HIGH_ENTROPY, matches, percent, sectionAccess, sectionContent, signed } from './model';

const TABLE_ROWS = 500;

export function VerdictPanel({ result, fileLabel }: { readonly result: TriageResult; readonly fileLabel: string }) {
  const { thresholds, score, verdict } = result;
  return (
    <section className="panel verdict" aria-label="Verdict" data-testid="triage-verdict" data-verdict={verdict}>
      <div className="verdict__top">
        <div>
          <h3>Verdict</h3>
          <div className={`verdict__word verdict__word--${verdict.toLowerCase()}`} data-testid="verdict-word">
            {verdict}
          </div>
          <div className="muted">
            {verdict === 'BENIGN' ? 'Below the suspicious threshold: the model found nothing that reaches it (not a proof of safety).' : verdict === 'SUSPICIOUS' ? 'Between the suspicious and malicious thresholds.' : 'At or above the malicious threshold.'}
          </div>
        </div>
        <div className="verdict__score">
          <div className="verdict__num" data-testid="triage-score">
            {score.toFixed(3)}
          </div>
          <div className="muted">score</div>
        </div>
      </div>
      <div className="scorebar" role="img" aria-label={`Score ${score.toFixed(3)}; suspicious from ${thresholds.suspicious}, malicious from ${thresholds.malicious}`}>
        <span className="scorebar__band scorebar__band--benign" style={{ width: `${thresholds.suspicious * 100}%` }} />
        <span className="scorebar__band scorebar__band--suspicious" style={{ left: `${thresholds.suspicious * 100}%`, width: `${(thresholds.malicious - thresholds.suspicious) * 100}%` }} />
        <span className="scorebar__band scorebar__band--malicious" style={{ left: `${thresholds.malicious * 100}%`, right: 0 }} />
        <span className="scorebar__mark" style={{ left: `${score * 100}%` }} />
      </div>
      <div className="scorebar__legend muted">
        <span>0</span>
        <span style={{ left: `${thresholds.suspicious * 100}%` }}>suspicious ≥ {thresholds.suspicious}</span>
        <span style={{ left: `${thresholds.malicious * 100}%` }}>malicious ≥ {thresholds.malicious}</span>
        <span style={{ left: '100%' }}>1</span>
      </div>
      <dl className="facts">
        <div>
          <dt>File</dt>
          <dd className="ellipsis" title={fileLabel}>
            {fileLabel}
          </dd>
        </div>
        <div>
          <dt>Size</dt>
          <dd>{formatBytes(result.size)}</dd>
        </div>
        <div>
          <dt>Format</dt>
          <dd>
            {result.pe.format}
            {result.pe.is_dll ? ' DLL' : ''}
            {result.pe.is_driver ? ' driver' : ''}
          </dd>
        </div>
        <div>
          <dt>Entropy</dt>
          <dd>{result.pe.entropy.toFixed(2)} bits/byte</dd>
        </div>
        <div>
          <dt>SHA-256</dt>
          <dd>
            <code className="selectable" title={result.sha256}>
              {result.sha256.slice(0, 16)}…
            </code>
          </dd>
        </div>
        <div>
          <dt>Imphash</dt>
          <dd>{result.pe.imphash ? <code className="selectable">{result.pe.imphash}</code> : <span className="muted">no imports</span>}</dd>
        </div>
      </dl>
      <div className="muted small-print">
        Model {result.model.type} ({result.model.format}, {result.model.featureLayout}) · attributions: {result.drivers.method}
      </div>
      {(result.notes.length > 0 || result.pe.notes.length > 0) && (
        <details className="warnings">
          <summary>
            {result.notes.length + result.pe.notes.length} note{result.notes.length + result.pe.notes.length === 1 ? '' : 's'}
          </summary>
          <ul>
            {[...result.notes, ...result.pe.notes].map((n, i) => (
              <li key={i}>{n}</li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

export function DriversPanel({ result }: { readonly result: TriageResult }) {
  const { items, baseValue, margin, rest } = result.drivers;
  const scale = driverScale(items);
  return (
    <section className="panel" aria-label="Drivers" data-testid="triage-drivers">
      <div className="panel__head">
        <h2>Drivers</h2>
        <span className="legend">
          <span className="swatch swatch--ben" /> towards benign <span className="swatch swatch--mal" /> towards malicious
        </span>
      </div>
      {items.length === 0 ? (
        <p className="muted">No feature moved the score.</p>
      ) : (
        <ol className="drivers">
          {items.map((d, i) => {
            const w = (Math.abs(d.contribution) / scale) * 100;
            const label = driverLabel(d);
            return (
              <li key={`${d.feature}-${i}`} className="driver" title={`${label}\nvalue ${d.value}\ncontribution ${signed(d.contribution)}`}>
                <span className="driver__name">
                  {d.tokens && d.tokens.length > 0 ? (
                    <>
                      {d.tokens.slice(0, 2).join(', ')}
                      {d.tokens.length > 2 ? ', …' : ''} <span className="muted">{d.feature.replace(/\s*\[.*$/, '')}</span>
                    </>
                  ) : (
                    d.feature
                  )}
                </span>
                <span className="dbar" aria-hidden="true">
                  <span className="dbar__half dbar__half--neg">{d.contribution < 0 && <span className="dbar__fill dbar__fill--ben" style={{ width: `${w}%` }} />}</span>
                  <span className="dbar__axis" />
                  <span className="dbar__half">{d.contribution >= 0 && <span className="dbar__fill dbar__fill--mal" style={{ width: `${w}%` }} />}</span>
                </span>
                <span className={`num ${d.contribution >= 0 ? 'mal' : 'ben'}`}>{signed(d.contribution)}</span>
              </li>
            );
          })}
        </ol>
      )}
      <p className="muted small-print">
        Contributions to the log-odds margin: base {signed(baseValue)} + listed + the rest ({signed(rest)}) = {signed(margin)}.
      </p>
    </section>
  );
}

function evidenceText(e: CapabilityEvidence): string {
  if (e.kind === 'import') return `${e.dll ? `${e.dll}!` : ''}${e.name}`;
  return e.value;
}

export function CapabilitiesPanel({ result, filter }: { readonly result: TriageResult; readonly filter: string }) {
  const caps = result.capabilities.filter((c) => matches(filter, c.name, c.tag, c.technique.id, c.technique.name, ...c.evidence.map(evidenceText)));
  return (
    <section className="panel" aria-label="Capabilities" data-testid="triage-capabilities">
      <div className="panel__head">
        <h2>Capabilities</h2>
        <span className="muted">{result.capabilities.length} found</span>
      </div>
      {result.capabilities.length === 0 ? (
        <p className="muted">No capability rule matched this file's imports or strings.</p>
      ) : caps.length === 0 ? (
        <p className="muted">No capability matches the filter.</p>
      ) : (
        <ul className="caps">
          {caps.map((c) => (
            <li key={c.id} className="cap">
              <div className="cap__head">
                <code className="cap__tech" title={c.technique.name}>
                  {c.technique.id}
                </code>
                <strong>{c.name}</strong>
                <span className="muted">
                  {c.technique.name} · {c.tag}
                </span>
              </div>
              <ul className="cap__evidence">
                {c.evidence.map((e, i) => (
                  <li key={i}>
                    <span className="muted">{e.kind}</span> <code>{evidenceText(e)}</code>
                    {e.kind !== 'import' && e.offset !== null && <span className="muted"> at {hex(e.offset)}</span>}
                    {e.kind !== 'import' && e.encoding === 'utf16le' && <span className="muted"> (UTF-16)</span>}
                  </li>
                ))}
                {c.evidenceCount > c.evidence.length && <li className="muted">and {c.evidenceCount - c.evidence.length} more</li>}
              </ul>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function FamilyPanel({ result }: { readonly result: TriageResult }) {
  const fam = result.family;
  return (
    <section className="panel" aria-label="Known family" data-testid="triage-family">
      <div className="panel__head">
        <h2>Known family</h2>
      </div>
      {fam ? (
        <>
          <div>
            <strong className="family__name">{fam.name}</strong> <span className="muted">similarity {percent(fam.similarity)}</span>
          </div>
          <ul className="family__evidence" aria-label="Shared evidence">
            {fam.evidence.map((t) => (
              <li key={`${t.kind}-${t.value}`}>
                <span className="muted">{t.kind}</span> <code>{t.value}</code> <span className="muted">in {percent(t.share)} of the family</span>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="muted">No known family is similar enough to name.</p>
      )}
      {result.familyScores.length > 0 && (
        <div className="muted small-print">
          Nearest: {result.familyScores.map((f) => `${f.name} ${percent(f.similarity)}`).join(' · ')}
        </div>
      )}
    </section>
  );
}

export function SectionsPanel({ result }: { readonly result: TriageResult }) {
  const sections = result.pe.sections;
  return (
    <section className="panel" aria-label="Sections" data-testid="triage-sections">
      <div className="panel__head">
        <h2>Sections</h2>
        <span className="legend">
          entropy 0–8 bits/byte; <span className="swatch swatch--high" /> ≥ {HIGH_ENTROPY} (packed or encrypted)
        </span>
      </div>
      {sections.length === 0 ? (
        <p className="muted">The file has no sections.</p>
      ) : (
        <table className="dense sections">
          <thead>
            <tr>
              <th>Name</th>
              <th className="sections__chart">Entropy</th>
              <th className="num">Virtual address</th>
              <th className="num">Virtual size (bytes)</th>
              <th className="num">Raw size (bytes)</th>
              <th title="r, w, x: readable, writable, executable; then what it holds (hover for every flag)">Access</th>
            </tr>
          </thead>
          <tbody>
            {sections.map((s) => (
              <tr key={s.index}>
                <td>
                  <code>{s.name || '(no name)'}</code>
                </td>
                <td className="sections__chart">
                  <div className="ebar__row">
                    <span className="ebar" aria-hidden="true">
                      {s.entropy !== null && <span className={`ebar__fill${s.entropy >= HIGH_ENTROPY ? ' ebar__fill--high' : ''}`} style={{ width: `${(s.entropy / 8) * 100}%` }} />}
                      <span className="ebar__mark" style={{ left: `${(HIGH_ENTROPY / 8) * 100}%` }} />
                    </span>
                    <span className="num ebar__num">{s.entropy === null ? '–' : s.entropy.toFixed(2)}</span>
                  </div>
                </td>
                <td className="num">
                  <code>{hex(s.virtual_address)}</code>
                </td>
                <td className="num">{s.virtual_size.toLocaleString('en')}</td>
                <td className="num">{s.raw_size.toLocaleString('en')}</td>
                <td className="sections__flags" title={s.flags.join(' ')}>
                  <code>{sectionAccess(s.flags)}</code> <span className="muted">{sectionContent(s.flags)}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function ExportsPanel({ result, filter }: { readonly result: TriageResult; readonly filter: string }) {
  const exp = result.pe.exports;
  const all = exp?.symbols ?? [];
  const rows = all.filter((s) => matches(filter, s.name, s.forwarder, String(s.ordinal)));
  return (
    <section className="panel" aria-label="Exports" data-testid="triage-exports">
      <div className="panel__head">
        <h2>Exports</h2>
        <span className="muted">{exp ? `${exp.dll_name || '(no name)'} · ${filter ? `${rows.length} of ${all.length}` : all.length}` : 'none'}</span>
      </div>
      {all.length === 0 ? (
        <p className="muted">The file exports nothing.</p>
      ) : rows.length === 0 ? (
        <p className="muted">No export matches the filter.</p>
      ) : (
        <div className="table-scroll">
          <table className="dense">
            <thead>
              <tr>
                <th className="num">Ordinal</th>
                <th>Name</th>
                <th className="num">RVA</th>
                <th>Forwarded to</th>
              </tr>
            </thead>
            <tbody>
              {rows.slice(0, TABLE_ROWS).map((s) => (
                <tr key={s.ordinal}>
                  <td className="num">{s.ordinal}</td>
                  <td>{s.name ? <code>{s.name}</code> : <span className="muted">(by ordinal)</span>}</td>
                  <td className="num">
                    <code>{hex(s.rva)}</code>
                  </td>
                  <td>{s.forwarder ? <code>{s.forwarder}</code> : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
