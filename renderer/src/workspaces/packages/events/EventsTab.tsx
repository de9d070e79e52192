// The Events tab: security events filtered by type, severity and acknowledgement; acknowledge one.
import { useState } from 'react';
import type { Me, PageOf, SecurityEvent } from '../../../../../engines/core/contracts/pkgscan';
import { ErrorNote } from '../../../components/ErrorNote';
import { useLoad } from '../../../components/useLoad';
import { useAction } from '../common/hooks';
import { PAGE, when } from '../common/format';
import { FilterSelect, MIN_SEVERITY_OPTIONS, SeverityBadge } from '../common/ui';
import { can, shortId, type PkgscanApi } from '../session';

export function EventsTab({ api, me }: { api: PkgscanApi; me: Me }) {
  const [type, setType] = useState('');
  const [severity, setSeverity] = useState('');
  const [ack, setAck] = useState('false');
  const action = useAction();
  const events = useLoad(
    () => api.get<PageOf<SecurityEvent>>('/events', { type: type.trim() || undefined, min_severity: severity || undefined, acknowledged: ack || undefined, limit: PAGE }),
    [api, type, severity, ack],
  );
  const acknowledge = async (id: string): Promise<void> => {
    await action.run(async () => {
      await api.post(`/events/${id}/ack`);
      events.reload();
    });
  };
  return (
    <div className="panel">
      <div className="packages__filters">
        <h2>Security events</h2>
        <input aria-label="Event type" placeholder="type, e.g. maintainer_changed" size={30} value={type} onChange={(e) => setType(e.target.value)} maxLength={64} />
        <FilterSelect label="Minimum severity" value={severity} onChange={setSeverity} any="any severity" options={MIN_SEVERITY_OPTIONS} />
        <select aria-label="Acknowledgement" value={ack} onChange={(e) => setAck(e.target.value)}>
          <option value="false">not acknowledged</option>
          <option value="true">acknowledged</option>
          <option value="">all</option>
        </select>
      </div>
      {events.error && <ErrorNote error={events.error} />}
      {action.error && <ErrorNote error={action.error} />}
      <table className="packages__table">
        <thead>
          <tr>
            <th>Time</th>
            <th>Type</th>
            <th>Severity</th>
            <th>Package</th>
            <th>Project</th>
            <th>Acknowledged</th>
          </tr>
        </thead>
        <tbody>
          {(events.data?.items ?? []).map((ev) => (
            <tr key={ev.id} data-testid="event-row">
              <td className="muted">{when(ev.time)}</td>
              <td>
                <code>{ev.type}</code>
              </td>
              <td>
                <SeverityBadge severity={ev.severity} />
              </td>
              <td>{ev.package ?? ''}</td>
              <td>{ev.project ?? ''}</td>
              <td>
                {ev.acknowledged ? (
                  <span className="muted">
                    by {shortId(ev.acknowledged_by ?? '')} at {when(ev.acknowledged_at)}
                  </span>
                ) : can(me, 'event:ack') ? (
                  <button type="button" onClick={() => void acknowledge(ev.id)}>
                    Acknowledge
                  </button>
                ) : (
                  <span className="muted">no</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {events.data?.items.length === 0 && <div className="empty">No events match.</div>}
    </div>
  );
}
