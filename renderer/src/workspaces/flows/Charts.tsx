// The study figures drawn by the app from the report's numbers (never the service's SVG text): line charts and horizontal bars.
import { fmt } from './model';

export interface LineSeries {
  readonly name: string;
  readonly x: readonly number[];
  readonly y: readonly number[];
}

const COLOURS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b'];

export function LineChart({ title, xLabel, yLabel, series, xMax = 1, testId }: { readonly title: string; readonly xLabel: string; readonly yLabel: string; readonly series: readonly LineSeries[]; readonly xMax?: number; readonly testId?: string }) {
  const W = 360;
  const H = 220;
  const L = 40;
  const B = 30;
  const T = 10;
  const R = 10;
  const sx = (v: number): number => L + (v / xMax) * (W - L - R);
  const sy = (v: number): number => T + (1 - v) * (H - T - B);
  return (
    <figure className="flows-chart" data-testid={testId}>
      <figcaption>{title}</figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title}>
        <rect x={L} y={T} width={W - L - R} height={H - T - B} className="flows-chart__frame" />
        {[0, 0.5, 1].map((t) => (
          <g key={t}>
            <text x={L - 4} y={sy(t) + 4} textAnchor="end">
              {t}
            </text>
            <text x={sx(t * xMax)} y={H - B + 14} textAnchor="middle">
              {t * xMax}
            </text>
          </g>
        ))}
        <text x={(L + W) / 2} y={H - 2} textAnchor="middle">
          {xLabel}
        </text>
        <text x={10} y={(T + H - B) / 2} textAnchor="middle" transform={`rotate(-90 10 ${(T + H - B) / 2})`}>
          {yLabel}
        </text>
        {series.map((s, i) => (
          <polyline
            key={s.name}
            fill="none"
            stroke={COLOURS[i % COLOURS.length]}
            strokeWidth={1.6}
            points={s.x
              .map((x, k) => [x, s.y[k]] as const)
              .filter(([x, y]) => Number.isFinite(x) && y !== undefined && Number.isFinite(y))
              .map(([x, y]) => `${sx(x).toFixed(1)},${sy(y!).toFixed(1)}`)
              .join(' ')}
          />
        ))}
      </svg>
      <ul className="flows-chart__legend">
        {series.map((s, i) => (
          <li key={s.name}>
            <span className="flows-chart__swatch" style={{ background: COLOURS[i % COLOURS.length] }} /> {s.name}
          </li>
        ))}
      </ul>
    </figure>
  );
}

export function Bars({ title, items, testId, signed = false }: { readonly title: string; readonly items: readonly { readonly label: string; readonly value: number }[]; readonly testId?: string; readonly signed?: boolean }) {
  const max = Math.max(1e-12, ...items.map((i) => Math.abs(i.value)));
  return (
    <figure className="flows-bars" data-testid={testId}>
      <figcaption>{title}</figcaption>
      {signed && (
        <p className="muted flows-bars__key">
          <span className="flows-bars__swatch" aria-hidden="true" />
          toward malicious
          <span className="flows-bars__swatch flows-bars__swatch--neg" aria-hidden="true" />
          toward benign
        </p>
      )}
      <table className="dense">
        <tbody>
          {items.map((i) => (
            <tr key={i.label}>
              <td className="flows-bars__label">{i.label}</td>
              <td className="flows-bars__cell">
                <div className={`flows-bars__bar${signed && i.value < 0 ? ' flows-bars__bar--neg' : ''}`} style={{ width: `${(Math.abs(i.value) / max) * 100}%` }} />
              </td>
              <td className="num">{fmt(i.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
