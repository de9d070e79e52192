// The connections of an analysis as a conversation table: filters by host, port, protocol and time, sortable columns, served a page at a time so large captures stay light.
import type { AnalysisDetail, FlowPage } from '../../../../../engines/core/contracts/replay';
import type { ApiClient } from '../../../api/client';
import { bytes, compactCount, flowQuery, NO_FLOW_FILTERS, sharedDay, utcField, type FlowFilters } from '../browse';
import { BrowsePager, FilterTail, QueryProblems, SortHeader, useBrowseTable } from '../common';
import { count, duration, plural } from '../model';

export interface FlowsViewProps {
  readonly client: ApiClient;
  readonly base: string;
  readonly analysis: AnalysisDetail;
  readonly filters: FlowFilters;
  readonly onFilters: (f: FlowFilters) => void;
  readonly onShowAlerts: (host: string) => void;
}

export function FlowsView({ client, base, analysis, filters, onFilters, onShowAlerts }: FlowsViewProps) {
  const { draft, setDraft, apply, tail, sorted, offset, setOffset, page, error, local } = useBrowseTable<FlowPage, FlowFilters>(
    client,
    `${base}/api/analyses/${encodeURIComponent(analysis.id)}/flows`,
    analysis.id,
    filters,
    onFilters,
    NO_FLOW_FILTERS,
    flowQuery,
  );

  const protocols = analysis.overview?.protocols.map((p) => p.name).filter((n) => !n.startsWith('other (')) ?? [];
  const pick = (f: Partial<FlowFilters>): void => onFilters({ ...filters, ...f });
  // When every row of the page starts on one day, the day is said once in the heading and the cells give the time.
  const day = page ? sharedDay(page.items.map((f) => f.start_ts)) : null;

  return (
    <section className="panel browse" aria-label="Flows of the analysis" data-testid="flows-view">
      <div className="panel__head">
        <h2>Flows</h2>
        <span className="muted">
          connections (Zeek's definition) of {analysis.name}: {count(analysis.stats.flows)}
          {page && page.flows_stored > 0 && page.flows_stored < page.flows ? `, the first ${count(page.flows_stored)} kept for this table` : ''}
        </span>
      </div>
      <form className="browse__filters" onSubmit={apply}>
        <label>
          Host <input type="text" value={draft.host} onChange={(e) => setDraft({ ...draft, host: e.target.value })} placeholder="either end" size={16} data-testid="flows-host" />
        </label>
        <label>
          Port <input type="text" inputMode="numeric" value={draft.port} onChange={(e) => setDraft({ ...draft, port: e.target.value })} placeholder="either end" size={7} data-testid="flows-port" />
        </label>
        <label>
          Protocol{' '}
          <input type="text" list="replay-protocols" value={draft.protocol} onChange={(e) => setDraft({ ...draft, protocol: e.target.value })} placeholder="tcp, dns, tcp/445" size={12} data-testid="flows-protocol" />
          <datalist id="replay-protocols">
            {[...new Set(['tcp', 'udp', 'icmp', ...protocols])].map((p) => (
              <option key={p} value={p} />
            ))}
          </datalist>
        </label>
        <FilterTail {...tail} applyTestId="flows-apply" />
      </form>
      <QueryProblems local={local} error={error} title="The flows could not be listed" />
      {page && page.flows_stored === 0 && page.flows > 0 && (
        <p className="muted" data-testid="flows-not-kept">
          The connections of this analysis were not kept: flows are stored for the newest 20 analyses, and not for analyses made before this table existed. Analyse the
          capture again to browse its flows; its alerts and stories are still here.
        </p>
      )}
      {page && page.flows_stored > 0 && page.total === 0 && (
        <p className="muted" data-testid="flows-empty">
          No flow matches these filters. Clear them to see all.
        </p>
      )}
      {page && page.flows === 0 && <p className="muted">This capture holds no connection.</p>}
      {page && page.items.length > 0 && (
        <div className="table-wrap browse__table">
          <table className="data-table flows-table" data-testid="flows-table" data-total={page.total}>
            <thead>
              <tr>
                <SortHeader label="Start (UTC)" {...sorted('time')} {...(day === null ? {} : { sub: day })} />
                <SortHeader label="Protocol" {...sorted('protocol')} />
                <SortHeader label="Originator" {...sorted('orig_h')} />
                <SortHeader label="Responder" {...sorted('resp_h')} />
                <SortHeader label="Port" {...sorted('resp_p', 'asc', true)} className="flows__port" />
                <SortHeader label="State" {...sorted('state')} className="flows__state" />
                <SortHeader label="Duration" {...sorted('duration', 'desc', true)} className="flows__duration" />
                <SortHeader label="Packets" {...sorted('packets', 'desc', true)} className="flows__packets" />
                <SortHeader label="Bytes" sub="orig / resp" {...sorted('bytes', 'desc', true)} />
                <th className="flows__uid">uid</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((f) => (
                <tr
                  key={f.n}
                  data-flow={f.uid}
                  data-app={f.app}
                  title={`${f.orig_h}:${f.orig_p} → ${f.resp_h}:${f.resp_p} ${f.proto} · state ${f.conn_state} · ${duration(f.duration)} · ${plural(f.orig_packets + f.resp_packets, 'packet')} · ${plural(f.orig_bytes, 'byte')} / ${plural(f.resp_bytes, 'byte')} · uid ${f.uid}`}
                >
                  <td className="num" title={`${utcField(f.start_ts)} UTC, packet #${f.first_packet}`}>
                    {day === null ? utcField(f.start_ts) : utcField(f.start_ts).slice(11)}
                  </td>
                  <td>
                    <button type="button" className="link" onClick={() => pick({ protocol: f.app })} title={`Only ${f.app} flows`}>
                      {f.app}
                    </button>
                    {f.app.startsWith(f.proto) ? null : <span className="muted flows__transport"> {f.proto}</span>}
                  </td>
                  <td className="flows__host">
                    <button type="button" className="link" onClick={() => pick({ host: f.orig_h })} title={`Only flows of ${f.orig_h}`}>
                      {f.orig_h}
                    </button>
                    <span className="muted flows__orig-port">:{f.orig_p}</span>
                  </td>
                  <td className="flows__host">
                    <button type="button" className="link" onClick={() => pick({ host: f.resp_h })} title={`Only flows of ${f.resp_h}`}>
                      {f.resp_h}
                    </button>
                    <button type="button" className="link muted flows__resp-port" onClick={() => pick({ port: String(f.resp_p) })} title={`Only flows on port ${f.resp_p}`}>
                      :{f.resp_p}
                    </button>
                  </td>
                  <td className="num flows__port">
                    <button type="button" className="link" onClick={() => pick({ port: String(f.resp_p) })} title={`Only flows on port ${f.resp_p}`}>
                      {f.resp_p}
                    </button>
                  </td>
                  <td className="flows__state">
                    <code>{f.conn_state}</code>
                  </td>
                  <td className="num flows__duration">{duration(f.duration)}</td>
                  <td className="num flows__packets" title={count(f.orig_packets + f.resp_packets)}>
                    {compactCount(f.orig_packets + f.resp_packets)}
                  </td>
                  <td className="num" title={`${plural(f.orig_bytes, 'byte')} / ${plural(f.resp_bytes, 'byte')}`}>
                    {bytes(f.orig_bytes)} <span className="muted">/ {bytes(f.resp_bytes)}</span>
                  </td>
                  <td className="flows__uid">
                    <code className="selectable">{f.uid}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {page && page.total > 0 && (
        <div className="row">
          <BrowsePager page={page} offset={offset} onOffset={setOffset} />
          <span className="spacer" />
          {filters.host.trim() !== '' && (
            <button type="button" className="small" onClick={() => onShowAlerts(filters.host.trim())}>
              Alerts of {filters.host.trim()}
            </button>
          )}
        </div>
      )}
    </section>
  );
}
