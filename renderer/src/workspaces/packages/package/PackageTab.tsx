// The Package tab: everything stored about one package (verdicts per version and environment, advisories, stored releases), reached by a name anywhere or typed here.
import { useEffect, useState, type FormEvent } from 'react';
import type { PackageOverview } from '../../../../../engines/core/contracts/pkgscan';
import { ErrorNote } from '../../../components/ErrorNote';
import { useLoad } from '../../../components/useLoad';
import { usePackagesNav, type PackageRef } from '../common/nav';
import { AssessmentCell, DecisionCell, SeverityBadge, VerdictTailCells, VerdictTailHeads } from '../common/ui';
import type { PkgscanApi } from '../session';

/** Versions newest verdict first as the service sends them, grouped: version -> its verdicts (one per environment). */
export function byVersion<T extends { version: string }>(verdicts: readonly T[]): { version: string; rows: T[] }[] {
  const out: { version: string; rows: T[] }[] = [];
  for (const v of verdicts) {
    const g = out.find((x) => x.version === v.version);
    if (g) g.rows.push(v);
    else out.push({ version: v.version, rows: [v] });
  }
  return out;
}

/** The route of a package: each name segment escaped on its own, so an npm scope stays a path segment (`/packages/npm/@scope/name`). */
export function packagePath(ecosystem: string, name: string): string {
  return `/packages/${encodeURIComponent(ecosystem)}/${name.split('/').map(encodeURIComponent).join('/')}`;
}

export function PackageTab({ api }: { api: PkgscanApi }) {
  const pkg = usePackagesNav((s) => s.pkg);
  const openPackage = usePackagesNav((s) => s.openPackage);
  const [ecosystem, setEcosystem] = useState(pkg?.ecosystem ?? 'npm');
  const [name, setName] = useState(pkg?.name ?? '');
  useEffect(() => {
    if (pkg) {
      setEcosystem(pkg.ecosystem);
      setName(pkg.name);
    }
  }, [pkg]);
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    if (name.trim()) openPackage({ ecosystem, name: name.trim() });
  };
  return (
    <>
      <form className="packages__filters panel" onSubmit={submit} aria-label="Open a package">
        <h2>Package</h2>
        <select aria-label="Ecosystem" value={ecosystem} onChange={(e) => setEcosystem(e.target.value)}>
          <option value="npm">npm</option>
          <option value="pypi">pypi</option>
        </select>
        <input aria-label="Package name" value={name} onChange={(e) => setName(e.target.value)} placeholder="name, then Enter" maxLength={214} spellCheck={false} />
        <button type="submit">Open</button>
      </form>
      {pkg ? <Overview api={api} pkg={pkg} /> : <div className="panel empty-result"><p className="muted">Type a package name, or click a package name in the history, a verdict or the store.</p></div>}
    </>
  );
}

function Overview({ api, pkg }: { api: PkgscanApi; pkg: PackageRef }) {
  const openScan = usePackagesNav((s) => s.openScan);
  const openVuln = usePackagesNav((s) => s.openVuln);
  const overview = useLoad(() => api.get<PackageOverview>(packagePath(pkg.ecosystem, pkg.name)), [api, pkg.ecosystem, pkg.name]);
  if (overview.error?.status === 404)
    return (
      <div className="panel empty-result" data-testid="package-empty">
        <p>
          Nothing is stored about{' '}
          <strong>
            {pkg.ecosystem}/{pkg.name}
          </strong>
          : no scan and no archive in the store. Import its archive in the Store tab or scan it in the Scan tab.
        </p>
      </div>
    );
  if (overview.error) return <ErrorNote error={overview.error} />;
  const o = overview.data;
  if (!o) return <div className="muted">Loading…</div>;
  const versions = byVersion(o.verdicts);
  return (
    <div className="pk-grid pk-grid--two" data-testid="package-overview">
      <section className="panel pk-span" aria-label="Verdicts">
        <h2>
          <span className="pk-h-name">{o.ecosystem}/{o.name}</span> <span className="pk-sub">verdicts per version and environment (the newest of each)</span>
        </h2>
        {versions.length === 0 ? (
          <p className="muted small">Not scanned yet.</p>
        ) : (
          <table className="packages__table">
            <thead>
              <tr>
                <th>Version</th>
                <th>Environment</th>
                <th>Assessment</th>
                <th>Decision</th>
                <VerdictTailHeads />
              </tr>
            </thead>
            <tbody>
              {versions.flatMap((g) =>
                g.rows.map((s, i) => (
                  <tr key={s.id} className={i === 0 ? 'pk-group-start' : undefined}>
                    <td>{i === 0 ? <strong>{g.version}</strong> : ''}</td>
                    <td>{s.environment}</td>
                    <AssessmentCell assessment={s.assessment} />
                    <DecisionCell decision={s.decision} incomplete={s.incomplete} />
                    <VerdictTailCells verdict={s} onOpen={() => openScan(s.id)} />
                  </tr>
                )),
              )}
            </tbody>
          </table>
        )}
      </section>
      <section className="panel" aria-label="Advisories">
        <h2>Advisories found in its verdicts</h2>
        {o.advisories.length === 0 ? (
          <p className="muted small">None in the stored verdicts (a verdict whose vulnerabilities were not assessed says so on its page).</p>
        ) : (
          <table className="packages__table">
            <tbody>
              {o.advisories.map((a) => (
                <tr key={a.id}>
                  <td>
                    <button type="button" className="packages__goto" onClick={() => openVuln(a.id)}>
                      {a.id}
                    </button>
                    {a.kev && <span className="pk-tag pk-tag--danger">KEV</span>}
                  </td>
                  <td>
                    <SeverityBadge severity={a.severity} />
                  </td>
                  <td className="small">{a.versions.join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="panel" aria-label="Stored releases">
        <h2>Stored releases</h2>
        {o.stored_releases.length === 0 ? (
          <p className="muted small">No archive of this package in the store.</p>
        ) : (
          <table className="packages__table">
            <tbody>
              {o.stored_releases.map((r) => (
                <tr key={r.sha256}>
                  <td>
                    <strong>{r.version}</strong>
                  </td>
                  <td className="pk-wrap">{r.filename}</td>
                  <td className="muted small">{r.source}</td>
                  <td>
                    <code className="muted small" title={r.sha256}>
                      {r.sha256.slice(0, 12)}
                    </code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <p className="muted small">Monitoring: {o.monitoring ? 'watched' : 'not watched'}.</p>
      </section>
    </div>
  );
}
