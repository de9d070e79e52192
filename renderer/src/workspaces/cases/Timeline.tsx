// The case timeline: a density strip to zoom and pan (wheel, buttons, keys) over a virtualised list that renders only the rows in view, smooth at 100,000 events.
import { useDeferredValue, useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactElement, type ReactNode, type WheelEvent } from 'react';
import { KeyedLabel } from '../../components/GraphZoomBar';
import { cssVar } from '../../components/palette';
import { LevelBadge } from './Detections';
import { timeTicks } from './detail-model';
import { EventDetailPanel, type CaseLink } from './EventDetail';
import { runInIdleSlices, type IdleHost } from './idle-slices';
import { useKeptEvents, type Keep } from './match-slices';
import type { DetectionSummary, EventAnnotation } from './types';
import { filterTerm, fullRange, histogram, keptInWindow, makeSearchTexts, pan, rangeText, shortTime, storyRange, textMatches, visibleRows, windowOf, zoom, type Range, type TimelineIndex } from './model';
import { counted } from '../../components/wording';

export const ROW_HEIGHT = 24;
const VIEWPORT = 360;
const BINS = 160;

/** The density of the events the table lists (`kept`, or all when null) over the range shown. */
function DensityStrip({ index, kept, range, storyTimes, onZoom, theme }: { readonly index: TimelineIndex; readonly kept: Uint32Array | null; readonly range: Range; readonly storyTimes: readonly number[]; readonly onZoom: (factor: number, anchor: number) => void; readonly theme: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const counts = useMemo(() => histogram(index, range, BINS, kept), [index, range, kept]);
  const drawn = useMemo(() => counts.reduce((a, n) => a + n, 0), [counts]);
  useEffect(() => {
    const c = canvas.current;
    const ctx = c?.getContext('2d');
    if (!c || !ctx) return;
    const w = c.width;
    const h = c.height;
    ctx.clearRect(0, 0, w, h);
    const max = Math.max(1, ...counts);
    ctx.fillStyle = cssVar('--accent');
    const bw = w / counts.length;
    counts.forEach((n, i) => {
      if (n === 0) return;
      const bh = Math.max(1, (Math.log1p(n) / Math.log1p(max)) * (h - 8));
      ctx.fillRect(i * bw, h - bh, Math.max(1, bw - 1), bh);
    });
    // Story events as ticks along the top.
    ctx.fillStyle = cssVar('--neg');
    const span = range.to - range.from;
    for (const t of storyTimes) if (t >= range.from && t <= range.to) ctx.fillRect(((t - range.from) / span) * w, 0, 1.5, 6);
  }, [counts, storyTimes, range, theme]);
  return (
    <>
    <canvas
      ref={canvas}
      width={960}
      height={56}
      className="timeline__strip"
      aria-hidden="true"
      data-testid="timeline-strip"
      data-counted={drawn}
      onWheel={(e: WheelEvent<HTMLCanvasElement>) => {
        const rect = e.currentTarget.getBoundingClientRect();
        onZoom(e.deltaY < 0 ? 0.8 : 1.25, rect.width > 0 ? (e.clientX - rect.left) / rect.width : 0.5);
      }}
    />
    <TimeAxis range={range} />
    </>
  );
}

/** Tick labels under the density strip: round UTC instants across the range shown (SVG, so no inline style is needed). */
function TimeAxis({ range }: { readonly range: Range }) {
  const ticks = useMemo(() => timeTicks(range, 8), [range]);
  return (
    <svg className="timeline__axis" viewBox="0 0 960 18" preserveAspectRatio="none" role="img" aria-label={`Time axis, UTC: ${ticks.map((t) => t.label).join(', ')}`} data-testid="timeline-axis" data-ticks={ticks.length}>
      {ticks.map((t) => {
        const x = t.at * 960;
        return (
          <g key={`${t.at}-${t.label}`}>
            <line x1={x} x2={x} y1={0} y2={4} className="timeline__tick" />
            <text x={x} y={15} className="timeline__tick-label" textAnchor={t.at < 0.04 ? 'start' : t.at > 0.96 ? 'end' : 'middle'}>
              {t.label}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

export interface TimelineProps {
  readonly index: TimelineIndex;
  /** Events of the selected story: highlighted, and marked on the strip. */
  readonly storyEvents: ReadonlySet<string>;
  readonly filter: string;
  readonly theme: string;
  /** Sigma detections per event id: a badge on the row, listed in the event's detail. */
  readonly detected?: ReadonlyMap<string, readonly DetectionSummary[]>;
  /** Only these events (a Detections rule chosen), or all. */
  readonly only?: ReadonlySet<string> | null;
  /** The analysts' current tags and notes per event: chips on the rows, matched by the filter, edited in the detail. */
  readonly annotations?: ReadonlyMap<string, EventAnnotation>;
  /** The case the events belong to: the detail then reads every field and the raw record, and saves annotations. */
  readonly link?: CaseLink;
  /** An event to show (asked for from outside): the full range, scrolled to it and selected; `serial` repeats a request. */
  readonly focus?: TimelineFocus | null;
  /** Clears the workspace's filter (offered when it leaves no row). */
  readonly onClearFilter?: () => void;
  /** What idle slices run on: the page's, or a fake clock in tests. */
  readonly idle?: IdleHost;
}

export interface TimelineFocus {
  readonly eventId: string;
  readonly serial: number;
}

/** A Windows file path or registry key that ends the summary (the event's object). */
const TRAILING_PATH = /(?:\b[A-Za-z]:\\|\bHK(?:LM|U|CU|CR|EY_[A-Z_]+)\\)[^"\n]*$/;
/** Paths up to this many characters are shown whole. */
const PATH_WHOLE = 32;

/**
 * The summary as the row shows it: the Windows provider prefix shortened, the action left out where it repeats the
 * row's action column (`Sysmon 1: process.create X` -> `Sysmon 1: X`), and a long trailing path cut in the middle (its
 * root, "…", the last folder and the file: `C:\…\Office16\WINWORD.EXE`), so the program or key name stays in view;
 * the row's hover and the event detail keep the whole text. A path is kept whole when the filter `keep` matches only
 * inside the part that would be cut, so a kept row still shows why it matched.
 */
export function compactSummary(summary: string, keep = '', action = ''): string {
  const named = summary.replace(/^Microsoft-Windows-(?:Security-Auditing|Sysmon|PowerShell|)\b-?/, (m) => (m.includes('Security') ? 'Security' : m.includes('Sysmon') ? 'Sysmon' : m.includes('PowerShell') ? 'PowerShell' : m));
  const repeated = action === '' ? -1 : named.indexOf(`: ${action} `);
  const s = repeated >= 0 && repeated < 48 ? `${named.slice(0, repeated + 2)}${named.slice(repeated + action.length + 3)}` : named;
  // The path runs to the end with no quote or line break, so it starts after the last of them: looking only there
  // finds the same match without going back over the rest from each drive letter (quadratic on a long summary).
  const from = Math.max(s.lastIndexOf('"'), s.lastIndexOf('\n')) + 1;
  const tail = TRAILING_PATH.exec(from === 0 ? s : s.slice(from));
  const m = tail === null ? null : { 0: tail[0], index: tail.index + from };
  if (!m || m[0].length <= PATH_WHOLE) return s;
  const parts = m[0].split('\\');
  if (parts.length <= 4) return s;
  const short = `${parts[0]}\\…\\${parts.slice(-2).join('\\')}`;
  const k = keep.trim().toLowerCase();
  if (k !== '' && m[0].toLowerCase().includes(k) && !short.toLowerCase().includes(k)) return s;
  return s.slice(0, m.index) + short;
}

/** `text` with each case-insensitive occurrence of `term` marked, so the rows a filter keeps show why. */
export function Highlight({ text, term }: { readonly text: string; readonly term: string }) {
  const t = term.trim().toLowerCase();
  if (t === '') return <>{text}</>;
  const lower = text.toLowerCase();
  const parts: ReactNode[] = [];
  let from = 0;
  for (let at = lower.indexOf(t); at !== -1 && parts.length < 64; at = lower.indexOf(t, from)) {
    if (at > from) parts.push(text.slice(from, at));
    parts.push(<mark key={at}>{text.slice(at, at + t.length)}</mark>);
    from = at + t.length;
  }
  parts.push(text.slice(from));
  return <>{parts}</>;
}

const NO_DETECTIONS: ReadonlyMap<string, readonly DetectionSummary[]> = new Map();
const NO_ANNOTATIONS: ReadonlyMap<string, EventAnnotation> = new Map();

function annotationMatches(a: EventAnnotation | undefined, term: string): boolean {
  return a !== undefined && term !== '' && (a.tags.some((t) => t.toLowerCase().includes(term)) || a.note.toLowerCase().includes(term));
}

/**
 * What the timeline says when it lists no row: why (the case is empty, the range shown holds none of the kept events,
 * or the filter, the detections box or a chosen rule keeps none) and the way back, calmly, as the other lists do.
 */
function TimelineEmpty({ total, keptInCase, filter, onlyDetected, rule, zoomed, onWholeCase, onShowAll, onClearFilter }: { readonly total: number; readonly keptInCase: number; readonly filter: string; readonly onlyDetected: boolean; readonly rule: boolean; readonly zoomed: boolean; readonly onWholeCase: () => void; readonly onShowAll: () => void; readonly onClearFilter?: () => void }) {
  if (total === 0)
    return (
      <p className="muted timeline__empty" data-testid="timeline-empty">
        This case has no events.
      </p>
    );
  if (zoomed && keptInCase > 0)
    return (
      <p className="muted timeline__empty" data-testid="timeline-empty">
        No event in the range shown{filter !== '' || onlyDetected || rule ? ' matches' : ''}; {keptInCase.toLocaleString('en')} in the whole case {keptInCase === 1 ? 'does' : 'do'}.{' '}
        <button type="button" className="small" onClick={onWholeCase} aria-keyshortcuts="0">
          <KeyedLabel label="Whole case" shortcut="0" />
        </button>
      </p>
    );
  const why = [filter !== '' ? `the filter “${filter.length > 60 ? `${filter.slice(0, 59)}…` : filter}”` : '', onlyDetected ? '“only events with detections”' : '', rule ? 'the rule chosen in Detections' : ''].filter((w) => w !== '');
  return (
    <p className="muted timeline__empty" data-testid="timeline-empty">
      No event matches {why.join(' with ') || 'here'}.{' '}
      {filter !== '' && (
        <>
          {onClearFilter && (
            <button type="button" className="small" onClick={onClearFilter}>
              Clear the filter
            </button>
          )}{' '}
          (Esc in the filter box clears it.){' '}
        </>
      )}
      {onlyDetected && (
        <button type="button" className="small" onClick={onShowAll}>
          Show events without detections
        </button>
      )}
    </p>
  );
}

export function Timeline({ index, storyEvents, filter: typed, theme, detected = NO_DETECTIONS, only = null, annotations = NO_ANNOTATIONS, link, focus = null, onClearFilter, idle }: TimelineProps) {
  // The rows follow the filter as soon as the page is free: typing in the filter box is never held up by a pass over
  // every event (each pass reads the case's search texts; a filter typed before they are all made is matched in idle
  // slices, the matches so far shown as they grow).
  const filter = useDeferredValue(typed);
  const [onlyDetected, setOnlyDetected] = useState(false);
  const full = useMemo(() => fullRange(index), [index]);
  const [range, setRange] = useState<Range>(full);
  const [scrollTop, setScrollTop] = useState(0);
  const [selected, setSelected] = useState<number | null>(null);
  const list = useRef<HTMLDivElement>(null);
  useEffect(() => {
    setRange(full);
    setSelected(null);
  }, [full]);

  // The events' search texts are made while the page is idle, so the first filter typed finds them ready: in slices
  // that end at the idle deadline or after SLICE_MS, so a key pressed meanwhile is not held up.
  useEffect(() => runInIdleSlices((timeLeft) => makeSearchTexts(index, index.events.length, timeLeft), idle), [index, idle]);

  const { start, end } = useMemo(() => windowOf(index, range), [index, range]);
  const atFullRange = range.from <= full.from && range.to >= full.to;
  // Timeless events are shown only at the full range (they have no place on a zoomed axis).
  const last = atFullRange ? index.events.length : end;
  // The events the filter, the detections box and a chosen rule keep, over the whole case: the rows in the range shown
  // and the density strip are both read from this one list.
  // A filter typed before every search text is made keeps the events matched so far (`left` still to search).
  const term = filterTerm(filter);
  const keep = useMemo((): Keep | null => {
    if (term === '' && !onlyDetected && only === null) return null;
    return (e, _i, text) => (!onlyDetected || detected.has(e.eventId)) && (only === null || only.has(e.eventId)) && (term === '' || textMatches(text, e, term) || annotationMatches(annotations.get(e.eventId), term));
  }, [term, onlyDetected, detected, only, annotations]);
  const { kept, left, slow } = useKeptEvents(index, keep, term !== '', idle);
  const rows = useMemo(() => (kept === null ? null : keptInWindow(kept, start, last)), [kept, start, last]);
  // A new filter or rule starts at the top of the list.
  useEffect(() => {
    setScrollTop(0);
    setSelected(null);
    if (list.current) list.current.scrollTop = 0;
  }, [filter, onlyDetected, only]);
  // Declared after the resets above, so a focus that arrives with a new filter, case or page of events is applied
  // after them; applied once per request and events page (the key), then the analyst moves freely.
  const focused = useRef('');
  useEffect(() => {
    if (focus === null || filter.trim() !== '' || only !== null) return;
    if (onlyDetected) {
      setOnlyDetected(false);
      return;
    }
    const key = `${focus.serial}:${index.events.length}`;
    if (focused.current === key) return;
    const i = index.events.findIndex((e) => e.eventId === focus.eventId);
    if (i < 0) return;
    focused.current = key;
    setRange(full);
    setSelected(i);
    const top = Math.max(0, i * ROW_HEIGHT - VIEWPORT / 2 + ROW_HEIGHT / 2);
    setScrollTop(top);
    if (list.current) {
      list.current.scrollTop = top;
      list.current.scrollIntoView({ block: 'center' });
    }
  }, [focus, index, full, filter, only, onlyDetected]);
  const count = rows ? rows.length : last - start;
  // The list is as tall as its rows, up to VIEWPORT (its border inside).
  const height = Math.min(VIEWPORT, count * ROW_HEIGHT + 2);
  const { first, last: lastRow } = visibleRows(scrollTop, height, ROW_HEIGHT, count);
  const storyTimes = useMemo(() => {
    const out: number[] = [];
    index.events.forEach((e, i) => {
      if (storyEvents.has(e.eventId) && !Number.isNaN(index.times[i])) out.push(index.times[i] as number);
    });
    return out;
  }, [index, storyEvents]);

  const storySpan = useMemo((): Range | null => (storyTimes.length === 0 ? null : storyRange(storyTimes, full)), [storyTimes, full]);
  const toStory = (): void => {
    if (!storySpan) return;
    setRange(storySpan);
    setScrollTop(0);
    if (list.current) list.current.scrollTop = 0;
  };
  const zoomBy = (factor: number, anchor = 0.5): void => {
    setRange((r) => zoom(r, full, factor, anchor));
    setScrollTop(0);
    if (list.current) list.current.scrollTop = 0;
  };
  const panBy = (fraction: number): void => {
    setRange((r) => pan(r, full, fraction));
    setScrollTop(0);
    if (list.current) list.current.scrollTop = 0;
  };
  const onKey = (e: KeyboardEvent): void => {
    const keys: Record<string, () => void> = { '+': () => zoomBy(0.5), '=': () => zoomBy(0.5), '-': () => zoomBy(2), '0': () => setRange(full), s: toStory, ArrowLeft: () => panBy(-0.25), ArrowRight: () => panBy(0.25) };
    const act = keys[e.key];
    if (act) {
      e.preventDefault();
      act();
    }
  };
  const moveSelection = (e: KeyboardEvent<HTMLDivElement>): void => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp' && e.key !== 'PageDown' && e.key !== 'PageUp') return;
    e.preventDefault();
    const step = e.key === 'ArrowDown' ? 1 : e.key === 'ArrowUp' ? -1 : e.key === 'PageDown' ? 14 : -14;
    const next = Math.min(count - 1, Math.max(0, (selected ?? -1) + step));
    setSelected(next);
    const el = list.current;
    if (el) {
      if (next * ROW_HEIGHT < el.scrollTop) el.scrollTop = next * ROW_HEIGHT;
      else if ((next + 1) * ROW_HEIGHT > el.scrollTop + el.clientHeight) el.scrollTop = (next + 1) * ROW_HEIGHT - el.clientHeight;
    }
  };

  const rendered: ReactElement[] = [];
  for (let r = first; r < lastRow; r++) {
    const i = rows ? (rows[r] as number) : start + r;
    const e = index.events[i];
    if (!e) continue;
    const inStory = storyEvents.has(e.eventId);
    const hits = detected.get(e.eventId);
    const note = annotations.get(e.eventId);
    rendered.push(
      <div
        key={`${e.eventId}-${i}`}
        role="row"
        aria-selected={selected === r}
        className={`timeline__row${inStory ? ' timeline__row--story' : ''}${selected === r ? ' timeline__row--selected' : ''}`}
        style={{ top: r * ROW_HEIGHT }}
        data-event-id={e.eventId}
        onClick={() => setSelected(r)}
      >
        <span role="gridcell" className="timeline__time num">{shortTime(e.time.time)}</span>
        <span role="gridcell" className="timeline__host">
          <Highlight text={e.host ?? '—'} term={filter} />
        </span>
        <span role="gridcell" className="timeline__action">
          <Highlight text={e.action} term={filter} />
        </span>
        <span role="gridcell" className="timeline__summary" title={e.summary}>
          {hits && hits[0] && (
            <span className="timeline__badge" title={hits.map((h) => `${h.level}: ${h.title}`).join('\n')} data-detections={hits.length}>
              <LevelBadge level={hits[0].level} />
              {hits.length > 1 ? ` +${hits.length - 1}` : ''}
            </span>
          )}
          {note && (
            <span className="timeline__tags" title={note.note || note.tags.join(', ')} data-annotated="true">
              {note.tags.slice(0, 3).map((t) => (
                <span key={t} className="tag-chip">
                  {t}
                </span>
              ))}
              {note.tags.length > 3 ? <span className="tag-chip">+{note.tags.length - 3}</span> : null}
              {note.note !== '' && <span className="tag-chip tag-chip--note" aria-label="has a note">✎</span>}
            </span>
          )}
          <Highlight text={compactSummary(e.summary, filter, e.action)} term={filter} />
        </span>
        <span role="gridcell" className="timeline__id">
          <code>{e.eventId}</code>
        </span>
      </div>,
    );
  }
  const chosen = selected !== null ? index.events[rows ? (rows[selected] ?? -1) : start + selected] : undefined;

  return (
    <div className="timeline" data-testid="timeline" data-total={index.events.length} data-shown={count} data-rendered={rendered.length} data-searching={left}>
      <div className="timeline__bar row" role="toolbar" aria-label="Timeline zoom" tabIndex={0} onKeyDown={onKey}>
        <button type="button" className="small" onClick={() => zoomBy(0.5)} aria-label="Zoom in (+)">
          +
        </button>
        <button type="button" className="small" onClick={() => zoomBy(2)} aria-label="Zoom out (−)">
          −
        </button>
        <button type="button" className="small" onClick={() => panBy(-0.25)} aria-label="Earlier (←)">
          ←
        </button>
        <button type="button" className="small" onClick={() => panBy(0.25)} aria-label="Later (→)">
          →
        </button>
        <button type="button" className="small" onClick={() => setRange(full)} disabled={atFullRange} aria-keyshortcuts="0">
          <KeyedLabel label="Whole case" shortcut="0" />
        </button>
        <button type="button" className="small" onClick={toStory} disabled={!storySpan} data-testid="zoom-to-story" aria-keyshortcuts="s">
          <KeyedLabel label="The story" shortcut="s" />
        </button>
        <label className="timeline__only">
          <input type="checkbox" checked={onlyDetected} onChange={(e) => setOnlyDetected(e.target.checked)} disabled={detected.size === 0} data-testid="only-detections" /> only events with detections
        </label>
        <span className="muted timeline__range">{rangeText(range)}</span>
        <span className="muted" data-testid="timeline-count">
          {count.toLocaleString('en')} of {index.events.length.toLocaleString('en')} events
        </span>
      </div>
      {left > 0 && (
        <p className="muted timeline__searching" data-testid="timeline-searching">
          still searching {counted(left, 'event')}
          {slow && <progress className="timeline__progress" max={index.events.length} value={index.events.length - left} aria-label="Events searched" />}
        </p>
      )}
      <DensityStrip index={index} kept={kept} range={range} storyTimes={storyTimes} onZoom={zoomBy} theme={theme} />
      {count === 0 && left > 0 ? null : count === 0 ? (
        <TimelineEmpty total={index.events.length} keptInCase={kept === null ? index.events.length : kept.length} filter={filter.trim()} onlyDetected={onlyDetected} rule={only !== null} zoomed={!atFullRange} onWholeCase={() => setRange(full)} onShowAll={() => setOnlyDetected(false)} {...(onClearFilter ? { onClearFilter } : {})} />
      ) : (
        <>
        <div className="timeline__head" aria-hidden="true">
          <span>Time (UTC)</span>
          <span>Host</span>
          <span>Action</span>
          <span>Summary</span>
          <span>Event id</span>
        </div>
        <div
          ref={list}
          className="timeline__list"
          role="grid"
          aria-label="Events in time order"
          aria-rowcount={count}
          tabIndex={0}
          style={{ height }}
          onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
          onKeyDown={moveSelection}
        >
          <div className="timeline__spacer" style={{ height: count * ROW_HEIGHT }}>
            {rendered}
          </div>
        </div>
        </>
      )}
      {chosen && <EventDetailPanel event={chosen} inStory={storyEvents.has(chosen.eventId)} detections={detected.get(chosen.eventId) ?? []} annotation={annotations.get(chosen.eventId) ?? null} {...(link ? { link } : {})} />}
    </div>
  );
}
