// The connections of an analysis as a conversation table: filters by host, port, protocol and time, sortable columns, served a page at a time so large captures stay light.
import type { AnalysisDetail, FlowPage } from '../../../../../engines/core/contracts/replay';
import type { ApiClient } from '../../../api/client';
import { bytes, flowQuery, NO_FLOW_FILTERS, type FlowFilters } from '../browse';
import { BrowsePager, FilterTail, QueryProblems, SortHeader, useBrowseTable } from '../common';
import { count, duration, utc } from '../model';

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
          <table className="data-table" data-testid="flows-table" data-total={page.total}>
            <thead>
              <tr>
                <SortHeader label="Start (UTC)" {...sorted('time')} />
                <SortHeader label="Protocol" {...sorted('protocol')} />
                <SortHeader label="Originator" {...sorted('orig_h')} />
                <SortHeader label="Responder" {...sorted('resp_h')} />
                <SortHeader label="Port" {...sorted('resp_p', 'asc', true)} />
                <SortHeader label="State" {...sorted('state')} />
                <SortHeader label="Duration" {...sorted('duration', 'desc', true)} />
                <SortHeader label="Packets" {...sorted('packets', 'desc', true)} />
                <SortHeader label="Bytes (orig / resp)" {...sorted('bytes', 'desc', true)} />
                <th>uid</th>
              </tr>
            </thead>
            <tbody>
              {page.items.map((f) => (
                <tr key={f.n} data-flow={f.uid} data-app={f.app}>
                  <td className="num" title={`packet #${f.first_packet}`}>
                    {utc(f.start_ts).slice(0, 23)}
                  </td>
                  <td>
                    <button type="button" className="link" onClick={() => pick({ protocol: f.app })} title={`Only ${f.app} flows`}>
                      {f.app}
                    </button>
                    {f.app.startsWith(f.proto) ? null : <span className="muted"> {f.proto}</span>}
                  </td>
                  <td>
                    <button type="button" className="link" onClick={() => pick({ host: f.orig_h })} title={`Only flows of ${f.orig_h}`}>
                      {f.orig_h}
                    </button>
                    <span className="muted">:{f.orig_p}</span>
                  </td>
                  <td>
                    <button type="button" className="link" onClick={() => pick({ host: f.resp_h })} title={`Only flows of ${f.resp_h}`}>
                      {f.resp_h}
                    </button>
                  </td>
                  <td className="num">
                    <button type="button" className="link" onClick={() => pick({ port: String(f.resp_p) })} title={`Only flows on port ${f.resp_p}`}>
                      {f.resp_p}
                    </button>
                  </td>
                  <td>
                    <code>{f.conn_state}</code>
                  </td>
                  <td className="num">{duration(f.duration)}</td>
                  <td className="num">{count(f.orig_packets + f.resp_packets)}</td>
                  <td className="num">
                    {bytes(f.orig_bytes)} <span className="muted">/ {bytes(f.resp_bytes)}</span>
                  </td>
                  <td>
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
