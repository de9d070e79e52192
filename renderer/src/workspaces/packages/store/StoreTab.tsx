// The Store tab: import package archives by drop or file picker (one upload at a time, a result per file), and the archives the store holds.
import { useRef, useState } from 'react';
import type { PageOf } from '../../../../../engines/core/contracts/pkgscan';
import { ErrorNote } from '../../../components/ErrorNote';
import { useUploadQueue } from '../common/hooks';
import { Progress } from '../../../components/Progress';
import { bytes, when } from '../common/format';
import { useLoad } from '../../../components/useLoad';
import { FilterSelect, PackageLink } from '../common/ui';
import { type PkgscanApi } from '../session';
import { ecosystemOf, refusal, safeFilename, type Ecosystem } from './model';
import { useFilesDrop } from '../../../components/useFileDrop';

/** One stored archive as POST /packages/import and GET /packages/store give it. */
export interface StoredArchive {
  readonly id: string;
  readonly ecosystem: string;
  readonly name: string;
  readonly version: string;
  readonly filename: string;
  readonly sha256: string;
  readonly size: number;
  readonly source: string;
  readonly imported_at: string;
}

const MAX_UPLOAD = 256 * 1048576;

/** What sending an archive gives its upload item. */
type Sent = { readonly state: 'sending'; readonly fraction?: number | undefined } | { readonly state: 'stored'; readonly archive: StoredArchive };

export function StoreTab({ api, canImport }: { api: PkgscanApi; canImport: boolean }) {
  const [ecosystem, setEcosystem] = useState<'' | Ecosystem>('');
  const [q, setQ] = useState('');
  const picker = useRef<HTMLInputElement>(null);
  const store = useLoad(() => api.get<PageOf<StoredArchive>>('/packages/store', { ecosystem: ecosystem || undefined, q: q.trim() || undefined, limit: 100 }), [api, ecosystem, q]);

  const { items, take, retain } = useUploadQueue<Sent>(
    (file) => refusal(file, MAX_UPLOAD),
    async (file, update) => {
      update({ state: 'sending', fraction: 0 });
      const archive = await api.upload<StoredArchive>('/packages/import', file, { filename: safeFilename(file.name), ecosystem: ecosystemOf(file.name) ?? undefined }, (p) =>
        update({ state: 'sending', fraction: p.phase === 'uploading' ? p.fraction : undefined }),
      );
      update({ state: 'stored', archive });
      store.reload();
    },
  );

  const { dropClass, dropProps } = useFilesDrop(take, canImport);

  return (
    <div className="packages__cols" {...dropProps}>
      <section className="panel" aria-label="Stored archives">
        <div className="packages__filters">
          <h2>Package store</h2>
          <FilterSelect label="Store ecosystem" value={ecosystem} onChange={(v) => setEcosystem(v as '' | Ecosystem)} any="npm and pypi" options={[['npm', 'npm'], ['pypi', 'pypi']]} />
          <input aria-label="Stored name contains" placeholder="name contains" value={q} onChange={(e) => setQ(e.target.value)} maxLength={214} />
        </div>
        {store.error && <ErrorNote error={store.error} title="The store could not be listed" />}
        <table className="packages__table">
          <thead>
            <tr>
              <th>Package</th>
              <th>Archive</th>
              <th className="num">Size</th>
              <th>Source</th>
              <th>Imported</th>
            </tr>
          </thead>
          <tbody>
            {(store.data?.items ?? []).map((a) => (
              <tr key={a.id} data-testid="store-row">
                <td>
                  <PackageLink ecosystem={a.ecosystem} name={a.name} version={a.version} />
                </td>
                <td className="pk-wrap">
                  {a.filename}{' '}
                  <code className="muted small" title={a.sha256}>
                    {a.sha256.slice(0, 12)}
                  </code>
                </td>
                <td className="num">{bytes(a.size)}</td>
                <td className="muted small">{a.source}</td>
                <td className="muted">{when(a.imported_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {store.data?.items.length === 0 && (
          <div className="empty" data-testid="store-empty">
            {q || ecosystem ? (
              'No stored archive matches.'
            ) : (
              <>
                The store is empty. Drop npm <code>.tgz</code>, wheel or sdist archives here, or run <code>pkgscan import FILE|DIR</code> on this workstation.
              </>
            )}
          </div>
        )}
        {store.data && store.data.total > store.data.items.length && <div className="muted small">Showing {store.data.items.length} of {store.data.total}: narrow with the name filter.</div>}
      </section>
      {canImport ? (
        <section className={`panel ${dropClass}`} aria-label="Import archives" data-testid="store-drop">
          <h2>Import archives</h2>
          <p className="drop-target__hint muted">
            Drop archives anywhere on this tab, or pick them. npm <code>.tgz</code>; PyPI <code>.whl</code>, <code>.tar.gz</code>, <code>.zip</code>. They are stored by SHA-256, read as bytes, never run.
          </p>
          <input ref={picker} type="file" multiple accept=".tgz,.whl,.gz,.zip,.bz2" className="visually-hidden" aria-label="Archives to import" onChange={(e) => {
            take([...(e.target.files ?? [])]);
            e.target.value = '';
          }} />
          <button type="button" className="primary" onClick={() => picker.current?.click()}>
            Choose archives…
          </button>
          <ul className="pk-uploads" aria-live="polite">
            {items.map((i) => (
              <li key={i.key} className={`pk-upload pk-upload--${i.state}`} data-testid="upload-item">
                <div className="pk-wrap">
                  <strong>{i.file}</strong> <span className="muted small">{i.state === 'sending' ? 'sending…' : i.state}</span>
                </div>
                {i.state === 'sending' && <Progress fraction={i.fraction} label={`Importing ${i.file}`} />}
                {i.state === 'refused' && <div className="small warn">{i.note}</div>}
                {i.state === 'stored' && (
                  <div className="small">
                    Stored as <PackageLink ecosystem={i.archive.ecosystem} name={i.archive.name} version={i.archive.version} />{' '}
                    <code className="muted">{i.archive.sha256.slice(0, 12)}</code>
                  </div>
                )}
                {i.state === 'failed' && <ErrorNote error={i.error} title="Not imported" />}
              </li>
            ))}
          </ul>
          {items.length > 0 && (
            <button type="button" onClick={() => retain((i) => i.state === 'waiting' || i.state === 'sending')}>
              Clear finished
            </button>
          )}
        </section>
      ) : (
        <section className="panel">
          <p className="muted small">Importing archives needs the scan:create permission (admin, security analyst or developer).</p>
        </section>
      )}
    </div>
  );
}
