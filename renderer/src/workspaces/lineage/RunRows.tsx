// The Lineage workspace's rows: a run in the run list, a reason of the decision, the run's layers as buttons.
import { useMemo, type KeyboardEvent } from 'react';
import type { Reason, RunGraph, RunListItem } from '../../../../engines/core/contracts/provgate';
import { count, layerRows, plural, when } from './model';
import { VerdictBadge } from './VerdictBadge';

export function RunItem({ run, open, onOpen }: { readonly run: RunListItem; readonly open: boolean; readonly onOpen: () => void }) {
  return (
    <button type="button" className="run-item pick-row pick-row--dated" onClick={onOpen} aria-current={open ? 'true' : undefined} data-run-id={run.runId}>
      <span className="run-item__title">
        <VerdictBadge verdict={run.verdict} /> {run.source === 'demo' ? `demo ${run.scenario ?? ''}` : 'gated envelopes'}
      </span>
      <span className="muted run-item__meta">
        {plural(run.envelopes, 'envelope')}
        {run.rejected > 0 ? ` (${count(run.rejected)} rejected)` : ''} · {plural(run.findings, 'finding')} · {plural(run.reasons, 'reason')}
      </span>
      <span className="muted run-item__when">{when(run.createdAt)}</span>
    </button>
  );
}

export function ReasonRow({ reason, index, open, onOpen, onKeyDown }: { readonly reason: Reason; readonly index: number; readonly open: boolean; readonly onOpen: () => void; readonly onKeyDown: (e: KeyboardEvent) => void }) {
  return (
    <li>
      <button type="button" className={`reason${open ? ' reason--open' : ''}`} onClick={onOpen} onKeyDown={onKeyDown} aria-current={open ? 'true' : undefined} data-reason-index={index}>
        <span className="reason__head">
          <VerdictBadge verdict={reason.verdict} /> <code>{reason.rule}</code> <span className="reason__message">{reason.message}</span>
        </span>
        {reason.path.length > 0 && (
          <span className="reason__path muted">
            {reason.path.map((p, i) => (
              <span key={i} className="path-step">
                {i > 0 && <span aria-hidden="true"> → </span>}
                {p}
              </span>
            ))}
          </span>
        )}
        {reason.evidence && reason.evidence.length > 0 && <span className="reason__evidence muted">{reason.evidence.join(' · ')}</span>}
      </button>
    </li>
  );
}

/** The run's layers as buttons (the keyboard's way to a blast radius; the graph takes clicks too). */
export function LayerList({ graph, openId, onOpen }: { readonly graph: RunGraph; readonly openId: string | null; readonly onOpen: (id: string) => void }) {
  const layers = useMemo(() => layerRows(graph), [graph]);
  if (layers.length === 0) return null;
  return (
    <div className="layer-list" data-testid="layer-list">
      <span className="muted">Layers (blast radius):</span>
      {layers.slice(0, 60).map((l) => (
        <button key={l.id} type="button" className={`small layer-chip${openId === l.id ? ' layer-chip--open' : ''}`} onClick={() => onOpen(l.id)} aria-pressed={openId === l.id} title={l.title} data-layer={l.digest}>
          {l.label} <span className="muted">{plural(l.images, 'image')}</span>
        </button>
      ))}
      {layers.length > 60 && <span className="muted">and {count(layers.length - 60)} more: click them in the graph</span>}
    </div>
  );
}
