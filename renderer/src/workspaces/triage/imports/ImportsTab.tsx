// The Imports tab: functions grouped by DLL, each with the capability tags the service's rules give it; a tag narrows the list. Exports below.
import { useMemo, useState } from 'react';
import type { TriageResult } from '../../../../../engines/core/contracts/petriage';
import { ExportsPanel } from '../Views';
import { filterGroups, importsByDll, importsCountText } from './model';

export function ImportsTab({ result, filter }: { readonly result: TriageResult; readonly filter: string }) {
  const groups = useMemo(() => importsByDll(result), [result]);
  const [tag, setTag] = useState<string | null>(null);
  const allTags = useMemo(() => [...new Set(groups.flatMap((g) => g.tags))].sort(), [groups]);
  const shown = useMemo(() => filterGroups(groups, filter, tag), [groups, filter, tag]);
  const total = groups.reduce((n, g) => n + g.functions.length, 0);
  const count = shown.reduce((n, g) => n + g.functions.length, 0);
  return (
    <div className="ws-column">
      <section className="panel" aria-label="Imports" data-testid="triage-imports">
        <div className="panel__head">
          <h2>Imports</h2>
          <span className="muted" data-testid="imports-count">
            {importsCountText(count, total, groups.length)}
          </span>
        </div>
        {allTags.length > 0 && (
          <div className="row">
            <span className="muted">Capability:</span>
            <span className="chips" role="radiogroup" aria-label="Capability tag">
              <button type="button" role="radio" aria-checked={tag === null} className={`chip${tag === null ? ' chip--on' : ''}`} onClick={() => setTag(null)}>
                all
              </button>
              {allTags.map((t) => (
                <button key={t} type="button" role="radio" aria-checked={tag === t} className={`chip chip--tag${tag === t ? ' chip--on' : ''}`} onClick={() => setTag(tag === t ? null : t)}>
                  {t}
                </button>
              ))}
            </span>
          </div>
        )}
        {total === 0 ? (
          <p className="muted">The file imports nothing: any API it uses is resolved at run time.</p>
        ) : shown.length === 0 ? (
          <p className="muted">No import matches the filter.</p>
        ) : (
          <div className="dlls">
            {shown.map((g) => (
              <details key={`${g.dll}-${g.delay}`} className="dll" open={shown.length <= 6 || g.tags.length > 0 || filter !== '' || tag !== null}>
                <summary>
                  <code className="dll__name">{g.dll}</code> <span className="muted">{g.functions.length}{g.delay ? ' · delay-loaded' : ''}</span>{' '}
                  {g.tags.map((t) => (
                    <span key={t} className="tag">
                      {t}
                    </span>
                  ))}
                </summary>
                <ul className="dll__functions">
                  {g.functions.map((f, i) => (
                    <li key={`${f.name}-${i}`} className={f.tags.length > 0 ? 'dll__fn dll__fn--tagged' : 'dll__fn'}>
                      <code>{f.name}</code>
                      {f.ordinal !== null && <span className="muted"> #{f.ordinal}</span>}
                      {f.tags.map((t) => (
                        <span key={t} className="tag">
                          {t}
                        </span>
                      ))}
                    </li>
                  ))}
                </ul>
              </details>
            ))}
          </div>
        )}
      </section>
      <ExportsPanel result={result} filter={filter} />
    </div>
  );
}
