// The Release diffs tab: a form for two releases of a package, the stored diffs (drift only on request), and one diff side by side: new findings with their lines first, capability changes, risk, the file tree, maintainers.
import { useEffect, useState, type FormEvent } from 'react';
import type { PageOf } from '../../../../../engines/core/contracts/pkgscan';
import type { DiffRelease, DiffResult, DiffSummary, ReleaseDiff } from '../../../../../engines/core/contracts/pkgscan-diffs';
import { ErrorNote } from '../../../components/ErrorNote';
import { duration, pct, when } from '../common/format';
import { useLoad } from '../../../components/useLoad';
import { useAction } from '../common/hooks';
import { severityRank } from '../common/model';
import { usePackagesNav } from '../common/nav';
import { MatchedLine, PackageFields, PackageLink, Pager, SeverityBadge } from '../common/ui';
import { type PkgscanApi } from '../session';
import type { Ecosystem } from '../store/model';
import { dimensionRows, fileTree } from './model';
import { agreeing, counted } from '../../../components/wording';

export function DiffsTab({ api, canCreate }: { api: PkgscanApi; canCreate: boolean }) {
  // A diff opened from elsewhere (a monitoring check's new release) arrives through the nav store.
  const navDiff = usePackagesNav((s) => s.diffId);
  const [diffId, setDiffId] = useState<string | null>(navDiff);
  useEffect(() => {
    if (navDiff !== null) setDiffId(navDiff);
  }, [navDiff]);
  const [driftOnly, setDriftOnly] = useState(false);
  const [pkg, setPkg] = useState('');
  const [offset, setOffset] = useState(0);
  const list = useLoad(() => api.get<PageOf<DiffSummary>>('/diffs', { limit: 20, offset, drift_only: driftOnly ? 'true' : undefined, package: pkg.trim() || undefined }), [api, offset, driftOnly, pkg]);
  return (
    <div className="ws-column">
      {canCreate && (
        <DiffForm
          api={api}
          onDiff={(d) => {
            setDiffId(d.id);
            list.reload();
          }}
        />
      )}
      <section className="panel" aria-label="Release diffs">
        <div className="packages__filters">
          <h2>Release diffs</h2>
          <input aria-label="Diff package" placeholder="package (exact name)" value={pkg} onChange={(e) => {
            setPkg(e.target.value);
            setOffset(0);
          }} maxLength={214} />
          <label className="small">
            <input type="checkbox" checked={driftOnly} onChange={(e) => {
              setDriftOnly(e.target.checked);
              setOffset(0);
            }} /> drift only (escalated)
          </label>
        </div>
        {list.error && <ErrorNote error={list.error} title="The diffs could not be listed" />}
        <table className="packages__table">
          <thead>
            <tr>
              <th>Package</th>
              <th>Releases</th>
              <th className="num">Risk</th>
              <th className="num">New findings</th>
              <th>Drift</th>
              <th>When</th>
            </tr>
          </thead>
          <tbody>
            {(list.data?.items ?? []).map((d) => (
              <tr key={d.id} className={d.id === diffId ? 'pk-row--on' : ''} data-testid="diff-row">
                <td>
                  <PackageLink ecosystem={d.ecosystem} name={d.name} />
                </td>
                <td>
                  <button type="button" className="packages__goto" onClick={() => setDiffId(d.id)}>
                    {d.from_version} → {d.to_version}
                  </button>
                </td>
                <td className="num">
                  {pct(d.risk_from)} → {pct(d.risk_to)}
                </td>
                <td className="num">{d.new_findings}</td>
                <td>
                  {d.escalated && <span className="pk-tag pk-tag--danger">escalated</span>} {d.maintainers_changed && <span className="pk-tag pk-tag--warn">maintainers</span>}
                </td>
                <td className="muted">{when(d.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {list.data?.items.length === 0 && <div className="empty">{driftOnly || pkg ? 'No diff matches.' : 'No release compared yet.'}</div>}
        {list.data && <Pager offset={offset} limit={20} total={list.data.total} onOffset={setOffset} older="Older" newer="Newer" />}
      </section>
      {diffId && <DiffLoader key={diffId} api={api} id={diffId} />}
    </div>
  );
}

function DiffForm({ api, onDiff }: { api: PkgscanApi; onDiff: (d: DiffResult) => void }) {
  const [ecosystem, setEcosystem] = useState<Ecosystem>('npm');
  const [name, setName] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [busy, setBusy] = useState(false);
  const action = useAction();
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    await action.run(async () => onDiff(await api.post<DiffResult>('/diffs', { ecosystem, name: name.trim(), from_version: from.trim(), to_version: to.trim() })));
    setBusy(false);
  };
  return (
    <form className="panel pk-diff__form" onSubmit={(e) => void submit(e)} aria-label="Compare two releases" data-testid="diff-form">
      <h2>Compare two releases</h2>
      <div className="pk-diff__fields">
        <PackageFields ecosystem={ecosystem} onEcosystem={setEcosystem} name={name} onName={setName} />
        <label>
          From version (older)
          <input placeholder="e.g. 1.2.0" value={from} onChange={(e) => setFrom(e.target.value)} required maxLength={128} spellCheck={false} />
        </label>
        <label>
          To version (newer)
          <input placeholder="e.g. 1.3.0" value={to} onChange={(e) => setTo(e.target.value)} required maxLength={128} spellCheck={false} />
        </label>
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Comparing…' : 'Compare'}
        </button>
      </div>
      <p className="muted small">Both releases come from the package sources (the store or a lab mirror) and are analysed as the Scan tab does; nothing is run.</p>
      {action.error && <ErrorNote error={action.error} title="Not compared" />}
    </form>
  );
}

function DiffLoader({ api, id }: { api: PkgscanApi; id: string }) {
  const diff = useLoad(() => api.get<ReleaseDiff>(`/diffs/${id}`), [api, id]);
  if (diff.error) return <ErrorNote error={diff.error} title="The diff could not be read" />;
  return diff.data ? <DiffView diff={diff.data} /> : <section className="panel muted">Loading the diff…</section>;
}

function Release({ r, side }: { r: DiffRelease; side: string }) {
  const scripts = Object.entries(r.install_scripts);
  return (
    <div className="pk-diff__side" data-testid={`diff-${side}`}>
      <h4>
        {side === 'from' ? 'Before' : 'After'}: {r.version}
      </h4>
      <dl className="packages__facts">
        <dt>Risk</dt>
        <dd>
          <strong>{pct(r.risk_score)}</strong> <SeverityBadge severity={r.severity} />
        </dd>
        <dt>Findings</dt>
        <dd>{r.findings_count}</dd>
        <dt>Files</dt>
        <dd>{r.files_total}</dd>
        <dt>Archive</dt>
        <dd className="pk-wrap small">
          {r.filename} <code className="muted">{r.sha256.slice(0, 12)}</code> {!r.complete && <span className="pk-tag pk-tag--danger">not read to its end</span>}
        </dd>
        <dt>Install scripts</dt>
        <dd>
          {scripts.length === 0 ? (
            <span className="muted">none</span>
          ) : (
            scripts.map(([k, v]) => (
              <div key={k} className="small">
                <code>{k}</code>: <code className="pk-wrap">{v}</code>
              </div>
            ))
          )}
        </dd>
      </dl>
    </div>
  );
}

function DiffView({ diff }: { diff: ReleaseDiff }) {
  const newFindings = [...diff.findings.new].sort((a, b) => severityRank(b.severity) - severityRank(a.severity));
  const tree = fileTree(diff.files);
  const dims = dimensionRows(diff.dimensions);
  const caps = diff.capabilities;
  return (
    <div className="ws-column" data-testid="diff-view">
      {diff.incomplete && (
        <div className="pk-banner pk-banner--danger" role="alert">
          <div className="pk-banner__body">An archive was not read to its end: this diff is incomplete and may miss changes.</div>
        </div>
      )}
      <section className={`panel pk-verdict__head pk-verdict__head--${diff.escalated ? 'block' : 'allow'} pk-head--stack`}>
        <div className="packages__filters">
          <h2>
            <PackageLink ecosystem={diff.ecosystem} name={diff.name} /> {diff.from_version} → {diff.to_version}
          </h2>
          {diff.escalated ? <span className="pk-tag pk-tag--danger">escalated: {diff.escalation_reasons.join(', ')}</span> : <span className="pk-tag">not escalated</span>}
          <span className="muted small">
            risk {pct(diff.risk.from)} → <strong>{pct(diff.risk.to)}</strong> ({diff.risk.delta >= 0 ? '+' : ''}
            {Math.round(diff.risk.delta * 100)} {agreeing(Math.abs(Math.round(diff.risk.delta * 100)), 'point')}) · thresholds {diff.thresholds.environment}: warn {pct(diff.thresholds.warn_risk)}, block {pct(diff.thresholds.block_risk)} · {duration(diff.duration_ms)}
          </span>
        </div>
      </section>
      <section className="panel" aria-label="New findings">
        <h2>
          New findings <span className="pk-sub">{diff.findings.new.length} new · {diff.findings.gone.length} gone · {diff.findings.unchanged} unchanged</span>
        </h2>
        {newFindings.length === 0 && <p className="muted">No finding is new in {diff.to_version}.</p>}
        <ul className="pk-findings">
          {newFindings.map((f, i) => (
            <li key={i} className={`pk-finding pk-finding--${f.severity}`} data-testid="diff-new-finding">
              <div className="pk-finding__head">
                <SeverityBadge severity={f.severity} />
                <code className="pk-code">{f.code}</code>
                <span>{f.title}</span>
                {f.technique && <code className="pk-technique">{f.technique}</code>}
                <span className="muted small pk-finding__meta">{f.file ?? 'package-level'}</span>
              </div>
              <MatchedLine line={f.line} match={f.match} />
            </li>
          ))}
        </ul>
      </section>
      <section className="panel" aria-label="Side by side">
        <div className="pk-diff">
          <Release r={diff.from} side="from" />
          <Release r={diff.to} side="to" />
        </div>
        <h4>Capabilities</h4>
        <div className="pk-diff__caps" data-testid="diff-capabilities">
          {caps.gained.length + caps.codes_gained.length === 0 && caps.lost.length + caps.codes_lost.length === 0 && <span className="muted small">No capability gained or lost.</span>}
          {caps.gained.map((c) => (
            <span key={`g${c}`} className="pk-tag pk-tag--danger">
              + {c.replace(/_/g, ' ')}
            </span>
          ))}
          {caps.codes_gained.map((c) => (
            <code key={`cg${c}`} className="pk-tag pk-tag--warn">
              + {c}
            </code>
          ))}
          {caps.lost.map((c) => (
            <span key={`l${c}`} className="pk-tag">
              − {c.replace(/_/g, ' ')}
            </span>
          ))}
          {caps.codes_lost.map((c) => (
            <code key={`cl${c}`} className="pk-tag">
              − {c}
            </code>
          ))}
        </div>
        {dims.length > 0 && (
          <>
            <h4>Risk by dimension</h4>
            <table className="packages__table pk-diff__dims">
              <thead>
                <tr>
                  <th>Dimension</th>
                  <th className="num">{diff.from_version}</th>
                  <th className="num">{diff.to_version}</th>
                  <th>Change</th>
                </tr>
              </thead>
              <tbody>
                {dims.map((d) => (
                  <tr key={d.name}>
                    <td>{d.name.replace(/_/g, ' ')}</td>
                    <td className="num">{pct(d.from)}</td>
                    <td className="num">{pct(d.to)}</td>
                    <td>
                      <svg width="120" height="10" aria-hidden="true" className="pk-diff__bar">
                        <rect x="0" y="1" width={120 * Math.min(1, d.from)} height="3" className="pk-diff__bar-from" />
                        <rect x="0" y="5" width={120 * Math.min(1, d.to)} height="4" className={d.delta > 0 ? 'pk-diff__bar-up' : 'pk-diff__bar-to'} />
                      </svg>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
        <h4>Maintainers and publisher</h4>
        <div className="pk-diff">
          <ul className="small pk-diff__side">
            {diff.maintainers.from.map((m) => (
              <li key={m} className={diff.maintainers.removed.includes(m) ? 'pk-struck' : ''}>
                {m}
              </li>
            ))}
            {diff.publisher.from && <li className="muted">published by {diff.publisher.from}</li>}
          </ul>
          <ul className="small pk-diff__side" data-testid="diff-maintainers">
            {diff.maintainers.to.map((m) => (
              <li key={m}>
                {m} {diff.maintainers.added.includes(m) && <span className="pk-tag pk-tag--warn">new</span>}
              </li>
            ))}
            {diff.publisher.to && (
              <li className="muted">
                published by {diff.publisher.to} {diff.publisher.changed && <span className="pk-tag pk-tag--warn">changed</span>}
              </li>
            )}
          </ul>
        </div>
      </section>
      <section className="panel" aria-label="Files">
        <h2>
          Files <span className="pk-sub">+{diff.files.added.length} · ~{diff.files.changed.length} · −{diff.files.removed.length} · {diff.files.unchanged} unchanged{diff.files.truncated && ' · lists cut at their cap'}</span>
        </h2>
        {tree.length === 0 && <p className="muted">No file added, changed or removed.</p>}
        <ul className="pk-tree" data-testid="diff-tree">
          {tree.slice(0, 1500).map((r) => (
            <li key={r.path} className={r.dir ? 'pk-tree__dir' : `pk-tree__file pk-tree__file--${r.marks[0] ?? ''}`} style={{ paddingLeft: `${r.depth * 14}px` }} data-mark={r.dir ? undefined : r.marks[0]}>
              {r.dir ? (
                <>
                  {r.name}/ <span className="muted small">{r.marks.join(' · ')}</span>
                </>
              ) : (
                <>
                  <span className="pk-tree__mark">{r.marks[0] === 'added' ? '+' : r.marks[0] === 'removed' ? '−' : '~'}</span> {r.name}{' '}
                  {r.installTime && <span className="pk-tag pk-tag--danger">install time</span>} {r.executable && <span className="pk-tag pk-tag--warn">executable</span>}{' '}
                  {r.binary && <span className="pk-tag pk-tag--warn">binary</span>}{' '}
                  <span className="muted small">
                    {r.previousSize !== null ? `${r.previousSize.toLocaleString('en')} → ${r.size === null ? '–' : counted(r.size, 'byte')}` : r.size !== null ? counted(r.size, 'byte') : ''}
                  </span>
                </>
              )}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
