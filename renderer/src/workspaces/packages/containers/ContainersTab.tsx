// The Containers tab: upload an image tarball with a progress bar, the stored container scans, and one scan: summary, tool status, layers with what each added, packages, findings (secrets masked), SBOM, and the incomplete banner.
import { useEffect, useRef, useState } from 'react';
import type { PageOf } from '../../../../../engines/core/contracts/pkgscan';
import type { ContainerScan, ContainerScanListItem } from '../../../../../engines/core/contracts/pkgscan-containers';
import { type ApiError, asApiError } from '../../../api/client';
import { ErrorNote } from '../../../components/ErrorNote';
import { Progress } from '../../../components/Progress';
import { useFileDrop } from '../../../components/useFileDrop';
import { bytes, duration, when } from '../common/format';
import { useLoad } from '../../../components/useLoad';
import { useAction } from '../common/hooks';
import { severityRank } from '../common/model';
import { DecisionBadge, FilterSelect, Pager, SeverityBadge } from '../common/ui';
import { saveJson } from '../projects/save';
import { usePackagesNav } from '../common/nav';
import { shortId, type PkgscanApi } from '../session';
import { checkOutcome, filterPackages, imageRefusal, packageTypes, refFromFilename } from './model';
import { counted } from '../../../components/wording';

type Upload = { readonly file: string; readonly state: 'sending'; readonly fraction: number | undefined } | { readonly file: string; readonly state: 'refused'; readonly note: string } | { readonly file: string; readonly state: 'failed'; readonly error: ApiError };

export function ContainersTab({ api, canScan, canRead }: { api: PkgscanApi; canScan: boolean; canRead: boolean }) {
  // A scan asked for from elsewhere (the search box) opens here; the analyst's own choice after that stands.
  const navScan = usePackagesNav((st) => st.containerScanId);
  const [scanId, setScanId] = useState<string | null>(navScan);
  useEffect(() => {
    if (navScan !== null) setScanId(navScan);
  }, [navScan]);
  const [offset, setOffset] = useState(0);
  const [vulns, setVulns] = useState(true);
  const [upload, setUpload] = useState<Upload | null>(null);
  const picker = useRef<HTMLInputElement>(null);
  const [justScanned, setJustScanned] = useState<ContainerScan | null>(null);
  const list = useLoad(() => (canRead ? api.get<PageOf<ContainerScanListItem>>('/containers/scans', { limit: 20, offset }) : Promise.resolve(null)), [api, offset, canRead]);

  const send = async (file: File): Promise<void> => {
    const why = imageRefusal(file);
    if (why !== null) {
      setUpload({ file: file.name, state: 'refused', note: why });
      return;
    }
    setUpload({ file: file.name, state: 'sending', fraction: 0 });
    try {
      const scan = await api.upload<ContainerScan>('/containers/scans', file, { image_ref: refFromFilename(file.name), vulnerabilities: vulns ? 'true' : undefined }, (p) =>
        setUpload({ file: file.name, state: 'sending', fraction: p.phase === 'uploading' ? p.fraction : undefined }),
      );
      setUpload(null);
      setJustScanned(scan);
      setScanId(scan.id);
      list.reload();
    } catch (err) {
      setUpload({ file: file.name, state: 'failed', error: asApiError(err) });
    }
  };
  const drop = useFileDrop((f) => {
    if (canScan && upload?.state !== 'sending') void send(f);
  });

  return (
    <div className="ws-column" {...drop.dropProps}>
      {canScan && (
        <section className={`panel ${drop.dropClass}`} aria-label="Scan an image" data-testid="image-drop">
          <h2>Scan a container image</h2>
          <p className="drop-target__hint muted small">
            Drop a <code>docker save</code> or OCI image layout tarball here, or pick one (at most 256 MiB, one scan at a time). It is read in memory, never run or extracted.
          </p>
          <div className="packages__actions">
            <input ref={picker} type="file" accept=".tar,.tgz,.gz" className="visually-hidden" aria-label="Image tarball" disabled={upload?.state === 'sending'} onChange={(e) => {
              const f = e.target.files?.[0];
              e.target.value = '';
              if (f) void send(f);
            }} />
            <button type="button" className="primary" disabled={upload?.state === 'sending'} onClick={() => picker.current?.click()}>
              Choose an image…
            </button>
            <label className="small">
              <input type="checkbox" checked={vulns} onChange={(e) => setVulns(e.target.checked)} /> look packages up in the advisory store
            </label>
          </div>
          {upload?.state === 'sending' && (
            <div data-testid="image-upload">
              <div className="small">
                <strong>{upload.file}</strong> <span className="muted">{upload.fraction === undefined ? 'uploaded, scanning…' : `uploading ${Math.round(upload.fraction * 100)}%`}</span>
              </div>
              <Progress fraction={upload.fraction} label={`Uploading ${upload.file}`} />
            </div>
          )}
          {upload?.state === 'refused' && (
            <div className="small warn">
              {upload.file}: {upload.note}
            </div>
          )}
          {upload?.state === 'failed' && <ErrorNote error={upload.error} title={upload.error.status === 429 ? 'Another image is being scanned: try again in a moment' : 'The image was not scanned'} />}
        </section>
      )}
      {canRead && (
        <section className="panel" aria-label="Container scans">
          <h2>Container scans</h2>
          {list.error && <ErrorNote error={list.error} title="The scans could not be listed" />}
          <table className="packages__table">
            <thead>
              <tr>
                <th>Image</th>
                <th>Decision</th>
                <th>Status</th>
                <th className="num">Packages</th>
                <th className="num">Findings</th>
                <th>When</th>
              </tr>
            </thead>
            <tbody>
              {(list.data?.items ?? []).map((s) => (
                <tr key={s.id} className={s.id === scanId ? 'pk-row--on' : ''} data-testid="container-row">
                  <td>
                    <button type="button" className="packages__goto" onClick={() => setScanId(s.id)}>
                      {s.image_ref ?? shortId(s.id)}
                    </button>
                  </td>
                  <td>
                    <DecisionBadge decision={s.decision} />
                  </td>
                  <td className={s.status === 'incomplete' ? 'warn' : 'muted'}>{s.status}</td>
                  <td className="num">{s.package_count}</td>
                  <td className="num">{s.finding_count}</td>
                  <td className="muted">{when(s.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {list.data?.items.length === 0 && <div className="empty">No image scanned yet.</div>}
          {list.data && <Pager offset={offset} limit={20} total={list.data.total} onOffset={setOffset} older="Older" newer="Newer" />}
        </section>
      )}
      {scanId && (canRead ? <ScanLoader key={scanId} api={api} id={scanId} /> : justScanned && <ContainerScanView api={api} scan={justScanned} canRead={false} />)}
    </div>
  );
}

function ScanLoader({ api, id }: { api: PkgscanApi; id: string }) {
  const scan = useLoad(() => api.get<ContainerScan>(`/containers/scans/${id}`), [api, id]);
  if (scan.error) return <ErrorNote error={scan.error} title="The scan could not be read" />;
  return scan.data ? <ContainerScanView api={api} scan={scan.data} canRead /> : <section className="panel muted">Loading the scan…</section>;
}

function ContainerScanView({ api, scan, canRead }: { api: PkgscanApi; scan: ContainerScan; canRead: boolean }) {
  const [q, setQ] = useState('');
  const [type, setType] = useState('');
  const sbom = useAction();
  const s = scan.summary;
  const packages = filterPackages(scan.packages, q, type);
  const findings = [...scan.findings].sort((a, b) => severityRank(b.severity) - severityRank(a.severity));
  return (
    <div className="ws-column" data-testid="container-scan">
      {scan.status === 'incomplete' && (
        <div className="pk-banner pk-banner--danger" role="alert" data-testid="incomplete-banner">
          <div className="pk-banner__body">
            <strong>Incomplete scan: this image was not read to its end, so it is never shown as clean.</strong>
            <ul className="small">
              {s.incomplete_reasons.map((r) => (
                <li key={r}>{r}</li>
              ))}
            </ul>
          </div>
        </div>
      )}
      {s.vulnerabilities !== 'ok' && (
        <div className="pk-banner pk-banner--warn" data-testid="vulns-not-assessed">
          <div className="pk-banner__body small">
            Vulnerabilities {s.vulnerabilities === 'not_requested' ? 'were not looked up (not asked)' : s.vulnerabilities === 'partial' ? 'were looked up with partial advisory data' : 'could not be assessed (no advisory data)'}: the decision is at least warn.
          </div>
        </div>
      )}
      <section className={`panel pk-verdict__head pk-verdict__head--${scan.decision} pk-head--stack`}>
        <div className="packages__filters">
          <DecisionBadge decision={scan.decision} large />
          <strong>{scan.image_ref ?? shortId(scan.id)}</strong>
          <span className="pk-span" />
          {canRead && (
            <button type="button" onClick={() => void sbom.run(async () => saveJson(await api.get<unknown>(`/containers/scans/${scan.id}/sbom`), `${(scan.image_ref ?? shortId(scan.id)).replace(/[^A-Za-z0-9._-]/g, '_')}.cdx.json`))}>
              CycloneDX SBOM
            </button>
          )}
        </div>
        <dl className="packages__facts" data-testid="image-summary">
          <dt>Format</dt>
          <dd>{s.format}</dd>
          <dt>Platform</dt>
          <dd>
            {s.os ?? '?'}/{s.architecture ?? '?'} {s.distro && <span className="muted">· {s.distro}</span>}
          </dd>
          <dt>User</dt>
          <dd className={s.user === '' || s.user === 'root' || s.user === '0' ? 'warn' : ''}>{s.user === '' || s.user === null ? 'none set (runs as root)' : s.user}</dd>
          <dt>Contents</dt>
          <dd>
            {counted(s.layers, 'layer')} · {counted(s.files, 'file')} · {counted(s.packages, 'package')} · {bytes(s.upload_size)} <code className="muted small" title={s.upload_sha256}>{s.upload_sha256.slice(0, 12)}</code>
          </dd>
          {s.repo_tags.length > 0 && (
            <>
              <dt>Tags</dt>
              <dd>{s.repo_tags.join(', ')}</dd>
            </>
          )}
          {s.env_names.length > 0 && (
            <>
              <dt>Environment</dt>
              <dd className="small">{s.env_names.join(', ')}</dd>
            </>
          )}
          <dt>Scanned</dt>
          <dd className="muted">
            {when(scan.created_at)} in {duration(scan.duration_ms)}
          </dd>
        </dl>
        {sbom.error && <ErrorNote error={sbom.error} title="The SBOM could not be read" />}
      </section>
      <section className="panel" aria-label="Tool status">
        <h2>Checks</h2>
        <ul className="pk-tools" data-testid="tool-status">
          {scan.tools.map((t) => {
            const o = checkOutcome(t, scan.findings);
            return (
            <li key={t.name} className={`pk-status pk-status--${o.tone}`}>
              <strong>{t.name}</strong> <span className={`pk-tag${o.tone === 'danger' ? ' pk-tag--danger' : o.tone === 'warn' ? ' pk-tag--warn' : o.tone === 'ok' ? ' pk-tag--ok' : ''}`} data-testid={`check-${t.name}`}>{o.label}</span>
              {t.message && <span className="muted small"> {t.message}</span>}
            </li>
            );
          })}
        </ul>
      </section>
      <section className="panel" aria-label="Findings">
        <h2>
          Findings <span className="pk-sub">{scan.findings.length}{scan.findings_truncated && ' (the most severe, cut at the stored cap)'}</span>
        </h2>
        {findings.length === 0 && <p className="muted">No finding.</p>}
        <ul className="pk-findings">
          {findings.slice(0, 500).map((f, i) => (
            <li key={i} className={`pk-finding pk-finding--${f.severity}`} data-testid="container-finding">
              <div className="pk-finding__head">
                <SeverityBadge severity={f.severity} />
                <code className="pk-code">{f.code}</code>
                {f.rule_id && <code className="pk-technique">{f.rule_id}</code>}
                <span>{f.title}</span>
                <span className="muted small pk-finding__meta">
                  {f.category}
                  {f.layer !== null && ` · layer ${f.layer}`}
                  {f.deleted_later && ' · deleted by a later layer (still in the image)'}
                </span>
              </div>
              {(f.file !== null || f.match !== null) && (
                <pre className="pk-line">
                  {f.file !== null && <span className="pk-where">/{f.file}{f.line !== null && `:${f.line}`} </span>}
                  {f.match !== null && <code title="Masked by the service: the secret itself is never sent">{f.match}</code>}
                </pre>
              )}
            </li>
          ))}
        </ul>
      </section>
      <section className="panel" aria-label="Layers">
        <h2>Layers</h2>
        <ol className="pk-layers" start={0}>
          {scan.layers.map((l) => (
            <li key={l.index} className={l.complete ? '' : 'pk-layer--incomplete'} data-testid="layer">
              <div className="pk-wrap">
                <strong>#{l.index}</strong> <code className="small">{l.created_by ?? l.digest?.slice(0, 19) ?? 'no history'}</code>
                {!l.complete && <span className="pk-tag pk-tag--danger">not read to its end</span>}
              </div>
              <div className="muted small">
                {bytes(l.size)} · +{counted(l.files_added, 'file')}, {l.files_changed} changed, −{l.files_removed} removed · {bytes(l.bytes_added)} added
              </div>
              {(l.packages_added.length > 0 || l.packages_upgraded.length > 0 || l.packages_removed.length > 0) && (
                <div className="small pk-layer__pkgs">
                  {l.packages_added.length > 0 && (
                    <span title={l.packages_added.map((p) => `${p.name} ${p.version}`).join('\n')}>
                      <strong>added {l.packages_added.length}:</strong> {l.packages_added.slice(0, 12).map((p) => p.name).join(', ')}
                      {l.packages_added.length > 12 && ' …'}
                    </span>
                  )}
                  {l.packages_upgraded.map((p) => (
                    <span key={`u${p.type}${p.name}`} className="pk-tag pk-tag--warn">
                      {p.name} {p.from} → {p.to}
                    </span>
                  ))}
                  {l.packages_removed.map((p) => (
                    <span key={`r${p.type}${p.name}`} className="pk-tag">
                      removed {p.name} {p.version}
                    </span>
                  ))}
                </div>
              )}
            </li>
          ))}
        </ol>
      </section>
      <section className="panel" aria-label="Packages">
        <div className="packages__filters">
          <h2>
            Packages <span className="pk-sub">{scan.packages.length}</span>
          </h2>
          <FilterSelect label="Package type" value={type} onChange={setType} any="all types" options={packageTypes(scan.packages).map((t) => [t.type, `${t.type} (${t.count})`] as const)} />
          <input aria-label="Package contains" placeholder="name or version contains" value={q} onChange={(e) => setQ(e.target.value)} maxLength={200} />
        </div>
        <table className="packages__table">
          <thead>
            <tr>
              <th>Type</th>
              <th>Name</th>
              <th>Version</th>
              <th>Source</th>
              <th className="num">Layer</th>
              <th>purl</th>
            </tr>
          </thead>
          <tbody>
            {packages.slice(0, 400).map((p) => (
              <tr key={`${p.type}/${p.name}/${p.version}/${p.file}`} data-testid="container-package">
                <td className="small">{p.type}</td>
                <td>{p.name}</td>
                <td>
                  {p.version} {p.arch && <span className="muted small">{p.arch}</span>}
                </td>
                <td className="muted small">{p.source ? `${p.source}${p.source_version ? ` ${p.source_version}` : ''}` : ''}</td>
                <td className="num">{p.layer}</td>
                <td className="muted small pk-wrap">{p.purl}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {packages.length > 400 && <div className="muted small">Showing 400 of {packages.length}: narrow with the filter.</div>}
      </section>
    </div>
  );
}
