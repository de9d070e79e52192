// The verdict page of one package scan: the analysis's assessment first, then the policy's decision and its gaps, risk, dimensions chart, policy reasons, vulnerabilities, provenance, attack chains, findings by file, analyzer runs, the release and its files.
import type { RefObject } from 'react';
import type { ScanVerdict } from '../../../../../engines/core/contracts/pkgscan';
import { duration, pct, when } from '../common/format';
import { orderedDimensions } from '../common/model';
import { Banner, BarChart, DecisionBadge, PackageLink, SeverityBadge } from '../common/ui';
import { ChainDiagram } from './ChainDiagram';
import { Findings } from './Findings';
import { AnalyzerRuns, Assessment, Gaps, Inventory, PackageFacts, Provenance, Reasons, Vulnerabilities } from './VerdictParts';

const DECISION_TEXT = {
  allow: 'may be admitted',
  warn: 'may be admitted after review',
  block: 'must not be admitted',
} as const;

function riskTone(label: string, dims: readonly { label: string; value: number }[]): string {
  const v = dims.find((d) => d.label === label)?.value ?? 0;
  return v >= 0.7 ? 'pk-tone--block' : v >= 0.4 ? 'pk-tone--warn' : 'pk-tone--low';
}

/** `headingRef` is set on the package heading (focusable by script): the Scan tab hands it focus after a scan started from the button. */
export function VerdictView({ verdict, headingRef }: { verdict: ScanVerdict; readonly headingRef?: RefObject<HTMLHeadingElement | null> }) {
  const dims = orderedDimensions(verdict.risk_dimensions);
  const waived = verdict.waived_reasons.length;
  return (
    <div className="pk-verdict" data-testid="verdict">
      <Assessment verdict={verdict} />
      <section className={`panel pk-verdict__head pk-verdict__head--${verdict.decision}`} aria-label="Decision">
        <DecisionBadge decision={verdict.decision} large />
        <div className="pk-verdict__title">
          <h2 tabIndex={-1} ref={headingRef}>
            <PackageLink ecosystem={verdict.ecosystem} name={verdict.name} version={verdict.version} />
          </h2>
          <div className="muted small">
            {DECISION_TEXT[verdict.decision]} in <strong>{verdict.environment}</strong> · scanned {when(verdict.created_at)} in {duration(verdict.duration_ms)}
          </div>
        </div>
        <div className="pk-score" title="Risk score, 0 to 100%">
          <span className="pk-score__value" data-testid="risk-score">
            {pct(verdict.risk_score)}
          </span>
          <span className="muted small">risk</span>
        </div>
        <div className="pk-score">
          <SeverityBadge severity={verdict.severity} />
          <span className="muted small">worst severity</span>
        </div>
        <div className="pk-score">
          <span className="pk-score__value">{verdict.findings.length}</span>
          <span className="muted small">findings</span>
        </div>
      </section>
      {verdict.incomplete && (
        <Banner tone="danger" title="Incomplete analysis: this is not a clean result" testId="verdict-incomplete">
          The archive was not read completely or an analyzer did not finish (see the analyzer runs and the archive findings). Whatever was not read was not checked.
        </Banner>
      )}
 <Gaps verdict={verdict} />
      {waived > 0 && <Banner tone="info" title={`${waived} policy reason(s) waived by an approved exception`} />}
      <div className="pk-verdict__grid">
        <div className="ws-column">
          <section className="panel" aria-label="Risk dimensions">
            <h2>Risk dimensions</h2>
            {dims.length === 0 ? <p className="muted small">No dimensions reported.</p> : <BarChart title="Risk by dimension, 0 to 100%" items={dims} max={1} format={pct} tone={(l) => riskTone(l, dims)} width={320} labelWidth={110} />}
          </section>
          <Provenance p={verdict.provenance} />
        </div>
        <Reasons verdict={verdict} />
        <Vulnerabilities v={verdict.vulnerabilities} />
      </div>
      {verdict.attack_chains.length > 0 && (
        <section className="panel" aria-label="Attack chains">
          <h2>
            Attack chains <span className="pk-sub">a capability and a threat in one flow</span>
          </h2>
          {verdict.attack_chains.map((c, i) => (
            <ChainDiagram key={i} chain={c} index={i} />
          ))}
        </section>
      )}
      <Findings findings={verdict.findings} />
      <AnalyzerRuns runs={verdict.analyzer_runs} />
      <PackageFacts verdict={verdict} />
      <Inventory verdict={verdict} />
    </div>
  );
}
