// One advisory from the local store: aliases, summary and details (text), severity with its vector and source, affected ranges, fixes, KEV, EPSS, references.
import type { Advisory, SeveritySource } from '../../../../../engines/core/contracts/pkgscan-vulns';
import { ErrorNote } from '../../../components/ErrorNote';
import { when } from '../common/format';
import { useLoad } from '../../../components/useLoad';
import { SeverityBadge } from '../common/ui';
import type { PkgscanApi } from '../session';
import { epssText } from './model';

const SEVERITY_SOURCE: Record<SeveritySource, string> = {
  cvss_v4: 'the CVSS v4 vector',
  cvss_v3: 'the CVSS v3 vector',
  database_specific: "the database's own rating",
  nvd: 'NVD, through the CVE alias',
  malicious: 'a malicious-package record (always critical)',
};

export function AdvisoryView({ api, id, onBack }: { api: PkgscanApi; id: string; onBack: () => void }) {
  const advisory = useLoad(() => api.get<Advisory>(`/vulnerabilities/${encodeURIComponent(id)}`), [api, id]);
  const a = advisory.data;
  return (
    <>
      <div className="packages__filters">
        <button type="button" onClick={onBack} autoFocus>
          ← Back to advisories
        </button>
      </div>
      {advisory.error && (
        <ErrorNote error={advisory.error} title={advisory.error.status === 404 ? `${id} is not in the local advisory store (a lookup or an import puts it there)` : 'The advisory could not be loaded'} />
      )}
      {a && (
        <div className="pk-grid pk-grid--two" data-testid="advisory">
          <section className="panel pk-span">
            <h2>
              {a.id} {a.severity && <SeverityBadge severity={a.severity} />} {a.malicious && <span className="pk-tag pk-tag--danger">malicious package</span>}
              {a.kev && <span className="pk-tag pk-tag--danger">KEV</span>}
            </h2>
            <p>{a.summary || <span className="muted">No summary in the record.</span>}</p>
            {a.details && <pre className="pk-details">{a.details}</pre>}
            <dl className="packages__facts">
              <dt>Aliases</dt>
              <dd>{a.aliases.join(', ') || <span className="muted">none</span>}</dd>
              <dt>Score</dt>
              <dd>
                {a.score?.toFixed(1) ?? '—'} {a.vector && <code className="small">{a.vector}</code>}{' '}
                {a.severity_source && <span className="muted small">severity from {SEVERITY_SOURCE[a.severity_source]}</span>}
              </dd>
              <dt>Published</dt>
              <dd>{when(a.published) || <span className="muted">not given</span>}</dd>
              <dt>Modified</dt>
              {/* A record without `modified` is stored at the epoch: say it was not given rather than show 1970. */}
              <dd>{a.modified.startsWith('1970-01-01') ? <span className="muted">not given</span> : when(a.modified)}</dd>
              <dt>Fixed in</dt>
              <dd>{a.fixed_versions.join(', ') || <span className="muted">no fixed version known</span>}</dd>
            </dl>
          </section>
          <section className="panel">
            <h2>Exploitation</h2>
            <dl className="packages__facts">
              <dt>CISA KEV</dt>
              <dd>{a.kev ? `listed ${a.kev.date_added}${a.kev.due_date ? `, due ${a.kev.due_date}` : ''}; ransomware use: ${a.kev.ransomware_use}` : 'not listed'}</dd>
              <dt>EPSS</dt>
              <dd>
                {a.epss ? `${epssText(a.epss.score, a.epss.percentile)} on ${a.epss.date ?? '?'}` : <span className="muted">no score imported</span>}
              </dd>
            </dl>
          </section>
          <section className="panel">
            <h2>Affected</h2>
            <table className="packages__table">
              <tbody>
                {a.affected.map((p, i) => (
                  <tr key={i}>
                    <td>
                      {p.ecosystem}/{p.name}
                    </td>
                    <td className="small">
                      {p.ranges.map((r, j) => (
                        <div key={j}>
                          <span className="muted">{r.type}</span> {r.events.map((e) => Object.entries(e).map(([k, v]) => `${k} ${String(v)}`).join('')).join(', ')}
                        </div>
                      ))}
                      {p.versions.length > 0 && <div>versions: {p.versions.slice(0, 30).join(', ')}{p.versions.length > 30 ? ` and ${p.versions.length - 30} more` : ''}</div>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
          {a.references.length > 0 && (
            <section className="panel pk-span">
              <h2>References</h2>
              <ul className="small pk-refs">
                {a.references.map((r, i) => (
                  <li key={i}>
                    <span className="muted">{r.type.toLowerCase()}</span> <span className="selectable pk-wrap">{r.url}</span>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </div>
      )}
    </>
  );
}
