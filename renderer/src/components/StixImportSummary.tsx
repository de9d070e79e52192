// What a STIX 2.1 import mapped and what it skipped (by STIX type, with the reasons), shown by the ACH and Assessment workspaces after an import.
import type { StixImportSummary as Summary } from '../../../engines/core/contracts/findings';
import './SendTo.css';
import { counted } from './wording';

/** A parsed JSON document that is a STIX bundle (to route a dropped or opened file to the import instead of the scenario or case reader). */
export function isStixBundle(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'bundle' && Array.isArray((value as { objects?: unknown }).objects);
}

/** The largest bundle the services import (8 MiB), checked before reading the file. */
export const MAX_STIX_BYTES = 8 * 1024 * 1024;

export function StixImportSummary({ summary, title, onDismiss }: { readonly summary: Summary; readonly title: string; readonly onDismiss?: () => void }) {
  const mapped = summary.mapped.reduce((n, m) => n + m.count, 0);
  const skipped = summary.skipped.reduce((n, m) => n + m.count, 0);
  return (
    <section className="stix-import" aria-label="STIX import summary" data-testid="stix-import-summary">
      <div className="row">
        <strong>Imported {title}</strong>
        <span className="muted">
          {counted(summary.objects, 'object')} of {summary.bundle_id}: {mapped} mapped, {skipped} skipped
        </span>
        <span className="spacer" />
        {onDismiss && (
          <button type="button" className="small" onClick={onDismiss}>
            Dismiss
          </button>
        )}
      </div>
      <table className="stix-import__table">
        <thead>
          <tr>
            <th scope="col">STIX type</th>
            <th scope="col" className="num">
              Objects
            </th>
            <th scope="col">Became / why skipped</th>
          </tr>
        </thead>
        <tbody>
          {summary.mapped.map((m) => (
            <tr key={`m:${m.type}:${m.as}`} className="stix-import__mapped">
              <td>{m.type}</td>
              <td className="num">{m.count}</td>
              <td>{m.as}</td>
            </tr>
          ))}
          {summary.skipped.map((s) => (
            <tr key={`s:${s.type}:${s.reason}`} className="stix-import__skipped">
              <td>{s.type}</td>
              <td className="num">{s.count}</td>
              <td>
                <span className="stix-import__tag">skipped</span> {s.reason}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
