// The hex view: the picked file read in 64 KiB chunks around the rows in view (never the whole file), a row per 16 bytes,
// the structure each row lies in, and jumps to an offset, a section, the overlay or the certificate table.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { TriageResult } from '../../../../../engines/core/contracts/petriage';
import { formatBytes, hex } from '../model';
import { VirtualList } from '../VirtualList';
import { BYTES_PER_ROW, CHUNK_BYTES, formatRow, parseOffset, regionAt, regionsOf, rowCount } from './model';

const ROW = 20;

interface Chunk {
  readonly start: number;
  readonly bytes: Uint8Array;
}

export interface HexTabProps {
  readonly result: TriageResult;
  /** The file as picked; null for an entry whose bytes this page no longer has. */
  readonly file: Blob | null;
  /** What to say instead of the default when there is no file (a result read back from the store). */
  readonly missingNote?: string | undefined;
  /** An offset another tab asked to show (a string's, a section's). */
  readonly goTo: { readonly offset: number } | null;
}

export function HexTab({ result, file, goTo, missingNote }: HexTabProps) {
  const regions = useMemo(() => regionsOf(result), [result]);
  const [chunks, setChunks] = useState<readonly Chunk[]>([]);
  const [jump, setJump] = useState<{ row: number } | null>(null);
  const [typed, setTyped] = useState('');
  const [bad, setBad] = useState(false);
  const [readError, setReadError] = useState(false);
  const loading = useRef(new Set<number>());
  const wanted = useRef(new Set<number>());
  const loaded = useRef(new Set<number>());
  const size = file?.size ?? 0;
  const total = rowCount(size);

  useEffect(() => {
    setChunks([]);
    loading.current.clear();
  }, [file]);
  useEffect(() => {
    loaded.current = new Set(chunks.map((c) => c.start));
  }, [chunks]);

  useEffect(() => {
    if (goTo) setJump({ row: Math.floor(goTo.offset / BYTES_PER_ROW) });
  }, [goTo]);

  const onRange = useCallback(
    (first: number, last: number) => {
      if (!file) return;
      const need = new Set<number>();
      for (let at = Math.floor((first * BYTES_PER_ROW) / CHUNK_BYTES) * CHUNK_BYTES; at < last * BYTES_PER_ROW; at += CHUNK_BYTES) need.add(at);
      wanted.current = need;
      // Drop the chunks out of view: the page holds only the few 64 KiB pieces around what is shown.
      setChunks((old) => (old.every((c) => need.has(c.start)) ? old : old.filter((c) => need.has(c.start))));
      for (const start of need) {
        if (loading.current.has(start) || loaded.current.has(start)) continue;
        loading.current.add(start);
        file
          .slice(start, Math.min(file.size, start + CHUNK_BYTES))
          .arrayBuffer()
          .then((buf) => {
            loading.current.delete(start);
            if (!wanted.current.has(start)) return;
            setChunks((old) => [...old.filter((c) => c.start !== start && wanted.current.has(c.start)), { start, bytes: new Uint8Array(buf) }]);
          })
          .catch(() => {
            loading.current.delete(start);
            setReadError(true);
          });
      }
    },
    [file],
  );

  if (!file)
    return (
      <section className="panel" aria-label="Hex view" data-testid="triage-hex">
        <p className="muted" data-testid="triage-hex-missing">
          {missingNote ?? 'The bytes of this file are not held by the page any more (it was analysed before a reload). Pick the file again to see its bytes.'}
        </p>
      </section>
    );

  const rowBytes = (row: number): Uint8Array | null => {
    const at = row * BYTES_PER_ROW;
    const c = chunks.find((x) => at >= x.start && at < x.start + x.bytes.length);
    if (!c) return null;
    return c.bytes.subarray(at - c.start, Math.min(c.bytes.length, at - c.start + BYTES_PER_ROW));
  };

  const go = (): void => {
    const n = parseOffset(typed, size);
    setBad(n === null);
    if (n !== null) setJump({ row: Math.floor(n / BYTES_PER_ROW) });
  };

  return (
    <section className="panel" aria-label="Hex view" data-testid="triage-hex">
      <div className="panel__head">
        <h2>Bytes</h2>
        <span className="muted">
          {formatBytes(size)} · read from your copy of the file, 64 KiB at a time; nothing is sent again
        </span>
      </div>
      <div className="row hex__tools">
        <label>
          Go to offset{' '}
          <input
            className="code hex__goto"
            value={typed}
            placeholder="0x400"
            aria-invalid={bad}
            aria-describedby="hex-goto-hint"
            onChange={(e) => setTyped(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') go();
            }}
            data-testid="hex-goto"
          />
        </label>
        <button type="button" className="small" onClick={go}>
          Go
        </button>
        <span id="hex-goto-hint" className={bad ? 'neg' : 'muted'}>
          {bad ? `Not an offset inside the file (0 to ${hex(size - 1)}).` : 'hex as 0x400 or 400h, or decimal'}
        </span>
        <span className="spacer" />
        <span className="chips" aria-label="Jump to a structure">
          {regions.map((r) => (
            <button key={`${r.kind}-${r.start}-${r.name}`} type="button" className={`chip hex__region--${r.kind}`} onClick={() => setJump({ row: Math.floor(r.start / BYTES_PER_ROW) })}>
              {r.name}
            </button>
          ))}
        </span>
      </div>
      {readError && <p className="neg">The file could not be read again by the page (was it moved or deleted?).</p>}
      <VirtualList
        count={total}
        rowHeight={ROW}
        height={Math.min(520, total * ROW + 2)}
        label="File bytes"
        testId="hex-rows"
        className="hex"
        onRange={onRange}
        scrollToRow={jump}
        renderRow={(row) => {
          const at = row * BYTES_PER_ROW;
          const bytes = rowBytes(row);
          const region = regionAt(regions, at);
          const f = bytes ? formatRow(bytes) : null;
          return (
            <div className={`hex__row${region ? ` hex__row--${region.kind}` : ''}`}>
              <span role="cell" className="hex__off">
                {at.toString(16).padStart(8, '0')}
              </span>
              <span role="cell" className="hex__bytes">
                {f ? f.hex : '…'}
              </span>
              <span role="cell" className="hex__ascii">
                {f ? f.ascii : ''}
              </span>
              <span role="cell" className="hex__region muted">
                {region && region.start >= at && region.start < at + BYTES_PER_ROW ? `◂ ${region.name}` : ''}
              </span>
            </div>
          );
        }}
      />
    </section>
  );
}
