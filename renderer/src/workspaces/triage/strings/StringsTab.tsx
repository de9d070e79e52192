// The Strings tab: every listed string with its file offset and encoding, filtered by words (the workspace filter), encoding, kind and length.
import { useMemo, useState } from 'react';
import type { TriageResult } from '../../../../../engines/core/contracts/petriage';
import { hex } from '../model';
import { VirtualList } from '../VirtualList';
import { DEFAULT_STRING_FILTER, filterStrings, STRING_KINDS, stringKind, type StringFilter } from './model';

const ROW = 22;

export function StringsTab({ result, filter, onShowOffset }: { readonly result: TriageResult; readonly filter: string; readonly onShowOffset: (offset: number) => void }) {
  const [f, setF] = useState<Omit<StringFilter, 'text'>>(DEFAULT_STRING_FILTER);
  const all = result.pe.strings.items;
  const rows = useMemo(() => filterStrings(all, { ...f, text: filter }), [all, f, filter]);
  const s = result.pe.strings;
  return (
    <section className="panel" aria-label="Strings" data-testid="triage-strings">
      <div className="panel__head">
        <h2>Strings</h2>
        <span className="muted" data-testid="strings-count">
          {rows.length.toLocaleString('en')} of {all.length.toLocaleString('en')} listed · {s.ascii.toLocaleString('en')} ASCII and {s.utf16le.toLocaleString('en')} UTF-16 found
          {s.items_truncated ? ' (the first 5,000 by offset are listed)' : ''}
        </span>
      </div>
      <div className="row strings__filters" role="group" aria-label="String filters">
        <span className="chips" role="radiogroup" aria-label="Kind">
          {STRING_KINDS.map((k) => (
            <button key={k.kind} type="button" role="radio" aria-checked={f.kind === k.kind} className={`chip${f.kind === k.kind ? ' chip--on' : ''}`} onClick={() => setF({ ...f, kind: k.kind })}>
              {k.label}
            </button>
          ))}
        </span>
        <label>
          Encoding{' '}
          <select value={f.encoding} onChange={(e) => setF({ ...f, encoding: e.target.value as StringFilter['encoding'] })}>
            <option value="all">both</option>
            <option value="ascii">ASCII</option>
            <option value="utf16le">UTF-16</option>
          </select>
        </label>
        <label>
          At least{' '}
          <input type="number" min={4} max={512} value={f.minLength} className="strings__min" onChange={(e) => setF({ ...f, minLength: Math.max(4, Math.min(512, Number(e.target.value) || 4)) })} /> characters
        </label>
        <span className="muted">Words typed in the filter above ( / ) narrow the list too.</span>
      </div>
      {all.length === 0 ? (
        <p className="muted">No printable runs of four or more characters in the file.</p>
      ) : rows.length === 0 ? (
        <p className="muted">No string matches these filters.</p>
      ) : (
        <>
          <div className="vlist__head strings__row" aria-hidden="true">
            <span>Offset</span>
            <span>Enc.</span>
            <span>Kind</span>
            <span>Value</span>
          </div>
          <VirtualList
            count={rows.length}
            rowHeight={ROW}
            height={Math.min(560, rows.length * ROW + 2)}
            label="Strings"
            testId="strings-list"
            renderRow={(i) => {
              const r = rows[i];
              if (!r) return null;
              const kind = stringKind(r.value);
              return (
                <div className="strings__row">
                  <span role="cell">
                    <button type="button" className="linklike code" title="Show in the hex view" onClick={() => onShowOffset(r.offset)}>
                      {hex(r.offset)}
                    </button>
                  </span>
                  <span role="cell" className="muted">
                    {r.encoding === 'ascii' ? 'A' : 'W'}
                  </span>
                  <span role="cell" className="muted">
                    {kind === 'other' ? '' : kind}
                  </span>
                  <span role="cell" className="code selectable ellipsis" title={r.value}>
                    {r.value}
                  </span>
                </div>
              );
            }}
          />
        </>
      )}
    </section>
  );
}
