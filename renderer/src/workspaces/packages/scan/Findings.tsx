// A verdict's findings grouped by file: each file a collapsible group (worst first), each finding with severity, code, technique and the matched line as text.
import { useMemo, useState } from 'react';
import type { ScanFinding } from '../../../../../engines/core/contracts/pkgscan';
import { groupFindingsByFile, severityRank } from '../common/model';
import { MatchedLine, SeverityBadge } from '../common/ui';
import { counted } from '../../../components/wording';

const SHOWN_GROUPS = 40;

export function Findings({ findings }: { findings: readonly ScanFinding[] }) {
  const [minSeverity, setMinSeverity] = useState('info');
  const [all, setAll] = useState(false);
  const groups = useMemo(() => groupFindingsByFile(findings.filter((f) => severityRank(f.severity) >= severityRank(minSeverity))), [findings, minSeverity]);
  const shown = all ? groups : groups.slice(0, SHOWN_GROUPS);
  return (
    <section className="panel" aria-label="Findings">
      <div className="packages__filters">
        <h2>
          Findings <span className="pk-sub">{findings.length} in {new Set(findings.map((f) => f.file)).size} place(s)</span>
        </h2>
        <select aria-label="Show findings from severity" value={minSeverity} onChange={(e) => setMinSeverity(e.target.value)}>
          {['info', 'low', 'medium', 'high', 'critical'].map((s) => (
            <option key={s} value={s}>
              {s === 'info' ? 'all severities' : `${s} or worse`}
            </option>
          ))}
        </select>
      </div>
      {findings.length === 0 && <p className="muted">No analyzer reported a finding. Check the analyzer runs below: an analyzer that did not run found nothing because it did not look.</p>}
      {findings.length > 0 && groups.length === 0 && <p className="muted">No finding at this severity or worse.</p>}
      {shown.map((g) => (
        <details key={g.file ?? '(package)'} className="pk-file" open={severityRank(g.severity) >= 2 || groups.length <= 6} data-testid="finding-group">
          <summary>
            <SeverityBadge severity={g.severity} /> <span className="pk-where">{g.file ?? 'package-level (metadata, provenance, archive)'}</span>{' '}
            <span className="muted small">{g.findings.length} finding(s)</span>
          </summary>
          <ul className="pk-findings">
            {g.findings.map((f, i) => (
              <li key={i} className={`pk-finding pk-finding--${f.severity}`} data-testid="finding">
                <div className="pk-finding__head">
                  <SeverityBadge severity={f.severity} />
                  <code className="pk-code">{f.code}</code>
                  <span>{f.title}</span>
                  {f.technique && (
                    <code className="pk-technique" title="ATT&CK technique">
                      {f.technique}
                    </code>
                  )}
                  <span className="muted small pk-finding__meta">
                    {f.category.replace(/_/g, ' ')} · {f.analyzer}
                  </span>
                </div>
                <MatchedLine line={f.line} match={f.match} />
                {f.match === null && f.line !== null && <div className="muted small">line {f.line}</div>}
              </li>
            ))}
          </ul>
        </details>
      ))}
      {!all && groups.length > SHOWN_GROUPS && (
        <button type="button" onClick={() => setAll(true)}>
          Show all {counted(groups.length, 'file')}
        </button>
      )}
    </section>
  );
}
