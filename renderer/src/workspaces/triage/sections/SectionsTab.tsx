// The Sections tab: an entropy plot laid over the file (bar width = share of the file, height = entropy; headers grey, overlay outlined),
// the section table, and the overlay.
import type { TriageResult } from '../../../../../engines/core/contracts/petriage';
import { formatBytes, hex, HIGH_ENTROPY } from '../model';
import { SectionsPanel } from '../Views';
import { entropyBars } from './model';

const W = 800;
const H = 140;
const PAD = 24;

export function EntropyPlot({ result, onShowOffset }: { readonly result: TriageResult; readonly onShowOffset: (offset: number) => void }) {
  const bars = entropyBars(result);
  const y = (e: number): number => H - PAD - (e / 8) * (H - 2 * PAD);
  return (
    <section className="panel" aria-label="Entropy over the file" data-testid="triage-entropy-plot">
      <div className="panel__head">
        <h2>Entropy over the file</h2>
        <span className="legend">
          bar width: share of the file · height: bits per byte (0–8) · <span className="swatch swatch--high" /> ≥ {HIGH_ENTROPY}: packed or encrypted
        </span>
      </div>
      <svg viewBox={`0 0 ${W} ${H}`} className="eplot" role="img" aria-label={bars.map((b) => `${b.label} ${b.entropy === null ? 'entropy unknown' : `${b.entropy.toFixed(2)} bits per byte`}`).join('; ')}>
        {[0, 2, 4, 6, 8].map((e) => (
          <g key={e}>
            <line x1={PAD} x2={W - 4} y1={y(e)} y2={y(e)} className="eplot__grid" />
            <text x={PAD - 6} y={y(e) + 4} className="eplot__tick" textAnchor="end">
              {e}
            </text>
          </g>
        ))}
        <line x1={PAD} x2={W - 4} y1={y(HIGH_ENTROPY)} y2={y(HIGH_ENTROPY)} className="eplot__threshold" />
        {bars.map((b, i) => {
          const x = PAD + b.x * (W - PAD - 4);
          const w = Math.max(1.5, b.width * (W - PAD - 4));
          const e = b.entropy ?? 0;
          return (
            <g key={i} className="eplot__bar" onClick={() => onShowOffset(b.offset)}>
              <title>{`${b.label}: ${formatBytes(b.size)} at ${hex(b.offset)}, ${b.entropy === null ? 'entropy not measured' : `${b.entropy.toFixed(2)} bits/byte`} (click to see the bytes)`}</title>
              {b.entropy === null ? (
                <rect x={x} y={H - PAD - 6} width={w} height={6} className="eplot__rect eplot__rect--unknown" />
              ) : (
                <rect x={x} y={y(e)} width={w} height={H - PAD - y(e)} className={`eplot__rect eplot__rect--${b.kind}${e >= HIGH_ENTROPY ? ' eplot__rect--high' : ''}`} />
              )}
              {w > 28 && (
                <text x={x + w / 2} y={H - 8} className="eplot__label" textAnchor="middle">
                  {b.label}
                </text>
              )}
            </g>
          );
        })}
      </svg>
    </section>
  );
}

function Overlay({ result }: { readonly result: TriageResult }) {
  const o = result.pe.overlay;
  const cert = result.pe.certificate;
  // Signatures are high-entropy by nature: an overlay that is only the certificate table is not "packed".
  const onlyCertificate = o !== null && o !== undefined && cert !== null && cert !== undefined && cert.offset <= o.offset && cert.offset + cert.size >= o.offset + o.size;
  return (
    <section className="panel" aria-label="Overlay" data-testid="triage-overlay">
      <div className="panel__head">
        <h2>Overlay</h2>
      </div>
      {o ? (
        <p>
          <strong>{formatBytes(o.size)}</strong> after the last section, at <code>{hex(o.offset)}</code> ({((o.size / Math.max(1, result.size)) * 100).toFixed(1)} % of the file
          {o.entropy === undefined ? '' : `, entropy ${o.entropy.toFixed(2)} bits/byte${o.entropy >= HIGH_ENTROPY && !onlyCertificate ? ': compressed or encrypted' : ''}`}).{' '}
          {cert && cert.offset >= o.offset ? (
            <span className="muted">
              It holds the certificate table ({formatBytes(cert.size)}){cert.offset + cert.size < o.offset + o.size || cert.offset > o.offset ? '; other data is there too' : ', and nothing else'}.
            </span>
          ) : (
            <span className="muted">Installers keep their payload here; so do droppers. The loader does not map it.</span>
          )}
        </p>
      ) : (
        <p className="muted">None: the file ends with its last section.</p>
      )}
    </section>
  );
}

export function SectionsTab({ result, onShowOffset }: { readonly result: TriageResult; readonly onShowOffset: (offset: number) => void }) {
  return (
    <div className="ws-column">
      <EntropyPlot result={result} onShowOffset={onShowOffset} />
      <SectionsPanel result={result} />
      <Overlay result={result} />
    </div>
  );
}
