// A small browser of the evidence root (GET /api/evidence): walk its folders, pick files and folders for a case instead of typing paths.
import { useCallback, useEffect, useState } from 'react';
import type { ApiError} from '../../api/client';
import { type ApiClient, asApiError } from '../../api/client';
import { ErrorNote } from '../../components/ErrorNote';
import { pathSteps } from './detail-model';
import type { EvidenceListing } from './types';

function size(n: number | undefined): string {
  if (n === undefined) return '';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}

export interface EvidenceBrowserProps {
  readonly client: ApiClient;
  readonly base: string;
  /** The paths chosen for the next case (relative to the evidence root). */
  readonly chosen: readonly string[];
  readonly onToggle: (path: string) => void;
  readonly disabled: boolean;
}

export function EvidenceBrowser({ client, base, chosen, onToggle, disabled }: EvidenceBrowserProps) {
  const [where, setWhere] = useState('.');
  const [listing, setListing] = useState<EvidenceListing | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const load = useCallback(
    async (rel: string): Promise<void> => {
      try {
        setListing(await client.get<EvidenceListing>(`${base}/api/evidence`, { query: { path: rel } }));
        setWhere(rel);
        setError(null);
      } catch (err) {
        setError(asApiError(err));
      }
    },
    [client, base],
  );
  useEffect(() => {
    void load('.');
  }, [load]);
  const picked = new Set(chosen);
  return (
    <div className="evidence-browser" data-testid="evidence-browser">
      <div className="evidence-browser__root">
        <span className="muted">Evidence root</span> <code className="selectable" data-testid="evidence-root">{listing?.root ?? '…'}</code>
      </div>
      <nav className="evidence-browser__crumbs" aria-label="Folder">
        {pathSteps(where).map((s, i, all) => (
          <span key={s.path}>
            {i > 0 && <span className="muted"> / </span>}
            {i === all.length - 1 ? (
              <strong aria-current="location">{s.name}</strong>
            ) : (
              <button type="button" className="link-button" onClick={() => void load(s.path)}>
                {s.name}
              </button>
            )}
          </span>
        ))}
      </nav>
      {error && <ErrorNote error={error} title="The folder could not be listed" />}
      {listing && listing.entries.length === 0 && <p className="muted">This folder is empty.</p>}
      {listing && listing.entries.length > 0 && (
        <ul className="evidence-browser__list" aria-label={`Contents of ${where === '.' ? 'the evidence root' : where}`}>
          {listing.entries.map((e) => (
            <li key={e.path} className="evidence-browser__entry" data-type={e.type} data-path={e.path}>
              <input type="checkbox" id={`ev-${e.path}`} checked={picked.has(e.path)} onChange={() => onToggle(e.path)} disabled={disabled} aria-label={`Add ${e.name} to the case`} />
              {e.type === 'folder' ? (
                <button type="button" className="link-button evidence-browser__name" onClick={() => void load(e.path)} title="Open the folder">
                  {e.name}/
                </button>
              ) : (
                <label htmlFor={`ev-${e.path}`} className="evidence-browser__name">
                  {e.name}
                </label>
              )}
              <span className="muted num">{e.type === 'folder' ? 'folder' : size(e.size)}</span>
            </li>
          ))}
        </ul>
      )}
      {listing?.truncated && <p className="muted">Only the first {listing.entries.length.toLocaleString('en')} entries are listed; add the folder itself to take all its files.</p>}
      <p className="muted small-print">A folder is analysed file by file, each detected on its own (memory-forensics output stays one artefact); a file no loader reads is reported in the case, the others are analysed.</p>
    </div>
  );
}
