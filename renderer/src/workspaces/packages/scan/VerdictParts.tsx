// The blocks of the verdict page: the assessment, the policy's gaps, policy reasons (one row per rule) (with the exception that waived one), vulnerabilities, provenance, analyzer runs, package facts, file inventory.
import { useState } from 'react';
import type { AnalyzerRun, ScanProvenance, ScanVerdict, VerdictReason, VulnerabilityAssessment } from '../../../../../engines/core/contracts/pkgscan';
import { bytes, duration, pct, sentence, when } from '../common/format';
import { Banner, SeverityBadge } from '../common/ui';
import { usePackagesNav } from '../common/nav';
import { shortId } from '../session';
import { counted } from '../../../components/wording';

const ASSESSMENT_TEXT = {
  malicious: 'The analysis found malicious behaviour',
  suspicious: 'The analysis found behaviour that needs a look',
  clean: 'The analysis found no malicious behaviour',
  unknown: 'The analysis could not complete: unknown, not clean',
} as const;

/** The analysis's own judgement, before any policy: verdict, confidence, and what it rests on. */
export function Assessment({ verdict }: { verdict: ScanVerdict }) {
  const a = verdict.assessment;
  return (
    <section className={`panel pk-assess pk-assess--${a.verdict}`} aria-label="Assessment" data-testid="assessment">
      <span className={`pk-assess__verdict pk-assess__verdict--${a.verdict}`} data-testid="assessment-verdict">
        {a.verdict}
      </span>
      <div className="pk-assess__body">
        <strong>{ASSESSMENT_TEXT[a.verdict]}</strong>
        <span className="muted small">
          {' '}
          · confidence {pct(a.confidence)} · {sentence(a.summary)} · independent of environment and policy
        </span>
        {(a.chains.length > 0 || a.findings.length > 0 || a.advisories.length > 0) && (
          <ul className="pk-assess__basis" aria-label="What the assessment rests on">
            {a.chains.map((c, i) => (
              <li key={`c${i}`}>
                <SeverityBadge severity={c.severity} /> chain: {c.title}
              </li>
            ))}
            {a.findings.slice(0, 6).map((f, i) => (
              <li key={`f${i}`}>
                <SeverityBadge severity={f.severity} /> <code>{f.code}</code> {f.title}
                {f.file !== null && (
                  <span className="muted small">
                    {' '}
                    in {f.file}
                    {f.line !== null ? `:${f.line}` : ''}
                  </span>
                )}
              </li>
            ))}
            {a.findings.length > 6 && <li className="muted small">and {a.findings.length - 6} more (see Findings)</li>}
            {a.advisories.map((id) => (
              <li key={id}>
                malicious-package advisory <code>{id}</code>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

const GAP_TITLE = { provenance_missing: 'Provenance missing', advisories_missing: 'Advisories missing' } as const;

/** What the policy could not judge: shown as gaps with what to do, not as findings. */
export function Gaps({ verdict }: { verdict: ScanVerdict }) {
  if (verdict.gaps.length === 0) return null;
  return (
    <section className="panel pk-gaps" aria-label="Policy gaps" data-testid="policy-gaps">
      <h2>
        Gaps <span className="pk-sub">what the policy could not judge, and how to close it</span>
      </h2>
      <ul className="pk-gaps__list">
        {verdict.gaps.map((g) => (
          <li key={g.kind} data-testid={`gap-${g.kind}`}>
            <span className={`pk-effect pk-effect--${g.effect === 'allow' ? 'waived' : g.effect}`}>{g.effect}</span> <strong>{GAP_TITLE[g.kind]}</strong>: {sentence(g.message)}
            <div className="small">
              What to do: <span data-testid="gap-todo">{sentence(g.what_to_do)}</span>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function Reasons({ verdict }: { verdict: ScanVerdict }) {
  const reasons = verdict.policy_reasons;
  const waived = verdict.waived_reasons;
  return (
    <section className="panel" aria-label="Policy reasons" data-testid="policy-reasons">
      <h2>
        Policy reasons{' '}
        <span className="pk-sub">
          {verdict.policy.name ?? 'no active policy'} · {verdict.environment}
          {verdict.policy.hash && <> · hash {verdict.policy.hash.slice(0, 12)}</>}
        </span>
      </h2>
      {reasons.length === 0 && waived.length === 0 && <p className="muted small">No policy rule fired: the decision follows from the findings and scores alone.</p>}
      <ul className="pk-reasons">
        {reasons.map((r, i) => (
          <Reason key={`r${i}`} r={r} />
        ))}
        {waived.map((r, i) => (
          <Reason key={`w${i}`} r={r} />
        ))}
      </ul>
      {verdict.exceptions_applied.length > 0 && (
        <p className="muted small">
          Exceptions applied: {verdict.exceptions_applied.map((id) => <code key={id} title={id}>{shortId(id)} </code>)}
        </p>
      )}
    </section>
  );
}

function Reason({ r }: { r: VerdictReason }) {
  const waived = r.waived_by !== null;
  return (
    <li className={waived ? 'pk-reason pk-reason--waived' : `pk-reason pk-reason--${r.effect}`}>
      <span className={`pk-effect pk-effect--${waived ? 'waived' : r.effect}`}>{waived ? 'waived' : r.effect}</span>
      <span className={waived ? 'pk-reason__text pk-struck' : 'pk-reason__text'}>{r.message}</span>
      <span className="pk-reason__meta">
        <code className="muted small" title="Policy rule">
          {r.rule}
        </code>
        {r.subjects.slice(0, 8).map((x) => (
          <code key={x} className="small">
            {x}
          </code>
        ))}
        {r.subjects.length > 8 && <span className="muted small">+{r.subjects.length - 8}</span>}
        {r.count > 1 && <span className="muted small">{counted(r.count, 'match', 'matches')}</span>}
        {waived && (
          <span className="small" data-testid="waived-by">
            waived by exception <code title={r.waived_by ?? ''}>{shortId(r.waived_by ?? '')}</code>
          </span>
        )}
      </span>
    </li>
  );
}

export function Vulnerabilities({ v }: { v: VulnerabilityAssessment }) {
  const openVuln = usePackagesNav((s) => s.openVuln);
  return (
    <section className="panel" aria-label="Vulnerabilities" data-testid="verdict-vulns">
      <h2>Vulnerabilities</h2>
      {v.status !== 'ok' ? (
        <Banner title={v.status === 'partial' ? 'Not fully assessed: treat as unknown' : 'Not assessed: unknown, not "no vulnerabilities"'} testId="vulns-not-assessed">
          {sentence(v.message)}
          {v.missing_sources.length > 0 && <> Missing or stale: {v.missing_sources.join(', ')}.</>} Import advisory files in the Vulnerabilities tab, then scan again.
        </Banner>
      ) : v.items.length === 0 ? (
        <p className="pos small">Assessed against the advisory store: no known advisory affects this version.</p>
      ) : null}
      {v.items.length > 0 && (
        <table className="packages__table">
          <thead>
            <tr>
              <th>Advisory</th>
              <th>Severity</th>
              <th>CVSS</th>
              <th>Exploitation</th>
              <th>Fixed in</th>
            </tr>
          </thead>
          <tbody>
            {v.items.map((a) => (
              <tr key={a.id}>
                <td>
                  <button type="button" className="packages__goto" onClick={() => openVuln(a.id)}>
                    {a.id}
                  </button>
                  {a.malicious && <span className="pk-tag pk-tag--danger">malicious package</span>}
                  <div className="muted small">{a.summary ?? a.aliases.join(', ')}</div>
                </td>
                <td>
                  <SeverityBadge severity={a.severity} />
                </td>
                <td className="num">{a.score?.toFixed(1) ?? '—'}</td>
                <td>
                  {a.kev && <span className="pk-tag pk-tag--danger" title={`In CISA KEV since ${a.kev_date_added ?? '?'}`}>KEV</span>}
                  {a.epss !== null && <span className="pk-tag" title={`EPSS percentile ${pct(a.epss_percentile)}`}>EPSS {pct(a.epss)}</span>}
                </td>
                <td>{a.fixed_versions.join(', ') || <span className="muted">no fix</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

const PROV_TEXT: Record<ScanProvenance['status'], string> = {
  verified: 'verified',
  absent: 'none published (not an error)',
  invalid: 'INVALID',
  unavailable: 'could not be checked here',
};

export function Provenance({ p }: { p: ScanProvenance }) {
  return (
    <section className="panel" aria-label="Provenance" data-testid="verdict-provenance">
      <h2>Provenance</h2>
      <dl className="packages__facts">
        <dt>Attestation</dt>
        <dd>
          <span className={`pk-prov pk-prov--${p.status}`}>{PROV_TEXT[p.status]}</span> {p.kind && <code className="small">{p.kind}</code>}
        </dd>
        <dt>Registry signature</dt>
        <dd>{p.registry_signature.replace('_', ' ')}</dd>
        {p.builder && (
          <>
            <dt>Builder</dt>
            <dd className="pk-wrap">{p.builder}</dd>
          </>
        )}
        {p.source_repository && (
          <>
            <dt>Source</dt>
            <dd className="pk-wrap">
              {p.source_repository}
              {p.source_commit && <code className="small"> @{p.source_commit.slice(0, 12)}</code>}
            </dd>
          </>
        )}
        {p.workflow && (
          <>
            <dt>Workflow</dt>
            <dd className="pk-wrap">{p.workflow}</dd>
          </>
        )}
      </dl>
      {p.message && <p className="muted small">{sentence(p.message)}</p>}
    </section>
  );
}

export function AnalyzerRuns({ runs }: { runs: readonly AnalyzerRun[] }) {
  return (
    <section className="panel" aria-label="Analyzer runs">
      <h2>Analyzer runs</h2>
      <table className="packages__table" data-testid="analyzer-runs">
        <thead>
          <tr>
            <th>Analyzer</th>
            <th>Version</th>
            <th>Status</th>
            <th className="num">Findings</th>
            <th className="num">Time</th>
            <th>Note</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr key={r.name} className={r.status === 'ok' ? undefined : `pk-run--${r.status}`}>
              <td>{r.name}</td>
              <td className="muted">{r.version}</td>
              <td>
                <span className={`pk-status pk-status--${r.status}`}>{r.status.replace('_', ' ')}</span>
              </td>
              <td className="num">{r.status === 'ok' ? r.findings : '—'}</td>
              <td className="num muted">{duration(r.duration_ms)}</td>
              <td className="small">{r.message ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {runs.some((r) => r.status !== 'ok') && <p className="warn small">An analyzer that did not run looked at nothing: its part of the verdict is unknown, not clean.</p>}
    </section>
  );
}

export function PackageFacts({ verdict }: { verdict: ScanVerdict }) {
  const p = verdict.package;
  const scripts = Object.entries(p.install_scripts);
  const deps = Object.entries(p.dependencies);
  return (
    <section className="panel" aria-label="Release">
      <h2>Release</h2>
      <dl className="packages__facts">
        <dt>Archive</dt>
        <dd className="pk-wrap">
          {p.filename} <span className="muted">({bytes(p.size)}, {p.kind})</span>
        </dd>
        <dt>SHA-256</dt>
        <dd className="selectable pk-hash">{p.sha256}</dd>
        <dt>From</dt>
        <dd>{p.source}</dd>
        <dt>Analyzers</dt>
        <dd className="small pk-wrap">{verdict.analyzer_version}</dd>
        {p.published && (
          <>
            <dt>Published</dt>
            <dd>{when(p.published)}</dd>
          </>
        )}
        {p.description && (
          <>
            <dt>Description</dt>
            <dd>{p.description}</dd>
          </>
        )}
        <dt>License</dt>
        <dd>{p.license ?? <span className="muted">none declared</span>}</dd>
        <dt>Author</dt>
        <dd>{p.author ?? <span className="muted">none declared</span>}</dd>
        {p.maintainers.length > 0 && (
          <>
            <dt>Maintainers</dt>
            <dd>{p.maintainers.join(', ')}</dd>
          </>
        )}
        <dt>Install scripts</dt>
        <dd>
          {scripts.length === 0 ? (
            <span className="muted">none</span>
          ) : (
            scripts.map(([k, v]) => (
              <div key={k}>
                <code>{k}</code>: <code className="pk-match">{v}</code>
              </div>
            ))
          )}
        </dd>
        <dt>Dependencies</dt>
        <dd>{deps.length === 0 ? <span className="muted">none</span> : deps.map(([k, v]) => <code key={k} className="packages__perm">{`${k} ${v}`}</code>)}</dd>
      </dl>
    </section>
  );
}

const FILES_SHOWN = 300;

export function Inventory({ verdict }: { verdict: ScanVerdict }) {
  const [all, setAll] = useState(false);
  const files = all ? verdict.files : verdict.files.slice(0, FILES_SHOWN);
  return (
    <details className="panel" aria-label="File inventory">
      <summary>
        <strong>File inventory</strong>{' '}
        <span className="muted small">
          {verdict.files_total} file(s){verdict.files_truncated ? `, the first ${verdict.files.length} listed` : ''}; {verdict.files.filter((f) => f.executable).length} executable
        </span>
      </summary>
      <table className="packages__table">
        <thead>
          <tr>
            <th>Path</th>
            <th className="num">Size</th>
            <th>Exec</th>
            <th className="num">Findings</th>
            <th>SHA-256</th>
          </tr>
        </thead>
        <tbody>
          {files.map((f) => (
            <tr key={f.path} className={f.findings > 0 ? 'pk-file--hit' : undefined}>
              <td className="pk-where">{f.path}</td>
              <td className="num">{bytes(f.size)}</td>
              <td>{f.executable ? 'yes' : ''}</td>
              <td className="num">{f.findings || ''}</td>
              <td>
                <code className="muted small" title={f.sha256}>
                  {f.sha256.slice(0, 16)}
                </code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {!all && verdict.files.length > FILES_SHOWN && (
        <button type="button" onClick={() => setAll(true)}>
          Show all {verdict.files.length}
        </button>
      )}
    </details>
  );
}
