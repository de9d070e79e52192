// The evidence × hypotheses table, one for every matrix (a scenario's, a stored one, the hand-built one): ratings set by
// mouse or keyboard, rows and columns named, the service's weights and scores when there are some.
import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import type { AchRating } from '../../../../engines/core/contracts/ach';
import { ratingForLetter } from './draft';
import { nextRating, RATING_ORDER, RATING_WORDS, ratingForKey, weightText } from './model';
import { EvidenceSource } from './EvidenceSource';

export interface GridColumn {
  readonly id: string;
  /** The group's name (columnName), whole text in `title`. */
  readonly name: string;
  readonly title: string;
  readonly catchAll: boolean;
  readonly leader: boolean;
  /** Weighted inconsistency from the service's last ranking. */
  readonly score?: number;
}

export interface GridRow {
  readonly id: string;
  readonly summary: string;
  readonly detail?: string;
  readonly source?: string;
  readonly techniques: readonly string[];
  readonly weight?: number;
  readonly diagnosticity?: number;
  readonly critical?: boolean;
}

export interface GridCell {
  /** null: not rated by anyone yet (a hand-built matrix before Run). */
  readonly rating: AchRating | null;
  /** The analyst's own (an override, or a rating of the hand-built matrix): outlined and starred. */
  readonly mine: boolean;
  /** What the screen reader hears after the rating (", your override", ", derived from the group's techniques"). */
  readonly said: string;
  readonly title: string;
}

interface Props {
  readonly columns: readonly GridColumn[];
  readonly rows: readonly GridRow[];
  readonly cell: (evidence: string, hypothesis: string) => GridCell;
  readonly onRate: (evidence: string, hypothesis: string, rating: AchRating | null) => void;
  /** Given: row and column headers are buttons (Enter or a click edits them), reached by the arrows from the cells. */
  readonly onEditRow?: (evidence: string) => void;
  readonly onEditColumn?: (hypothesis: string) => void;
  /** The scores no longer describe the ratings (the hand-built matrix changed since Run): shown dimmed. */
  readonly stale?: boolean;
}

const at = (r: number, c: number): string => `${r}:${c}`;

export function MatrixGrid({ columns, rows, cell, onRate, onEditRow, onEditColumn, stale = false }: Props) {
  const table = useRef<HTMLTableElement>(null);
  const hasScores = columns.some((c) => c.score !== undefined);

  const move = (e: KeyboardEvent, row: number, col: number): void => {
    // Row -1 is the column headers and column -1 the row headers (buttons only when they can be edited).
    const target = table.current?.querySelector<HTMLElement>(`[data-at="${at(row, col)}"]`);
    if (!target) return;
    e.preventDefault();
    target.focus();
  };

  const arrows = (e: KeyboardEvent, row: number, col: number): boolean => {
    const step: Record<string, [number, number]> = { ArrowRight: [0, 1], ArrowLeft: [0, -1], ArrowDown: [1, 0], ArrowUp: [-1, 0] };
    const d = step[e.key];
    if (!d) return false;
    move(e, row + d[0], col + d[1]);
    return true;
  };

  const onCellKey = (e: KeyboardEvent<HTMLButtonElement>, evidence: string, hypothesis: string, rating: AchRating | null, row: number, col: number): void => {
    if (e.ctrlKey || e.metaKey || e.altKey || arrows(e, row, col)) return;
    const direct = ratingForKey(e.key) ?? ratingForLetter(e.key, e.shiftKey);
    if (direct) {
      e.preventDefault();
      onRate(evidence, hypothesis, direct);
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      e.preventDefault();
      onRate(evidence, hypothesis, null);
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onRate(evidence, hypothesis, rating === null ? 'C' : nextRating(rating));
    }
  };

  const onHeadKey = (e: KeyboardEvent<HTMLButtonElement>, row: number, col: number): void => {
    if (!e.ctrlKey && !e.metaKey && !e.altKey) arrows(e, row, col);
  };

  return (
    <>
      <div className="ach__table-wrap">
        <table className={`ach__table${stale ? ' ach__table--stale' : ''}`} ref={table} data-testid="ach-table">
          <thead>
            <tr>
              <th scope="col">Evidence</th>
              <th scope="col" title="credibility × relevance">
                Weight
              </th>
              <th scope="col" title="0: rated alike everywhere; 1: CC against one hypothesis, II against another">
                Diag.
              </th>
              {columns.map((c, col) => {
                const head: ReactNode = (
                  <>
                    <span className="ach__col-name">{c.name}</span>
                    <span className="ach__col-id muted">
                      {c.id}
                      {c.catchAll ? ' · catch-all' : ''}
                    </span>
                  </>
                );
                return (
                  <th key={c.id} scope="col" title={c.catchAll ? `${c.title} (catch-all: every explanation not named as a hypothesis)` : c.title} className={c.leader ? 'ach__leader-col' : undefined} data-testid={`col-${c.id}`}>
                    {onEditColumn ? (
                      <button type="button" className="ach__head-btn" data-at={at(-1, col)} aria-label={`Edit hypothesis ${c.id}: ${c.title}`} onClick={() => onEditColumn(c.id)} onKeyDown={(e) => onHeadKey(e, -1, col)} data-testid={`edit-${c.id}`}>
                        {head}
                      </button>
                    ) : (
                      head
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {rows.map((e, row) => (
              <tr key={e.id} className={e.critical === true ? 'ach__row--critical' : undefined}>
                <th scope="row" className="ach__evidence">
                  {onEditRow ? (
                    <button type="button" className="ach__head-btn ach__row-btn" data-at={at(row, -1)} aria-label={`Edit evidence ${e.id}: ${e.summary}`} title={e.detail} onClick={() => onEditRow(e.id)} onKeyDown={(ev) => onHeadKey(ev, row, -1)} data-testid={`edit-${e.id}`}>
                      <span className="ach__eid">{e.id}</span> {e.summary}
                    </button>
                  ) : (
                    <>
                      <span className="ach__eid">{e.id}</span> <span title={e.detail}>{e.summary}</span>
                    </>
                  )}
                  {e.techniques.length > 0 && <span className="muted ach__techs"> {e.techniques.join(' ')}</span>}
                  <EvidenceSource source={e.source} />
                  {e.detail !== undefined && (
                    <details className="ach__detail">
                      <summary>full text</summary>
                      <p>{e.detail}</p>
                    </details>
                  )}
                </th>
                <td className="num">{e.weight === undefined ? '' : e.weight.toFixed(2)}</td>
                <td className="num ach__nowrap">
                  {e.diagnosticity !== undefined && (
                    <>
                      <span className="ach__diag" style={{ width: `${Math.round(e.diagnosticity * 40)}px` }} aria-hidden="true" />
                      {e.diagnosticity.toFixed(2)}
                    </>
                  )}
                </td>
                {columns.map((c, col) => {
                  const x = cell(e.id, c.id);
                  return (
                    <td key={c.id}>
                      <button
                        type="button"
                        className={`ach__cell ach__cell--${x.rating ?? 'none'}${x.mine ? ' ach__cell--override' : ''}`}
                        data-at={at(row, col)}
                        data-testid={`cell-${e.id}-${c.id}`}
                        aria-label={`${e.id} against ${c.id}: ${x.rating === null ? 'not rated' : RATING_WORDS[x.rating]}${x.said}`}
                        title={x.title}
                        onClick={() => onRate(e.id, c.id, x.rating === null ? 'C' : nextRating(x.rating))}
                        onKeyDown={(ev) => onCellKey(ev, e.id, c.id, x.rating, row, col)}
                      >
                        {x.rating ?? '·'}
                        {x.mine ? '*' : ''}
                      </button>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
          {hasScores && (
            <tfoot>
              <tr>
                <th scope="row" colSpan={3}>
                  Weighted inconsistency{stale ? ' (before your last changes)' : ''}
                </th>
                {columns.map((c) => (
                  <td key={c.id} className="num" data-testid={`score-${c.id}`} title={c.score === undefined ? undefined : String(c.score)}>
                    {c.score === undefined ? '' : weightText(c.score)}
                  </td>
                ))}
              </tr>
            </tfoot>
          )}
        </table>
      </div>
      <p className="muted ach__legend">
        {RATING_ORDER.map((r) => (
          <span key={r} className="ach__legend-item">
            <span className={`ach__cell ach__cell--${r} ach__cell--mini`}>{r}</span> {RATING_WORDS[r]}
          </span>
        ))}
      </p>
    </>
  );
}
