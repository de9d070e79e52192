// The scan statistics as charts: verdicts by decision, by severity, the most frequent finding codes, with the totals beside them.
import type { ScanStats } from '../../../../../engines/core/contracts/pkgscan';
import { pct } from '../common/format';
import { DECISIONS, SEVERITIES } from '../common/model';
import { BarChart } from '../common/ui';

export function StatsOverview({ stats }: { stats: ScanStats }) {
  // With no scans the history list below says what to do; empty charts would only repeat it.
  if (stats.total === 0) return null;
  return (
    <section className="panel pk-stats" aria-label="Statistics" data-testid="scan-stats">
      <div className="pk-stats__totals">
        <div className="pk-score">
          <span className="pk-score__value">{stats.total}</span>
          <span className="muted small">scans</span>
        </div>
        <div className="pk-score">
          <span className="pk-score__value neg">{stats.blocked_last_30_days}</span>
          <span className="muted small">blocked, 30 days</span>
        </div>
        <div className="pk-score">
          <span className="pk-score__value">{pct(stats.average_risk)}</span>
          <span className="muted small">average risk</span>
        </div>
      </div>
      <figure>
        <figcaption className="small">By decision</figcaption>
        <BarChart title="Scans by decision" items={DECISIONS.map((d) => ({ label: d, value: stats.by_decision[d] ?? 0 }))} tone={(l) => `pk-tone--${l}`} width={260} labelWidth={60} />
      </figure>
      <figure>
        <figcaption className="small">By severity</figcaption>
        <BarChart title="Scans by worst severity" items={[...SEVERITIES].reverse().map((s) => ({ label: s, value: stats.by_severity[s] ?? 0 }))} tone={(l) => `pk-tone--sev-${l}`} width={260} labelWidth={60} />
      </figure>
      <figure>
        <figcaption className="small">Most frequent finding codes</figcaption>
        {stats.top_finding_codes.length === 0 ? (
          <p className="muted small">No findings in any stored scan.</p>
        ) : (
          <BarChart title="Most frequent finding codes" items={stats.top_finding_codes.slice(0, 10).map((c) => ({ label: c.code, value: c.count }))} width={380} labelWidth={170} />
        )}
      </figure>
    </section>
  );
}
