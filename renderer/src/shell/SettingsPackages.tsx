// The Settings page's package sources and advisory imports: read with the package-scanning session the Packages
// workspace keeps (its refresh cookie), or a note saying to sign in there when there is none.
import type { PageOf } from '../../../engines/core/contracts/pkgscan';
import type { AdvisorySources } from '../../../engines/core/contracts/pkgscan-vulns';
import type { ApiClient } from '../api/client';
import { ErrorNote } from '../components/ErrorNote';
import { useLoad } from '../components/useLoad';
import { pkgscanApi, resume } from '../workspaces/packages/session';
import { counted } from '../components/wording';

interface Seen {
  readonly sources: AdvisorySources;
  readonly archives: number;
}

/** What the package service shows this workstation's user; null when nobody is signed in to it here. */
async function readSources(client: ApiClient, base: string): Promise<Seen | null> {
  const session = await resume(client, base);
  if (session === null) return null;
  let token: string | null = session.access_token;
  const api = pkgscanApi(
    client,
    base,
    () => token,
    (t) => (token = t.access_token),
    () => (token = null),
  );
  const [sources, store] = await Promise.all([api.get<AdvisorySources>('/vulnerabilities/sources'), api.get<PageOf<unknown>>('/packages/store', { limit: 1 })]);
  return { sources, archives: store.total };
}

export function PackageSourcesSummary({ client, base }: { readonly client: ApiClient; readonly base: string }) {
  const read = useLoad(() => readSources(client, base), [client, base]);
  if (read.loading) return <p className="muted small">Reading the package store and the advisory sources…</p>;
  if (read.error) return <ErrorNote error={read.error} title={read.error.status === 403 ? 'This account may not read the advisory sources' : 'The package sources could not be read'} />;
  if (read.data === null) return <p className="muted small">Sign in to package scanning (in its workspace) to see the package store and the advisory sources here.</p>;
  const { sources, archives } = read.data;
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
              <tr key={s.source} className={s.stale ? 'neg' : undefined} title={s.stale ? `Stale: older than ${counted(s.stale_after_days, 'day')}` : undefined}>
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
