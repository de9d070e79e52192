// The Resources tab: version information first (what the file claims to be), then every resource with its offset, size and entropy, and the manifest.
import type { TriageResult } from '../../../../../engines/core/contracts/petriage';
import { formatBytes, hex, HIGH_ENTROPY } from '../model';

const MAX_ROWS = 500;

export function ResourcesTab({ result, onShowOffset }: { readonly result: TriageResult; readonly onShowOffset: (offset: number) => void }) {
  const res = result.pe.resources;
  if (!res || res.entries.length === 0)
    return (
      <section className="panel" aria-label="Resources" data-testid="triage-resources">
        <h2>No resources</h2>
        <p className="muted">The file has no resource directory: no icon, version information or manifest.</p>
      </section>
    );
  const vi = res.version_info;
  return (
    <div className="ws-column" data-testid="triage-resources">
      <section className="panel" aria-label="Version information" data-testid="triage-version">
        <div className="panel__head">
          <h2>Version information</h2>
          {vi && (
            <span className="muted">
              file {vi.file_version ?? '–'} · product {vi.product_version ?? '–'}
            </span>
          )}
        </div>
        {vi && Object.keys(vi.strings).length > 0 ? (
          <dl className="facts facts--wide facts--wrap">
            {Object.entries(vi.strings).map(([k, v]) => (
              <div key={k}>
                <dt>{k}</dt>
                <dd className="selectable">{v}</dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="muted">No version strings. Legitimate software usually names its company and product here; their absence, or a well-known name on an unsigned file, is worth a look.</p>
        )}
      </section>
      <section className="panel" aria-label="Resource list">
        <div className="panel__head">
          <h2>Resources</h2>
          <span className="muted">{res.types.map((t) => `${t.type} ${t.count}`).join(' · ')}</span>
        </div>
        <div className="table-scroll">
          <table className="dense">
            <thead>
              <tr>
                <th>Type</th>
                <th>Name</th>
                <th className="num">Language</th>
                <th className="num">Offset</th>
                <th className="num">Size</th>
                <th className="num">Entropy</th>
              </tr>
            </thead>
            <tbody>
              {res.entries.slice(0, MAX_ROWS).map((e, i) => (
                <tr key={i}>
                  <td>{String(e.type)}</td>
                  <td>
                    <code>{String(e.name)}</code>
                  </td>
                  <td className="num">
                    {e.language}/{e.sublanguage}
                  </td>
                  <td className="num">
                    {e.offset === null ? (
                      <span className="muted">outside the file</span>
                    ) : (
                      <button type="button" className="linklike code" title="Show in the hex view" onClick={() => onShowOffset(e.offset as number)}>
                        {hex(e.offset)}
                      </button>
                    )}
                  </td>
                  <td className="num">{formatBytes(e.size)}</td>
                  <td className={`num${e.entropy !== null && e.entropy >= HIGH_ENTROPY ? ' neg' : ''}`}>{e.entropy === null ? '–' : e.entropy.toFixed(2)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {res.entries.length > MAX_ROWS && <p className="muted small-print">First {MAX_ROWS} of {res.entries.length} shown.</p>}
        </div>
      </section>
      {res.manifest && (
        <section className="panel" aria-label="Manifest">
          <div className="panel__head">
            <h2>Manifest</h2>
            <span className="muted">{/requireAdministrator/.test(res.manifest) ? 'asks for administrator rights' : ''}</span>
          </div>
          <pre className="code-block selectable manifest">{res.manifest}</pre>
        </section>
      )}
    </div>
  );
}
