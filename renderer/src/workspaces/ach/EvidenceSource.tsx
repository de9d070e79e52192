// An evidence row's source: a short label (a link back to the item when Send to gave one), the full text on hover or focus.
import { sourceLabel } from './model';

export function EvidenceSource({ source }: { readonly source: string | undefined }) {
  const s = sourceLabel(source);
  if (s === null) return null;
  return (
    <span className="ach__source muted" title={s.full} tabIndex={0} data-testid="evidence-source">
      {' · '}
      {s.link !== undefined ? (
        <a href={s.link} title={`Open ${s.label}: ${s.full}`}>
          {s.label}
        </a>
      ) : (
        s.label
      )}
    </span>
  );
}
