// The Vulnerabilities tab: advisories found in stored verdicts (filters, KEV and EPSS badges, EPSS-vs-CVSS scatter), a live lookup, one advisory, and the import page.
import { useState } from 'react';
import type { VulnerabilityPage } from '../../../../../engines/core/contracts/pkgscan-vulns';
import { ErrorNote } from '../../../components/ErrorNote';
import { PAGE, when } from '../common/format';
import { useLoad } from '../../../components/useLoad';
import { usePackagesNav } from '../common/nav';
import { FilterSelect, MIN_SEVERITY_OPTIONS, PackageLink, Pager, SeverityBadge } from '../common/ui';
import type { PkgscanApi } from '../session';
import { AdvisoryView } from './AdvisoryView';
import { ImportPanel } from './ImportPanel';
import { LookupPanel } from './LookupPanel';
import { epssText } from './model';
import { EpssCvssScatter } from './Scatter';

type Page = 'advisories' | 'lookup' | 'import';

export function VulnsTab({ api, canImport }: { api: PkgscanApi; canImport: boolean }) {
  const vulnId = usePackagesNav((s) => s.vulnId);
  const openVuln = usePackagesNav((s) => s.openVuln);
  const [page, setPage] = useState<Page>('advisories');
  if (vulnId !== null) return <AdvisoryView api={api} id={vulnId} onBack={() => openVuln(null)} />;
  return (
    <>
      <div className="pk-subnav" aria-label="Vulnerability pages">
        {(
          [
            ['advisories', 'Advisories in verdicts'],
            ['lookup', 'Lookup'],
            ['import', 'Import and sources'],
          ] as const
        ).map(([id, label]) => (
          <button key={id} type="button" aria-pressed={page === id} className={page === id ? 'pk-subnav__on' : undefined} onClick={() => setPage(id)}>
            {label}
          </button>
        ))}
      </div>
      {page === 'advisories' && <AdvisoryList api={api} onOpen={openVuln} />}
      {page === 'lookup' && <LookupPanel api={api} onOpen={openVuln} />}
      {page === 'import' && <ImportPanel api={api} canImport={canImport} />}
    </>
  );
}

function AdvisoryList({ api, onOpen }: { api: PkgscanApi; onOpen: (id: string) => void }) {
  const [kev, setKev] = useState('');
  const [minSeverity, setMinSeverity] = useState('');
  const [ecosystem, setEcosystem] = useState('');
  const [offset, setOffset] = useState(0);
  const list = useLoad(
    () => api.get<VulnerabilityPage>('/vulnerabilities', { kev: kev || undefined, min_severity: minSeverity || undefined, ecosystem: ecosystem || undefined, limit: PAGE, offset }),
    [api, kev, minSeverity, ecosystem, offset],
  );
  const items = list.data?.items ?? [];
  return (
    <div className="pk-grid pk-grid--vulns">
      <section className="panel" aria-label="Advisories in verdicts">
        <div className="packages__filters">
          <h2>Advisories found in stored verdicts</h2>
          <FilterSelect label="Advisory ecosystem" value={ecosystem} onChange={(v) => { setEcosystem(v); setOffset(0); }} any="any ecosystem" options={[['npm', 'npm'], ['pypi', 'pypi']]} />
          <FilterSelect label="KEV filter" value={kev} onChange={(v) => { setKev(v); setOffset(0); }} any="KEV or not" options={[['true', 'in CISA KEV only'], ['false', 'not in KEV']]} />
          <FilterSelect label="Minimum advisory severity" value={minSeverity} onChange={(v) => { setMinSeverity(v); setOffset(0); }} any="any severity" options={MIN_SEVERITY_OPTIONS} />
        </div>
        {list.error && <ErrorNote error={list.error} />}
        <table className="packages__table">
          <thead>
            <tr>
              <th>Advisory</th>
              <th>Severity</th>
              <th className="num">CVSS</th>
              <th>Exploitation</th>
              <th>Affected in verdicts</th>
              <th>Last seen</th>
            </tr>
          </thead>
          <tbody>
            {items.map((v) => (
              <tr key={v.id} data-testid="vuln-row">
                <td>
                  <button type="button" className="packages__goto" onClick={() => onOpen(v.id)}>
                    {v.id}
                  </button>
                  {v.malicious && <span className="pk-tag pk-tag--danger">malicious package</span>}
                  <div className="muted small">{v.summary}</div>
                </td>
                <td>{v.severity ? <SeverityBadge severity={v.severity} /> : <span className="muted">unrated</span>}</td>
                <td className="num">{v.score?.toFixed(1) ?? '—'}</td>
                <td>
                  {v.kev && <span className="pk-tag pk-tag--danger" title={`In CISA KEV since ${v.kev_date_added ?? '?'}`}>KEV</span>}
                  {v.epss !== null && <span className={v.epss >= 0.1 ? 'pk-tag pk-tag--warn' : 'pk-tag'}>EPSS {epssText(v.epss, v.epss_percentile)}</span>}
                </td>
                <td>
                  {v.packages.slice(0, 4).map((p) => (
                    <div key={`${p.ecosystem}/${p.name}@${p.version}`}>
                      <PackageLink ecosystem={p.ecosystem} name={p.name} version={p.version} />
                    </div>
                  ))}
                  {v.packages.length > 4 && <span className="muted small">and {v.packages.length - 4} more</span>}
                </td>
                <td className="muted">{when(v.last_seen)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {list.data && items.length === 0 && (
          <div className="empty">
            {kev || minSeverity || ecosystem
              ? 'No advisory matches these filters.'
              : 'No advisory in any stored verdict. Either no scanned release is affected, or the advisory store is empty: check “Import and sources” (a verdict whose vulnerabilities were not assessed says so).'}
          </div>
        )}
        {list.data && <Pager offset={offset} limit={PAGE} total={list.data.total} onOffset={setOffset} />}
      </section>
      <section className="panel" aria-label="EPSS against CVSS">
        <h2>EPSS against CVSS</h2>
        {items.length === 0 ? <p className="muted small">Nothing to plot.</p> : <EpssCvssScatter items={items} onOpen={onOpen} />}
      </section>
    </div>
  );
}
