// The capture at a glance: what it holds (packets, flows, alerts, stories, with what each counts), the protocol breakdown and the timeline of flows, bytes and alerts.
import { useRef, useState } from 'react';
import type { AnalysisDetail, CaptureOverview } from '../../../../../engines/core/contracts/replay';
import { bytes, countTicks, metricText, metricValue, niceMax, utcField, widthLabel, type TimelineMetric } from '../browse';
import { useElementWidth } from '../../../components/useElementWidth';
import { ReductionTable } from '../common';
import { count, duration, percentOf, plural, utc } from '../model';

export interface OverviewViewProps {
  readonly analysis: AnalysisDetail;
  /** A protocol bar was chosen: show its flows. */
  readonly onPickProtocol: (name: string) => void;
  /** A timeline bucket was chosen: show what happened in it (UTC field texts). */
  readonly onPickTime: (from: string, to: string, what: 'flows' | 'alerts') => void;
}

function ProtocolBreakdown({ protocols, onPick }: { readonly protocols: CaptureOverview['protocols']; readonly onPick: (name: string) => void }) {
  const [by, setBy] = useState<'bytes' | 'flows'>('bytes');
  const total = protocols.reduce((n, p) => n + p[by], 0);
  const rows = [...protocols].sort((a, b) => b[by] - a[by]);
  const max = Math.max(1, ...rows.map((p) => p[by]));
  return (
    <section className="panel" aria-label="Protocol breakdown" data-testid="protocol-breakdown">
      <div className="panel__head">
        <h2>Protocols</h2>
        <div className="row" role="radiogroup" aria-label="Measure protocols by">
          {(['bytes', 'flows'] as const).map((m) => (
            <button key={m} type="button" role="radio" aria-checked={by === m} className={`small${by === m ? ' primary' : ''}`} onClick={() => setBy(m)}>
              by {m}
            </button>
          ))}
        </div>
      </div>
      <p className="muted">
        Application protocol of each flow: the Zeek service the parser confirmed from the first bytes (dns, http, ssl …), else transport/port. Bytes are Zeek's
        payload sizes both ways. Choose a protocol to list its flows.
      </p>
      {rows.length === 0 ? (
        <p className="muted">No flows in this capture.</p>
      ) : (
        <ul className="stack-list">
          {rows.map((p) => (
            <li key={p.name} data-protocol={p.name}>
              <button type="button" className="proto-bars__row" onClick={() => onPick(p.name)} disabled={p.name.startsWith('other (')} title={`${plural(p.flows, 'flow')}, ${plural(p.packets, 'packet')}, ${bytes(p.bytes)}`}>
                <span className="proto-bars__name">{p.name}</span>
                <span className="proto-bars__track" aria-hidden="true">
                  <span className="proto-bars__fill" style={{ width: `${(100 * p[by]) / max}%` }} />
                </span>
                <span className="proto-bars__value num">
                  {by === 'bytes' ? bytes(p.bytes) : count(p.flows)} <span className="muted">{percentOf(total > 0 ? p[by] / total : null)}</span>
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The chart is drawn at the width it is shown (at least MIN_W), so its labels stay 10 px in any window. */
const MIN_W = 360;
const H = 200;
const L = 56;
const R = 8;
const T = 8;
const B = 34;
const ALERT_ROW = 14;

function TimelineChart({ timeline, onPick }: { readonly timeline: CaptureOverview['timeline']; readonly onPick: OverviewViewProps['onPickTime'] }) {
  const [metric, setMetric] = useState<TimelineMetric>('flows');
  const box = useRef<HTMLDivElement>(null);
  const W = Math.max(MIN_W, useElementWidth(box, 720));
  const buckets = timeline.buckets;
  if (timeline.start === null || buckets.length === 0) {
    return (
      <section className="panel" aria-label="Capture timeline" data-testid="capture-timeline">
        <div className="panel__head">
          <h2>Timeline</h2>
        </div>
        <p className="muted">The capture has no timed packets to draw.</p>
      </section>
    );
  }
  const max = niceMax(Math.max(...buckets.map((b) => metricValue(b, metric))));
  const plotH = H - T - B - ALERT_ROW;
  const bw = (W - L - R) / buckets.length;
  const x = (i: number): number => L + i * bw;
  const y = (v: number): number => T + ALERT_ROW + plotH * (1 - v / max);
  const alerts = buckets.reduce((n, b) => n + b.alerts, 0);
  const ticks = [0, Math.floor(buckets.length / 2), buckets.length - 1].filter((v, i, a) => a.indexOf(v) === i);
  const pick = (i: number, what: 'flows' | 'alerts'): void => {
    const b = buckets[i];
    if (!b) return;
    onPick(utcField(b.start), utcField(b.start + timeline.bucket_s), what);
  };
  return (
    <section className="panel" aria-label="Capture timeline" data-testid="capture-timeline" data-buckets={buckets.length}>
      <div className="panel__head">
        <h2>Timeline</h2>
        <div className="row" role="radiogroup" aria-label="Timeline measure">
          {(['flows', 'bytes', 'packets'] as const).map((m) => (
            <button key={m} type="button" role="radio" aria-checked={metric === m} className={`small${metric === m ? ' primary' : ''}`} onClick={() => setMetric(m)}>
              {m}
            </button>
          ))}
        </div>
      </div>
      <p className="muted">
        {metric === 'flows' ? 'Flows that started' : metric === 'bytes' ? 'Bytes carried (each flow spread over its life)' : 'Packets (each flow spread over its life)'} per{' '}
        {widthLabel(timeline.bucket_s)}, UTC; red marks above are alerts by their first time ({count(alerts)} in all). Choose a bar to list its flows, a mark to list
        its alerts.
      </p>
      <div ref={box}>
        <svg className="timeline-chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${metric} per ${widthLabel(timeline.bucket_s)} over the capture, with alerts`}>
          <line x1={L} x2={W - R} y1={y(0)} y2={y(0)} className="timeline-chart__axis" />
          {countTicks(max).map((v) => (
            <g key={v}>
              <line x1={L} x2={W - R} y1={y(v)} y2={y(v)} className="timeline-chart__grid" />
              <text x={L - 4} y={y(v) + 4} textAnchor="end" className="timeline-chart__label" data-axis="y">
                {metricText(v, metric)}
              </text>
            </g>
          ))}
          {buckets.map((b, i) => {
            const v = metricValue(b, metric);
            return (
              <g key={b.start}>
                {v > 0 && (
                  <rect x={x(i) + 0.5} y={y(v)} width={Math.max(1, bw - 1)} height={y(0) - y(v)} className="timeline-chart__bar" onClick={() => pick(i, 'flows')}>
                    <title>{`${utc(b.start).slice(0, 23)}: ${plural(b.flows, 'flow')} started, ${bytes(b.bytes)}, ${plural(b.packets, 'packet')}, ${plural(b.alerts, 'alert')}`}</title>
                  </rect>
                )}
                {b.alerts > 0 && (
                  <rect x={x(i) + 0.5} y={T} width={Math.max(2, bw - 1)} height={ALERT_ROW - 3} className="timeline-chart__alert" onClick={() => pick(i, 'alerts')} data-alerts={b.alerts}>
                    <title>{`${utc(b.start).slice(0, 23)}: ${plural(b.alerts, 'alert')}`}</title>
                  </rect>
                )}
              </g>
            );
          })}
          {ticks.map((i) => (
            <text key={i} x={x(i) + bw / 2} y={H - B + 14} textAnchor={i === 0 ? 'start' : i === buckets.length - 1 ? 'end' : 'middle'} className="timeline-chart__label">
              {utc(buckets[i]?.start ?? 0).slice(11, 19)}
            </text>
          ))}
          <text x={L} y={H - 4} className="timeline-chart__label">
            {utc(timeline.start).slice(0, 10)}
          </text>
        </svg>
      </div>
    </section>
  );
}

export function OverviewView({ analysis, onPickProtocol, onPickTime }: OverviewViewProps) {
  const c = analysis.capture;
  return (
    <>
      <section className="panel" aria-label="The capture" data-testid="capture-summary">
        <div className="panel__head">
          <h2>{analysis.name}</h2>
          <span className="muted">
            {c.format === 'zeek_conn' ? 'Zeek conn.log' : c.format} · {bytes(c.bytes)} · {c.first_ts !== null ? utc(c.first_ts).slice(0, 19) : '–'} for{' '}
            {c.first_ts !== null && c.last_ts !== null ? duration(c.last_ts - c.first_ts) : '–'}
          </span>
        </div>
        <ReductionTable stats={analysis.stats} testId="overview-stats" />
      </section>
      {analysis.overview ? (
        <>
          <TimelineChart timeline={analysis.overview.timeline} onPick={onPickTime} />
          <ProtocolBreakdown protocols={analysis.overview.protocols} onPick={onPickProtocol} />
        </>
      ) : (
        <section className="panel">
          <p className="muted">This analysis was made before the protocol breakdown and timeline existed. Analyse the capture again to see them.</p>
        </section>
      )}
    </>
  );
}
