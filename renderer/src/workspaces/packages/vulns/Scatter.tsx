// EPSS (exploitation probability, x) against CVSS (severity score, y) as an SVG scatter; KEV advisories drawn filled red; a point opens its advisory.
import { useMemo } from 'react';
import { linear, scatter } from '../common/model';
import { counted } from '../../../components/wording';

export interface ScatterItem {
  readonly id: string;
  readonly epss: number | null;
  readonly score: number | null;
  readonly kev: boolean;
}

const W = 420;
const H = 260;
const PAD = 34;

export function EpssCvssScatter({ items, onOpen }: { items: readonly ScatterItem[]; onOpen: (id: string) => void }) {
  const { points, missing } = useMemo(() => scatter(items, W, H, PAD), [items]);
  const kev = new Set(items.filter((i) => i.kev).map((i) => i.id));
  const x = linear(0, 1, PAD, W - PAD);
  const y = linear(0, 10, H - PAD, PAD);
  return (
    <figure className="pk-scatter" data-testid="epss-scatter">
      <svg role="img" aria-label={`EPSS against CVSS for ${counted(points.length, 'advisory', 'advisories')}`} width={W} height={H} viewBox={`0 0 ${W} ${H}`}>
        <title>EPSS against CVSS</title>
        {/* Quadrant of what to fix first: likely to be exploited and severe. */}
        <rect x={x(0.1)} y={y(10)} width={x(1) - x(0.1)} height={y(7) - y(10)} className="pk-scatter__hot" />
        {[0, 0.25, 0.5, 0.75, 1].map((t) => (
          <g key={`x${t}`}>
            <line x1={x(t)} x2={x(t)} y1={PAD} y2={H - PAD} className="pk-scatter__grid" />
            <text x={x(t)} y={H - PAD + 14} textAnchor="middle" className="pk-chart__label">
              {Math.round(t * 100)}%
            </text>
          </g>
        ))}
        {[0, 4, 7, 10].map((t) => (
          <g key={`y${t}`}>
            <line x1={PAD} x2={W - PAD} y1={y(t)} y2={y(t)} className="pk-scatter__grid" />
            <text x={PAD - 6} y={y(t) + 4} textAnchor="end" className="pk-chart__label">
              {t}
            </text>
          </g>
        ))}
        <text x={W / 2} y={H - 4} textAnchor="middle" className="pk-chart__label">
          EPSS (probability of exploitation in 30 days)
        </text>
        <text x={10} y={H / 2} textAnchor="middle" transform={`rotate(-90 10 ${H / 2})`} className="pk-chart__label">
          CVSS base score
        </text>
        {points.map((p) => (
          <circle key={p.id} cx={p.x} cy={p.y} r={kev.has(p.id) ? 5 : 4} className={kev.has(p.id) ? 'pk-scatter__dot pk-scatter__dot--kev' : 'pk-scatter__dot'} tabIndex={0} role="button" aria-label={p.id} onClick={() => onOpen(p.id)} onKeyDown={(e) => {
            if (e.key === 'Enter' || e.key === ' ') onOpen(p.id);
          }}>
            <title>{p.id}</title>
          </circle>
        ))}
      </svg>
      <figcaption className="muted small">
        Filled red: in CISA KEV. Shaded: EPSS ≥ 10% and CVSS ≥ 7. {missing.length > 0 && `${missing.length} advisor${missing.length === 1 ? 'y' : 'ies'} without both scores not drawn.`}
      </figcaption>
    </figure>
  );
}
