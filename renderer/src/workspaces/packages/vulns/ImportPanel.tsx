// The advisory import page: drop or pick OSV, KEV, EPSS and NVD files (one upload at a time, progress and counts per file), and each source's status and age.
import { useEffect, useRef } from 'react';
import type { AdvisoryImport, AdvisorySources } from '../../../../../engines/core/contracts/pkgscan-vulns';
import { ErrorNote } from '../../../components/ErrorNote';
import { useUploadQueue } from '../common/hooks';
import { Progress } from '../../../components/Progress';
import { when } from '../common/format';
import { useLoad } from '../../../components/useLoad';
import { type PkgscanApi } from '../session';
import { safeFilename } from '../store/model';
import { advisoryFileKind } from './model';
import { useFilesDrop } from '../../../components/useFileDrop';
import { counted } from '../../../components/wording';

/** The service's ceiling for one advisory file (an ecosystem's all.zip). */
const MAX_ADVISORY_BYTES = 1024 * 1048576;
/** How often a running import (202) is asked about. */
const POLL_MS = 1000;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** What sending an advisory file gives its upload item. */
type Sent = { readonly state: 'sending'; readonly fraction?: number | undefined; readonly working: boolean } | { readonly state: 'imported'; readonly result: AdvisoryImport };

const REFUSED =
  'Not an advisory file this import reads (OSV json/zip, KEV json/csv, EPSS csv/csv.gz, NVD json), empty, or over 512 MiB (import larger files with pkgscan advisories import).';

export function ImportPanel({ api, canImport }: { api: PkgscanApi; canImport: boolean }) {
  const sources = useLoad(() => api.get<AdvisorySources>('/vulnerabilities/sources'), [api]);
  const picker = useRef<HTMLInputElement>(null);
  const live = useRef(true);
  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
    };
  }, []);

  /** A large file is imported in the background (202): ask until it is done or failed, while this page is open. */
  const finished = async (started: AdvisoryImport): Promise<AdvisoryImport> => {
    let r = started;
    while (r.status === 'running' && live.current) {
      await sleep(POLL_MS);
      r = await api.get<AdvisoryImport>(`/vulnerabilities/imports/${encodeURIComponent(r.id)}`);
    }
    return r;
  };

  // One at a time: an import streams a large file and invalidates the lookup cache when it ends.
  const { items, take } = useUploadQueue<Sent>(
    (file) => (advisoryFileKind(file.name) === null || file.size === 0 || file.size > MAX_ADVISORY_BYTES ? REFUSED : null),
    async (file, update) => {
      update({ state: 'sending', fraction: 0, working: false });
      const started = await api.upload<AdvisoryImport>('/vulnerabilities/import', file, { filename: safeFilename(file.name).replace(/!/g, '_') }, (p) =>
        update({ state: 'sending', fraction: p.phase === 'uploading' ? p.fraction : undefined, working: p.phase === 'analysing' }),
      );
      if (started.status === 'running') update({ state: 'sending', working: true });
      const result = await finished(started);
      update({ state: 'imported', result });
      sources.reload();
    },
  );

  const { dropClass, dropProps } = useFilesDrop(take, canImport);

  return (
    <div className="packages__cols" {...dropProps}>
      <section className="panel" aria-label="Advisory sources">
        <h2>Advisory sources</h2>
        {sources.error && <ErrorNote error={sources.error} title="The source status could not be loaded" />}
        {sources.data && sources.data.sources.length === 0 && (
          <div className="empty">Nothing imported yet: every lookup answers UNKNOWN until advisory files are imported. Start with the OSV export of your ecosystems (all.zip), then the KEV catalogue and an EPSS score file.</div>
        )}
        {sources.data && sources.data.sources.length > 0 && (
          <table className="packages__table" data-testid="advisory-sources">
            <thead>
              <tr>
                <th>Source</th>
                <th className="num">Records</th>
                <th>Data date</th>
                <th>Age</th>
                <th>Last import</th>
              </tr>
            </thead>
            <tbody>
              {sources.data.sources.map((s) => (
                <tr key={s.source} className={s.stale ? 'pk-run--failed' : undefined}>
                  <td>
                    <code>{s.source}</code>
                  </td>
                  <td className="num">{s.records.toLocaleString('en')}</td>
                  <td>{when(s.data_date)}</td>
                  <td>
                    {counted(s.age_days, 'day')}{' '}
                    {s.stale ? <span className="pk-tag pk-tag--warn" title={`Stale after ${counted(s.stale_after_days, 'day')}`}>stale</span> : <span className="muted small">(fresh for {counted(s.stale_after_days, 'day')})</span>}
                  </td>
                  <td className="muted">{when(s.last_import_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {sources.data && sources.data.imports.length > 0 && (
          <>
            <h4>Recent imports</h4>
            <table className="packages__table">
              <thead>
                <tr>
                  <th>Kind</th>
                  <th>Status</th>
                  <th className="num">Records</th>
                  <th className="num">New</th>
                  <th className="num">Updated</th>
                  <th className="num">Warnings</th>
                  <th>Finished</th>
                </tr>
              </thead>
              <tbody>
                {sources.data.imports.slice(0, 20).map((i) => (
                  <tr key={i.id}>
                    <td>{i.kind}</td>
                    <td>
                      <span className={`pk-status pk-status--${i.status === 'done' ? 'ok' : i.status === 'failed' ? 'failed' : 'unavailable'}`}>{i.status}</span>
                    </td>
                    <td className="num">{i.records}</td>
                    <td className="num">{i.inserted}</td>
                    <td className="num">{i.updated}</td>
                    <td className="num">{i.warnings || ''}</td>
                    <td className="muted">{i.finished_at ? when(i.finished_at) : 'not finished'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </section>
      {canImport ? (
        <section className={`panel ${dropClass}`} aria-label="Import advisory files">
          <h2>Import advisory files</h2>
          <p className="drop-target__hint muted">
            Drop files anywhere here or pick them: OSV records (<code>.json</code>) and exports (<code>all.zip</code>), CISA KEV (<code>known_exploited_vulnerabilities.json</code> or <code>.csv</code>), EPSS (
            <code>epss_scores-DATE.csv.gz</code>), NVD CVE JSON 2.0. Re-importing replaces records by id and modification time.
          </p>
          <input ref={picker} type="file" multiple accept=".json,.zip,.csv,.gz" className="visually-hidden" aria-label="Advisory files to import" onChange={(e) => {
            take([...(e.target.files ?? [])]);
            e.target.value = '';
          }} />
          <button type="button" className="primary" onClick={() => picker.current?.click()}>
            Choose files…
          </button>
          <ul className="pk-uploads" aria-live="polite">
            {items.map((i) => (
              <li key={i.key} className={`pk-upload pk-upload--${i.state}`} data-testid="advisory-upload">
                <div className="pk-wrap">
                  <strong>{i.file}</strong> <span className="muted small">{i.state === 'sending' ? (i.working ? 'importing…' : 'sending…') : i.state}</span>
                </div>
                {i.state === 'sending' && <Progress fraction={i.working ? undefined : i.fraction} label={`Importing ${i.file}`} />}
                {i.state === 'refused' && <div className="small warn">{i.note}</div>}
                {i.state === 'imported' && i.result.status === 'failed' && <div className="small neg">The import failed after {counted(i.result.records, 'record')}; the good records before the failure are kept. See the recent imports.</div>}
                {i.state === 'imported' && i.result.status === 'running' && <div className="small muted">Still importing in the background: the source table updates when it ends.</div>}
                {i.state === 'imported' && i.result.status === 'done' && (
                  <div className="small">
                    {i.result.kind}: {counted(i.result.records, 'record')}, {i.result.inserted} new, {i.result.updated} updated, {i.result.unchanged} unchanged
                    {i.result.warnings > 0 && (
                      <details>
                        <summary className="warn">{counted(i.result.warnings, 'record')} skipped with a warning</summary>
                        <ul>
                          {i.result.warning_samples.map((w, n) => (
                            <li key={n}>{w}</li>
                          ))}
                        </ul>
                      </details>
                    )}
                  </div>
                )}
                {i.state === 'failed' && <ErrorNote error={i.error} title="Not imported" />}
              </li>
            ))}
          </ul>
        </section>
      ) : (
        <section className="panel">
          <p className="muted small">Importing advisory files needs the system:write permission (admin).</p>
        </section>
      )}
    </div>
  );
}
