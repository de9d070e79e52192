// Small pieces the Packages tabs share: decision and severity badges, a package name that opens the package page, a pager, bar charts.
import type { ReactNode, Ref } from 'react';
import type { Decision, Severity } from '../../../../../engines/core/contracts/pkgscan';
import type { Ecosystem } from '../store/model';
import { pct, when } from './format';
import { pageText, scaleBars } from './model';
import { usePackagesNav } from './nav';

/** A choice of a filter select: a value shown as it is, or a value and its label. */
export type FilterOption = string | readonly [value: string, label: string];

/** The "at least this severe" choices of a severity filter. */
export const MIN_SEVERITY_OPTIONS: readonly FilterOption[] = (['low', 'medium', 'high', 'critical'] as const).map((s) => [s, `${s} or worse`] as const);

/** A list's filter: a select whose first choice (the empty value, labelled `any`) lets everything through. */
export function FilterSelect({ label, value, onChange, any, options }: { label: string; value: string; onChange: (value: string) => void; any: string; options: readonly FilterOption[] }) {
  return (
    <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
      <option value="">{any}</option>
      {options.map((o) =>
        typeof o === 'string' ? (
          <option key={o}>{o}</option>
        ) : (
          <option key={o[0]} value={o[0]}>
            {o[1]}
          </option>
        ),
      )}
    </select>
  );
}

/** A finding's matched text with its line number, when the finding has a match. */
export function MatchedLine({ line, match }: { line: number | null; match: string | null }) {
  if (match === null) return null;
  return (
    <pre className="pk-line">
      {line !== null && <span className="pk-line__no">{line}</span>}
      <code>{match}</code>
    </pre>
  );
}

export function DecisionBadge({ decision, large = false }: { decision: Decision; large?: boolean }) {
  return (
    <span className={`pk-decision pk-decision--${decision}${large ? ' pk-decision--large' : ''}`} data-testid="decision">
      {decision}
    </span>
  );
}

/** The analysis's assessment of a stored verdict (a dash for one stored before assessments existed). */
export function AssessmentCell({ assessment }: { assessment: 'malicious' | 'suspicious' | 'clean' | 'unknown' | null | undefined }) {
  return (
    <td>
      {assessment ? (
        <span className={`pk-assess__verdict pk-assess__verdict--${assessment} pk-assess__verdict--small`} data-testid="assessment-cell">
          {assessment}
        </span>
      ) : (
        <span className="muted">—</span>
      )}
    </td>
  );
}

/** The decision of a stored verdict, marked when its analysis did not finish. */
export function DecisionCell({ decision, incomplete }: { decision: Decision; incomplete: boolean }) {
  return (
    <td>
      <DecisionBadge decision={decision} />
      {incomplete && (
        <span className="pk-tag pk-tag--warn" title="The analysis did not finish: not a clean result">
          incomplete
        </span>
      )}
    </td>
  );
}

/** The columns every list of stored verdicts ends with: severity, risk, findings, when, and the button that opens it. */
/** The headers of the columns VerdictTailCells fills. */
export function VerdictTailHeads() {
  return (
    <>
      <th>Severity</th>
      <th className="num">Risk</th>
      <th className="num">Findings</th>
      <th>Scanned</th>
      <th />
    </>
  );
}

export function VerdictTailCells({ verdict, onOpen }: { verdict: { severity: Severity | string; risk_score: number; findings: number; created_at: string }; onOpen: () => void }) {
  return (
    <>
      <td>
        <SeverityBadge severity={verdict.severity} />
      </td>
      <td className="num">{pct(verdict.risk_score)}</td>
      <td className="num">{verdict.findings}</td>
      <td className="muted">{when(verdict.created_at)}</td>
      <td>
        <button type="button" onClick={onOpen}>
          Open verdict
        </button>
      </td>
    </>
  );
}

export function SeverityBadge({ severity }: { severity: Severity | string }) {
  return <span className={`sev sev--${severity}`}>{severity}</span>;
}

/** A package name anywhere: a link-styled button that opens the package page. */
export function PackageLink({ ecosystem, name, version }: { ecosystem: string; name: string; version?: string }) {
  const open = usePackagesNav((s) => s.openPackage);
  return (
    <button type="button" className="packages__goto pk-pkg" title={`Open the package page of ${ecosystem}/${name}`} onClick={() => open({ ecosystem, name })}>
      <span className="muted">{ecosystem}/</span>
      {name}
      {version !== undefined && <span className="muted">@{version}</span>}
    </button>
  );
}

export function Pager({ offset, limit, total, onOffset, older = 'Next', newer = 'Previous' }: { offset: number; limit: number; total: number; onOffset: (o: number) => void; older?: string; newer?: string }) {
  // An empty list says so in its own words: two disabled buttons around "none" would add nothing to it.
  if (total === 0) return null;
  return (
    <div className="packages__pager">
      <button type="button" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - limit))}>
        {newer}
      </button>
      <span className="muted small">{pageText(offset, limit, total)}</span>
      <button type="button" disabled={offset + limit >= total} onClick={() => onOffset(offset + limit)}>
        {older}
      </button>
    </div>
  );
}

/**
 * A labelled horizontal bar chart in SVG. `max` fixes the scale (1 for scores); `tone` gives each bar a colour class
 * (decision or severity names map to the sheet's colours); `format` prints the value.
 */
export function BarChart({
  items,
  title,
  max,
  tone,
  format = (v) => String(v),
  labelWidth = 130,
  width = 360,
}: {
  items: readonly { label: string; value: number }[];
  title: string;
  max?: number;
  tone?: (label: string) => string;
  format?: (v: number) => string;
  labelWidth?: number;
  width?: number;
}) {
  const row = 20;
  const valueWidth = 48;
  const barMax = width - labelWidth - valueWidth;
  const bars = scaleBars(items, barMax, max);
  const height = Math.max(row, bars.length * row);
  return (
    <svg className="pk-chart" role="img" aria-label={title} width={width} height={height} viewBox={`0 0 ${width} ${height}`}>
      <title>{title}</title>
      {bars.map((b, i) => (
        <g key={b.label} transform={`translate(0 ${i * row})`}>
          <text x={labelWidth - 6} y={row / 2 + 4} textAnchor="end" className="pk-chart__label">
            {b.label.length > 22 ? `${b.label.slice(0, 21)}…` : b.label}
          </text>
          <rect x={labelWidth} y={4} width={barMax} height={row - 8} className="pk-chart__track" />
          <rect x={labelWidth} y={4} width={b.length} height={row - 8} className={`pk-chart__bar ${tone ? tone(b.label) : ''}`} />
          <text x={labelWidth + barMax + 6} y={row / 2 + 4} className="pk-chart__value">
            {format(b.value)}
          </text>
        </g>
      ))}
    </svg>
  );
}

/** A banner that says what is missing and what to do (warn tone), for incomplete or unassessed results. */
export function Banner({ tone = 'warn', title, children, testId }: { tone?: 'warn' | 'danger' | 'info'; title: string; children?: ReactNode; testId?: string }) {
  return (
    <div className={`pk-banner pk-banner--${tone}`} role={tone === 'info' ? 'status' : 'alert'} data-testid={testId}>
      <strong>{title}</strong>
      {children !== undefined && <div className="pk-banner__body">{children}</div>}
    </div>
  );
}

/** The ecosystem select and the package name field of a form (Scan, Compare two releases), each in its visible label. */
export function PackageFields({ ecosystem, onEcosystem, name, onName, nameRef, autoFocus = false }: { ecosystem: Ecosystem; onEcosystem: (e: Ecosystem) => void; name: string; onName: (n: string) => void; nameRef?: Ref<HTMLInputElement>; autoFocus?: boolean }) {
  return (
    <>
      <label>
        Ecosystem
        <select value={ecosystem} onChange={(e) => onEcosystem(e.target.value as Ecosystem)}>
          <option value="npm">npm</option>
          <option value="pypi">pypi</option>
        </select>
      </label>
      <label className="pk-scan__name">
        Package name
        <input ref={nameRef} autoFocus={autoFocus} value={name} onChange={(e) => onName(e.target.value)} required maxLength={214} placeholder={ecosystem === 'npm' ? 'left-pad or @scope/name' : 'requests'} spellCheck={false} />
      </label>
    </>
  );
}
