// A fixed-row-height virtual list: only the rows in view (and a few around) are in the DOM, so 5,000 strings or 2 million hex rows stay light.
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { visibleRows } from './hex/model';

export interface VirtualListProps {
  readonly count: number;
  readonly rowHeight: number;
  /** Height of the scroll box in pixels. */
  readonly height: number;
  readonly renderRow: (index: number) => ReactNode;
  /** Called with the rows being shown (the hex view reads their bytes). */
  readonly onRange?: (first: number, last: number) => void;
  /** Scroll so this row is at the top (changes to it scroll; the same value again does not). */
  readonly scrollToRow?: { readonly row: number } | null;
  readonly label: string;
  readonly testId?: string;
  readonly className?: string;
}

export function VirtualList({ count, rowHeight, height, renderRow, onRange, scrollToRow, label, testId, className }: VirtualListProps) {
  const box = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);
  const { first, last } = visibleRows(top, height, rowHeight, count);

  useEffect(() => onRange?.(first, last), [first, last, onRange]);
  useEffect(() => {
    if (scrollToRow && box.current) box.current.scrollTop = scrollToRow.row * rowHeight;
  }, [scrollToRow, rowHeight]);

  const onScroll = useCallback(() => {
    if (box.current) setTop(box.current.scrollTop);
  }, []);

  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++)
    rows.push(
      <div key={i} className="vlist__row" style={{ top: i * rowHeight, height: rowHeight }} role="row" aria-rowindex={i + 1}>
        {renderRow(i)}
      </div>,
    );
  return (
    <div
      ref={box}
      className={`vlist${className ? ` ${className}` : ''}`}
      style={{ height }}
      onScroll={onScroll}
      role="table"
      aria-label={label}
      aria-rowcount={count}
      tabIndex={0}
      data-testid={testId}
    >
      <div className="vlist__space" style={{ height: count * rowHeight }} role="rowgroup">
        {rows}
      </div>
    </div>
  );
}
