// One alert of a story, folded: its summary, rule, techniques, counts and facts, evidence connections and packets.
import type { Alert, Story } from '../../../../../engines/core/contracts/replay';
import { EvidenceFacts, SeverityBadge } from '../common';
import { alertConnections, count, utc } from '../model';
import { displayProse } from '../../../components/wording';

export function AlertItem({ story, alert, step, current, names, onStep }: { readonly story: Story; readonly alert: Alert; readonly step: number | undefined; readonly current: boolean; readonly names: Map<string, string>; readonly onStep: (s: number) => void }) {
  const conns = alertConnections(story, alert);
  return (
    <li className={`alert-item${current ? ' alert-item--current' : ''}`} data-alert-id={alert.id} data-rule={alert.rule}>
      <details open={current}>
        <summary>
          <SeverityBadge severity={alert.severity} /> <span className="stage">{alert.stage}</span> <strong>{alert.title}</strong>{' '}
          <span className="muted">
            {alert.src} → {alert.dst.slice(0, 3).join(', ')}
            {alert.dst_count > 3 ? ` and ${count(alert.dst_count - 3)} more` : ''}
          </span>
        </summary>
        <div className="alert-item__body">
          <p>{displayProse(alert.summary)}</p>
          <div className="row alert-item__meta">
            <span>
              rule <code>{alert.rule}</code>
            </span>
            <span>
              {utc(alert.first_ts)} → {utc(alert.last_ts)}
            </span>
            {step !== undefined && (
              <button type="button" className="small" onClick={() => onStep(step)}>
                Show step {step}
              </button>
            )}
          </div>
          <div className="techniques" aria-label="ATT&CK techniques">
            {alert.techniques.map((t) => (
              <code key={t} className="technique" title={names.get(t) ?? ''}>
                {t}
                {names.has(t) ? ` ${names.get(t)}` : ''}
              </code>
            ))}
          </div>
          <EvidenceFacts evidence={alert.evidence} className="facts alert-item__facts" />
          <h4>
            Evidence connections <span className="muted">({count(alert.evidence.uid_count)} counted{alert.evidence.uid_count > conns.length ? `, ${conns.length} listed` : ''})</span>
          </h4>
          {conns.length > 0 ? (
            <div className="table-wrap">
              <table className="evidence-table" data-testid="evidence-connections">
                <thead>
                  <tr>
                    <th>uid</th>
                    <th>proto</th>
                    <th>from</th>
                    <th>to</th>
                    <th>service</th>
                    <th>state</th>
                    <th className="num">packets</th>
                    <th className="num">bytes</th>
                    <th>first packet</th>
                  </tr>
                </thead>
                <tbody>
                  {conns.slice(0, 25).map((c) => (
                    <tr key={c.uid}>
                      <td>
                        <code>{c.uid}</code>
                      </td>
                      <td>{c.proto}</td>
                      <td>
                        {c.orig_h}:{c.orig_p}
                      </td>
                      <td>
                        {c.resp_h}:{c.resp_p}
                      </td>
                      <td>{c.service.join(', ') || '–'}</td>
                      <td>
                        <code title={`history ${c.history}`}>{c.conn_state}</code>
                      </td>
                      <td className="num">{count(c.orig_packets + c.resp_packets)}</td>
                      <td className="num">{count(c.orig_bytes + c.resp_bytes)}</td>
                      <td>
                        #{c.first_packet} <span className="muted">{utc(c.start_ts)}</span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {conns.length > 25 && <p className="muted">{count(conns.length - 25)} more connections in the exports.</p>}
            </div>
          ) : (
            <p className="muted">No connection records: this rule counts other facts (ARP frames, DNS records).</p>
          )}
          {alert.evidence.packets.length > 0 && (
            <p className="packet-times">
              <span className="muted">Packets: </span>
              {alert.evidence.packets.slice(0, 12).map((p) => (
                <span key={`${p.packet}-${p.uid ?? ''}`} className="packet">
                  #{p.packet} <span className="muted">{utc(p.ts).slice(11)}</span>
                </span>
              ))}
              {alert.evidence.packets.length > 12 && <span className="muted"> and {count(alert.evidence.packets.length - 12)} more</span>}
            </p>
          )}
        </div>
      </details>
    </li>
  );
}

