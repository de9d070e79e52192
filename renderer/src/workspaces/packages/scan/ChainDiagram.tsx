// An attack chain as a small flow diagram: one SVG box per step (capability, then threat), arrows between, the evidence listed under it.
import type { AttackChain } from '../../../../../engines/core/contracts/pkgscan';
import { chainLayout, wrapText } from '../common/model';
import { SeverityBadge } from '../common/ui';

const WIDTH = 820;
const BOX_W = 190;
const BOX_H = 62;
const GAP = 36;

export function ChainDiagram({ chain, index }: { chain: AttackChain; index: number }) {
  const { boxes, height } = chainLayout(chain, WIDTH, BOX_W, BOX_H, GAP);
  const marker = `pk-arrow-${index}`;
  return (
    <figure className="pk-chain" data-testid="attack-chain">
      <figcaption className="pk-chain__head">
        <SeverityBadge severity={chain.severity} /> <strong>{chain.title}</strong>
        {chain.technique && <code className="pk-technique">{chain.technique}</code>}
      </figcaption>
      <svg role="img" aria-label={`Attack chain: ${chain.steps.map((s) => s.description).join(', then ')}`} width={WIDTH} height={height + 4} viewBox={`0 -2 ${WIDTH} ${height + 4}`} className="pk-chain__svg">
        <defs>
          <marker id={marker} viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M 0 0 L 10 5 L 0 10 z" className="pk-chain__head-mark" />
          </marker>
        </defs>
        {boxes.slice(1).map((b, i) => {
          const a = boxes[i];
          if (!a) return null;
          // Same row: a straight arrow; next row: down from the previous box's bottom to the next box's top.
          const d = a.y === b.y ? `M ${a.x + a.w} ${a.y + a.h / 2} L ${b.x - 2} ${b.y + b.h / 2}` : `M ${a.x + a.w / 2} ${a.y + a.h} L ${a.x + a.w / 2} ${a.y + a.h + GAP / 2} L ${b.x + b.w / 2} ${a.y + a.h + GAP / 2} L ${b.x + b.w / 2} ${b.y - 2}`;
          return <path key={`a${i}`} d={d} className="pk-chain__arrow" markerEnd={`url(#${marker})`} />;
        })}
        {boxes.map((b) => {
          const step = chain.steps[b.index];
          if (!step) return null;
          const lines = wrapText(step.description, 30, 2);
          return (
            <g key={b.index} transform={`translate(${b.x} ${b.y})`}>
              <rect width={b.w} height={b.h} rx={5} className={`pk-chain__box pk-chain__box--${step.role}`} />
              <text x={8} y={14} className="pk-chain__role">
                {b.index + 1}. {step.role}
              </text>
              <text x={b.w - 8} y={14} textAnchor="end" className="pk-chain__code">
                {step.code.length > 22 ? `${step.code.slice(0, 21)}…` : step.code}
              </text>
              {lines.map((l, i) => (
                <text key={i} x={8} y={32 + i * 14} className="pk-chain__text">
                  {l}
                </text>
              ))}
            </g>
          );
        })}
      </svg>
      <ol className="pk-chain__evidence">
        {chain.steps.map((s, i) => (
          <li key={i}>
            <span className="muted">{s.role}</span> {s.description}
            {s.file !== null && (
              <span className="pk-where">
                {' '}
                {s.file}
                {s.line !== null ? `:${s.line}` : ''}
              </span>
            )}
            {s.match !== null && <code className="pk-match">{s.match}</code>}
          </li>
        ))}
      </ol>
    </figure>
  );
}
