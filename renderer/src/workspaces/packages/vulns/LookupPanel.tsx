// A live lookup of one name and version against the advisory store, with its honest status: partial and unavailable read as UNKNOWN.
import { useState, type FormEvent } from 'react';
import type { LookupResult } from '../../../../../engines/core/contracts/pkgscan-vulns';
import { type ApiError, asApiError } from '../../../api/client';
import { ErrorNote } from '../../../components/ErrorNote';
import { Banner, SeverityBadge } from '../common/ui';
import { type PkgscanApi } from '../session';
import { epssText, lookupHeadline } from './model';

export function LookupPanel({ api, onOpen }: { api: PkgscanApi; onOpen: (id: string) => void }) {
  const [ecosystem, setEcosystem] = useState('npm');
  const [name, setName] = useState('');
  const [version, setVersion] = useState('');
  const [result, setResult] = useState<LookupResult | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setResult(await api.get<LookupResult>('/vulnerabilities/lookup', { ecosystem: ecosystem.trim(), name: name.trim(), version: version.trim() }));
    } catch (err) {
      setResult(null);
      setError(asApiError(err));
    } finally {
      setBusy(false);
    }
  };
  const head = result ? lookupHeadline(result.status, result.items.length) : null;
  return (
    <section className="panel" aria-label="Lookup">
      <form className="packages__filters" onSubmit={(e) => void submit(e)} aria-label="Look up a package version">
        <h2>Lookup</h2>
        <input aria-label="Lookup ecosystem" list="pk-osv-ecosystems" value={ecosystem} onChange={(e) => setEcosystem(e.target.value)} required maxLength={64} size={10} spellCheck={false} title="OSV ecosystem name: npm, PyPI, Go, crates.io, Debian:12, Alpine:v3.19…" />
        <datalist id="pk-osv-ecosystems">
          {['npm', 'PyPI', 'Go', 'crates.io', 'Maven', 'NuGet', 'RubyGems', 'Debian:12', 'Alpine:v3.19'].map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
        <input aria-label="Lookup name" placeholder="name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={214} spellCheck={false} />
        <input aria-label="Lookup version" placeholder="version" value={version} onChange={(e) => setVersion(e.target.value)} required maxLength={128} spellCheck={false} />
        <button type="submit" className="primary" disabled={busy}>
          Look up
        </button>
      </form>
      {error && <ErrorNote error={error} />}
      {result && head && (
        <div data-testid="lookup-result">
          <Banner tone={head.tone === 'ok' ? 'info' : head.tone === 'found' ? 'danger' : 'warn'} title={head.text}>
            {result.missing_sources.length > 0 && <div>Never imported: {result.missing_sources.join(', ')}.</div>}
            {result.stale_sources.length > 0 && <div>Stale: {result.stale_sources.join(', ')}.</div>}
            {result.notes.map((n, i) => (
              <div key={i}>{n}</div>
            ))}
            {result.status !== 'ok' && <div>Import the missing advisory files on the Import page, then look up again.</div>}
          </Banner>
          {result.items.length > 0 && (
            <table className="packages__table">
              <tbody>
                {result.items.map((a) => (
                  <tr key={a.id}>
                    <td>
                      <button type="button" className="packages__goto" onClick={() => onOpen(a.id)}>
                        {a.id}
                      </button>{' '}
                      {a.kev && <span className="pk-tag pk-tag--danger">KEV</span>}
                      {a.malicious && <span className="pk-tag pk-tag--danger">malicious package</span>}
                    </td>
                    <td>{a.severity ? <SeverityBadge severity={a.severity} /> : <span className="muted">unrated</span>}</td>
                    <td className="num">{a.score?.toFixed(1) ?? '—'}</td>
                    <td className="small">EPSS {epssText(a.epss?.score ?? null, a.epss?.percentile ?? null)}</td>
                    <td className="small">{a.summary}</td>
                    <td className="small">fixed: {a.fixed_versions.join(', ') || 'none'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
    </section>
  );
}
