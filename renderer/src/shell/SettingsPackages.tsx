// The Settings page's package sources and advisory imports: read with the package-scanning session the Packages
// workspace keeps (its refresh cookie), or a note saying to sign in there when there is none.
import { useEffect, useState } from 'react';
import type { PageOf } from '../../../engines/core/contracts/pkgscan';
import type { AdvisorySources } from '../../../engines/core/contracts/pkgscan-vulns';
import { asApiError, type ApiClient, type ApiError } from '../api/client';
import { ErrorNote } from '../components/ErrorNote';
import { pkgscanApi, resume } from '../workspaces/packages/session';

interface Seen {
  readonly sources: AdvisorySources;
  readonly archives: number;
}

type State = { readonly kind: 'reading' } | { readonly kind: 'signed-out' } | { readonly kind: 'seen'; readonly seen: Seen } | { readonly kind: 'error'; readonly error: ApiError };

export function PackageSourcesSummary({ client, base }: { readonly client: ApiClient; readonly base: string }) {
  const [state, setState] = useState<State>({ kind: 'reading' });
  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const session = await resume(client, base);
        if (!live) return;
        if (session === null) {
          setState({ kind: 'signed-out' });
          return;
        }
        let token: string | null = session.access_token;
        const api = pkgscanApi(
          client,
          base,
          () => token,
          (t) => (token = t.access_token),
          () => (token = null),
        );
        const [sources, store] = await Promise.all([api.get<AdvisorySources>('/vulnerabilities/sources'), api.get<PageOf<unknown>>('/packages/store', { limit: 1 })]);
        if (live) setState({ kind: 'seen', seen: { sources, archives: store.total } });
      } catch (err) {
        if (live) setState({ kind: 'error', error: asApiError(err) });
      }
    })();
    return () => {
      live = false;
    };
  }, [client, base]);

  if (state.kind === 'reading') return <p className="muted small">Reading the package store and the advisory sources…</p>;
  if (state.kind === 'signed-out') return <p className="muted small">Sign in to package scanning (in its workspace) to see the package store and the advisory sources here.</p>;
  if (state.kind === 'error') return <ErrorNote error={state.error} title={state.error.status === 403 ? 'This account may not read the advisory sources' : 'The package sources could not be read'} />;
  const { sources, archives } = state.seen;
  return (
    <div data-testid="settings-package-sources">
      <p className="small">
        {archives.toLocaleString('en')} release {archives === 1 ? 'archive' : 'archives'} in the package store.{' '}
        {sources.sources.length === 0 ? 'No advisory source imported yet: scans cannot list known vulnerabilities.' : ''}
      </p>
      {sources.sources.length > 0 && (
        <table className="settings__table small">
          <thead>
            <tr>
              <th>Advisory source</th>
              <th className="num">Records</th>
              <th>Data of</th>
              <th className="num">Age (days)</th>
            </tr>
          </thead>
          <tbody>
            {sources.sources.map((s) => (
              <tr key={s.source} className={s.stale ? 'neg' : undefined} title={s.stale ? `Stale: older than ${s.stale_after_days} days` : undefined}>
                <td>{s.source}</td>
                <td className="num">{s.records.toLocaleString('en')}</td>
                <td>{s.data_date.slice(0, 10)}</td>
                <td className="num">
                  {s.age_days}
                  {s.stale ? ' (stale)' : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
