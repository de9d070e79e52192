// Where the editor's evidence came from: each item another workspace sent (or a bundle gave) with a link that opens its source.
import { useMemo } from 'react';
import { caseSources } from './model';

export function CaseSources({ text }: { readonly text: string }) {
  const sources = useMemo(() => {
    try {
      return caseSources(JSON.parse(text) as unknown);
    } catch {
      return [];
    }
  }, [text]);
  if (sources.length === 0) return null;
  return (
    <section className="panel case-sources" aria-label="Evidence sources" data-testid="case-sources">
      <div className="panel__head">
        <h2>Evidence sources</h2>
        <span className="muted">{sources.length} item{sources.length === 1 ? '' : 's'} with a source</span>
      </div>
      <ul className="case-sources__list">
        {sources.map((s) => (
          <li key={`${s.kind}:${s.evidence_id}`}>
            <code>{s.evidence_id}</code> <span className="case-sources__value">{s.value}</span>{' '}
            <span className="muted">from</span>{' '}
            {s.link !== undefined ? (
              <a href={s.link} title={`Open ${s.label}: ${s.full}`}>
                {s.label}
              </a>
            ) : (
              <span title={s.full}>{s.label}</span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
